"""The site's one lock order (docs/architecture.md, "Lock order"), raced on PostgreSQL.

Each test runs two services that lock the same rows at once, many times over, behind a
barrier: with locks taken in different orders PostgreSQL kills one side with a deadlock (a 500
to the user); in the one order they queue and every request gets its answer.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from config.errors import Conflict, ServiceError
from config.locks import LOCK_ORDER, for_update
from matches import services as match_services
from matches.models import Match, MatchStatus
from tests.factories import TournamentFactory, UserFactory, organiser_of
from tests.scenarios import running_event
from tests.support import run_at_once
from tournaments import services
from tournaments.models import Registration, RegistrationStatus
from tournaments.status import EventStatus

pytestmark = pytest.mark.services

PAIRS = 20  # forty requests at once, as the review ran them
RUNS = 3


def _errors(results: list[Any], allowed: tuple[type[Exception], ...] = ()) -> list[Any]:
    return [r for r in results if isinstance(r, Exception) and not isinstance(r, allowed)]


def _walk_ins(event: Any, organiser: Any, n: int) -> list[Registration]:
    return [
        services.registration_add_walk_in(actor=organiser, tournament=event, name=f"Walk-in {i}")
        for i in range(n)
    ]


def test_claiming_walk_ins_while_staff_check_them_in_never_deadlocks(
    require_postgres: None,
) -> None:
    for _ in range(RUNS):
        event = TournamentFactory(status=EventStatus.REGISTRATION_CLOSED.value)
        organiser = organiser_of(event)
        walk_ins = _walk_ins(event, organiser, PAIRS)
        people = [UserFactory() for _ in walk_ins]
        calls: list[Callable[[], Any]] = []
        for reg, person in zip(walk_ins, people, strict=True):
            code = reg.claim_code
            assert code is not None
            calls.append(
                lambda p=person, c=code: services.registration_claim(actor=p, claim_code=c)
            )
            calls.append(
                lambda r=reg, o=organiser: services.registration_check_in(actor=o, registration=r)
            )

        results = run_at_once(calls)

        assert not _errors(results), _errors(results)
        for reg, person in zip(walk_ins, people, strict=True):
            reg.refresh_from_db()
            assert reg.player_id == person.pk and reg.claim_code is None
            assert reg.checked_in_at is not None


def test_claiming_walk_ins_while_staff_remove_them_never_deadlocks(require_postgres: None) -> None:
    for _ in range(RUNS):
        event = TournamentFactory(status=EventStatus.REGISTRATION_CLOSED.value)
        organiser = organiser_of(event)
        walk_ins = _walk_ins(event, organiser, PAIRS)
        calls: list[Callable[[], Any]] = []
        for reg in walk_ins:
            code = reg.claim_code
            assert code is not None
            calls.append(
                lambda c=code: services.registration_claim(actor=UserFactory(), claim_code=c)
            )
            calls.append(
                lambda r=reg, o=organiser: services.registration_remove(
                    actor=o, registration=r, confirm=True
                )
            )

        results = run_at_once(calls)

        # A claim that comes after the removal is refused (409); nothing else fails.
        assert not _errors(results, (Conflict,)), _errors(results, (Conflict,))
        claims, removals = results[0::2], results[1::2]
        assert all(isinstance(r, Registration) for r in removals), removals
        for reg, claim in zip(walk_ins, claims, strict=True):
            reg.refresh_from_db()
            assert reg.status == RegistrationStatus.REMOVED
            assert (reg.player_id is not None) == isinstance(claim, Registration)


def test_penalties_and_reports_on_the_same_matches_never_deadlock(require_postgres: None) -> None:
    """A penalty locks event, registration, round, match; a report locks round and match and
    then writes rows that point at the event (the audit entry): with FOR UPDATE those rows'
    foreign-key checks waited on the event's lock, out of the order."""
    for _ in range(RUNS):
        event, organiser, _ = running_event(2 * PAIRS)
        round_ = match_services.round_pair(actor=organiser, tournament=event)
        match_services.round_publish(actor=organiser, round_=round_)
        matches = list(
            Match.objects.filter(round=round_, b__isnull=False).select_related(
                "round__tournament", "a__player", "b__player"
            )
        )
        calls: list[Callable[[], Any]] = []
        for m in matches:
            calls.append(
                lambda m=m: match_services.match_report(
                    actor=m.a.player, match=_fresh(m), games=[1, 0, 0]
                )
            )
            calls.append(
                lambda m=m, o=organiser: match_services.penalty_give(
                    actor=o,
                    match=_fresh(m),
                    registration=m.b_id,
                    infraction="game_rule_violation",
                    penalty="warning",
                )
            )

        results = run_at_once(calls)

        assert not _errors(results, (ServiceError,)), _errors(results, (ServiceError,))
        assert not [r for r in results if isinstance(r, ServiceError)], results
        assert all(
            m.status == MatchStatus.REPORTED
            for m in Match.objects.filter(round=round_, b__isnull=False)
        )


def _fresh(match: Match) -> Match:
    return Match.objects.select_related("round__tournament", "a", "b").get(pk=match.pk)


def test_every_row_lock_goes_through_the_sites_lock_helper() -> None:
    """A bare select_for_update takes FOR UPDATE (which blocks foreign-key checks of rows
    pointing at it) and, with select_related, the joined rows too: both out of the order."""
    root = Path(__file__).resolve().parent.parent
    bare = [
        f"{path.relative_to(root)}:{n}"
        for app in (
            "accounts",
            "config",
            "decks",
            "matches",
            "notifications",
            "tournaments",
            "eventdata",
        )
        for path in sorted((root / app).rglob("*.py"))
        if "migrations" not in path.parts and path.name != "locks.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if "select_for_update(" in line
    ]
    assert not bare, f"lock rows with config.locks.for_update: {bare}"


def test_the_lock_helper_takes_a_no_key_lock_on_its_own_table_only(db: None) -> None:
    from django.db import connection

    sql = str(for_update(Registration.objects.select_related("tournament")).query)
    if connection.features.has_select_for_update_of:
        assert "FOR NO KEY UPDATE OF" in sql
        assert '"tournaments_tournament"' not in sql.split("FOR NO KEY UPDATE OF")[1]
    assert LOCK_ORDER.index("event") < LOCK_ORDER.index("registration")
    assert LOCK_ORDER.index("decklist") < LOCK_ORDER.index("round")
