"""The metagame API under /api/ (metagame/api.py)."""

from django.urls import path

from metagame import api

urlpatterns = [
    path("archetypes/", api.archetypes, name="api-archetypes"),
    path("archetypes/<int:pk>/", api.archetype_detail, name="api-archetype"),
    path("events/<slug:slug>/archetypes/", api.event_archetypes, name="api-event-archetypes"),
    path("events/<slug:slug>/metagame/", api.event_metagame, name="api-event-metagame"),
    path(
        "events/<slug:slug>/metagame/suggestions/",
        api.event_suggestions,
        name="api-event-metagame-suggestions",
    ),
    path("series/<slug:slug>/metagame/", api.series_metagame, name="api-series-metagame"),
]
