"""Player-facing pages of the rounds (matches/views.py), included at the site root before
tournaments.urls: every path here is deeper than tournaments' `events/<slug>/...` pages."""

from django.urls import path

from matches import clock_views, views
from matches.views import placings_page, team_pages

urlpatterns = [
    path(
        "events/<slug:slug>/rounds/<int:number>/pairings/",
        views.round_pairings,
        name="round_pairings",
    ),
    path("events/<slug:slug>/my-match/", views.my_match, name="my_match"),
    path(
        "events/<slug:slug>/teams/<int:pk>/lineups/",
        team_pages.team_lineups,
        name="team_lineups",
    ),
    path("matches/<int:pk>/report/", views.match_report_page, name="match_report_page"),
    path("matches/<int:pk>/confirm/", views.match_confirm_page, name="match_confirm_page"),
    path("matches/<int:pk>/clock/", clock_views.match_clock_page, name="match_clock"),
    path("events/<slug:slug>/standings/", views.standings, name="standings"),
    path(
        "events/<slug:slug>/standings/teams/",
        team_pages.team_standings,
        name="team_standings",
    ),
    path("events/<slug:slug>/standings/cut/", views.cut_calculator, name="cut_calculator"),
    path(
        "events/<slug:slug>/standings/<int:registration_id>/",
        views.standings_player,
        name="standings_player",
    ),
    path("events/<slug:slug>/bracket/", views.bracket, name="bracket"),
    path("events/<slug:slug>/placings/", placings_page.placings, name="placings"),
    path(
        "events/<slug:slug>/manage/placings/publish-top/",
        placings_page.placings_publish_top,
        name="placings_publish_top",
    ),
    path("events/<slug:slug>/projector/", views.projector, name="projector"),
    path("events/<slug:slug>/projector/live/", views.projector_live, name="projector_live"),
]
