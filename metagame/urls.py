"""Metagame and coverage pages. Names live in the "metagame" namespace; every path is deeper
than tournaments' ``events/<slug>/`` pages, and this module is included before them."""

from django.urls import path

from metagame import archetype_pages, coverage_views, views

app_name = "metagame"

urlpatterns = [
    path("events/<slug:slug>/coverage/", coverage_views.coverage, name="coverage"),
    path("events/<slug:slug>/coverage/live/", coverage_views.coverage_live, name="coverage_live"),
    path("events/<slug:slug>/metagame/", views.event_metagame, name="event_metagame"),
    path(
        "events/<slug:slug>/metagame/archetypes/",
        views.event_archetype_add,
        name="event_archetype_add",
    ),
    path(
        "events/<slug:slug>/metagame/archetypes/<int:pk>/delete/",
        views.archetype_delete,
        name="archetype_delete",
    ),
    path("series/<slug:slug>/metagame/", views.series_metagame, name="series_metagame"),
]
# A series' and an organisation's archetypes (metagame/archetype_pages.py).
for prefix, kind in (("series", "series"), ("orgs", "organisation")):
    urlpatterns += [
        path(
            f"{prefix}/<slug:slug>/archetypes/",
            archetype_pages.archetypes_page,
            {"kind": kind},
            name=f"{kind}_archetypes",
        ),
        path(
            f"{prefix}/<slug:slug>/archetypes/add/",
            archetype_pages.archetype_add,
            {"kind": kind},
            name=f"{kind}_archetype_add",
        ),
        path(
            f"{prefix}/<slug:slug>/archetypes/<int:pk>/",
            archetype_pages.archetype_change,
            {"kind": kind},
            name=f"{kind}_archetype_change",
        ),
    ]
