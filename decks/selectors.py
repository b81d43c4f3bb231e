"""Reads of the decks app that pages, the API and other apps share.

Which catalog a read uses: an event reads the catalog its organiser chose (the demo event the
demo catalog), else its game's default; a read with no event (the card search, the anonymous
deck check) reads the catalog it names, else the default. The default is the game's official
catalog once it holds cards, and the demo catalog only while there is no official card, so the
demo's fictional cards never mix with a real list.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from config.errors import ServiceError
from decks.models import (
    Card,
    CardImport,
    Catalog,
    DeckCheck,
    DeckCheckResult,
    Decklist,
    DecklistVersion,
    EventCatalog,
)
from engine.games import GAMES
from organisations.models import ORGANISING_ROLES, Membership
from tournaments import permissions
from tournaments.models import Registration, RegistrationStatus, Tournament


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


def card_imports_for(user: Any) -> QuerySet[CardImport]:
    """The card imports a person may see: their own; every one for the site-wide catalog
    role (site administrators). Another organiser's upload is not theirs to read."""

    imports = CardImport.objects.defer("payload").select_related("uploaded_by", "catalog")
    if not permissions.is_authenticated(user):
        return imports.none()
    if user.is_superuser or user.has_perm("decks.manage_shared_catalogs"):
        return imports
    return imports.filter(uploaded_by=user)


def catalog_by_slug(slug: str) -> Catalog | None:
    return Catalog.objects.filter(slug=slug).first()


def catalogs_for_choice(game: str, user: Any = None) -> list[Catalog]:
    """What an event of a game may read: the shared catalogs, the person's own and those of
    the organisations they own or organise for."""
    shared = list(Catalog.objects.filter(game=game).exclude(kind=Catalog.Kind.CUSTOM))
    own: list[Catalog] = []
    if user is not None and getattr(user, "is_authenticated", False):
        organising = Membership.objects.filter(user=user, role__in=ORGANISING_ROLES).values(
            "organisation_id"
        )
        own = list(
            Catalog.objects.filter(game=game, kind=Catalog.Kind.CUSTOM)
            .filter(Q(owner=user) | Q(organisation_id__in=organising))
            .order_by("name", "pk")
        )
    return shared + own


def organisation_catalogs(organisation: Any) -> QuerySet[Catalog]:
    """An organisation's card catalogs with their number of cards, by game and name."""
    return (
        Catalog.objects.filter(organisation=organisation)
        .annotate(card_count=Count("cards"))
        .order_by("game", "name", "pk")
    )


MAX_ATTRIBUTE_FILTERS = 5


def attribute_filter_names(game: str | None) -> set[str]:
    """The card fields a game keeps in `Card.attributes` (every game's, without a game)."""

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


# --- card search (the cards API and the card search page) ----------------------------------

CARD_FILTERS = (
    "game",
    "q",
    "search",
    "text",
    "kind",
    "set_name",
    "weapon",
    "power",
    "power_min",
    "power_max",
    "cost",
    "attr",
)
CARD_POOL_PARAMS = ("catalog", "event")
MAX_CARD_NUMBER = 1_000_000
# Columns whose values a catalog enumerates: a value no card of the pool has is a typo.
ENUMERATED_FILTERS = ("kind", "set_name", "weapon")
NUMBER_FILTERS = {"power": "power", "power_min": "power__gte", "power_max": "power__lte"}


@dataclass(frozen=True, slots=True)
class CardQuery:
    """A card search as asked: every field optional (blank: no filter)."""

    game: str = ""
    q: str = ""
    search: str = ""
    text: str = ""
    kind: str = ""
    set_name: str = ""
    weapon: str = ""
    power: int | None = None
    power_min: int | None = None
    power_max: int | None = None
    cost: int | None = None
    attributes: tuple[str, ...] = ()


def card_query(params: Mapping[str, Sequence[str]], *, also: Sequence[str] = ()) -> CardQuery:
    """Read a card search from query parameters (name -> values). A parameter that is not a
    card filter (nor one of `also`, the caller's own: pagination, the pool) or a number
    filter that is not a whole number is a ServiceError naming it: a misspelt filter never
    silently lists every card."""

    allowed = {*CARD_FILTERS, *also}
    for name in params:
        if name not in allowed:
            raise ServiceError(
                f"{name[:60]}: not a card filter; use one of {', '.join(CARD_FILTERS)}.",
                field=name[:60],
            )

    def text(name: str) -> str:
        values = params.get(name) or [""]
        return values[-1].strip()

    def number(name: str) -> int | None:
        raw = text(name)
        if not raw:
            return None
        if not re.fullmatch(r"-?[0-9]{1,7}", raw):
            raise ServiceError(f"{name}: must be a whole number.", field=name)
        value = int(raw)
        if abs(value) > MAX_CARD_NUMBER:
            raise ServiceError(f"{name}: at most {MAX_CARD_NUMBER}.", field=name)
        return value

    game = text("game")
    if game and game not in GAMES:
        raise ServiceError(
            f"game: unknown game {game[:40]!r}; one of {', '.join(GAMES)}.", field="game"
        )
    query = CardQuery(
        game=game,
        q=text("q"),
        search=text("search"),
        text=text("text"),
        kind=text("kind"),
        set_name=text("set_name"),
        weapon=text("weapon"),
        power=number("power"),
        power_min=number("power_min"),
        power_max=number("power_max"),
        cost=number("cost"),
        attributes=tuple(v for v in params.get("attr") or () if v.strip()),
    )
    if (
        query.power_min is not None
        and query.power_max is not None
        and query.power_min > query.power_max
    ):
        raise ServiceError("power_max: at least power_min.", field="power_max")
    return query


def card_text_fields(game: str) -> tuple[str, ...]:
    """The card fields holding rules text of a game (every game's, without a game)."""

    plugins = [GAMES[game]] if game in GAMES else list(GAMES.values())
    return tuple(dict.fromkeys(f for p in plugins for f in p.card_text_fields))


def search_cards(cards: QuerySet[Card], query: CardQuery) -> QuerySet[Card]:
    """The cards of a pool that match a search, by name then set and number.

    `q`: the name holds it, or it is the card number; `search`: the name or the card's rules
    text holds it; `text`: the rules text holds it (all case-insensitive). A kind, set or
    weapon that no card of the pool has, or `text` for a game that keeps no card text, is a
    ServiceError naming the field."""

    if query.game:
        cards = cards.filter(game=query.game)
    pool = cards
    for name in ENUMERATED_FILTERS:
        value = getattr(query, name)
        if value:
            cards = cards.filter(**{name: value})
            if not pool.filter(**{name: value}).exists():
                raise ServiceError(f"{name}: no card has {value[:80]!r}.", field=name)
    for name, lookup in NUMBER_FILTERS.items():
        value = getattr(query, name)
        if value is not None:
            cards = cards.filter(**{lookup: value})
    if query.cost is not None:
        cards = cards.filter(cost=query.cost)
    if query.q:
        cards = cards.filter(Q(name__icontains=query.q) | Q(card_number__iexact=query.q))
    text_fields = card_text_fields(query.game)
    if query.text:
        if not text_fields:
            raise ServiceError("text: the cards of this game keep no rules text.", field="text")
        cards = cards.filter(_text_holds(text_fields, query.text))
    if query.search:
        cards = cards.filter(
            Q(name__icontains=query.search) | _text_holds(text_fields, query.search)
        )
    if query.attributes:
        cards = filter_by_attributes(cards, list(query.attributes), query.game or None)
    return cards.order_by("name", "set_name", "card_number", "id")


def _text_holds(fields: Sequence[str], value: str) -> Q:
    condition = Q(pk__in=[])
    for name in fields:
        condition |= Q(**{f"attributes__{name}__icontains": value})
    return condition


def card_choices(cards: QuerySet[Card], column: str) -> list[str]:
    """The distinct values of a column in a pool (for a search form's choices), sorted."""
    values = cards.exclude(**{f"{column}__isnull": True}).exclude(**{column: ""})
    return sorted(set(values.values_list(column, flat=True).order_by().distinct()))


# --- what a page and its API both show ------------------------------------------------------


def catalog_list(*, game: str = "") -> QuerySet[Catalog]:
    """Every catalog (of one game, when named) with its owner and its number of cards."""
    catalogs = Catalog.objects.select_related("owner").annotate(card_count=Count("cards"))
    return catalogs.filter(game=game) if game else catalogs


def registration_get(pk: int) -> Registration | None:
    """A registration with its event and player, for its decklist pages."""
    registration: Registration | None = (
        Registration.objects.select_related("tournament", "player").filter(pk=pk).first()
    )
    return registration


def decklist_versions(registration: Registration) -> QuerySet[DecklistVersion]:
    """A registration's versions, the active (latest) one first."""
    return DecklistVersion.objects.filter(decklist__registration=registration).select_related(
        "decklist__registration__player", "submitted_by"
    )


def decklist_version_list() -> QuerySet[DecklistVersion]:
    """Versions with what a version's page shows beside the list (the player, the event)."""
    return DecklistVersion.objects.select_related(
        "decklist__registration__tournament", "decklist__registration__player", "submitted_by"
    )


def unlocked_decklists(tournament: Tournament) -> set[int]:
    """The registrations whose list an organiser unlocked after the lock."""
    return set(
        Decklist.objects.filter(registration__tournament=tournament, unlocked=True).values_list(
            "registration_id", flat=True
        )
    )


def registered_players(tournament: Tournament) -> QuerySet[Registration]:
    """The event's registered players (not waitlisted, withdrawn or removed): whose lists count."""
    return tournament.registrations.filter(status=RegistrationStatus.REGISTERED).select_related(
        "player"
    )


def event_catalog_chosen(tournament: Tournament) -> bool:
    """Whether the organiser chose the event's catalog (else it reads its game's default)."""
    return bool(EventCatalog.objects.filter(tournament=tournament).exists())


def deck_check_list(tournament: Tournament) -> QuerySet[DeckCheck]:
    """The event's deck checks, newest first, with how many players each picked and how many
    of them are pending or had a problem."""
    return (
        DeckCheck.objects.filter(tournament=tournament)
        .select_related("created_by")
        .annotate(
            players=Count("results"),
            problems=Count("results", filter=Q(results__outcome=DeckCheckResult.Outcome.PROBLEM)),
            pending=Count("results", filter=Q(results__outcome=DeckCheckResult.Outcome.PENDING)),
        )
    )
