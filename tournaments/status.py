"""The event status machine, as data.

draft -> registration_open -> registration_closed -> running -> top_cut -> finished, and
cancelled from anywhere that is not over. An organiser may reopen registration from closed, or
take an event with registration open back to draft (nobody sees drafts but its organisers).
Pure Python: services ask `check_transition` and never compare statuses themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from engine.games import N_, Text


class EventStatus(StrEnum):
    DRAFT = "draft"
    REGISTRATION_OPEN = "registration_open"
    REGISTRATION_CLOSED = "registration_closed"
    RUNNING = "running"
    TOP_CUT = "top_cut"
    FINISHED = "finished"
    CANCELLED = "cancelled"


TRANSITIONS: dict[EventStatus, frozenset[EventStatus]] = {
    EventStatus.DRAFT: frozenset({EventStatus.REGISTRATION_OPEN, EventStatus.CANCELLED}),
    EventStatus.REGISTRATION_OPEN: frozenset(
        {EventStatus.REGISTRATION_CLOSED, EventStatus.DRAFT, EventStatus.CANCELLED}
    ),
    EventStatus.REGISTRATION_CLOSED: frozenset(
        {EventStatus.REGISTRATION_OPEN, EventStatus.RUNNING, EventStatus.CANCELLED}
    ),
    EventStatus.RUNNING: frozenset(
        {EventStatus.TOP_CUT, EventStatus.FINISHED, EventStatus.CANCELLED}
    ),
    EventStatus.TOP_CUT: frozenset({EventStatus.FINISHED, EventStatus.CANCELLED}),
    EventStatus.FINISHED: frozenset(),
    EventStatus.CANCELLED: frozenset(),
}

LABELS: dict[EventStatus, str] = {
    EventStatus.DRAFT: "Draft",
    EventStatus.REGISTRATION_OPEN: "Registration open",
    EventStatus.REGISTRATION_CLOSED: "Registration closed",
    EventStatus.RUNNING: "Running",
    EventStatus.TOP_CUT: "Top cut",
    EventStatus.FINISHED: "Finished",
    EventStatus.CANCELLED: "Cancelled",
}

# Statuses in which the event has players who can still be checked in, dropped or added.
ON_THE_DAY = frozenset(
    {EventStatus.REGISTRATION_OPEN, EventStatus.REGISTRATION_CLOSED, EventStatus.RUNNING}
)
PUBLIC = frozenset(set(EventStatus) - {EventStatus.DRAFT})


class InvalidTransition(ValueError):
    def __init__(self, current: EventStatus, target: str) -> None:
        allowed = ", ".join(sorted(s.value for s in TRANSITIONS[current])) or "none"
        super().__init__(
            f"An event cannot go from '{current.value}' to '{target}'. "
            f"From '{current.value}' it can go to: {allowed}."
        )
        self.current = current
        self.target = target


def check_transition(current: str, target: str) -> EventStatus:
    """Return the target status, or raise InvalidTransition naming what is allowed."""
    current_status = EventStatus(current)
    try:
        target_status = EventStatus(target)
    except ValueError:
        raise InvalidTransition(current_status, target) from None
    if target_status not in TRANSITIONS[current_status]:
        raise InvalidTransition(current_status, target)
    return target_status


def allowed_transitions(current: str) -> list[EventStatus]:
    return sorted(TRANSITIONS[EventStatus(current)], key=list(EventStatus).index)


# --- what can be done now, and why not ----------------------------------------------------
#
# Pages offer only what the services will accept, and say in words why the rest cannot be
# done yet; the services refuse with the same sentence (prefixed with the field). Both read
# these functions, so an offered button is never answered with a refusal. Messages are
# engine.games.Text (an English message id and its parameters, marked with N_): the site
# translates them, this module stays free of Django.


@dataclass(frozen=True)
class RoundFacts:
    """The event's latest round as far as moving the event on is concerned."""

    number: int
    stage: str  # "swiss" or "top_cut"
    status: str  # "pairing", "paired", "published" or "finished"
    not_final: int = 0  # matches without a final result


@dataclass(frozen=True)
class EventFacts:
    """What decides which actions an event offers now (tournaments.selectors.event_facts)."""

    status: str
    latest_round: RoundFacts | None = None
    top_cut_size: int = 0
    swiss_rounds_left: int = 0  # planned Swiss rounds not yet paired
    registration_opens_at: datetime | None = None
    registration_closes_at: datetime | None = None


@dataclass(frozen=True)
class Refusal:
    """Why an action cannot be done now: a stable code for the API and a sentence for people."""

    code: str
    text: Text

    def render(self, translate: Callable[[str], str] = lambda m: m) -> str:
        return self.text.render(translate)


def _status_list(statuses: Iterable[EventStatus]) -> str:
    return ", ".join(s.value for s in sorted(statuses, key=list(EventStatus).index)) or "none"


def round_refusal(latest: RoundFacts | None) -> Refusal | None:
    """Why the event cannot move past its latest round yet (None: that round is over)."""
    if latest is None or latest.status == "finished":
        return None
    params = {"n": latest.number}
    if latest.status == "pairing":
        text = Text.of(
            N_("Round %(n)d is still being paired: publish and finish it first."), **params
        )
    elif latest.status == "paired":
        text = Text.of(
            N_(
                "Round %(n)d is paired but not published: publish and finish it, or delete it, first."
            ),
            **params,
        )
    elif latest.not_final == 1:
        text = Text.of(N_("Finish round %(n)d first: 1 match is not final."), **params)
    else:
        text = Text.of(
            N_("Finish round %(n)d first: %(count)d matches are not final."),
            count=latest.not_final,
            **params,
        )
    return Refusal("round_unfinished", text)


def top_cut_refusal(facts: EventFacts) -> Refusal | None:
    """Why the top cut cannot start now (matches.services.top_cut_start starts it)."""
    status = EventStatus(facts.status)
    if status == EventStatus.TOP_CUT:
        return Refusal("not_running", Text.of(N_("The top cut has already started.")))
    if status in (EventStatus.FINISHED, EventStatus.CANCELLED):
        return Refusal("not_running", Text.of(N_("The event is over.")))
    if status != EventStatus.RUNNING:
        return Refusal(
            "not_running", Text.of(N_("Start the event and play its Swiss rounds first."))
        )
    if not facts.top_cut_size:
        return Refusal(
            "no_top_cut", Text.of(N_("This event has no top cut: finish it after its last round."))
        )
    if facts.latest_round is None:
        return Refusal("round_unfinished", Text.of(N_("Play the Swiss rounds first.")))
    blocked = round_refusal(facts.latest_round)
    if blocked is not None:
        return blocked
    if facts.swiss_rounds_left == 1:
        return Refusal("swiss_left", Text.of(N_("1 Swiss round is still planned: pair it first.")))
    if facts.swiss_rounds_left > 1:
        return Refusal(
            "swiss_left",
            Text.of(
                N_("%(n)d Swiss rounds are still planned: pair them first."),
                n=facts.swiss_rounds_left,
            ),
        )
    return None


def transition_refusal(facts: EventFacts, target: str) -> Refusal | None:
    """Why the event cannot move to `target` now; None when it can."""
    current = EventStatus(facts.status)
    allowed = _status_list(TRANSITIONS[current])
    try:
        wanted = EventStatus(target)
    except ValueError:
        return Refusal(
            "invalid_transition",
            Text.of(
                N_(
                    "'%(target)s' is not an event status. From '%(current)s' it can go to: %(allowed)s."
                ),
                target=str(target)[:40],
                current=current.value,
                allowed=allowed,
            ),
        )
    if wanted not in TRANSITIONS[current]:
        return Refusal(
            "invalid_transition",
            Text.of(
                N_(
                    "An event cannot go from '%(current)s' to '%(target)s'. From '%(current)s' it can go to: %(allowed)s."
                ),
                target=wanted.value,
                current=current.value,
                allowed=allowed,
            ),
        )
    if wanted == EventStatus.TOP_CUT:
        # The bracket is seeded from the final standings: only the round control starts it.
        return top_cut_refusal(facts) or Refusal(
            "invalid_transition",
            Text.of(N_("Start the top cut from the round control: it seeds the bracket.")),
        )
    if wanted == EventStatus.FINISHED:
        return round_refusal(facts.latest_round)
    return None


def transition_offers(facts: EventFacts) -> list[tuple[EventStatus, Refusal | None]]:
    """Every status the machine allows from here, each with why not (None: it can move now).
    The top cut is not a status to move to: it is started (top_cut_refusal)."""
    return [
        (target, transition_refusal(facts, target.value))
        for target in allowed_transitions(facts.status)
        if target != EventStatus.TOP_CUT
    ]


def players_refusal(status: str) -> Refusal | None:
    """Why players cannot be checked in or added (walk-ins) now: only while the event takes
    players (ON_THE_DAY)."""
    current = EventStatus(status)
    if current in ON_THE_DAY:
        return None
    if current == EventStatus.DRAFT:
        return Refusal("not_open", Text.of(N_("Open registration first.")))
    if current == EventStatus.TOP_CUT:
        return Refusal(
            "event_over",
            Text.of(N_("The Swiss rounds are over: no more players join or check in.")),
        )
    if current == EventStatus.CANCELLED:
        return Refusal("event_over", Text.of(N_("The event has been cancelled.")))
    return Refusal("event_over", Text.of(N_("The event is over.")))


def registration_refusal(facts: EventFacts, now: datetime) -> Refusal | None:
    """Why a player cannot register now; None while registration is open."""
    current = EventStatus(facts.status)
    if current == EventStatus.REGISTRATION_OPEN:
        if facts.registration_opens_at is not None and now < facts.registration_opens_at:
            return Refusal("registration_closed", Text.of(N_("Registration has not opened yet.")))
        if facts.registration_closes_at is not None and now >= facts.registration_closes_at:
            return Refusal("registration_closed", Text.of(N_("Registration has closed.")))
        return None
    if current == EventStatus.DRAFT:
        return Refusal("registration_closed", Text.of(N_("Registration has not opened yet.")))
    if current == EventStatus.REGISTRATION_CLOSED:
        return Refusal("registration_closed", Text.of(N_("Registration has closed.")))
    if current in (EventStatus.RUNNING, EventStatus.TOP_CUT):
        return Refusal(
            "registration_closed", Text.of(N_("Registration has closed: the event is under way."))
        )
    if current == EventStatus.CANCELLED:
        return Refusal("cancelled", Text.of(N_("The event has been cancelled.")))
    return Refusal("registration_closed", Text.of(N_("The event is over.")))
