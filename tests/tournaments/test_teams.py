"""Team events (tournaments/teams.py): the contract's Teams section (event-structures: Teams),
APEX Madness and HiLo Madness (Formats), the Head Coach decider and sudden death (CR 4.4.3)."""

from __future__ import annotations

from pathlib import Path
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support import NOT_IN_PURE_CODE, imported_names
from tournaments.standings import MatchRecord, Player, StateError, compute_standings
from tournaments.teams import (
    APEX_MADNESS,
    HILO_MADNESS,
    TEAM_PRESETS,
    Board,
    Decider,
    RoleFormats,
    Team,
    TeamConfig,
    TeamError,
    TeamMatchResult,
    TeamRules,
    get_team_preset,
    pair_boards,
    pair_decider,
    team_bye,
    team_match_record,
    team_match_result,
    team_standings,
    validate_lineup,
    validate_team,
    validate_teams,
)

APEX = APEX_MADNESS.team
NO_COACH = TeamConfig(players=3, roster_max=4, head_coach=False)
FORMATS = ("rookie", "apex_madness", "hilo_madness", "playmaker")


def team(tid: str, size: int = 5, coach: int | None = 0) -> Team:
    members = tuple(f"{tid}{k}" for k in range(size))
    return Team(tid, f"Team {tid}", members, members[coach] if coach is not None else None)


def error(call: object, *args: object, **kwargs: object) -> TeamError:
    with pytest.raises(TeamError) as caught:
        call(*args, **kwargs)  # type: ignore[operator]
    return caught.value


def test_teams_module_imports_no_django() -> None:
    module = Path(__file__).resolve().parents[2] / "tournaments" / "teams.py"
    names = imported_names(module)
    assert [n for n in names if n.split(".")[0] in NOT_IN_PURE_CODE] == []
    assert {n for n in names if n.startswith("tournaments")} == {"tournaments.standings"}


# -- configuration -------------------------------------------------------------------------------
def test_structures_teams_config_reads_the_contract_object() -> None:
    data = {"players": 4, "roster_max": 6, "head_coach": True}
    config = TeamConfig.from_dict(data)
    assert config == TeamConfig(4, 6, True) and config.to_dict() == data
    assert TeamConfig.from_dict({"players": 3}) == TeamConfig(3, 3, False)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([4], "team"),
        ({"roster_max": 6}, "team.players"),
        ({"players": 0}, "team.players"),
        ({"players": True}, "team.players"),
        ({"players": "4"}, "team.players"),
        ({"players": 17}, "team.players"),
        ({"players": 4, "roster_max": 3}, "team.roster_max"),
        ({"players": 4, "roster_max": 33}, "team.roster_max"),
        ({"players": 4, "head_coach": 1}, "team.head_coach"),
        ({"players": 4, "roster_size": 6}, "team.roster_size"),
    ],
)
def test_structures_teams_config_errors_name_the_field(data: object, field: str) -> None:
    assert error(TeamConfig.from_dict, data).field == field


def test_structures_teams_config_checked_when_made_directly() -> None:
    assert error(TeamConfig, 4, 2).field == "team.roster_max"


def test_formats_apex_madness_preset() -> None:
    assert get_team_preset("apex_madness") is APEX_MADNESS
    # "Teams of 4 to 6 players, one of them the Head Coach"; "4 players from each team play,
    # each a best-of-3 match"; a tied team match goes to the Head Coaches' deciding game.
    assert APEX.to_dict() == {"players": 4, "roster_max": 6, "head_coach": True}
    assert APEX_MADNESS.board_games_to_win == 2
    assert not any(APEX_MADNESS.low_power_wins(n) for n in range(1, 5))
    assert APEX_MADNESS.head_coach_board is None and not APEX_MADNESS.decider_low_power_wins


def test_formats_hilo_madness_head_coach_plays_high_the_others_low() -> None:
    assert HILO_MADNESS.team == APEX
    assert [HILO_MADNESS.low_power_wins(n) for n in range(1, 5)] == [False, True, True, True]
    assert HILO_MADNESS.head_coach_board == 1 and not HILO_MADNESS.decider_low_power_wins


def test_unknown_preset_names_the_known_ones() -> None:
    err = error(get_team_preset, "madness")
    assert err.field == "preset" and all(key in err.message for key in TEAM_PRESETS)


def test_rules_for_an_event_config_are_checked_again() -> None:
    with pytest.raises(TeamError) as caught:
        HILO_MADNESS.with_team(TeamConfig(players=3, roster_max=5, head_coach=True))
    assert caught.value.field == "low_power_boards[2]"
    with pytest.raises(TeamError) as caught:
        HILO_MADNESS.with_team(TeamConfig(players=4, roster_max=5, head_coach=False))
    assert caught.value.field == "head_coach_board"
    assert APEX_MADNESS.with_team(TeamConfig(5, 7, True)).team.players == 5


# -- role formats --------------------------------------------------------------------------------
def test_structures_teams_role_formats_name_the_format_each_role_plays() -> None:
    formats = RoleFormats.from_dict(
        {"player": "apex_madness", "head_coach": "rookie"}, FORMATS, head_coach=True
    )
    assert formats.format_for("player") == "apex_madness"
    assert formats.format_for("head_coach") == "rookie"
    assert formats.to_dict() == {"player": "apex_madness", "head_coach": "rookie"}
    # without a Head Coach's own format he plays the players'
    assert RoleFormats("rookie").format_for("head_coach") == "rookie"


@pytest.mark.parametrize(
    ("data", "head_coach", "field"),
    [
        ("rookie", True, "formats"),
        ({"head_coach": "rookie"}, True, "formats.player"),
        ({"player": "rookie", "coach": "rookie"}, True, "formats.coach"),
        ({"player": "standard"}, True, "formats.player"),
        ({"player": "rookie", "head_coach": "spec"}, True, "formats.head_coach"),
        ({"player": "rookie", "head_coach": 3}, True, "formats.head_coach"),
        ({"player": "rookie", "head_coach": "rookie"}, False, "formats.head_coach"),
    ],
)
def test_role_formats_errors_name_the_role(data: object, head_coach: bool, field: str) -> None:
    err = error(RoleFormats.from_dict, data, FORMATS, head_coach=head_coach)
    assert err.field == field


def test_presets_name_formats_the_game_knows() -> None:
    from engine.boba.deckbuilding.formats import FORMAT_PRESETS

    for rules in TEAM_PRESETS.values():
        rules.formats.check(FORMAT_PRESETS, head_coach=rules.team.head_coach)


def test_board_roles_pick_each_players_format() -> None:
    a, b = team("a", 4, coach=2), team("b", 4, coach=0)
    rules = TeamRules.custom(APEX, RoleFormats(player="apex_madness", head_coach="rookie"))
    boards = pair_boards(a, a.members, b, b.members, rules)
    formats = [
        (rules.formats.format_for(x.a_role), rules.formats.format_for(x.b_role)) for x in boards
    ]
    assert formats[0] == ("apex_madness", "rookie") and formats[2] == ("rookie", "apex_madness")


# -- rosters -------------------------------------------------------------------------------------
def test_formats_apex_madness_teams_of_4_to_6_including_the_head_coach() -> None:
    for size in (4, 5, 6):
        validate_team(team("a", size), APEX)
    for size in (3, 7):
        err = error(validate_team, team("a", size), APEX)
        assert err.field == "members" and "4 to 6" in err.message


@pytest.mark.parametrize(
    ("subject", "config", "field", "words"),
    [
        (Team("a", "A", ("x", "y", "x", "z"), "x"), APEX, "members", "twice"),
        (team("a", coach=None), APEX, "head_coach", "Head Coach"),
        (Team("a", "A", ("w", "x", "y", "z"), "q"), APEX, "head_coach", "one of the members"),
        (team("a", 3), NO_COACH, "head_coach", "no Head Coach"),
        (Team("", "A", ("w", "x", "y", "z"), "w"), APEX, "id", "non-empty"),
        (Team("a", "A", ("w", "x", "", "z"), "w"), APEX, "members", "registration ids"),
    ],
)
def test_roster_errors_name_the_field(
    subject: Team, config: TeamConfig, field: str, words: str
) -> None:
    err = error(validate_team, subject, config)
    assert err.field == field and words in err.message


def test_structures_teams_no_player_in_two_teams_of_the_event() -> None:
    a = team("a")
    clash = Team("b", "Team b", ("b0", "b1", "a3", "b2"), "b0")
    err = error(validate_team, clash, APEX, others=[a])
    assert err.field == "members" and "a3" in err.message and "Team a" in err.message
    # a team changing its own roster does not clash with its old self
    validate_team(Team("a", "Team a", ("a0", "a1", "a2", "a9"), "a0"), APEX, others=[a])
    err = error(validate_teams, [a, team("c"), clash], APEX)
    assert err.field == "teams[2].members"


def test_structures_teams_members_must_be_registered_in_the_event() -> None:
    a = team("a", 4)
    validate_team(a, APEX, eligible=set(a.members))
    err = error(validate_team, a, APEX, eligible=set(a.members[:3]))
    assert err.field == "members" and "a3" in err.message


def test_team_ids_are_unique() -> None:
    assert error(validate_teams, [team("a"), team("a")], APEX).field == "teams[1].id"


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.integers(0, 14), min_size=4, max_size=6, unique=True), max_size=5))
def test_rosters_refused_iff_a_member_is_in_two_teams(rosters: list[list[int]]) -> None:
    teams = [
        Team(f"t{i}", f"T{i}", tuple(f"p{m}" for m in members), f"p{members[0]}")
        for i, members in enumerate(rosters)
    ]
    everyone = [m for t in teams for m in t.members]
    shared = len(everyone) != len(set(everyone))
    if shared:
        assert error(validate_teams, teams, APEX).field.endswith(".members")
    else:
        validate_teams(teams, APEX)


# -- line-ups ------------------------------------------------------------------------------------
def test_formats_apex_madness_head_coach_may_play_a_board() -> None:
    small, large = team("a", 4), team("b", 6)
    # a team of 4 fields all four, its Head Coach among them
    assert validate_lineup(small, small.members, APEX_MADNESS) == small.members
    # a larger team may field him or leave him out
    validate_lineup(large, large.members[:4], APEX_MADNESS)
    validate_lineup(large, large.members[2:], APEX_MADNESS)


@pytest.mark.parametrize(
    ("players", "field", "words"),
    [
        (("b0", "b1", "b2"), "players", "exactly 4"),
        (("b0", "b1", "b2", "b3", "b4"), "players", "exactly 4"),
        ("b0b1b2b3", "players", "exactly 4"),
        (("b0", "b1", "x9", "b3"), "players[2]", "roster"),
        (("b0", "b1", "b1", "b3"), "players[2]", "board 2"),
        (("b0", 1, "b2", "b3"), "players[1]", "roster"),
    ],
)
def test_structures_teams_lineup_errors_name_the_entry(
    players: object, field: str, words: str
) -> None:
    err = error(validate_lineup, team("b", 6), players, APEX_MADNESS)
    assert err.field == field and words in err.message


def test_formats_hilo_madness_head_coach_on_the_high_board() -> None:
    t = team("h", 5, coach=3)
    err = error(validate_lineup, t, t.members[:4], HILO_MADNESS)
    assert err.field == "players[0]" and "Formats: HiLo Madness" in err.message
    ordered = ("h3", "h0", "h1", "h2")
    assert validate_lineup(t, ordered, HILO_MADNESS) == ordered


# -- boards --------------------------------------------------------------------------------------
def test_structures_teams_boards_in_lineup_order() -> None:
    a, b = team("a", 4), team("b", 6, coach=5)
    boards = pair_boards(a, ("a1", "a0", "a2", "a3"), b, ("b5", "b4", "b3", "b2"), APEX_MADNESS)
    assert [(x.number, x.a, x.b) for x in boards] == [
        (1, "a1", "b5"),
        (2, "a0", "b4"),
        (3, "a2", "b3"),
        (4, "a3", "b2"),
    ]
    assert boards[0] == Board(1, "a1", "b5", "player", "head_coach", low_power_wins=False)
    assert boards[1].a_role == "head_coach"


def test_formats_hilo_madness_boards_carry_low_power_wins() -> None:
    a, b = team("a", 4), team("b", 4)
    boards = pair_boards(a, a.members, b, b.members, HILO_MADNESS)
    assert [x.low_power_wins for x in boards] == [False, True, True, True]
    assert boards[0].a_role == boards[0].b_role == "head_coach"


def test_pair_boards_errors_name_the_side() -> None:
    a, b = team("a", 4), team("b", 4)
    assert error(pair_boards, a, a.members, a, a.members, APEX_MADNESS).field == "b"
    assert error(pair_boards, a, a.members[:3], b, b.members, APEX_MADNESS).field == "a.players"
    bad = ("b0", "b1", "b2", "a3")
    assert error(pair_boards, a, a.members, b, bad, APEX_MADNESS).field == "b.players[3]"


def test_formats_apex_madness_decider_is_between_the_head_coaches() -> None:
    a, b = team("a", 4, coach=2), team("b", 5, coach=4)
    assert pair_decider(a, b, APEX_MADNESS) == Decider("a2", "b4", low_power_wins=False)
    no_coach_rules = TeamRules.custom(NO_COACH, RoleFormats("rookie"))
    assert (
        error(pair_decider, team("a", 3, None), team("b", 3, None), no_coach_rules).field
        == "decider"
    )
    assert error(pair_decider, a, team("b", 4, None), APEX_MADNESS).field == "b.head_coach"


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(6)), st.permutations(range(6)))
def test_board_k_pairs_the_kth_players(order_a: list[int], order_b: list[int]) -> None:
    a, b = team("a", 6, coach=None), team("b", 6, coach=None)
    rules = TeamRules.custom(TeamConfig(4, 6, False), RoleFormats("rookie"))
    lineup_a = [a.members[i] for i in order_a[:4]]
    lineup_b = [b.members[i] for i in order_b[:4]]
    boards = pair_boards(a, lineup_a, b, lineup_b, rules)
    assert [x.number for x in boards] == [1, 2, 3, 4]
    assert [x.a for x in boards] == lineup_a and [x.b for x in boards] == lineup_b


# -- team match results --------------------------------------------------------------------------
def test_structures_teams_more_boards_wins() -> None:
    result = team_match_result(["a", "b", "a", "draw"], config=APEX)
    assert result.boards == (2, 1, 1) and result.outcome == "a" and result.final
    assert not result.decider_needed
    assert result.to_json() == {"boards": [2, 1, 1], "decider": None}


def test_formats_apex_madness_tied_team_match_goes_to_the_head_coaches() -> None:
    tied = team_match_result(["a", "b", "b", "a"], config=APEX)
    assert tied.decider_needed and not tied.final and tied.outcome is None
    decided = team_match_result(["a", "b", "b", "a"], "b", config=APEX)
    assert decided.final and decided.outcome == "b"
    assert decided.to_json() == {"boards": [2, 2, 0], "decider": "b"}


def test_cr_4_4_3_tied_deciding_game_goes_to_sudden_death() -> None:
    err = error(team_match_result, ["draw"] * 4, "draw", config=APEX)
    assert err.field == "decider" and "CR 4.4.3" in err.message and "sudden death" in err.message
    # the sudden death's winner is the decider's result
    assert team_match_result(["draw"] * 4, "a", config=APEX).outcome == "a"


def test_structures_teams_tie_without_head_coach_is_drawn() -> None:
    result = team_match_result(["a", "b", "draw"], config=NO_COACH)
    assert result.final and result.outcome == "draw" and not result.decider_needed
    assert error(team_match_result, ["a", "b", "draw"], "a", config=NO_COACH).field == "decider"


def test_structures_teams_final_once_boards_and_decider_are() -> None:
    pending = team_match_result(["a", "a", "a", None], config=APEX)
    assert pending.boards == (3, 0, 0) and not pending.final and pending.outcome is None
    err = error(team_match_result, ["a", "b", None, None], "a", config=APEX)
    assert err.field == "decider" and "not all final" in err.message
    assert error(team_match_result, ["a", "a", "a", "b"], "a", config=APEX).field == "decider"


@pytest.mark.parametrize(
    ("boards", "decider", "field"),
    [
        (["a", "b", "a"], None, "boards"),
        ("abab", None, "boards"),
        (["a", "b", "win", "a"], None, "boards[2]"),
        (["a", "b", "b", "a"], "c", "decider"),
    ],
)
def test_team_match_result_errors_name_the_field(
    boards: object, decider: object, field: str
) -> None:
    assert error(team_match_result, boards, decider, config=APEX).field == field


BOARD = st.sampled_from(["a", "b", "draw", None])


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 7).flatmap(lambda n: st.lists(BOARD, min_size=n, max_size=n)), st.booleans())
def test_team_match_invariants(boards: list[str | None], head_coach: bool) -> None:
    config = TeamConfig(len(boards), len(boards) + 2, head_coach)
    result = team_match_result(boards, config=config)
    played = sum(b is not None for b in boards)
    # board results always sum to the boards played
    assert result.boards_played == played and result.boards_total == len(boards)
    won_a, won_b, _ = result.boards
    # a decider iff every board is final, tied, and the event has a Head Coach
    assert result.decider_needed == (played == len(boards) and won_a == won_b and head_coach)
    assert result.final == (played == len(boards) and not result.decider_needed)
    if result.decider_needed:
        decided = team_match_result(boards, "a", config=config)
        assert decided.final and decided.outcome == "a" and decided.boards == result.boards
    if result.final:
        record = team_match_record("x", "y", result)
        # the standings core accepts every final team match
        rows = compute_standings([Player("x"), Player("y")], [[record]])
        assert sum(row.points for row in rows) in (2, 3)


# -- team standings ------------------------------------------------------------------------------
def final(boards: list[str], decider: str | None = None) -> TeamMatchResult:
    return team_match_result(boards, decider, config=APEX)


def test_structures_teams_standings_count_team_match_points() -> None:
    teams = [team(t, 4) for t in "abcd"]
    round1 = [
        team_match_record("a", "b", final(["a", "a", "b", "a"])),
        team_match_record("c", "d", final(["a", "b", "b", "a"], "b")),
    ]
    rows = team_standings(teams, [round1], APEX)
    by_id = {row.player_id: row for row in rows}
    assert [by_id[t].points for t in "abcd"] == [3, 0, 0, 3]
    # boards are the games: b won 1 of 4 boards, d 2 of 4 (and the decider, not a board)
    assert by_id["b"].games == (1, 3, 0) and by_id["d"].games == (2, 2, 0)
    assert by_id["d"].game_win_pct == pytest.approx(0.5)
    assert sorted(row.player_id for row in rows) == list("abcd")


def test_structures_teams_standings_draws_and_byes() -> None:
    teams = [team(t, 3, coach=None) for t in "abc"]
    drawn = team_match_result(["a", "b", "draw"], config=NO_COACH)
    rows = team_standings(teams, [[team_match_record("a", "b", drawn), team_bye("c")]], NO_COACH)
    by_id = {row.player_id: row for row in rows}
    assert by_id["a"].points == by_id["b"].points == 1
    # a bye is a team-match win worth the boards an outright win needs: 2-0 of 3 boards
    assert by_id["c"].points == 3 and by_id["c"].games == (2, 0, 0)
    assert rows[0].player_id == "c"
    # 3-0 of 4 boards (APEX Madness), 4-0 of 6
    assert APEX.scoring().bye_games == (3, 0) and TeamConfig(6, 6).scoring().bye_games == (4, 0)


def test_structures_teams_tiebreakers_over_teams() -> None:
    teams = [team(t, 4) for t in "abcd"]
    r1 = [
        team_match_record("a", "b", final(["a", "a", "a", "a"])),
        team_match_record("c", "d", final(["a", "a", "a", "b"])),
    ]
    r2 = [
        team_match_record("a", "c", final(["b", "b", "b", "a"])),
        team_match_record("b", "d", final(["a", "b", "a", "b"], "a")),
    ]
    rows = team_standings(teams, [r1, r2], APEX, ["gw", "omw"])
    assert [row.player_id for row in rows][:1] == ["c"]
    a_row = next(r for r in rows if r.player_id == "a")
    # a won 5 of 8 boards: board-win % is the game-win %
    assert a_row.games == (5, 3, 0) and a_row.game_win_pct == pytest.approx(5 / 8)
    assert a_row.tiebreakers[0] == ("gw", pytest.approx(5 / 8))


def test_team_match_record_needs_a_final_result() -> None:
    err = error(team_match_record, "a", "b", final(["a", "b", "a", "b"]))
    assert err.field == "result"


def test_team_standings_errors_name_the_round() -> None:
    teams = [team("a", 4), team("b", 4)]
    with pytest.raises(StateError) as caught:
        team_standings(teams, [[MatchRecord("a", "z")]], APEX)
    assert caught.value.field == "rounds[0][0].b"


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_team_standings_are_a_permutation_of_the_teams(data: st.DataObject) -> None:
    n = data.draw(st.integers(2, 9))
    teams = [
        Team(f"t{i}", f"T{i}", tuple(f"t{i}p{k}" for k in range(4)), f"t{i}p0") for i in range(n)
    ]
    rounds = []
    for _ in range(data.draw(st.integers(0, 4))):
        order = data.draw(st.permutations([t.id for t in teams]))
        matches = []
        for x, y in zip(order[0::2], order[1::2], strict=False):
            boards = data.draw(
                st.lists(st.sampled_from(["a", "b", "draw"]), min_size=4, max_size=4)
            )
            decider = data.draw(st.sampled_from(["a", "b"]))
            result = team_match_result(boards, config=APEX)
            if result.decider_needed:
                result = team_match_result(boards, decider, config=APEX)
            matches.append(team_match_record(x, y, result))
        if len(order) % 2:
            matches.append(team_bye(order[-1]))
        rounds.append(matches)
    rows = team_standings(teams, rounds, APEX, ["omw", "gw", "ogw", "h2h"])
    assert sorted(row.player_id for row in rows) == sorted(t.id for t in teams)
    assert [row.rank for row in rows] == sorted(row.rank for row in rows)
    assert all(row.points == 3 * row.wins + row.draws for row in rows)


def test_formats_apex_madness_round_robin_of_12_teams_has_no_drawn_team_match() -> None:
    """A 12-team APEX Madness round robin through the core: line-ups, boards, results (ties
    to the Head Coaches' decider), team standings; with a Head Coach no team match is drawn."""
    rng = Random(21)
    teams = [team(f"t{i:02}", 4 + i % 3) for i in range(12)]
    ids = [t.id for t in teams]
    rounds, deciders = [], 0
    for r in range(11):  # the circle method: the first team stays, the others turn
        turned = [ids[0], *ids[1:][r:], *ids[1:][:r]]
        matches = []
        for x, y in zip(turned[:6], reversed(turned[6:]), strict=True):
            team_a, team_b = teams[ids.index(x)], teams[ids.index(y)]
            boards = pair_boards(
                team_a, team_a.members[:4], team_b, team_b.members[:4], APEX_MADNESS
            )
            outcomes = [rng.choice(["a", "b", "b", "draw"]) for _ in boards]
            result = team_match_result(outcomes, config=APEX)
            if result.decider_needed:
                pair_decider(team_a, team_b, APEX_MADNESS)
                result = team_match_result(outcomes, rng.choice(["a", "b"]), config=APEX)
                deciders += 1
            matches.append(team_match_record(x, y, result))
        rounds.append(matches)
    rows = team_standings(teams, rounds, APEX)
    assert deciders > 0
    assert all(row.rounds_played == 11 and row.draws == 0 for row in rows)
    assert sum(row.points for row in rows) == 3 * 66
    assert [row.points for row in rows] == sorted((row.points for row in rows), reverse=True)
    assert all(
        sorted(line.opponent for line in row.opponents) == [i for i in ids if i != row.player_id]
        for row in rows
    )


# -- an event's stored settings (rules_from_event) ----------------------------------------------
KNOWN = ("rookie", "apex_madness", "hilo_madness")


def test_rules_from_event_is_none_for_an_individual_event() -> None:
    from tournaments.teams import rules_from_event

    assert rules_from_event(None, {}, KNOWN, default_format="rookie") is None


def test_rules_from_event_fills_a_preset_and_reads_back_its_extras() -> None:
    from tournaments.teams import rules_extras, rules_from_event

    rules = rules_from_event(None, {"preset": "hilo_madness"}, KNOWN, default_format="rookie")
    assert rules is not None
    assert rules.team == HILO_MADNESS.team and rules.low_power_boards == (2, 3, 4)
    again = rules_from_event(rules.team.to_dict(), rules_extras(rules), KNOWN, default_format="x")
    assert again == rules


def test_rules_from_event_plain_rules_play_the_events_format() -> None:
    from tournaments.teams import rules_from_event

    rules = rules_from_event({"players": 3}, {}, KNOWN, default_format="rookie")
    assert rules is not None and rules.key == "custom"
    assert rules.formats.format_for("head_coach") == "rookie"


@pytest.mark.parametrize(
    ("team", "extras", "field"),
    [
        (None, {"low_power_boards": [1]}, "team_rules"),
        ({"players": 3}, {"preset": "hilo_madness"}, "team_rules.low_power_boards[2]"),
        (None, {"preset": "nope"}, "team_rules.preset"),
        (
            None,
            {"preset": "apex_madness", "formats": {"player": "chess"}},
            "team_rules.formats.player",
        ),
        ({"players": 4, "roster_size": 6}, {}, "team.roster_size"),
        ({"players": 4}, {"colour": "red"}, "team_rules.colour"),
    ],
)
def test_rules_from_event_names_the_bad_setting(team: object, extras: object, field: str) -> None:
    from tournaments.teams import rules_from_event

    with pytest.raises(TeamError) as caught:
        rules_from_event(team, extras, KNOWN, default_format="rookie")
    assert caught.value.field == field


# -- the deciding game and corrections (pure rules the services call) ----------------------------
def test_cr_4_4_3_a_deciding_game_always_has_a_winner() -> None:
    from tournaments.teams import DECIDER_GAMES_TO_WIN, check_decider_games

    assert DECIDER_GAMES_TO_WIN == 1  # Formats: APEX Madness, "a deciding game"
    check_decider_games((1, 0, 0))
    check_decider_games((0, 1, 0))
    for level in ((0, 0, 1), (1, 1, 0), (0, 0, 0)):
        err = error(check_decider_games, level)
        assert err.field == "games" and "CR 4.4.3" in err.message


@given(
    boards=st.lists(st.sampled_from(["a", "b", "draw"]), min_size=4, max_size=4),
    exists=st.booleans(),
    started=st.booleans(),
    finished=st.booleans(),
)
def test_event_structures_teams_decider_action_follows_the_tie(
    boards: list[str], exists: bool, started: bool, finished: bool
) -> None:
    """A decider is paired exactly when the boards tie and none is, removed exactly when they
    no longer tie and nobody reported it; anything else that would change it is refused."""
    from tournaments.teams import decider_action

    started = started and exists
    probe = team_match_result(boards, config=APEX)
    tied = probe.decider_needed
    try:
        action = decider_action(
            probe, decider_exists=exists, decider_started=started, round_finished=finished
        )
    except TeamError as exc:
        assert exc.field == "games"
        assert (tied and not exists and finished) or (exists and not tied and started)
        return
    if tied and not exists:
        assert action == "pair" and not finished
    elif exists and not tied:
        assert action == "remove" and not started
    else:
        assert action == "keep"


def test_rules_readme_decision_14_a_tie_made_in_a_finished_round_is_refused() -> None:
    from tournaments.teams import decider_action

    tied = team_match_result(["a", "a", "b", "b"], config=APEX)
    err = error(
        decider_action, tied, decider_exists=False, decider_started=False, round_finished=True
    )
    assert err.field == "games" and "finished round" in err.message
    assert (
        decider_action(tied, decider_exists=False, decider_started=False, round_finished=False)
        == "pair"
    )
    untied = team_match_result(["a", "a", "a", "b"], config=APEX)
    assert (
        decider_action(untied, decider_exists=True, decider_started=False, round_finished=True)
        == "remove"
    )
    err = error(
        decider_action, untied, decider_exists=True, decider_started=True, round_finished=False
    )
    assert "correct the decider first" in err.message
