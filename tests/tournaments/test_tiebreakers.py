"""The tiebreaker registry (tournaments.tiebreakers): entries, games' own entries, an event's
order, the configuration fingerprint and the explanations, and a toy tiebreaker added as one
entry."""

from __future__ import annotations

import dataclasses

import pytest

from engine import games
from engine.boba.tiebreakers import BATTLE_DIFFERENTIAL
from engine.games import BOBA, BOS, N_, Text
from engine.tiebreaker_entry import COLUMNS, Columns, PlayerFigures, TiebreakerEntry
from tournaments import tiebreakers
from tournaments.standings import MatchRecord, Player, StateError, compute_standings, rank_summary
from tournaments.topcut import cut_line, cut_rows_from_standings


def _figures(**changes: object) -> PlayerFigures:
    base = PlayerFigures(
        value=None,
        opponents_match_win=(),
        opponents_game_win=(),
        games=(0, 0, 0),
        trophies=(0, 0),
        floor=0.33,
        drawn_games=True,
    )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def test_every_entry_ranks_one_way_and_reads_only_the_cores_columns() -> None:
    for entry in tiebreakers.registry().values():
        ways = [entry.column is not None, entry.compute is not None, entry.head_to_head]
        assert ways.count(True) == 1, entry.key
        assert entry.column is None or entry.column in COLUMNS, entry.key


def test_the_game_neutral_entries_and_the_games_own() -> None:
    assert [e.key for e in tiebreakers.CORE] == ["omw", "gw", "ogw", "h2h"]
    assert tiebreakers.keys() == ("omw", "gw", "ogw", "h2h", "battle_diff")
    assert tiebreakers.owner("battle_diff") == "boba"
    assert tiebreakers.owner("omw") is None
    assert "battle_diff" not in [e.key for e in tiebreakers.for_game("bos")]
    assert BATTLE_DIFFERENTIAL in tiebreakers.for_game("boba")


def test_every_games_default_order_is_valid_for_it() -> None:
    for game in games.GAMES.values():
        assert [e.key for e in tiebreakers.check_order(game.tiebreakers, game.key)] == list(
            game.tiebreakers
        )


@pytest.mark.parametrize(
    ("order", "game", "index", "reason"),
    [
        (["omw", "nope"], "boba", 1, "unknown tiebreaker 'nope'"),
        (["gw", "omw", "gw"], "boba", 2, "duplicate tiebreaker 'gw'"),
        (
            ["omw", "battle_diff"],
            "bos",
            1,
            "'battle_diff' is a tiebreaker of Bo Jackson Battle Arena, not of BOS",
        ),
    ],
)
def test_an_events_order_is_checked_against_the_registry(
    order: list[str], game: str, index: int, reason: str
) -> None:
    with pytest.raises(tiebreakers.TiebreakerOrderError) as caught:
        tiebreakers.check_order(order, game)
    assert (caught.value.index, caught.value.reason.render()) == (index, reason)


def test_the_standings_core_refuses_an_unknown_key_naming_its_place() -> None:
    with pytest.raises(StateError) as caught:
        compute_standings([Player("a")], [], tiebreakers=["omw", "nope"])
    assert caught.value.field == "tiebreakers[1]"


def test_the_fingerprint_follows_the_order_and_each_entrys_revision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = tiebreakers.fingerprint(["omw", "gw"])
    assert before == "1:omw@1,gw@1"
    assert tiebreakers.fingerprint(["gw", "omw"]) != before
    monkeypatch.setattr(tiebreakers, "GW", dataclasses.replace(tiebreakers.GW, revision=2))
    monkeypatch.setattr(
        tiebreakers,
        "CORE",
        (tiebreakers.OMW, tiebreakers.GW, tiebreakers.OGW, tiebreakers.HEAD_TO_HEAD),
    )
    assert tiebreakers.fingerprint(["omw", "gw"]) == "1:omw@1,gw@2"


@pytest.mark.parametrize(
    ("key", "value", "shown"),
    [
        ("omw", 0.61234, "61.2%"),
        ("battle_diff", 3, "+3"),
        ("battle_diff", -2, "-2"),
        ("gw", None, "—"),
    ],
)
def test_values_are_shown_as_the_entry_says(key: str, value: float | None, shown: str) -> None:
    assert tiebreakers.display_value(key, value) == shown


def test_head_to_head_has_no_column_in_the_tables() -> None:
    assert tiebreakers.shown(["omw", "h2h", "battle_diff"]) == ("omw", "battle_diff")


# --- the explanations: the standings-player page's sentences, word for word -------------------


def test_mtr_appendix_c_omw_explanation_names_the_033_floor_and_each_opponent() -> None:
    figures = _figures(opponents_match_win=(0.5, 0.33))
    [line] = tiebreakers.explain(["omw"], figures, {"omw": 0.415})
    assert (line.label.render(), line.value) == ("opponents' match-win %", "41.5%")
    assert line.text.render() == (
        "Opponents' match-win % (OMW): the average of your opponents' match-win percentages, "
        "each at least 33%: (50.0% + 33.0%) / 2 = 41.5%."
    )


def test_mtr_appendix_c_a_player_with_only_byes_has_the_floor() -> None:
    [omw, ogw] = tiebreakers.explain(["omw", "ogw"], _figures(), {"omw": 0.33, "ogw": 0.33})
    assert omw.text.render() == (
        "Opponents' match-win % (OMW): you have had no opponent yet (only byes), so it is the "
        "minimum, 33%."
    )
    assert ogw.text.render().startswith("Opponents' game-win % (OGW): you have had no opponent")


def test_game_win_explanation_leaves_out_draws_for_a_game_without_drawn_games() -> None:
    figures = _figures(games=(4, 2, 0), drawn_games=False)
    [line] = tiebreakers.explain(["gw"], figures, {"gw": 4 / 6})
    assert line.text.render() == (
        "Game-win % (GW): your game points divided by 3 points for each game you played, at "
        "least 33%. You won 4 games (3 points each) and lost 2, byes included: "
        "(3 \u00d7 4) / (3 \u00d7 6) = 66.7%."
    )
    [with_draws] = tiebreakers.explain(["gw"], dataclasses.replace(figures, drawn_games=True), {})
    assert "drew 0 (1 point each)" in with_draws.text.render()


def test_cr_4_1_2_battle_differential_is_trophies_won_minus_lost() -> None:
    [line] = tiebreakers.explain(["battle_diff"], _figures(trophies=(9, 12)), {"battle_diff": -3})
    assert (line.label.render(), line.value) == ("battle differential", "-3")
    assert line.text.render() == (
        "Battle differential: the trophies you won minus the trophies you lost, over all your "
        "games: 9 \u2212 12 = -3."
    )


def test_cr_4_1_2_battle_differential_ranks_players_tied_on_everything_else() -> None:
    players = [Player(p) for p in "abcd"]
    rounds = [
        [
            MatchRecord("a", "b", "a", (1, 0, 0), battles=(4, 3)),
            MatchRecord("c", "d", "a", (1, 0, 0), battles=(4, 0)),
        ]
    ]
    rows = compute_standings(players, rounds, tiebreakers=["omw", "gw", "ogw", "battle_diff"])
    assert [(r.player_id, dict(r.tiebreakers)["battle_diff"]) for r in rows] == [
        ("c", 4),
        ("a", 1),
        ("b", -1),
        ("d", -4),
    ]


def test_head_to_head_is_explained_without_a_value() -> None:
    [line] = tiebreakers.explain(["h2h"], _figures(), {})
    assert line.value == "" and line.text.render().startswith("Head-to-head: used only when")


def test_a_key_the_registry_does_not_know_is_left_out_of_the_explanations() -> None:
    assert tiebreakers.explain(["retired"], _figures(), {"retired": 1}) == []


# --- adding a tiebreaker is one entry -------------------------------------------------------


def _games_won(columns: Columns) -> list[int]:
    return [int(won) for won in columns["games_won"]]


TOY = TiebreakerEntry(
    key="toy_games_won",
    label=Text(N_("games won")),
    explain=lambda f: Text.of(N_("Games won: %(won)d."), won=f.games[0]),
    compute=_games_won,
    display="plain",
)


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch) -> str:
    """A third game that registers one tiebreaker of its own."""
    toy = dataclasses.replace(
        BOS,
        key="toy",
        name="Toy",
        tiebreakers=("toy_games_won", "omw"),
        load_tiebreakers=lambda: (TOY,),
    )
    monkeypatch.setitem(games.GAMES, "toy", toy)
    return "toy"


def test_a_toy_tiebreaker_ranks_shows_and_explains_once_registered(toy_game: str) -> None:
    assert tiebreakers.owner("toy_games_won") == toy_game
    order = [e.key for e in tiebreakers.check_order(("toy_games_won", "omw"), toy_game)]
    players = [Player(p) for p in "abcd"]
    # everyone 1-0 or 0-1 on match points; the winners' game counts differ
    rounds = [
        [
            MatchRecord("a", "b", "a", (2, 1, 0)),
            MatchRecord("c", "d", "a", (2, 0, 0)),
        ]
    ]
    rows = compute_standings(players, rounds, tiebreakers=order)
    assert [(r.player_id, dict(r.tiebreakers)["toy_games_won"]) for r in rows] == [
        ("a", 2),
        ("c", 2),
        ("b", 1),
        ("d", 0),
    ]
    assert [rank for rank, *_ in rank_summary(players, rounds, tiebreakers=order)] == [1, 1, 3, 4]
    assert tiebreakers.label("toy_games_won").render() == "games won"
    [line] = tiebreakers.explain(["toy_games_won"], _figures(games=(2, 1, 0)), {"toy_games_won": 2})
    assert (line.value, line.text.render()) == ("2", "Games won: 2.")
    assert tiebreakers.fingerprint(order) == "1:toy_games_won@1,omw@1"
    with pytest.raises(tiebreakers.TiebreakerOrderError):
        tiebreakers.check_order(["toy_games_won"], BOBA.key)


def test_the_cut_line_names_a_toy_tiebreaker_by_its_label(toy_game: str) -> None:
    players = [Player(p) for p in "abcdef"]
    rounds = [
        [
            MatchRecord("a", "b", "a", (3, 1, 0)),
            MatchRecord("c", "d", "a", (2, 0, 0)),
            MatchRecord("e", "f", "a", (1, 0, 0)),
        ]
    ]
    rows = compute_standings(players, rounds, tiebreakers=["toy_games_won"])
    line = cut_line(cut_rows_from_standings(rows), 2).line
    assert line is not None
    assert (line.above_id, line.below_id, line.criterion) == ("c", "e", "toy_games_won")
    assert line.label == "games won"
