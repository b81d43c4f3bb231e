"""Players with a history: every event a person played, their place, record and published
decklists (the reads behind /me/history/, /players/{player_id}/ and GET /api/players/{id}/).

A person's own history is always theirs to see. The public profile is opt-in
(``User.profile_public``, private by default, hideable at any time): a hidden profile, an
unknown player id and an erased account are all the same 404, so a profile's existence never
leaks.

Places: ``final_places`` reads each event's placings (matches.placings.event_placings: the
final placings once the event is over, top cut included; the current ones while it runs), the
same rows the event's placings page and a series' points read. Every page and the API read
places through it.

Series points: the series app (above this one) provides ``provide_series_points`` in its
ready(), so a profile lists each series the player scored in without this module importing it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.http import Http404

from accounts.player_ids import normalise_player_id
from decks.models import DecklistVersion
from matches.models import Match, MatchStatus
from matches.placings import event_placings, places_by_registration, placings_versions
from tournaments.models import Registration, RegistrationStatus, Tournament
from tournaments.results import outcome
from tournaments.status import EventStatus

# Events a person has played in: the rounds have begun (a cancelled event is not history).
PLAYED_STATUSES = (EventStatus.RUNNING, EventStatus.TOP_CUT, EventStatus.FINISHED)


@dataclass(frozen=True)
class PlayedEvent:
    """One event in a player's history."""

    event: Tournament
    registration_id: int
    place: int | None
    players: int | None
    wins: int
    losses: int
    draws: int
    dropped: bool
    decklist_version: int | None  # the published list's version id, else None
    place_final: bool = False  # the event's placings are final (not a running event's)

    @property
    def record(self) -> str:
        return f"{self.wins}-{self.losses}-{self.draws}"

    @property
    def finished(self) -> bool:
        return self.event.status == EventStatus.FINISHED

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.event.slug,
            "name": self.event.name,
            "game": self.event.game,
            "starts_at": self.event.starts_at.isoformat(),
            "status": self.event.status,
            "place": self.place,
            "place_final": self.place_final,
            "players": self.players,
            "record": self.record,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "dropped": self.dropped,
            "decklist": self.decklist_version,
        }


def played_registrations(user: Any) -> Any:
    """The person's registrations in events that have started, newest event first."""
    return (
        Registration.objects.filter(
            player=user,
            status=RegistrationStatus.REGISTERED,
            tournament__status__in=[s.value for s in PLAYED_STATUSES],
        )
        .select_related("tournament")
        .order_by("-tournament__starts_at", "-tournament_id")
    )


@dataclass(frozen=True)
class EventPlaces:
    """One event's places: {registration id: place}, how many entrants are placed, and
    whether the placings are final."""

    places: dict[int, int]
    count: int
    final: bool


def final_places(events: Sequence[Tournament]) -> dict[int, EventPlaces]:
    """Each event's places by registration (by event id), read from its placings
    (``event_placings``, cached per placings version; the versions of all the events read in
    three queries). In a team event a registration has its team's place, and ``count``
    counts teams. An event that hides its standings until the final Swiss round shows no
    place while it runs; an event with nobody placed yet is left out."""
    shown = [
        e for e in events if not (e.hide_standings_before_final and e.status == EventStatus.RUNNING)
    ]
    versions = placings_versions(shown)
    out: dict[int, EventPlaces] = {}
    for event in shown:
        placings = event_placings(event, version=versions[event.pk])
        if not placings.rows:
            continue
        places = places_by_registration(event, placings)
        out[event.pk] = EventPlaces(places, len(placings.rows), placings.final)
    return out


def records(registration_ids: Iterable[int]) -> dict[int, tuple[int, int, int]]:
    """(wins, losses, draws) per registration over its final matches, top cut included; a
    bye is a win."""
    ids = set(registration_ids)
    out: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    if not ids:
        return {}
    matches = Match.objects.filter(Q(a_id__in=ids) | Q(b_id__in=ids), status=MatchStatus.FINAL)
    for a, b, games_a, games_b, drawn in matches.values_list(
        "a_id", "b_id", "games_a", "games_b", "games_drawn"
    ):
        if b is None:
            out[a][0] += 1
            continue
        if games_a is None or games_b is None:
            continue
        result = outcome((games_a, games_b, drawn or 0))
        for side, me in (("a", a), ("b", b)):
            if me not in ids:
                continue
            if result == "draw":
                out[me][2] += 1
            elif result == side:
                out[me][0] += 1
            else:
                out[me][1] += 1
    return {pk: (w, lost, d) for pk, (w, lost, d) in out.items()}


def published_decklists(registrations: Sequence[Registration]) -> dict[int, int]:
    """{registration id: its latest list's version id} for events whose lists are published."""
    ids = [r.pk for r in registrations if r.tournament.decklists_published_at is not None]
    if not ids:
        return {}
    versions = DecklistVersion.objects.filter(decklist__registration_id__in=ids).order_by("number")
    # Ascending: each registration's newest version is the last one written.
    return dict(versions.values_list("decklist__registration_id", "pk"))


def history(registrations: Sequence[Registration]) -> list[PlayedEvent]:
    """The events of ``registrations`` (a page of ``played_registrations``), each with its
    place, record and published list."""
    places = final_places([r.tournament for r in registrations])
    wld = records(r.pk for r in registrations)
    lists = published_decklists(registrations)
    out = []
    for registration in registrations:
        placed = places.get(registration.tournament_id)
        wins, losses, draws = wld.get(registration.pk, (0, 0, 0))
        out.append(
            PlayedEvent(
                event=registration.tournament,
                registration_id=registration.pk,
                place=placed.places.get(registration.pk) if placed else None,
                players=placed.count if placed else None,
                wins=wins,
                losses=losses,
                draws=draws,
                dropped=registration.dropped_at is not None,
                decklist_version=lists.get(registration.pk),
                place_final=bool(placed and placed.final),
            )
        )
    return out


def public_profile_owner(player_id: str) -> Any:
    """The account whose public profile ``player_id`` names, else Http404 (hidden, unknown
    or erased: the same answer)."""
    code = normalise_player_id(player_id or "")
    user = (
        get_user_model()
        .objects.filter(player_id=code, profile_public=True, is_active=True)
        .only("pk", "player_id", "display_name", "username", "first_name", "last_name")
        .first()
    )
    if user is None:
        raise Http404("No such player.")
    return user


def profile_summary(user: Any) -> dict[str, Any]:
    """The profile's totals over every event played."""
    registrations = list(played_registrations(user).values_list("pk", flat=True))
    wld = records(registrations)
    totals = [sum(values) for values in zip(*wld.values(), strict=False)] or [0, 0, 0]
    return {
        "events_played": len(registrations),
        "wins": totals[0],
        "losses": totals[1],
        "draws": totals[2],
        "record": f"{totals[0]}-{totals[1]}-{totals[2]}",
    }


# The series app's read of a person's series points (series.selectors.player_series_points):
# each series they scored in, as {"series", "name", "rank", "points", "events", "players",
# "url"}, best rank first.
SeriesPoints = Callable[[Any], list[dict[str, Any]]]
_series_points: list[SeriesPoints] = []


def provide_series_points(reader: SeriesPoints) -> None:
    if reader not in _series_points:
        _series_points.append(reader)


def series_points(user: Any) -> list[dict[str, Any]]:
    """The person's points in each series they played in ([] without the series app)."""
    return [row for reader in _series_points for row in reader(user)]
