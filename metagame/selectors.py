"""Reads of the metagame shared by its pages, the coverage page and the API.

Which lists count: an event's *published* lists only, those published one by one
(``Decklist.published_at``: the top decklists) and all of them once the event's lists are
published (``Tournament.decklists_published_at``); each at its latest version. Which
archetypes sort them: those of the event's game that reach it (the event's own, its series',
its organisation's, the site's), by priority, the nearer scope first on a tie.

A breakdown is computed once per change: its cache key digests every fact it reads (the
rounds' content versions, which every result change bumps; which lists are published and
their latest versions; the archetypes), so nobody reads a stale one and nothing needs clearing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet, Sum

from decks.models import Decklist, DecklistVersion
from engine.games import get_game
from matches.models import Match, MatchStatus, Round
from metagame import breakdown as core
from metagame import clustering
from metagame.models import Archetype
from metagame.rules import DeckCard, Rule, classify, deck_cards, parse_rule
from series.models import Series
from series.selectors import series_events, series_of
from tournaments.models import Tournament

CACHE_SECONDS = 24 * 60 * 60
MAX_SUGGESTED_LISTS = 600
SCOPE_ORDER = {"tournament": 0, "series": 1, "organisation": 2, "global": 3}


def archetypes_for_event(tournament: Tournament) -> list[Archetype]:
    """The archetypes that sort the event's lists, in the order they are tried."""
    series = series_of(tournament)
    reach = Q(tournament=tournament) | Q(
        tournament__isnull=True, series__isnull=True, organisation__isnull=True
    )
    if series is not None:
        reach |= Q(series=series)
    if tournament.organisation_id is not None:
        reach |= Q(organisation_id=tournament.organisation_id)
    found = list(Archetype.objects.filter(reach, game=tournament.game))
    return sorted(found, key=lambda a: (a.priority, SCOPE_ORDER[a.scope], a.name, a.pk))


def archetypes_of_series(series: Series) -> QuerySet[Archetype]:
    return Archetype.objects.filter(series=series)


def global_archetypes() -> QuerySet[Archetype]:
    return Archetype.objects.filter(
        tournament__isnull=True, series__isnull=True, organisation__isnull=True
    )


def _published(tournament: Tournament) -> QuerySet[Decklist]:
    lists = Decklist.objects.filter(registration__tournament=tournament)
    if tournament.decklists_published_at is None:
        lists = lists.filter(published_at__isnull=False)
    return lists


def counted_lists(tournament: Tournament) -> dict[int, tuple[DeckCard, ...]]:
    """Registration id -> the cards of its published list (latest version)."""
    out: dict[int, tuple[DeckCard, ...]] = {}
    rows = (
        DecklistVersion.objects.filter(decklist__in=_published(tournament))
        .order_by("decklist_id", "number")
        .values_list("decklist__registration_id", "data")
    )
    for registration_id, data in rows:
        out[registration_id] = deck_cards(data)  # the last version read wins
    return out


def _rules(archetypes: Iterable[Archetype]) -> list[tuple[str, Rule]]:
    # Stored rules were checked when saved; one that no longer parses sorts nothing.
    out: list[tuple[str, Rule]] = []
    for archetype in archetypes:
        try:
            out.append((archetype.name, parse_rule(archetype.rule)))
        except ValueError:
            continue
    return out


def assignments(tournament: Tournament) -> dict[int, str]:
    """Registration id -> archetype name, for every counted list."""
    rules = _rules(archetypes_for_event(tournament))
    return {reg: classify(rules, cards) for reg, cards in counted_lists(tournament).items()}


def event_results(tournament: Tournament) -> list[core.MatchResult]:
    """The event's final matches, with their trophies when the game records them."""
    match_rules = get_game(tournament.game).match_rules()
    with_battles = match_rules.api_key == "battles"
    out = []
    for a, b, games_a, games_b, drawn, details in Match.objects.filter(
        round__tournament=tournament, status=MatchStatus.FINAL
    ).values_list("a_id", "b_id", "games_a", "games_b", "games_drawn", "game_details"):
        trophies = None
        if with_battles and details is not None:
            battles = match_rules.to_api(details)
            if isinstance(battles, list):
                trophies = tuple((int(x), int(y)) for x, y in battles)
        games = (games_a or 0, games_b or 0, drawn or 0)
        out.append(core.MatchResult(a, b, games, trophies))
    return out


def event_version(tournament: Tournament) -> str:
    rounds = Round.objects.filter(tournament=tournament).aggregate(
        v=Sum("content_version"), n=Count("id")
    )
    published = _published(tournament)
    lists = DecklistVersion.objects.filter(decklist__in=published).aggregate(
        n=Count("id"), newest=Max("id")
    )
    archetypes = [
        (a.pk, a.name, a.priority, a.rule, a.updated_at.isoformat())
        for a in archetypes_for_event(tournament)
    ]
    facts = [
        tournament.pk,
        tournament.decklists_published_at,
        rounds["v"],
        rounds["n"],
        published.count(),
        lists["n"],
        lists["newest"],
        archetypes,
    ]
    return hashlib.sha256(json.dumps(facts, default=str).encode()).hexdigest()[:32]


def compute_event_breakdown(tournament: Tournament) -> dict[str, Any]:
    entrants = assignments(tournament)
    out = core.breakdown(entrants, event_results(tournament)).to_json()
    out["assignments"] = {str(reg): name for reg, name in sorted(entrants.items())}
    return out


def event_breakdown(tournament: Tournament) -> dict[str, Any]:
    """The event's breakdown (`metagame.breakdown`) plus ``assignments`` (registration id ->
    archetype) and ``version``; computed once per change."""
    version = event_version(tournament)
    key = f"metagame:event:{tournament.pk}:{version}"
    found: dict[str, Any] | None = cache.get(key)
    if found is None:
        found = {**compute_event_breakdown(tournament), "version": version}
        cache.set(key, found, CACHE_SECONDS)
    return found


def series_breakdown(series: Series) -> dict[str, Any]:
    """The series' breakdown over all its events' counted lists and results (each event's
    lists sorted by the archetypes that reach that event); computed once per change."""
    events = series_events(series)
    version = hashlib.sha256(json.dumps([event_version(e) for e in events]).encode()).hexdigest()[
        :32
    ]
    key = f"metagame:series:{series.pk}:{version}"
    found: dict[str, Any] | None = cache.get(key)
    if found is None:
        entrants: dict[int, str] = {}
        results: list[core.MatchResult] = []
        for event in events:
            entrants.update(assignments(event))
            results.extend(event_results(event))
        found = {
            **core.breakdown(entrants, results).to_json(),
            "events": [e.slug for e in events],
            "version": version,
        }
        cache.set(key, found, CACHE_SECONDS)
    return found


def event_suggestions(
    tournament: Tournament, *, threshold: float = clustering.DEFAULT_THRESHOLD
) -> list[dict[str, Any]]:
    """Groups of the event's counted lists that no archetype names yet ("Other"), by card
    overlap (`metagame.clustering`), each with its core cards and its players' names;
    computed once per change (the breakdown's version) and threshold."""
    key = f"metagame:suggestions:{tournament.pk}:{event_version(tournament)}:{threshold!r}"
    found: list[dict[str, Any]] | None = cache.get(key)
    if found is None:
        found = compute_suggestions(tournament, threshold=threshold)
        cache.set(key, found, CACHE_SECONDS)
    return found


def compute_suggestions(tournament: Tournament, *, threshold: float) -> list[dict[str, Any]]:
    rules = _rules(archetypes_for_event(tournament))
    lists = {
        str(reg): frozenset(c.name for c in cards if c.count > 0)
        for reg, cards in counted_lists(tournament).items()
        if classify(rules, cards) == "Other"
    }
    keys = sorted(lists, key=int)[:MAX_SUGGESTED_LISTS]
    groups = clustering.suggest_groups({k: lists[k] for k in keys}, threshold=threshold)
    names = {
        r.pk: r.name
        for r in tournament.registrations.filter(pk__in=[int(k) for k in keys]).select_related(
            "player"
        )
    }
    return [
        {**group.to_json(), "players": [names.get(int(m), "") for m in group.members]}
        for group in groups
    ]
