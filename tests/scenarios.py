"""Named scenarios: the event states many tests start from, built through the services as an
organiser builds them, so a test says which state it needs instead of copying the steps.

- ``running_event``: a running BoBA event with registered players;
- ``published_round``: its round 1 paired and published, with a judge;
- ``finished_swiss``: every planned Swiss round played and finished;
- ``running_top_cut``: the Swiss rounds finished and the top cut's first round published;
- ``bos_table``: a published BOS round with one match (the match clock's tests).

The fixtures of the same names (tests/conftest.py) give the defaults; call these functions for
another size or other event fields.

Sharing a world across a module. A file whose tests each build the same world and then only
read it, or change it in ways a rollback undoes, builds it once: a module-scoped fixture on
tests/conftest.py's ``module_db`` (one transaction around the module, rolled back at its end)
builds it, and a function fixture on it and ``db`` (each test in a savepoint inside that
transaction) hands each test ``own_copy`` of it, as Django's TestCase.setUpTestData does::

    @pytest.fixture(scope="module")
    def exported_once(module_db: None) -> World: ...      # built once for the module

    @pytest.fixture
    def exported(exported_once: World, db: None) -> World:
        return own_copy(exported_once)                      # the test's own instances

``shared_published_round``, ``shared_finished_swiss`` and ``shared_running_top_cut`` are the
three named scenarios built that way, ``shared_demo_catalog`` the demo catalog
(tests/conftest.py); ``bos_published`` and ``bos_clock_table`` a BOS match
(tests/matches/conftest.py); the demo is ``demo_loaded``. What a shared world asks of its
module:

- every test of the module that touches the database uses ``db`` (never ``transactional_db``:
  pytest-django runs those after the module's transaction is gone), and none asserts what it
  would only see alone in the database (a count of all events, "no user exists"): the world is
  there for every test of the module that runs after the first test that asks for it;
- the world's rows are the same for every test, so the test's copies of its instances are
  what a build of its own would have returned; ids are the world's, shared by the tests;
- what the process keeps by id between tests (the page copies, the prepared rows, the cache)
  is cleared before each test (tests/conftest.py's ``_no_cache_from_another_test``), so a test
  reads the world through the database, not through a copy another test left;
- with pytest-xdist each worker that runs a test of the module builds the world once.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from rest_framework.test import APIClient

from matches import services
from matches.models import JudgeCall, Match, Round, RoundStatus
from tests.factories import OrganiserFactory, RegistrationFactory, TournamentFactory, UserFactory
from tournaments.models import Registration, Tournament
from tournaments.status import EventStatus

W = TypeVar("W")


def own_copy(world: W) -> W:
    """A deep copy of a world built once for the module: the test's own instances, which it
    may change in memory without another test seeing it (Django's TestCase.setUpTestData
    hands each test a copy the same way)."""
    return copy.deepcopy(world)


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def running_event(players: int, **fields: Any) -> tuple[Tournament, Any, list[Registration]]:
    """A running BoBA event with ``players`` registered players; (event, organiser, regs)."""
    organiser = OrganiserFactory()
    fields.setdefault("status", EventStatus.RUNNING.value)
    event = TournamentFactory(organisers=[organiser], **fields)
    regs = [RegistrationFactory(tournament=event, player=UserFactory()) for _ in range(players)]
    return event, organiser, regs


def pair_and_publish(event: Tournament, organiser: Any) -> Round:
    """The next round, paired and published by the organiser."""
    round_ = services.round_pair(actor=organiser, tournament=event)
    return services.round_publish(actor=organiser, round_=round_)


def finish_round(round_: Round, organiser: Any, games: Sequence[int] = (1, 0, 0)) -> None:
    """The organiser enters ``games`` (side a's wins first) for every two-player match."""
    for match in round_.matches.filter(b__isnull=False).select_related("round"):
        services.match_report(actor=organiser, match=match, games=list(games))
    round_.refresh_from_db()
    assert round_.status == RoundStatus.FINISHED


def _two_player_matches(round_: Round) -> list[Match]:
    return list(
        round_.matches.filter(b__isnull=False)
        .select_related("round", "a__player", "b__player")
        .order_by("table")
    )


@dataclass(frozen=True)
class PublishedRound:
    event: Tournament
    organiser: Any
    judge: Any
    round: Round
    registrations: list[Registration]
    matches: list[Match]  # the two-player matches, by table


def published_round(players: int = 4, *, judge: Any = None, **fields: Any) -> PublishedRound:
    """A running event with a judge and its round 1 published."""
    event, organiser, regs = running_event(players, **fields)
    judge = judge or UserFactory()
    event.judges.add(judge)
    round_ = pair_and_publish(event, organiser)
    round_.refresh_from_db()
    return PublishedRound(event, organiser, judge, round_, regs, _two_player_matches(round_))


@dataclass(frozen=True)
class FinishedSwiss:
    event: Tournament
    organiser: Any
    registrations: list[Registration]
    rounds: list[Round]


def finished_swiss(players: int = 8, rounds: int = 3, **fields: Any) -> FinishedSwiss:
    """Every planned Swiss round played (side a wins each match) and finished."""
    event, organiser, regs = running_event(players, planned_rounds=rounds, **fields)
    played = []
    for _ in range(rounds):
        round_ = pair_and_publish(event, organiser)
        finish_round(round_, organiser)
        played.append(round_)
    event.refresh_from_db()
    return FinishedSwiss(event, organiser, regs, played)


@dataclass(frozen=True)
class RunningTopCut:
    event: Tournament
    organiser: Any
    registrations: list[Registration]
    swiss: list[Round]
    cut: Round  # the bracket's first round, published
    matches: list[Match]


def running_top_cut(
    players: int = 8, top_cut_size: int = 4, swiss_rounds: int = 1, **fields: Any
) -> RunningTopCut:
    """The Swiss rounds finished and the top cut's first round published."""
    swiss = finished_swiss(players, swiss_rounds, top_cut_size=top_cut_size, **fields)
    cut = services.top_cut_start(actor=swiss.organiser, tournament=swiss.event)
    cut = services.round_publish(actor=swiss.organiser, round_=cut)
    swiss.event.refresh_from_db()
    return RunningTopCut(
        swiss.event,
        swiss.organiser,
        swiss.registrations,
        swiss.rounds,
        cut,
        _two_player_matches(cut),
    )


BosTable = tuple[Any, Any, Match]  # (event, organiser, the published match)


def bos_table(clock_mode: str = "per_game", structure: str = "bo3", **fields: Any) -> BosTable:
    """A published round of a BOS event with one match; (event, organiser, match)."""
    event, organiser, _regs = running_event(
        2,
        game="bos",
        mode="competitive",
        format_key="competitive",
        match_structure=structure,
        clock_mode=clock_mode,
        **fields,
    )
    round_ = pair_and_publish(event, organiser)
    match = Match.objects.select_related("round__tournament", "a__player", "b__player").get(
        round=round_
    )
    return event, organiser, match


def open_call_scene() -> dict[str, Any]:
    event, organiser, _ = running_event(4)
    judge = UserFactory()
    event.judges.add(judge)
    round_ = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_)
    match = round_.matches.filter(b__isnull=False).select_related("a__player", "b__player")[0]
    call, _ = services.call_open(actor=match.a.player, match=match, question="Can he sub twice?")
    return {"event": event, "judge": judge, "match": match, "call": call}


def adjudication_url(call: JudgeCall) -> str:
    return f"/judge/calls/{call.pk}/adjudicate/"


def pair_and_publish_through_api(event: Any, organiser: Any) -> dict[str, Any]:
    staff = client_for(organiser)
    created = staff.post(f"/api/events/{event.slug}/rounds/", {}, format="json")
    assert created.status_code == 201, created.content
    number = created.json()["number"]
    published = staff.post(f"/api/events/{event.slug}/rounds/{number}/publish/", {}, format="json")
    assert published.status_code == 200, published.content
    return published.json()


def player_client(match: dict[str, Any], side: str) -> APIClient:
    from tournaments.models import Registration

    return client_for(Registration.objects.get(pk=match[side]).player)
