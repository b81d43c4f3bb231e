"""The weekend's pages (weekends/views.py)."""

from django.urls import path

from weekends import views

urlpatterns = [
    path("weekends/<slug:slug>/", views.weekend_schedule, name="weekend_schedule"),
    path("weekends/<slug:slug>/desk/", views.weekend_desk, name="weekend_desk"),
    path("weekends/<slug:slug>/check-in/", views.weekend_check_in, name="weekend_check_in"),
    path(
        "weekends/<slug:slug>/organisers/",
        views.weekend_organiser_add,
        name="weekend_organiser_add",
    ),
    path(
        "weekends/<slug:slug>/organisers/<int:user_id>/remove/",
        views.weekend_organiser_remove,
        name="weekend_organiser_remove",
    ),
    path("events/<slug:slug>/manage/side-event/", views.side_event_new, name="side_event_new"),
]
