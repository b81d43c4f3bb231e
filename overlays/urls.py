"""The overlay pages and the organiser's feature-match form (docs/overlays.md)."""

from django.urls import path

from overlays import views

OVERLAYS = "events/<slug:slug>/overlays/"

urlpatterns = [
    path(OVERLAYS, views.overlay_index, name="overlay-index"),
    path(OVERLAYS + "feature/<int:slot>/", views.feature_page, name="overlay-feature"),
    path(OVERLAYS + "standings/", views.standings_page, name="overlay-standings"),
    path(OVERLAYS + "pairings/", views.pairings_page, name="overlay-pairings"),
    path(OVERLAYS + "bracket/", views.bracket_page, name="overlay-bracket"),
    path("events/<slug:slug>/manage/feature/", views.feature_form, name="overlay-feature-form"),
]
