from django.urls import path

from organisations import manage_views, views

app_name = "organisations"

urlpatterns = [
    path("calendar/", views.calendar_page, name="calendar"),
    path("calendar/my/", views.my_feed, name="my_feed"),
    path("calendar/my/<str:token>.ics", views.my_events_ics, name="my_events_ics"),
    path("orgs/<slug:slug>/", views.organisation_page, name="organisation"),
    path("orgs/<slug:slug>/events.ics", views.organisation_ics, name="organisation_ics"),
    path("orgs/<slug:slug>/manage/", manage_views.organisation_manage, name="manage"),
    path("orgs/<slug:slug>/manage/members/", manage_views.member_add, name="member_add"),
    path(
        "orgs/<slug:slug>/manage/members/<int:user_id>/",
        manage_views.member_change,
        name="member_change",
    ),
    path(
        "orgs/<slug:slug>/manage/suspensions/", manage_views.suspension_add, name="suspension_add"
    ),
    path(
        "orgs/<slug:slug>/manage/suspensions/<int:pk>/lift/",
        manage_views.suspension_lift,
        name="suspension_lift",
    ),
]
