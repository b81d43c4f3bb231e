"""Pages of the decks app (catalog import, decklists, deck pages, deck checks)."""

from django.urls import path  # noqa: F401

urlpatterns: list = []
