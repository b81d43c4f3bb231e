"""Pages for penalties (matches/penalty_views.py), for the event's judges and organisers."""

from django.urls import path

from matches import penalty_views as views

PENALTIES = "events/<slug:slug>/manage/penalties/"

urlpatterns = [
    path("matches/<int:pk>/staff/penalty/", views.match_penalty, name="match_penalty"),
    path(PENALTIES, views.event_penalties, name="event_penalties"),
    path(
        "events/<slug:slug>/manage/penalties.csv",
        views.event_penalties_csv,
        name="event_penalties_csv",
    ),
    path(
        PENALTIES + "players/<int:registration_id>/",
        views.player_penalties,
        name="player_penalties",
    ),
]
