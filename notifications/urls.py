"""The organiser's notification page (notifications/views.py)."""

from django.urls import path

from notifications import views

urlpatterns = [
    path(
        "events/<slug:slug>/manage/notifications/",
        views.event_notifications,
        name="event_notifications",
    ),
]
