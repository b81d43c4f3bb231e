"""python manage.py load_demo: a running event with three finished rounds and a fourth under
way, played through the services; loading it again changes nothing."""

from __future__ import annotations

import io
from collections import Counter

import pytest
from django.apps import apps
from django.core.management import call_command

from decks.models import DecklistVersion
from eventdata.demo import DEMO_EVENT_SLUG, DROPPING_PLAYER, PLAYER_COUNT
from matches import services
from matches.models import Match, MatchStatus, Round, StandingsSnapshot
from tournaments.models import Tournament

# One worker runs the module (`--dist loadgroup`): the demo is loaded once for it (demo_loaded,
# about 3 CPU seconds), not once on each worker that gets one of its tests.
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("demo_rounds")]


def _row_counts() -> dict[str, int]:
    return {model._meta.label: model.objects.count() for model in apps.get_models()}


def _load() -> str:
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_the_demo_event_is_running_round_4(demo_loaded: str) -> None:
    event = Tournament.objects.get(slug=DEMO_EVENT_SLUG)
    assert event.status == "running"
    assert event.pairing_seed  # fixed, so every load pairs the same rounds

    rounds = list(Round.objects.filter(tournament=event).order_by("number"))
    assert [(r.number, r.stage, r.status) for r in rounds] == [
        (1, "swiss", "finished"),
        (2, "swiss", "finished"),
        (3, "swiss", "finished"),
        (4, "swiss", "published"),
    ]
    for r in rounds[:3]:
        assert StandingsSnapshot.objects.filter(round=r).exists()
    statuses = Counter(Match.objects.filter(round=rounds[3]).values_list("status", flat=True))
    assert statuses[MatchStatus.PENDING] >= 1
    assert statuses[MatchStatus.REPORTED] >= 1
    assert statuses[MatchStatus.DISPUTED] == 1
    assert statuses[MatchStatus.FINAL] >= 2  # confirmed results and the bye

    registrations = event.registrations.filter(status="registered")
    assert registrations.count() == PLAYER_COUNT
    assert registrations.filter(checked_in_at__isnull=True).count() == 0
    assert [r.player.username for r in registrations.filter(dropped_at__isnull=False)] == [
        DROPPING_PLAYER
    ]
    dropped = registrations.get(player__username=DROPPING_PLAYER)
    assert not Match.objects.filter(
        round__number__gte=3, round__tournament=event, a=dropped
    ).exists()
    assert not Match.objects.filter(
        round__number__gte=3, round__tournament=event, b=dropped
    ).exists()
    # 31 players after the drop: one bye in each of rounds 3 and 4.
    assert Match.objects.filter(round__in=rounds[2:], b__isnull=True).count() == 2
    # Every player has a legal list.
    legal = DecklistVersion.objects.filter(decklist__registration__tournament=event, legal=True)
    assert legal.values("decklist").distinct().count() == PLAYER_COUNT

    standings = services.standings_snapshot(event, 3).rows
    assert len(standings) == PLAYER_COUNT
    assert standings[0]["points"] == 9
    assert [r["registration"] for r in standings if r["dropped"]] == [dropped.pk]


def test_loading_the_demo_twice_changes_nothing(demo_loaded: str) -> None:
    first = _row_counts()
    rounds = list(Round.objects.values("number", "status", "seed", "version"))
    matches = list(Match.objects.order_by("pk").values())
    out = _load()
    assert "already loaded" in out
    assert _row_counts() == first
    assert list(Round.objects.values("number", "status", "seed", "version")) == rounds
    assert list(Match.objects.order_by("pk").values()) == matches


def test_the_demo_has_no_open_dispute_or_result_call_on_a_final_match(demo_loaded: str) -> None:
    from matches.models import OPEN_CALL_STATUSES, CallKind, JudgeCall

    stale = JudgeCall.objects.filter(
        status__in=OPEN_CALL_STATUSES, match__status=MatchStatus.FINAL
    ).values_list("tournament__slug", "match__round__number", "match__table")
    assert list(stale) == []
    # The judges' queue holds what the README says: round 4's one dispute, nothing else.
    event = Tournament.objects.get(slug=DEMO_EVENT_SLUG)
    open_calls = JudgeCall.objects.filter(status__in=OPEN_CALL_STATUSES)
    assert [(c.tournament_id, c.kind, c.match.round.number) for c in open_calls] == [
        (event.pk, CallKind.DISPUTE, 4)
    ]
    # Round 4 as the README describes it.
    round_4 = Match.objects.filter(round__tournament=event, round__number=4)
    assert Counter(round_4.values_list("status", flat=True)) == {
        MatchStatus.FINAL: 6,  # five confirmed results and the bye
        MatchStatus.REPORTED: 4,
        MatchStatus.DISPUTED: 1,
        MatchStatus.PENDING: 5,
    }
    assert list(
        round_4.filter(extension_minutes__gt=0).values_list("extension_minutes", flat=True)
    ) == [5]
    # Round 2's dispute was settled by the judge's entry, in the audit trail.
    settled = JudgeCall.objects.get(match__round__number=2, tournament=event)
    assert settled.status == "resolved" and settled.holder.username == "judge"
    assert event.audit_entries.filter(action="call.resolved_by_result").count() == 1


def test_loading_again_settles_a_dispute_an_older_demo_left_open_and_then_changes_nothing(
    demo_loaded: str,
) -> None:
    from matches.models import CallStatus, JudgeCall

    event = Tournament.objects.get(slug=DEMO_EVENT_SLUG)
    # As the demo was before staff results settled disputes: round 2's dispute still open.
    stale = JudgeCall.objects.get(match__round__number=2, tournament=event)
    JudgeCall.objects.filter(pk=stale.pk).update(
        status=CallStatus.OPEN, holder=None, resolved_at=None, notes=""
    )
    event.audit_entries.filter(action="call.resolved_by_result").delete()

    _load()

    stale.refresh_from_db()
    assert stale.status == CallStatus.RESOLVED and stale.holder.username == "judge"
    assert "settled by the final result" in stale.notes
    assert event.audit_entries.filter(action="call.resolved_by_result").count() == 1
    counts = _row_counts()
    _load()
    assert _row_counts() == counts
