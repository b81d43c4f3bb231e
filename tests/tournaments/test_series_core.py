"""The pure series core (event-structures: Series): points tables and the leaderboard."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.series import (
    EventResult,
    LeagueTable,
    PointsTable,
    SeriesError,
    leaderboard,
    parse_league_table,
    parse_points_table,
)

CONTRACT_TABLE = {"1": 10, "2": 8, "3-4": 6, "5-8": 4, "played": 1}


def test_series_points_table_from_the_contract_example() -> None:
    table = parse_points_table(CONTRACT_TABLE)
    assert [table.points_for(place) for place in range(1, 10)] == [10, 8, 6, 6, 4, 4, 4, 4, 1]
    assert table.to_json() == CONTRACT_TABLE


def test_series_points_table_without_played_gives_others_nothing() -> None:
    assert parse_points_table({"1": 3}).points_for(2) == 0


@pytest.mark.parametrize(
    ("value", "field"),
    [
        ({"1": 10, "1-2": 8}, 'points["1-2"]'),
        ({"3-4": 6, "4-8": 4}, 'points["4-8"]'),
        ({"4-3": 6}, 'points["4-3"]'),
        ({"0": 6}, 'points["0"]'),
        ({"first": 6}, 'points["first"]'),
        ({"1": -1}, 'points["1"]'),
        ({"1": True}, 'points["1"]'),
        ({"1": 1.5}, 'points["1"]'),
        ({"played": 1}, "points"),
        ({}, "points"),
        ([1, 2], "points"),
    ],
)
def test_series_points_table_refusals_name_the_key(value: object, field: str) -> None:
    with pytest.raises(SeriesError) as caught:
        parse_points_table(value)
    assert caught.value.field == field


def test_series_league_table_defaults_and_refusals() -> None:
    assert parse_league_table({}) == LeagueTable(win=3, draw=1, played=0)
    assert parse_league_table({"win": 2, "played": 1}).points_for(wins=3, draws=1) == 8
    with pytest.raises(SeriesError) as caught:
        parse_league_table({"loss": 1})
    assert caught.value.field == "league.loss"


def test_series_leaderboard_sums_by_player_id_and_ties_share_a_rank() -> None:
    table = parse_points_table(CONTRACT_TABLE)
    results = [
        EventResult("week-1", "P1", "Ann", 1),
        EventResult("week-1", "P2", "Bob", 2),
        EventResult("week-1", "P3", "Cy", 3),
        EventResult("week-2", "P2", "Bob", 1),
        EventResult("week-2", "P1", "Ann B.", 2),
        EventResult("week-2", "P4", "Di", 9),
    ]
    rows = leaderboard(table, results)
    assert [(r.rank, r.player_id, r.points, len(r.events)) for r in rows] == [
        (1, "P1", 18, 2),
        (1, "P2", 18, 2),
        (3, "P3", 6, 1),
        (4, "P4", 1, 1),
    ]
    assert rows[0].name == "Ann B."  # the latest event's name
    assert rows[0].to_json() == {
        "rank": 1,
        "player_id": "P1",
        "name": "Ann B.",
        "points": 18,
        "events": 2,
    }


def test_series_leaderboard_league_style_counts_match_wins() -> None:
    rows = leaderboard(
        LeagueTable(win=3, draw=1, played=1),
        [EventResult("w1", "P1", "Ann", 1, wins=3), EventResult("w1", "P2", "Bob", 2, draws=2)],
    )
    assert [(r.player_id, r.points) for r in rows] == [("P1", 10), ("P2", 3)]


def test_series_leaderboard_refuses_a_player_twice_in_one_event() -> None:
    with pytest.raises(SeriesError) as caught:
        leaderboard(
            PointsTable(()), [EventResult("w1", "P1", "A", 1), EventResult("w1", "P1", "A", 2)]
        )
    assert caught.value.field == "events"


@given(
    st.lists(
        st.tuples(st.sampled_from(["e1", "e2", "e3"]), st.integers(1, 30), st.integers(1, 40)),
        max_size=80,
        unique_by=lambda t: (t[0], t[1]),
    )
)
def test_series_leaderboard_ranks_are_competition_ranks(
    entries: list[tuple[str, int, int]],
) -> None:
    table = parse_points_table(CONTRACT_TABLE)
    results = [EventResult(e, f"P{p:02d}", f"Player {p}", place) for e, p, place in entries]
    rows = leaderboard(table, results)
    assert sum(r.points for r in rows) == sum(table.points_for(r.place) for r in results)
    for index, row in enumerate(rows):
        assert row.rank == 1 + sum(1 for other in rows if other.points > row.points)
        if index:
            assert (rows[index - 1].points, row.player_id) != (
                row.points,
                rows[index - 1].player_id,
            )
            assert rows[index - 1].points >= row.points
