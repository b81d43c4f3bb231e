"""The phone-sized browser tests' event: named players, its round published with the timer running
(tests/test_browser_rounds.py, test_browser_offline.py, test_browser_phone.py)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from matches import services
from matches.models import Match, Round, RoundStatus
from tests.factories import OrganiserFactory, RegistrationFactory, TournamentFactory, UserFactory
from tournaments.models import Registration
from tournaments.status import EventStatus
from tournaments.timer import RoundTimer

NAMES = ["Ada Lovelace", "Brian Kernighan", "Carol Shaw", "Dennis Ritchie", "Edsger Dijkstra",
         "Frances Allen"]  # fmt: skip


def running_event(names: list[str]) -> tuple[Any, Any, list[Registration]]:
    organiser = OrganiserFactory()
    event = TournamentFactory(
        name="Phone Rounds Open", organisers=[organiser], status=EventStatus.RUNNING.value
    )
    regs = [
        RegistrationFactory(
            tournament=event,
            player=UserFactory(username=name.split()[0].lower(), display_name=name),
        )
        for name in names
    ]
    return event, organiser, regs


def pair_and_publish(event: Any, organiser: Any) -> Round:
    round_ = services.round_pair(actor=organiser, tournament=event)
    round_ = services.round_publish(actor=organiser, round_=round_)
    assert round_.status == RoundStatus.PUBLISHED
    assert RoundTimer.from_json(round_.timer).state == "running"  # started on publishing
    return round_


def match_of(round_: Round, registration: Registration) -> Match:
    return round_.matches.select_related("a__player", "b__player").get(
        Q(a=registration) | Q(b=registration)
    )
