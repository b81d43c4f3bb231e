"""python manage.py swiss_state: an event's Swiss history as the Swiss CLI's STATE.json, from
which the pure core reproduces the site's standings and its next pairing."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.core.management import ManagementUtility, call_command
from django.core.management.base import CommandError

from matches import services
from matches.models import Round
from tests.scenarios import running_event
from tournaments import swiss
from tournaments.services import registration_drop
from tournaments.standings import compute_standings

pytestmark = pytest.mark.django_db


def _play(event: Any, organiser: Any, rng: random.Random) -> Round:
    """Pair, publish and finish one round: players report and confirm, a few staff results,
    some draws, trophies recorded."""
    round_ = services.round_pair(actor=organiser, tournament=event)
    round_ = services.round_publish(actor=organiser, round_=round_)
    for i, match in enumerate(round_.matches.filter(b__isnull=False).order_by("table")):
        roll = rng.random()
        if roll < 0.15:
            games, battles = [0, 0, 1], [[3, 3]]
        else:
            won = rng.randint(4, 7)
            lost = rng.randint(0, 7 - won)
            if roll < 0.6:
                games, battles = [1, 0, 0], [[won, lost]]
            else:
                games, battles = [0, 1, 0], [[lost, won]]
        if i % 4 == 3:
            services.match_report(actor=organiser, match=match, games=games, battles=battles)
        else:
            services.match_report(actor=match.a.player, match=match, games=games, battles=battles)
            services.match_confirm(actor=match.b.player, match=match)
    round_.refresh_from_db()
    assert round_.status == "finished"
    return round_


def _state(event: Any, *args: str) -> dict[str, Any]:
    out = io.StringIO()
    call_command("swiss_state", event.slug, *args, stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue())


def _site_pairs(round_: Round) -> tuple[set[tuple[int, int, int | None]], set[int]]:
    pairs = {(m.a_id, m.b_id, m.table) for m in round_.matches.filter(b__isnull=False)}
    byes = {m.a_id for m in round_.matches.filter(b__isnull=True)}
    return pairs, byes


def _state_pairs(state: dict[str, Any]) -> tuple[set[tuple[int, int, int | None]], set[int]]:
    parsed = swiss.parse_state(state)
    result = swiss.pair_round(
        parsed.players, parsed.rounds, parsed.scoring, parsed.seed, None, parsed.tiebreakers
    )
    pairs = {(int(p.a), int(p.b), p.table) for p in result.pairings}
    byes = {int(p) for p in result.assigned_byes}
    if result.bye is not None:
        byes.add(int(result.bye))
    return pairs, byes


def _compare_standings(state: dict[str, Any], site_rows: list[dict[str, Any]]) -> None:
    parsed = swiss.parse_state(state)
    rows = compute_standings(parsed.players, parsed.rounds, parsed.scoring, parsed.tiebreakers)
    assert len(rows) == len(site_rows)
    for row, site in zip(rows, site_rows, strict=True):
        assert int(row.player_id) == site["registration"]
        assert row.rank == site["rank"]
        assert row.points == site["points"]
        assert row.record == site["record"]
        assert row.dropped == site["dropped"]
        tiebreakers = {name: value for name, value in row.tiebreakers if name != "h2h"}
        assert tiebreakers == site["tiebreakers"]


@pytest.fixture
def three_rounds() -> tuple[Any, Any, list[Any]]:
    """An 11-player event (byes every round) after three finished rounds, one player dropped
    after round 2."""
    event, organiser, regs = running_event(11)
    rng = random.Random(7)
    _play(event, organiser, rng)
    _play(event, organiser, rng)
    registration_drop(actor=regs[4].player, registration=regs[4], round_number=2)
    _play(event, organiser, rng)
    return event, organiser, regs


def test_state_reproduces_the_standings_and_the_next_pairing(
    three_rounds: tuple[Any, Any, list[Any]], tmp_path: Path
) -> None:
    event, organiser, regs = three_rounds
    path = tmp_path / "STATE.json"
    call_command("swiss_state", event.slug, "--output", str(path), stderr=io.StringIO())
    state = json.loads(path.read_text())

    assert {p["id"] for p in state["players"]} == {str(r.pk) for r in regs}
    assert len(state["rounds"]) == 3
    assert state["tiebreakers"] == list(event.tiebreakers)
    dropped = [p["id"] for p in state["players"] if p["dropped"]]
    assert dropped == [str(regs[4].pk)]
    assert set(state["players"][0]) == {
        "id",
        "dropped",
        "late_entry_round",
        "fixed_table",
        "seeding",
        "bye_rounds",
        "late_entry_losses",
    }
    _compare_standings(state, services.standings_snapshot(event, 3).rows)

    # Round 4 from the state, with the seed the site is about to use, is the site's round 4.
    event.refresh_from_db()
    assert state["seed"] == f"{event.pairing_seed}:4"
    predicted = _state_pairs(state)
    round4 = services.round_pair(actor=organiser, tournament=event)
    assert round4.seed == state["seed"]
    assert _state_pairs(state) == predicted == _site_pairs(round4)

    # Once round 4 exists, --round 3 describes its players and seed: the same answer.
    again = _state(event, "--round", "3")
    assert again["seed"] == round4.seed
    assert _state_pairs(again) == _site_pairs(round4)


def test_an_earlier_round_replays_the_pairing_that_followed_it(
    three_rounds: tuple[Any, Any, list[Any]],
) -> None:
    event, _, regs = three_rounds
    for after in (0, 1, 2):
        state = _state(event, "--round", str(after))
        nxt = event.rounds.get(number=after + 1)
        assert len(state["rounds"]) == after
        assert state["seed"] == nxt.seed
        assert _state_pairs(state) == _site_pairs(nxt), f"round {after + 1}"
    # Before round 3 the player who dropped after round 2 is out of the pairing.
    state = _state(event, "--round", "2")
    assert [p["id"] for p in state["players"] if p["dropped"]] == [str(regs[4].pk)]
    _compare_standings(state, services.standings_snapshot(event, 2).rows)


def test_the_command_line_gives_the_sites_standings(
    three_rounds: tuple[Any, Any, list[Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event, _, _ = three_rounds
    path = tmp_path / "STATE.json"
    call_command("swiss_state", event.slug, "-o", str(path), stderr=io.StringIO())
    assert swiss.main(["standings", str(path)]) == 0
    cli = json.loads(capsys.readouterr().out)["standings"]
    site = services.standings_snapshot(event, 3).rows
    assert [(int(r["id"]), r["rank"], r["points"]) for r in cli] == [
        (r["registration"], r["rank"], r["points"]) for r in site
    ]
    # The CLI prints six places; the site gives the core's unrounded numbers.
    for mine, theirs in zip(cli, site, strict=True):
        assert mine["tiebreakers"] == pytest.approx(theirs["tiebreakers"], abs=5e-7)
    assert [r["record"] for r in cli] == [r["record"] for r in site]


def test_unknown_slug_is_a_clear_error() -> None:
    with pytest.raises(CommandError, match="no-such-event") as excinfo:
        call_command("swiss_state", "no-such-event")
    assert excinfo.value.returncode == 1


def test_unknown_slug_on_the_command_line_exits_1_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from django.core.management import base

    # run_from_argv closes every connection when done: not the test's own.
    monkeypatch.setattr(base.connections, "close_all", lambda: None)
    with pytest.raises(SystemExit) as excinfo:
        ManagementUtility(["manage.py", "swiss_state", "no-such-event"]).execute()
    assert excinfo.value.code == 1
    err = capsys.readouterr().err
    assert "no-such-event" in err and "Traceback" not in err


def test_a_round_that_is_not_finished_is_refused() -> None:
    event, organiser, _ = running_event(4)
    services.round_publish(
        actor=organiser, round_=services.round_pair(actor=organiser, tournament=event)
    )
    with pytest.raises(CommandError, match="--round 1"):
        call_command("swiss_state", event.slug, "--round", "1")
    state = _state(event)  # nothing finished: the state before round 1, with its seed
    assert state["rounds"] == [] and state["seed"] == event.rounds.get().seed
    assert _state_pairs(state) == _site_pairs(event.rounds.get())


def test_hand_changes_are_noted(three_rounds: tuple[Any, Any, list[Any]]) -> None:
    event, organiser, _ = three_rounds
    round4 = services.round_pair(actor=organiser, tournament=event)
    first, second = round4.matches.filter(b__isnull=False).order_by("table")[:2]
    services.round_swap(actor=organiser, round_=round4, first=first.a_id, second=second.a_id)
    err = io.StringIO()
    call_command("swiss_state", event.slug, stdout=io.StringIO(), stderr=err)
    assert "changed by hand" in err.getvalue()
