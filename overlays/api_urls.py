"""The overlays' API: the JSON feeds, their server-sent-event streams and the feature marks."""

from django.urls import path

from overlays import api, live

FEEDS = "events/<slug:slug>/overlays/"

urlpatterns = [
    path(FEEDS + "feature/<int:slot>/", api.feature, name="api-overlay-feature"),
    path(FEEDS + "standings/", api.standings, name="api-overlay-standings"),
    path(FEEDS + "pairings/", api.pairings, name="api-overlay-pairings"),
    path(FEEDS + "bracket/", api.bracket, name="api-overlay-bracket"),
    path(
        FEEDS + "feature/<int:slot>/stream/",
        live.overlay_stream,
        {"kind": "feature"},
        name="api-overlay-feature-stream",
    ),
    path(
        FEEDS + "standings/stream/",
        live.overlay_stream,
        {"kind": "standings"},
        name="api-overlay-standings-stream",
    ),
    path(
        FEEDS + "pairings/stream/",
        live.overlay_stream,
        {"kind": "pairings"},
        name="api-overlay-pairings-stream",
    ),
    path(
        FEEDS + "bracket/stream/",
        live.overlay_stream,
        {"kind": "bracket"},
        name="api-overlay-bracket-stream",
    ),
    path("matches/<int:pk>/feature/", api.match_feature, name="api-match-feature"),
]
