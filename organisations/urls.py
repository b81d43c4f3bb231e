from django.urls import path

from organisations import views

app_name = "organisations"

urlpatterns = [
    path("calendar/", views.calendar_page, name="calendar"),
    path("calendar/my/", views.my_feed, name="my_feed"),
    path("calendar/my/<str:token>.ics", views.my_events_ics, name="my_events_ics"),
    path("orgs/<slug:slug>/", views.organisation_page, name="organisation"),
    path("orgs/<slug:slug>/events.ics", views.organisation_ics, name="organisation_ics"),
]
