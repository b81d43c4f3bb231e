"""Reads of a series shared by its page, its CSV and the API: the series, its events and its
current leaderboard.

The leaderboard is computed from the final placings of the series' events
(matches.placings.event_placings) once per change: its cache key is built from every event's
placings version (matches.placings.placings_versions: its newest result, its rounds' and
stages' progress, its status and tiebreakers; the same version the placings themselves are
cached by) and the series' points table, so a correction or a placing change anywhere in the
series makes a new key and nobody reads a stale board.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from django.core.cache import cache
from django.urls import reverse

from matches.models import Match, MatchStatus
from matches.placings import event_placings, places_by_registration, placings_versions
from series.models import Series, SeriesCounting, SeriesEvent
from tournaments import series as series_core
from tournaments.models import Registration, RegistrationStatus, Tournament
from tournaments.results import outcome

CACHE_SECONDS = 24 * 60 * 60


def series_events(series: Series) -> list[Tournament]:
    """The series' events, by start time."""
    return list(Tournament.objects.filter(series_entry__series=series).order_by("starts_at", "id"))


def _version_key(series: Series, versions: dict[int, str]) -> str:
    facts = [
        sorted(versions.items()),
        series.counting,
        sorted(series.points.items()),
    ]
    digest = hashlib.sha256(json.dumps(facts, default=str).encode()).hexdigest()[:32]
    return f"series:{series.pk}:leaderboard:{digest}"


def _player_keys(registration_ids: Iterable[int]) -> dict[int, tuple[str, str]]:
    """Registration id -> (player id, name): an account's public player id (the same person
    across events), a walk-in without an account by its registration."""
    out: dict[int, tuple[str, str]] = {}
    for registration in Registration.objects.filter(pk__in=list(registration_ids)).select_related(
        "player"
    ):
        player_id = (
            registration.player.player_id
            if registration.player_id and registration.player.player_id
            else f"walk-in-{registration.pk}"
        )
        out[registration.pk] = (player_id, registration.name)
    return out


def _match_tallies(event: Tournament) -> dict[int, tuple[int, int]]:
    """Registration id -> (matches won, matches drawn) over the event's final matches; a bye
    is a match won."""
    tallies: dict[int, list[int]] = {}
    for a, b, games_a, games_b, games_drawn in Match.objects.filter(
        round__tournament=event, status=MatchStatus.FINAL
    ).values_list("a_id", "b_id", "games_a", "games_b", "games_drawn"):
        result = outcome((games_a or 0, games_b or 0, games_drawn or 0)) if b else "a"
        for side, registration in (("a", a), ("b", b)):
            if registration is None:
                continue
            tally = tallies.setdefault(registration, [0, 0])
            if result == side:
                tally[0] += 1
            elif result == "draw":
                tally[1] += 1
    return {registration: (won, drawn) for registration, (won, drawn) in tallies.items()}


def _event_results(
    series: Series, event: Tournament, version: str | None = None
) -> list[series_core.EventResult]:
    placings = event_placings(event, version=version)
    if not placings.final:
        return []
    # A team event places teams: each member takes the team's place.
    places = sorted(places_by_registration(event, placings).items(), key=lambda t: (t[1], t[0]))
    players = _player_keys(registration for registration, _place in places)
    tallies = _match_tallies(event) if series.counting == SeriesCounting.MATCHES else {}
    results = []
    seen: set[str] = set()
    for registration, place in places:
        player_id, name = players.get(registration, (f"walk-in-{registration}", ""))
        if player_id in seen:
            continue  # one account, one row (placings place each registration once)
        seen.add(player_id)
        won, drawn = tallies.get(registration, (0, 0))
        results.append(series_core.EventResult(event.slug, player_id, name, place, won, drawn))
    return results


def table_of(series: Series) -> series_core.PointsTable | series_core.LeagueTable:
    if series.counting == SeriesCounting.MATCHES:
        return series_core.parse_league_table(series.points, "points")
    return series_core.parse_points_table(series.points, "points")


def compute_leaderboard(
    series: Series, versions: dict[int, str] | None = None
) -> list[dict[str, Any]]:
    """The leaderboard as stored and served: each row's contract fields plus ``results``
    (event, place, points per event). ``versions``: the events' placings versions, when the
    caller has read them."""
    events = series_events(series)
    versions = versions if versions is not None else placings_versions(events)
    results: list[series_core.EventResult] = []
    for event in events:
        results.extend(_event_results(series, event, versions.get(event.pk)))
    return [
        {
            **row.to_json(),
            "results": [
                {"event": e.event, "place": e.place, "points": e.points} for e in row.events
            ],
        }
        for row in series_core.leaderboard(table_of(series), results)
    ]


def leaderboard_version(series: Series) -> str:
    """The version of the series' leaderboard: changes with any of its events' placings
    versions (a result, a round, a stage, a status or a tiebreaker changed) or its points."""
    return _version_key(series, placings_versions(series_events(series)))


def current_leaderboard(series: Series, version: str | None = None) -> list[dict[str, Any]]:
    """``compute_leaderboard``, computed once per change of the series' placings (cached)."""
    versions: dict[int, str] | None = None
    if version is None:
        versions = placings_versions(series_events(series))
        version = _version_key(series, versions)
    rows: list[dict[str, Any]] | None = cache.get(version)
    if rows is None:
        rows = compute_leaderboard(series, versions)
        cache.set(version, rows, CACHE_SECONDS)
    return rows


def series_of(event: Tournament) -> Series | None:
    entry = SeriesEvent.objects.filter(event=event).select_related("series").first()
    return entry.series if entry is not None else None


# A profile lists the player's points in at most this many series (the newest).
PROFILE_SERIES = 20


def player_series_points(user: Any) -> list[dict[str, Any]]:
    """The person's points in each series whose events they played (the newest
    ``PROFILE_SERIES``), from each series' current leaderboard (cached per placings change),
    best rank first: matches.players.series_points, on the profile and the own history."""
    if not getattr(user, "player_id", ""):
        return []
    played = Registration.objects.filter(
        player=user, status=RegistrationStatus.REGISTERED, tournament__series_entry__isnull=False
    ).values("tournament__series_entry__series_id")
    out = []
    for series in Series.objects.filter(pk__in=played).order_by("-created_at", "-id")[
        :PROFILE_SERIES
    ]:
        rows = current_leaderboard(series)
        mine = next((row for row in rows if row["player_id"] == user.player_id), None)
        if mine is None:
            continue
        out.append(
            {
                "series": series.slug,
                "name": series.name,
                "rank": mine["rank"],
                "players": len(rows),
                "points": mine["points"],
                "events": mine["events"],
                "url": reverse("series_detail", args=[series.slug]),
            }
        )
    return sorted(out, key=lambda row: (row["rank"], row["name"]))
