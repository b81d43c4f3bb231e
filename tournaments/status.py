"""The event status machine, as data.

draft -> registration_open -> registration_closed -> running -> top_cut -> finished, and
cancelled from anywhere that is not over. An organiser may reopen registration from closed, or
take an event with registration open back to draft (nobody sees drafts but its organisers).
Pure Python: services ask `check_transition` and never compare statuses themselves.
"""

from __future__ import annotations

from enum import StrEnum


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
