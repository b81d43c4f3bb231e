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


MAX_ATTRIBUTE_FILTERS = 5


def attribute_filter_names(game: str | None) -> set[str]:
    """The card fields a game keeps in `Card.attributes` (every game's, without a game)."""
    from engine.games import GAMES

    columns = {f.name for f in Card._meta.concrete_fields} | {"id", "set"}
    plugins = [GAMES[game]] if game in GAMES else list(GAMES.values())
    names: set[str] = set()
    for plugin in plugins:
        rules = plugin.deck_rules()
        names |= {n for n in rules.card_fields if n not in columns and n != rules.kind_field}
    return names


def filter_by_attributes(
    cards: QuerySet[Card], filters: list[str], game: str | None
) -> QuerySet[Card]:
    """`attr=name:value` filters on a game's own card fields (`color:red`, `vim_cost:3`): a
    whole number matches the number, anything else the text. Bad filters are a ServiceError
    naming `attr`."""
    from config.errors import ServiceError

    if len(filters) > MAX_ATTRIBUTE_FILTERS:
        raise ServiceError(f"attr: at most {MAX_ATTRIBUTE_FILTERS} filters.", field="attr")
    known = attribute_filter_names(game)
    for item in filters:
        name, sep, value = item.partition(":")
        name, value = name.strip(), value.strip()
        if not sep or name not in known or not value or len(value) > 100:
            raise ServiceError(
                f"attr: write name:value with name one of {', '.join(sorted(known))}.",
                field="attr",
            )
        wanted: int | str = int(value) if value.isdigit() and len(value) < 10 else value
        cards = cards.filter(**{f"attributes__{name}": wanted})
    return cards
