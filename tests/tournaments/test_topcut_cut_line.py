"""The cut line on the final standings (rules README, decision 13).

Hand-worked examples build :class:`CutRow`s directly; the end-to-end ones go through
``standings.compute_standings`` and :func:`cut_rows_from_standings`. Property tests check the
policies and that every named criterion really separates the two players it names.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import standings
from tournaments.topcut import (
    BY_HEAD_TO_HEAD,
    BY_LIST_ORDER,
    BY_POINTS,
    CUT_POLICIES,
    BracketError,
    CutResult,
    CutRow,
    Separation,
    cut_line,
    cut_rows_from_standings,
    seed_cut_bracket,
)

# the standings dataclass for a match is being renamed (Match -> MatchRecord)
MatchRecord = getattr(standings, "MatchRecord", None) or standings.Match  # type: ignore[attr-defined]


def row(
    pid: str,
    rank: int,
    points: int,
    omw: float = 0.5,
    gw: float = 0.5,
    ogw: float = 0.5,
    dropped: bool = False,
) -> CutRow:
    return CutRow(pid, rank, points, (("omw", omw), ("gw", gw), ("ogw", ogw)), dropped)


def ten(**changes: CutRow) -> list[CutRow]:
    """p1..p10 on 24, 21, ... points (each a point group of its own), with replacements."""
    rows = [row(f"p{k}", k, 30 - 3 * k) for k in range(1, 11)]
    return [changes.get(r.player_id, r) for r in rows]


# -- hand-worked examples --------------------------------------------------------------------------
def test_decision_13_strict_cut_line_names_deciding_tiebreaker() -> None:
    rows = ten(
        p8=row("p8", 8, 12, omw=0.6123),
        p9=row("p9", 9, 12, omw=0.5871),
        p10=row("p10", 10, 12, omw=0.5),
    )
    result = cut_line(rows, 8)
    assert result.qualified == tuple(f"p{k}" for k in range(1, 9))
    assert result.policy == "strict" and result.size == 8
    line = result.line
    assert line is not None
    assert (line.above_id, line.below_id, line.criterion) == ("p8", "p9", "omw")
    assert (line.above_value, line.below_value) == (0.6123, 0.5871)
    assert not result.tie_at_line and not line.tied
    assert line.sentence() == (
        "8th place (p8, 12 pts) is ahead of 9th (p9, 12 pts) on opponents' match-win % "
        "0.612 vs 0.587"
    )
    assert line.sentence({"p8": "Alice", "p9": "Bob"}) == (
        "8th place (Alice, 12 pts) is ahead of 9th (Bob, 12 pts) on opponents' match-win % "
        "0.612 vs 0.587"
    )


def test_decision_13_page_names_the_criterion_for_each_place() -> None:
    rows = ten(
        p2=row("p2", 2, 21, omw=0.7),
        p3=row("p3", 3, 21, omw=0.7, gw=0.66),
        p4=row("p4", 4, 21, omw=0.7, gw=0.61),
    )
    # p2 21 pts, omw .7 gw .5 -> below p3/p4 on gw: rebuild in the right order
    rows = [rows[0], rows[2], rows[3], rows[1], *rows[4:]]
    rows = [CutRow(r.player_id, k, r.points, r.tiebreakers) for k, r in enumerate(rows, start=1)]
    result = cut_line(rows, 4)
    assert [p.criterion for p in result.places] == [BY_POINTS, "gw", "gw", BY_POINTS]
    assert [(p.above_seed, p.below_seed) for p in result.places] == [(1, 2), (2, 3), (3, 4), (4, 5)]
    assert result.places[-1] == result.line
    assert result.places[1].sentence() == (
        "2nd place (p3, 21 pts) is ahead of 3rd (p4, 21 pts) on game-win % 0.660 vs 0.610"
    )


def test_decision_13_points_decide_the_line() -> None:
    result = cut_line(ten(), 8)
    assert result.line is not None
    assert result.line.criterion == BY_POINTS
    assert (result.line.above_value, result.line.below_value) == (6, 3)
    assert (
        result.line.sentence()
        == "8th place (p8, 6 pts) is ahead of 9th (p9, 3 pts) on match points"
    )


def test_decision_13_later_tiebreaker_decides_when_earlier_ones_tie() -> None:
    rows = ten(p8=row("p8", 8, 12, ogw=0.55), p9=row("p9", 9, 12, ogw=0.45))
    line = cut_line(rows, 8).line
    assert line is not None and line.criterion == "ogw"
    assert line.label == "opponents' game-win %"


def test_decision_13_values_shown_with_enough_digits_to_differ() -> None:
    rows = ten(p8=row("p8", 8, 12, omw=0.61234), p9=row("p9", 9, 12, omw=0.61229))
    line = cut_line(rows, 8).line
    assert line is not None
    assert line.sentence().endswith("0.6123 vs 0.6122") or line.sentence().endswith(
        "0.61234 vs 0.61229"
    )


def test_decision_13_full_tie_at_the_line_lets_the_first_listed_in_and_warns() -> None:
    rows = ten(p8=row("p8", 8, 12), p9=row("p9", 8, 12), p10=row("p10", 10, 9))
    result = cut_line(rows, 8)
    assert result.qualified[-1] == "p8"
    assert result.tie_at_line
    assert result.line is not None and result.line.criterion == BY_LIST_ORDER
    assert result.line.tied and result.line.above_rank == result.line.below_rank == 8
    assert "tied on points and every tiebreaker; p8 is listed first" in result.line.sentence()
    assert any("tied on points and every tiebreaker" in n for n in result.notes())


def test_decision_13_rows_are_taken_by_rank_keeping_list_order_among_equals() -> None:
    rows = ten(p8=row("p8", 8, 12), p9=row("p9", 8, 12))
    shuffled = list(reversed(rows))
    # among the two sharing rank 8, the list order decides: here p9 is listed first
    assert cut_line(shuffled, 8).qualified[-1] == "p9"
    assert cut_line(shuffled, 9).qualified == (*(f"p{k}" for k in range(1, 8)), "p9", "p8")


def test_decision_14_dropped_players_are_skipped_and_the_next_moves_up() -> None:
    rows = ten(p3=row("p3", 3, 21, dropped=True))
    result = cut_line(rows, 8)
    assert result.qualified == ("p1", "p2", "p4", "p5", "p6", "p7", "p8", "p9")
    assert result.skipped_dropped == ("p3",)
    assert result.line is not None
    assert (result.line.above_id, result.line.below_id) == ("p9", "p10")
    assert (result.line.above_seed, result.line.above_rank) == (8, 9)
    assert result.places[1].above_id == "p2" and result.places[1].below_id == "p4"
    assert any("Dropped players cannot play the cut (p3)" in n for n in result.notes())


def test_decision_14_dropped_players_below_the_line_are_not_mentioned() -> None:
    result = cut_line(ten(p10=row("p10", 10, 3, dropped=True)), 8)
    assert result.skipped_dropped == ()
    assert result.line is not None and result.line.below_id == "p9"


def test_decision_13_points_policy_takes_everyone_on_the_nth_players_points() -> None:
    rows = ten(
        p7=row("p7", 7, 12, omw=0.7),
        p8=row("p8", 8, 12, omw=0.6),
        p9=row("p9", 9, 12, omw=0.5),
        p10=row("p10", 10, 12, omw=0.4),
    )
    strict = cut_line(rows, 8, "strict")
    assert len(strict.qualified) == 8 and strict.line is not None
    assert strict.line.criterion == "omw"
    asym = cut_line(rows, 8, "points")
    assert asym.qualified == tuple(f"p{k}" for k in range(1, 11))
    assert asym.line is None and not asym.tie_at_line
    assert asym.bracket_size == 16 and asym.byes == 6
    assert any("2 more players are tied on points with the 8th place" in n for n in asym.notes())
    assert any("top 6 seeds get a bye" in n for n in asym.notes())
    # fed straight to the bracket: seeds 1-6 have byes, 7 v 10 and 8 v 9 play
    first = seed_cut_bracket(asym.qualified)
    played = [(m.seed_a, m.seed_b) for m in first if not m.is_bye]
    assert sorted(played) == [(7, 10), (8, 9)]


def test_decision_13_points_policy_line_is_always_on_points() -> None:
    rows = ten(p8=row("p8", 8, 12, omw=0.6), p9=row("p9", 9, 12, omw=0.5))
    result = cut_line(rows, 8, "points")
    assert result.qualified[-2:] == ("p8", "p9")
    assert result.line is not None and result.line.criterion == BY_POINTS
    assert (result.line.above_id, result.line.below_id) == ("p9", "p10")
    # nobody tied with the 8th: the same as strict
    assert cut_line(ten(), 8, "points").qualified == cut_line(ten(), 8).qualified


def test_decision_13_head_to_head_named_from_the_records() -> None:
    h2h_first = (("h2h", None), ("omw", 0.5))
    rows = [
        CutRow("p1", 1, 9, h2h_first),
        CutRow("p2", 2, 6, (("h2h", None), ("omw", 0.4)), head_to_head=(("p3", 1),)),
        CutRow("p3", 3, 6, (("h2h", None), ("omw", 0.6)), head_to_head=(("p2", -1),)),
        CutRow("p4", 4, 0, h2h_first),
    ]
    line = cut_line(rows, 2).line
    assert line is not None and line.criterion == BY_HEAD_TO_HEAD
    assert (line.above_value, line.below_value) == (1, -1)
    assert line.sentence().endswith("on head-to-head (p2 did better in their matches)")
    # no records, and nothing after head-to-head tells them apart: it was head-to-head
    bare = [CutRow(r.player_id, r.rank, r.points, h2h_first) for r in rows]
    line = cut_line(bare, 2).line
    assert line is not None and line.criterion == BY_HEAD_TO_HEAD


def test_decision_13_head_to_head_skipped_when_three_are_tied() -> None:
    # head-to-head only applies to exactly two players still tied: omw decides among three
    tbs = [(("h2h", None), ("omw", v)) for v in (0.7, 0.6, 0.5)]
    rows = [CutRow(f"p{k}", k, 6, tbs[k - 1]) for k in (1, 2, 3)]
    line = cut_line(rows, 2).line
    assert line is not None and line.criterion == "omw"


def test_a_separation_names_its_tiebreaker_with_the_registry_label() -> None:
    tbs = [(("omw", v),) for v in (0.7, 0.6, 0.5)]
    rows = [CutRow(f"p{k}", k, 6, tbs[k - 1]) for k in (1, 2, 3)]
    line = cut_line(rows, 2).line
    assert line is not None and line.label == "opponents' match-win %"


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: cut_line(ten(), 8, "loose"), "policy"),
        (lambda: cut_line(ten(), 1), "size"),
        (lambda: cut_line(ten(), 11), "size"),
        (lambda: cut_line(ten(p1=row("p1", 1, 3, dropped=True)), 10), "size"),
        (lambda: cut_line([*ten(), row("p1", 11, 0)], 8), "rows"),
    ],
)
def test_bad_cut_input(call: object, field: str) -> None:
    with pytest.raises(BracketError) as info:
        call()  # type: ignore[operator]
    assert info.value.field == field


# -- end to end through the standings core ---------------------------------------------------------
def _random_event(
    rng: random.Random, n: int, rounds: int
) -> tuple[list[standings.Player], list[list[object]]]:
    players = [standings.Player(f"p{k:02d}", dropped=rng.random() < 0.1) for k in range(n)]
    history: list[list[object]] = []
    for _ in range(rounds):
        ids = [p.id for p in players]
        rng.shuffle(ids)
        matches: list[object] = []
        if len(ids) % 2:
            matches.append(MatchRecord(a=ids.pop(), b=None, result="a"))
        for a, b in zip(ids[::2], ids[1::2], strict=True):
            result = rng.choice(["a", "b", "draw"])
            games = {"a": (2, rng.randint(0, 1), 0), "b": (rng.randint(0, 1), 2, 0)}.get(
                result, (1, 1, rng.randint(0, 1))
            )
            matches.append(MatchRecord(a=a, b=b, result=result, games=games))
        history.append(matches)
    return players, history


def _check_separation(sep: Separation, rows: dict[str, CutRow]) -> None:
    x, y = rows[sep.above_id], rows[sep.below_id]
    assert x.rank <= y.rank
    if sep.criterion == BY_POINTS:
        assert x.points > y.points
        return
    assert x.points == y.points
    if sep.criterion == BY_LIST_ORDER:
        assert sep.tied and x.rank == y.rank
        return
    names = [n for n, _ in x.tiebreakers]
    vx, vy = dict(x.tiebreakers), dict(y.tiebreakers)
    upto = names.index("h2h" if sep.criterion == BY_HEAD_TO_HEAD else sep.criterion)
    for name in names[:upto]:
        if name != "h2h":
            assert round(float(vx[name] or 0), 9) == round(float(vy[name] or 0), 9)
    if sep.criterion != BY_HEAD_TO_HEAD:
        a, b = vx[sep.criterion], vy[sep.criterion]
        assert a is not None and b is not None and a > b


@settings(max_examples=60)
@given(
    seed=st.integers(0, 10**6),
    n=st.integers(4, 20),
    rounds=st.integers(1, 5),
    size=st.integers(2, 8),
    policy=st.sampled_from(CUT_POLICIES),
    order=st.permutations(["omw", "gw", "ogw", "h2h"]),
)
def test_decision_13_cut_on_real_standings(
    seed: int, n: int, rounds: int, size: int, policy: str, order: list[str]
) -> None:
    players, history = _random_event(random.Random(seed), n, rounds)
    table = standings.compute_standings(players, history, tiebreakers=order)  # type: ignore[arg-type]
    rows = cut_rows_from_standings(table)
    eligible = [r for r in rows if not r.dropped]
    if len(eligible) < size:
        with pytest.raises(BracketError):
            cut_line(rows, size, policy)
        return
    result = cut_line(rows, size, policy)
    _check_result(result, rows, size, policy)


def _check_result(result: CutResult, rows: list[CutRow], size: int, policy: str) -> None:
    eligible = [r for r in rows if not r.dropped]
    ids = [r.player_id for r in eligible]
    by_id = {r.player_id: r for r in rows}
    q = list(result.qualified)
    assert q == ids[: len(q)]
    assert not any(by_id[p].dropped for p in q)
    if policy == "strict":
        assert len(q) == size
    else:
        assert len(q) >= size
        assert all(by_id[p].points == eligible[size - 1].points for p in q[size:])
        if len(q) < len(eligible):
            assert eligible[len(q)].points < eligible[size - 1].points
            assert result.line is not None and result.line.criterion == BY_POINTS
    assert (result.line is None) == (len(q) == len(eligible))
    assert len(result.places) == min(len(q), len(eligible) - 1)
    for k, sep in enumerate(result.places):
        assert (sep.above_id, sep.below_id) == (ids[k], ids[k + 1])
        assert (sep.above_seed, sep.below_seed) == (k + 1, k + 2)
        _check_separation(sep, by_id)
        assert sep.sentence()
    assert result.tie_at_line == (
        result.line is not None
        and by_id[result.line.above_id].rank == by_id[result.line.below_id].rank
    )
    last = rows.index(by_id[q[-1]])
    assert result.skipped_dropped == tuple(r.player_id for r in rows[:last] if r.dropped)


_tb_value = st.sampled_from([0.33, 0.5, 0.5, 0.61, 0.75])


@settings(max_examples=150)
@given(
    data=st.lists(
        st.tuples(st.sampled_from([0, 3, 6, 6, 9]), _tb_value, _tb_value, st.booleans()),
        min_size=2,
        max_size=24,
    ),
    size=st.integers(2, 10),
    policy=st.sampled_from(CUT_POLICIES),
)
def test_decision_13_properties_on_synthetic_standings(
    data: list[tuple[int, float, float, bool]], size: int, policy: str
) -> None:
    # a miniature standings core: points, then omw, then gw; full ties share a rank, by id
    keyed = sorted(
        ((-p, -o, -g, f"p{k:02d}", d) for k, (p, o, g, d) in enumerate(data)),
    )
    rows: list[CutRow] = []
    for i, (p, o, g, pid, d) in enumerate(keyed):
        rank = rows[-1].rank if rows and keyed[i - 1][:3] == (p, o, g) else i + 1
        rows.append(CutRow(pid, rank, -p, (("omw", -o), ("gw", -g)), d))
    if sum(not r.dropped for r in rows) < size:
        with pytest.raises(BracketError):
            cut_line(rows, size, policy)
        return
    _check_result(cut_line(rows, size, policy), rows, size, policy)
