"""The match clock's pure core (matches.clock): BOS: Time Control, replayed from events."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games import get_game
from engine.plugin import BidRange, ClockRules
from matches.clock import (
    ClockError,
    ClockEvent,
    ClockSettings,
    ClockState,
    ClockStateError,
    apply,
    match_games,
    recorded_games,
    replay,
    settings_of,
)

T0 = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)
BOS = ClockSettings(time=timedelta(minutes=15), delay=timedelta(seconds=30), games_to_win=2)
PER_MATCH = ClockSettings(
    time=timedelta(minutes=15), delay=timedelta(seconds=30), mode="per_match", games_to_win=2
)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def ev(kind: str, seconds: float, side: str = "", **payload: object) -> ClockEvent:
    return ClockEvent(kind, at(seconds), side, payload)


def run(
    events: list[ClockEvent],
    now: float | None = None,
    cfg: ClockSettings = BOS,
    rules: ClockRules | None = None,
) -> ClockState:
    rules = rules if rules is not None else get_game("bos").clock_rules()
    return replay(cfg, events, None if now is None else at(now), rules)


def secs(value: timedelta) -> float:
    return value.total_seconds()


# --- BOS: Time Control -------------------------------------------------------------------


def test_bos_time_control_delay_does_not_count_the_first_30_seconds_of_a_turn() -> None:
    state = run([ev("start", 0, first="a")], now=30)
    assert secs(state.remaining_a) == 15 * 60
    assert secs(state.delay_left) == 0
    state = run([ev("start", 0, first="a")], now=45)
    assert secs(state.remaining_a) == 15 * 60 - 15
    assert secs(state.remaining_b) == 15 * 60


def test_bos_time_control_each_turn_gets_a_new_delay() -> None:
    events = [ev("start", 0, first="a"), ev("turn", 40, "a"), ev("turn", 100, "b")]
    state = run(events, now=100)
    assert secs(state.remaining_a) == 15 * 60 - 10
    assert secs(state.remaining_b) == 15 * 60 - 30
    assert state.active == "a"
    assert secs(state.delay_left) == 30


def test_bos_time_control_pause_while_the_opponent_acts_freezes_time_and_delay() -> None:
    events = [ev("start", 0, first="a"), ev("pause", 20), ev("resume", 320)]
    paused = run(events[:2], now=300)
    assert paused.paused and secs(paused.delay_left) == 10
    assert secs(paused.remaining_a) == 15 * 60
    state = run(events, now=340)  # 10 s of delay, then 10 s of time
    assert secs(state.remaining_a) == 15 * 60 - 10


def test_bos_time_control_running_out_of_time_loses_the_game_per_game() -> None:
    events = [ev("start", 0, first="a"), ev("flag", 930, "a")]
    state = run(events)
    assert state.phase == "between_games"
    assert [g.winner for g in state.games] == ["b"] and state.games[0].on_time
    assert state.flagged == "a"
    # The next game starts with full time for both.
    state = run([*events, ev("start", 1000, first="a")], now=1000)
    assert state.game == 2 and secs(state.remaining_a) == 15 * 60


def test_bos_time_control_running_out_per_match_loses_the_match_keeping_games_won() -> None:
    events = [
        ev("start", 0, first="a"),
        ev("game_end", 100, winner="a"),
        ev("start", 110, first="b"),
        ev("turn", 150, "b"),  # b used 10 s of their time in game 2
    ]
    state = run(events, now=150, cfg=PER_MATCH)
    assert secs(state.remaining_a) == 15 * 60 - 70  # a's game-1 time carried over
    assert secs(state.remaining_b) == 15 * 60 - 10
    out = 150 + 30 + (15 * 60 - 70)
    with pytest.raises(ClockStateError) as early:
        run([*events, ev("flag", out - 1, "a")], cfg=PER_MATCH)
    assert early.value.field == "side"
    state = run([*events, ev("flag", out, "a")], cfg=PER_MATCH)
    assert state.phase == "over" and state.match_winner == "b" and state.flagged == "a"
    assert match_games(state) == (1, 2)


def test_flag_refused_while_time_is_left_and_accepted_at_zero() -> None:
    with pytest.raises(ClockStateError):
        run([ev("start", 0, first="a"), ev("flag", 929.999, "a")])
    state = run([ev("start", 0, first="a"), ev("flag", 930, "a")])
    assert state.flagged == "a"


def test_flag_for_the_side_not_running_is_refused() -> None:
    with pytest.raises(ClockStateError) as err:
        run([ev("start", 0, first="a"), ev("flag", 5000, "b")])
    assert err.value.field == "side"


def test_per_game_flag_that_decides_the_match_ends_it() -> None:
    events = [
        ev("start", 0, first="a"),
        ev("game_end", 100, winner="b"),
        ev("start", 200, first="a"),
        ev("flag", 200 + 930, "a"),
    ]
    state = run(events)
    assert state.phase == "over" and state.match_winner == "b"
    assert match_games(state) == (0, 2)


def test_game_end_records_the_winner_and_two_wins_end_the_match() -> None:
    events = [
        ev("start", 0, first="a"),
        ev("game_end", 50, winner="a"),
        ev("start", 60, first="b"),
        ev("game_end", 90, winner="a"),
    ]
    state = run(events)
    assert state.phase == "over" and state.match_winner == "a"
    with pytest.raises(ClockStateError):
        run([*events, ev("start", 100, first="a")])


@pytest.mark.parametrize(
    ("events", "field"),
    [
        ([ev("turn", 1)], "kind"),  # no game yet
        ([ev("start", 0, first="a"), ev("start", 1, first="b")], "kind"),
        ([ev("start", 0, first="a"), ev("pause", 1), ev("turn", 2)], "kind"),
        ([ev("start", 0, first="a"), ev("pause", 1), ev("pause", 2)], "kind"),
        ([ev("start", 0, first="a"), ev("resume", 1)], "kind"),
        ([ev("start", 0, first="a"), ev("turn", 1, "b")], "side"),
        ([ev("start", 0, first="a"), ev("turn", 5000)], "kind"),  # a is out of time
    ],
)
def test_events_that_do_not_apply_now_name_the_field(events: list[ClockEvent], field: str) -> None:
    with pytest.raises(ClockStateError) as err:
        run(events)
    assert err.value.field == field


@pytest.mark.parametrize(
    ("event", "field"),
    [
        (ev("tick", 1), "kind"),
        (ev("game_end", 1, winner=None), "payload.winner"),
        (ev("adjust", 1, "a", add_ms=1000), "payload.reason"),
        (ev("adjust", 1, "x", add_ms=1000, reason="r"), "side"),
        (ev("adjust", 1, "a", reason="r"), "payload"),
        (ev("adjust", 1, "a", add_ms="5", reason="r"), "payload.add_ms"),
        (ev("adjust", 1, "a", set_ms=-1, reason="r"), "payload.set_ms"),
        (ev("adjust", 1, "a", add_ms=-(16 * 60_000), reason="r"), "payload.add_ms"),
        (ev("adjust", 1, "a", set_ms=11 * 3_600_000, reason="r"), "payload.set_ms"),
    ],
)
def test_malformed_events_name_the_field(event: ClockEvent, field: str) -> None:
    state = run([ev("start", 0, first="a")])
    with pytest.raises(ClockError) as err:
        apply(state, event)
    assert err.value.field == field
    assert not isinstance(err.value, ClockStateError) or field == "kind"


def test_start_names_who_goes_first() -> None:
    with pytest.raises(ClockError) as err:
        run([ev("start", 0, first="c")])
    assert err.value.field == "payload.first"


def test_adjust_adds_or_sets_a_sides_time() -> None:
    base = [ev("start", 0, first="a")]
    state = run([*base, ev("adjust", 10, "b", add_ms=60_000, reason="slow clock")], now=10)
    assert secs(state.remaining_b) == 16 * 60
    state = run([*base, ev("adjust", 10, "a", set_ms=5_000, reason="judge")], now=10)
    assert secs(state.remaining_a) == 5 and secs(state.delay_left) == 20


def test_per_game_adjust_between_games_is_refused_per_match_allowed() -> None:
    events = [ev("start", 0, first="a"), ev("game_end", 10, winner="a")]
    with pytest.raises(ClockStateError):
        run([*events, ev("adjust", 20, "a", add_ms=1000, reason="r")])
    state = run([*events, ev("adjust", 20, "a", add_ms=1000, reason="r")], cfg=PER_MATCH)
    assert secs(state.remaining_a) == 15 * 60 + 1


def test_settings_travel_with_the_first_event() -> None:
    stored = ClockEvent("start", T0, "", {"first": "a", "settings": PER_MATCH.to_json()})
    assert settings_of([stored], BOS) == PER_MATCH
    assert settings_of([], BOS) == BOS
    with pytest.raises(ClockError) as err:
        settings_of([], None)
    assert err.value.field == "clock_minutes"


def test_to_json_reports_milliseconds_and_phase() -> None:
    data = run([ev("start", 0, first="b")], now=40).to_json()
    assert data["remaining_ms"] == {"a": 900_000, "b": 890_000}
    assert data["active"] == "b" and data["running"] and data["phase"] == "running"
    assert data["delay_left_ms"] == 0


# --- properties ----------------------------------------------------------------------------

presses = st.lists(
    st.tuples(
        st.sampled_from(["start", "turn", "pause", "resume", "game_end", "flag", "adjust"]),
        st.floats(min_value=0, max_value=400, allow_nan=False),
        st.sampled_from(["a", "b"]),
        st.integers(min_value=-600_000, max_value=600_000),
    ),
    max_size=40,
)


def _events(raw: list[tuple[str, float, str, int]]) -> list[ClockEvent]:
    """Accepted events only (as the server keeps them), at increasing times."""
    out: list[ClockEvent] = []
    t = 0.0
    state = ClockState.new(BOS, at(0))
    for kind, gap, side, amount in raw:
        t += gap
        payload: dict[str, object] = {"first": side, "winner": side}
        if kind == "adjust":
            payload = {"add_ms": amount, "reason": "judge"}
        event = ClockEvent(kind, at(t), side, payload)
        try:
            state = apply(state, event)
        except ClockError:
            continue
        out.append(event)
    return out


@settings(max_examples=150)
@given(presses, st.sampled_from([BOS, PER_MATCH]))
def test_property_remaining_never_negative_and_only_the_active_side_runs(
    raw: list[tuple[str, float, str, int]], cfg: ClockSettings
) -> None:
    events = _events(raw)
    state = ClockState.new(cfg, at(0))
    for event in events:
        try:
            after = apply(state, event)
        except ClockError:
            continue
        before = state.at(event.at)
        for side in ("a", "b"):
            assert after.remaining(side) >= timedelta()  # type: ignore[arg-type]
            assert before.remaining(side) >= timedelta()  # type: ignore[arg-type]
            went_up = after.remaining(side) > before.remaining(side)  # type: ignore[arg-type]
            new_game = event.kind == "start" and cfg.mode == "per_game"
            assert not went_up or event.kind == "adjust" or new_game
            # Between events only the active, unpaused side's time runs.
            if not state.ticking or state.active != side:
                assert before.remaining(side) == state.remaining(side)  # type: ignore[arg-type]
        state = after


@settings(max_examples=100)
@given(presses)
def test_property_replay_is_deterministic(raw: list[tuple[str, float, str, int]]) -> None:
    events = _events(raw)
    now = at(10_000)
    assert replay(BOS, events, now) == replay(BOS, list(events), now)


@settings(max_examples=100)
@given(st.lists(st.floats(min_value=0, max_value=30, allow_nan=False), max_size=30))
def test_property_the_delay_absorbs_turns_shorter_than_it(gaps: list[float]) -> None:
    events = [ev("start", 0, first="a")]
    t = 0.0
    for gap in gaps:
        t += gap
        events.append(ev("turn", t))
    state = run(events, now=t)
    assert state.remaining_a == state.remaining_b == BOS.time


@settings(max_examples=100)
@given(st.floats(min_value=0, max_value=3000, allow_nan=False))
def test_property_time_is_monotonic_while_running(seconds: float) -> None:
    state = run([ev("start", 0, first="a")])
    earlier = state.at(at(seconds / 2))
    later = state.at(at(seconds))
    assert later.remaining_a <= earlier.remaining_a
    assert later.remaining_a == max(BOS.time - max(at(seconds) - at(30), timedelta()), timedelta())


# --- bids with a game's start (BOS: Going First; docs/bos-matches.md decision 1) ----------


def test_bos_going_first_bids_travel_with_the_start_and_into_the_games() -> None:
    events = [ev("start", 0, first="b", bids=[3, 7]), ev("game_end", 50, winner="a")]
    state = run(events)
    assert state.games[0].bids == (3, 7) and state.games[0].first == "b"
    assert state.to_json()["games"] == [
        {
            "number": 1,
            "winner": "a",
            "end": "played",
            "on_time": False,
            "bids": [3, 7],
            "first": "b",
        }
    ]
    # Bids are optional: a game started without them has none.
    state = run([*events, ev("start", 60, first="a"), ev("game_end", 70, winner="b")])
    assert state.games[1].bids is None and state.games[1].number == 2


@pytest.mark.parametrize(
    "bids",
    [[1], [1, 2, 3], "1,2", [1.5, 2], [True, 2], [-1, 2], [0, 100], [None, 2], {"a": 1}],
)
def test_bos_going_first_bids_are_two_whole_numbers_from_0_to_99(bids: object) -> None:
    with pytest.raises(ClockError) as caught:
        run([ev("start", 0, first="a", bids=bids)])
    assert caught.value.field == "payload.bids"


def test_bos_going_first_tied_bids_are_refused_the_players_bid_again() -> None:
    with pytest.raises(ClockError) as caught:
        run([ev("start", 0, first="a", bids=[4, 4])])
    assert caught.value.field == "payload.bids" and "bid again" in caught.value.message
    assert run([ev("start", 0, first="a", bids=[0, 99])]).bids == (0, 99)


def test_the_clock_takes_its_bid_range_from_the_game_not_its_own() -> None:
    rules = ClockRules(asks_bids=True, bids=BidRange(maximum=5, ties=True))
    assert run([ev("start", 0, first="a", bids=[5, 5])], rules=rules).bids == (5, 5)
    with pytest.raises(ClockError) as caught:
        run([ev("start", 0, first="a", bids=[6, 0])], rules=rules)
    assert caught.value.field == "payload.bids" and "0 to 5" in caught.value.message


def test_a_per_game_flag_is_a_game_lost_on_time_in_the_state() -> None:
    events = [ev("start", 0, first="a", bids=[2, 5])]
    state = run([*events, ev("flag", 30 + 15 * 60 + 1, "a")])
    assert state.phase == "between_games"
    assert [(g.number, g.winner, g.end, g.bids) for g in state.games] == [(1, "b", "time", (2, 5))]
    assert recorded_games(state) is None  # the match is not decided


def test_per_match_flag_records_the_game_lost_on_time_and_which_games_are_real() -> None:
    flag = ev("flag", 30 + 15 * 60 + 1, "a")
    # Out of time in game 1 of a best of 3: b is given 2 games, one never played.
    state = run([ev("start", 0, first="a", bids=[1, 2]), flag], cfg=PER_MATCH)
    assert match_games(state) == (0, 2) and state.games[0].end == "time"
    assert recorded_games(state) is None
    # 1-1 and out of time in game 3: every game counted was played.
    events = [
        ev("start", 0, first="a"),
        ev("game_end", 10, winner="a"),
        ev("start", 20, first="b"),
        ev("game_end", 30, winner="b"),
        ev("start", 40, first="a", bids=[1, 2]),
        ev("flag", 40 + 30 + 15 * 60 + 1, "a"),
    ]
    state = run(events, cfg=PER_MATCH)
    assert match_games(state) == (1, 2)
    games = recorded_games(state)
    assert games is not None and [g.end for g in games] == ["played", "played", "time"]
