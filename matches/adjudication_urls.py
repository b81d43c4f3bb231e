"""The judges' adjudication page (matches/adjudication_views.py)."""

from django.urls import path

from matches import adjudication_views as views

urlpatterns = [
    path("judge/calls/<int:call_id>/adjudicate/", views.adjudicate, name="adjudicate"),
    path(
        "judge/calls/<int:call_id>/adjudicate/ruling/",
        views.adjudicate_ruling,
        name="adjudicate_ruling",
    ),
]
