"""Reads of the decks app that pages, the API and other apps share.

Which catalog a read uses: an event reads the catalog its organiser chose (the demo event the
demo catalog), else its game's default; a read with no event (the card search, the anonymous
deck check) reads the catalog it names, else the default. The default is the game's official
catalog once it holds cards, and the demo catalog only while there is no official card, so the
demo's fictional cards never mix with a real list.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, QuerySet

from decks.models import Card, Catalog, EventCatalog
from tournaments.models import Tournament


def default_catalog(game: str) -> Catalog | None:
    """The official catalog when it has cards, else the demo one, else None (no cards)."""
    shared = {
        c.kind: c
        for c in Catalog.objects.filter(
            game=game, kind__in=(Catalog.Kind.OFFICIAL, Catalog.Kind.DEMO)
        ).annotate(has_cards=Exists(Card.objects.filter(catalog=OuterRef("pk"))))
    }
    official, demo = shared.get(Catalog.Kind.OFFICIAL), shared.get(Catalog.Kind.DEMO)
    if official is not None and official.has_cards:  # type: ignore[attr-defined]
        return official
    return demo or official


def default_catalogs() -> list[Catalog]:
    """The default catalog of every game that has one."""
    games = Catalog.objects.values_list("game", flat=True).distinct()
    return [c for c in (default_catalog(g) for g in sorted(set(games))) if c is not None]


def event_catalog(tournament: Tournament) -> Catalog | None:
    """The catalog an event reads: its organiser's choice, else its game's default."""
    link = EventCatalog.objects.select_related("catalog").filter(tournament=tournament).first()
    if link is not None:
        return link.catalog
    return default_catalog(tournament.game)


def event_cards(tournament: Tournament) -> QuerySet[Card]:
    """The cards an event's lists, searches and suggestions may use."""
    catalog = event_catalog(tournament)
    if catalog is None:
        return Card.objects.none()
    return Card.objects.filter(catalog=catalog)


def catalog_by_slug(slug: str) -> Catalog | None:
    return Catalog.objects.filter(slug=slug).first()


def catalogs_for_choice(game: str, user: Any = None) -> list[Catalog]:
    """What an event of a game may read: the shared catalogs and the person's own."""
    shared = list(Catalog.objects.filter(game=game).exclude(kind=Catalog.Kind.CUSTOM))
    own: list[Catalog] = []
    if user is not None and getattr(user, "is_authenticated", False):
        own = list(Catalog.objects.filter(game=game, kind=Catalog.Kind.CUSTOM, owner=user))
    return shared + own
