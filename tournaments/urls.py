from django.urls import path

from tournaments import capacity_views, team_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("me/events/", views.my_events, name="my_events"),
    path("events/new/", views.event_create, name="event_create"),
    path("events/claim/", views.registration_claim, name="registration_claim"),
    path("events/<slug:slug>/", views.event_detail, name="event_detail"),
    path("events/<slug:slug>/edit/", views.event_edit, name="event_edit"),
    path("events/<slug:slug>/teams/", team_views.event_teams, name="event_teams"),
    path("events/<slug:slug>/teams/<int:pk>/", team_views.team_page, name="team_page"),
    path(
        "events/<slug:slug>/teams/<int:pk>/dissolve/",
        team_views.team_delete,
        name="team_delete",
    ),
    path("events/<slug:slug>/register/", views.event_register, name="event_register"),
    path("events/<slug:slug>/manage/", views.event_dashboard, name="event_dashboard"),
    path("events/<slug:slug>/manage/walk-in/", views.event_walk_in, name="event_walk_in"),
    path(
        "events/<slug:slug>/manage/players/import/",
        views.event_roster_import,
        name="event_roster_import",
    ),
    path("events/<slug:slug>/manage/check-in/", views.event_check_in, name="event_check_in"),
    path(
        "events/<slug:slug>/manage/check-in/do/",
        views.event_check_in_action,
        name="event_check_in_action",
    ),
    path("events/<slug:slug>/manage/status/", views.event_transition, name="event_transition"),
    path(
        "events/<slug:slug>/manage/player-check-in/",
        views.event_player_check_in,
        name="event_player_check_in",
    ),
    path("events/<slug:slug>/manage/judges/", views.event_judge, name="event_judge"),
    path(
        "events/<slug:slug>/manage/lottery/",
        capacity_views.event_lottery_draw,
        name="event_lottery_draw",
    ),
    path(
        "registrations/<int:pk>/withdraw/",
        views.registration_withdraw,
        name="registration_withdraw",
    ),
    path(
        "registrations/<int:pk>/check-in/",
        views.registration_check_in,
        name="registration_check_in",
    ),
    path("registrations/<int:pk>/drop/", views.registration_drop, name="registration_drop"),
    path(
        "registrations/<int:pk>/<str:operation>/",
        views.registration_manage,
        name="registration_manage",
    ),
]
