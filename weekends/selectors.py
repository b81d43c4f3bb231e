"""The reads the weekend's pages and API share: the schedule, the staff desk across the weekend,
and the decks entered twice (one entry per deck)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Max, OuterRef, QuerySet, Subquery
from django.db.models.functions import MD5
from django.shortcuts import get_object_or_404

from decks.models import DecklistVersion
from matches import selectors as match_selectors
from matches.models import JudgeCall, Match, Round, RoundStatus
from tournaments import permissions
from tournaments.models import Registration, RegistrationStatus, Tournament
from tournaments.status import EventStatus
from weekends.models import Weekend, WeekendEvent
from weekends.services import is_organiser_of_weekend

# The desk shows at most this many open calls and unreported matches per event (bounded reads).
DESK_LIMIT = 50


def weekend_list() -> QuerySet[Weekend]:
    return Weekend.objects.order_by("-starts_on", "name", "id")


def weekend_by_slug(slug: str) -> Weekend:
    weekend: Weekend = get_object_or_404(Weekend, slug=slug)
    return weekend


def weekend_entries(user: Any, weekend: Weekend) -> list[WeekendEvent]:
    """The weekend's events this person may see, by start time, each with its current round
    (the latest: ``current_round_number``, ``current_round_name``, ``current_round_status``)
    read in the same query."""
    latest = Round.objects.filter(tournament=OuterRef("tournament_id")).order_by("-number")
    visible = Tournament.objects.visible_to(user).values("pk")
    return list(
        weekend.entries.filter(tournament__in=visible)
        .select_related("tournament")
        .annotate(
            current_round_number=Subquery(latest.values("number")[:1]),
            current_round_name=Subquery(latest.values("name")[:1]),
            current_round_status=Subquery(latest.values("status")[:1]),
        )
        .order_by("tournament__starts_at", "tournament_id")
    )


@dataclass(frozen=True)
class DeckEntry:
    event: Tournament
    registration_id: int
    player_name: str
    player_id: str


@dataclass(frozen=True)
class DeckConflict:
    """One decklist (card for card, by its canonical text) entered by several players."""

    fingerprint: str
    entries: list[DeckEntry] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "fingerprint": self.fingerprint,
            "entries": [
                {
                    "event": e.event.slug,
                    "registration": e.registration_id,
                    "player": e.player_name,
                    "player_id": e.player_id,
                }
                for e in self.entries
            ],
        }


def deck_conflicts(weekend: Weekend, *, event: Tournament | None = None) -> list[DeckConflict]:
    """Every decklist that two or more players entered in the weekend's events: each
    registered player's active (latest) version, compared by the decks app's canonical text
    (the same cards in the same counts read the same, whatever the order typed). One player's
    same list in two events is not a conflict. With ``event``: only the conflicts involving it.
    Two queries."""
    event_ids = list(weekend.entries.values_list("tournament_id", flat=True))
    newest = (
        DecklistVersion.objects.filter(decklist=OuterRef("decklist"))
        .values("decklist")
        .annotate(n=Max("number"))
        .values("n")
    )
    rows = (
        DecklistVersion.objects.filter(
            decklist__registration__tournament_id__in=event_ids,
            decklist__registration__status=RegistrationStatus.REGISTERED,
            number=Subquery(newest),
        )
        .annotate(fingerprint=MD5("text"))
        .values_list(
            "fingerprint",
            "decklist__registration_id",
            "decklist__registration__tournament_id",
            "decklist__registration__player_id",
        )
    )
    groups: dict[str, list[tuple[int, int, int | None]]] = defaultdict(list)
    for fingerprint, registration_id, tournament_id, player_pk in rows:
        groups[fingerprint].append((registration_id, tournament_id, player_pk))
    shared = {
        key: members
        for key, members in groups.items()
        if len({p if p is not None else f"r{r}" for r, _t, p in members}) > 1
        and (event is None or any(t == event.pk for _r, t, _p in members))
    }
    if not shared:
        return []
    ids = [r for members in shared.values() for r, _t, _p in members]
    registrations = {
        r.pk: r
        for r in Registration.objects.filter(pk__in=ids).select_related("player", "tournament")
    }
    conflicts = []
    for key in sorted(shared):
        entries = [
            DeckEntry(
                event=registrations[r].tournament,
                registration_id=r,
                player_name=registrations[r].name,
                player_id=registrations[r].player.player_id if registrations[r].player else "",
            )
            for r, _t, _p in sorted(shared[key])
        ]
        conflicts.append(DeckConflict(fingerprint=key[:16], entries=entries))
    return conflicts


def may_see_deck_conflicts(user: Any, weekend: Weekend) -> bool:
    """The weekend's organisers, and the organisers of any of its events."""
    if is_organiser_of_weekend(user, weekend):
        return True
    if not permissions.is_authenticated(user):
        return False
    return weekend.entries.filter(tournament__organisers=user).exists()


@dataclass(frozen=True)
class DeskEvent:
    event: Tournament
    round: Round | None
    counts: dict[str, int]
    total: int
    unreported: list[Match]
    calls: list[JudgeCall]


def staffed_entries(user: Any, weekend: Weekend) -> list[WeekendEvent]:
    """The weekend's events this person staffs (organiser or judge; a superuser all)."""
    if not permissions.is_authenticated(user):
        return []
    entries = weekend.entries.select_related("tournament")
    if not user.is_superuser:
        organised = Tournament.organisers.through.objects.filter(user=user).values("tournament_id")
        judged = Tournament.judges.through.objects.filter(user=user).values("tournament_id")
        entries = entries.filter(tournament_id__in=organised) | entries.filter(
            tournament_id__in=judged
        )
    return list(entries.order_by("tournament__starts_at", "tournament_id"))


def desk(user: Any, weekend: Weekend) -> list[DeskEvent]:
    """The scorekeeper and judge desk across the weekend: for each event the person staffs,
    its current round's state, its open judge calls and its unreported matches (each list
    bounded), read through the matches app's selectors; a fixed number of queries per event."""
    out = []
    for entry in staffed_entries(user, weekend):
        event = entry.tournament
        round_ = event.rounds.order_by("-number").first()
        counts: dict[str, int] = {}
        total = 0
        unreported: list[Match] = []
        if round_ is not None and round_.status in (RoundStatus.PUBLISHED, RoundStatus.FINISHED):
            round_.tournament = event
            progress = match_selectors.round_progress(round_)
            counts, total, unreported = progress.counts, progress.total, progress.unfinished
        calls: list[JudgeCall] = []
        if event.status in (EventStatus.RUNNING, EventStatus.TOP_CUT):
            calls = list(match_selectors.queue_calls([event.pk], state="open")[:DESK_LIMIT])
        out.append(
            DeskEvent(
                event=event,
                round=round_,
                counts=counts,
                total=total,
                unreported=unreported[:DESK_LIMIT],
                calls=calls,
            )
        )
    return out
