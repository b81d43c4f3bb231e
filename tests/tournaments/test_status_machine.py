import itertools

import pytest

from tournaments.status import (
    TRANSITIONS,
    EventStatus,
    InvalidTransition,
    allowed_transitions,
    check_transition,
)

LIFECYCLE = [
    EventStatus.DRAFT,
    EventStatus.REGISTRATION_OPEN,
    EventStatus.REGISTRATION_CLOSED,
    EventStatus.RUNNING,
    EventStatus.TOP_CUT,
    EventStatus.FINISHED,
]


@pytest.mark.parametrize(("current", "target"), list(itertools.pairwise(LIFECYCLE)))
def test_the_lifecycle_moves_forward(current: EventStatus, target: EventStatus) -> None:
    assert check_transition(current, target) is target


@pytest.mark.parametrize("current", [s for s in EventStatus if TRANSITIONS[s]])
def test_anything_not_over_can_be_cancelled(current: EventStatus) -> None:
    assert check_transition(current, "cancelled") is EventStatus.CANCELLED


@pytest.mark.parametrize(
    ("current", "target"),
    [
        ("draft", "running"),
        ("registration_open", "finished"),
        ("finished", "running"),
        ("cancelled", "registration_open"),
        ("running", "registration_open"),
        ("top_cut", "running"),
    ],
)
def test_impossible_transitions_name_what_is_allowed(current: str, target: str) -> None:
    with pytest.raises(InvalidTransition) as excinfo:
        check_transition(current, target)
    message = str(excinfo.value)
    assert f"'{current}'" in message and f"'{target}'" in message
    for allowed in TRANSITIONS[EventStatus(current)]:
        assert allowed.value in message


def test_unknown_target_is_an_invalid_transition() -> None:
    with pytest.raises(InvalidTransition):
        check_transition("draft", "party")


def test_finished_and_cancelled_are_final() -> None:
    assert allowed_transitions("finished") == []
    assert allowed_transitions("cancelled") == []


def test_every_status_is_reachable_from_draft() -> None:
    seen = {EventStatus.DRAFT}
    frontier = [EventStatus.DRAFT]
    while frontier:
        for nxt in TRANSITIONS[frontier.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    assert seen == set(EventStatus)
