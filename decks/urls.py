"""Pages of the decks app (catalog import, decklists, deck pages, deck checks).

Included at the site root before tournaments.urls; every path here is distinct from theirs
(`registrations/<pk>/decklist/` comes first, so tournaments' `registrations/<pk>/<operation>/`
never sees "decklist"). Names live in the "decks" namespace.
"""

from django.urls import path

from decks import views

app_name = "decks"

urlpatterns = [
    path("cards/", views.card_search, name="card_search"),
    path("cards/import/", views.card_import_upload, name="card_import_upload"),
    path("cards/import/<int:pk>/", views.card_import_detail, name="card_import_detail"),
    path(
        "orgs/<slug:slug>/catalogs/new/",
        views.organisation_catalog_new,
        name="organisation_catalog_new",
    ),
    path("check-deck/", views.decklist_check, name="decklist_check"),
    path(
        "registrations/<int:pk>/decklist/",
        views.registration_decklist,
        name="registration_decklist",
    ),
    path("registrations/<int:pk>/decklist/unlock/", views.decklist_unlock, name="decklist_unlock"),
    path("events/<slug:slug>/decklist/", views.my_decklist, name="my_decklist"),
    path("events/<slug:slug>/decklists/", views.event_decklists, name="event_decklists"),
    path(
        "events/<slug:slug>/decklists/publish/",
        views.event_decklists_publish,
        name="event_decklists_publish",
    ),
    path("events/<slug:slug>/catalog/", views.event_catalog, name="event_catalog"),
    path("events/<slug:slug>/deck-checks/", views.event_deck_checks, name="event_deck_checks"),
    path("decklists/<int:pk>/", views.decklist_version, name="decklist_version"),
    path("deck-checks/<int:pk>/", views.deck_check_detail, name="deck_check_detail"),
    path(
        "deck-checks/<int:pk>/results/<int:result_pk>/",
        views.deck_check_record,
        name="deck_check_record",
    ),
]
