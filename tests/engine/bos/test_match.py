"""BOS match results (engine/bos/match.py): per-game details checked against BOS: Going First,
BOS: Best of 3 Match, BOS: Decay and BOS: Reserves; each error names its field."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bos.cards import Catalog
from engine.bos.decklist import parse_decklist
from engine.bos.demo_catalog import SAMPLE_DECKLIST, demo_cards
from engine.bos.formats import COMPETITIVE
from engine.bos.match import (
    MATCH_RULES,
    MAX_BID,
    BosDeck,
    DetailsError,
    clean_game_details,
    details_from_form,
    details_json,
    ether_for,
)
from engine.errors import BattledeskError
from engine.frozen import thaw
from engine.games import (
    BEST_OF_THREE,
    GameDetailsError,
    MatchRules,
    RegisteredDeck,
    ResultContext,
    get_game,
)

CATALOG = Catalog(demo_cards())
DECK = BosDeck(parse_decklist(SAMPLE_DECKLIST, CATALOG), CATALOG, COMPETITIVE)


def game(winner: str, bids: tuple[int, int] = (3, 1), **extra: Any) -> dict[str, Any]:
    return {"winner": winner, "bids": list(bids), **extra}


def clean(details: object, games: tuple[int, int, int] = (2, 1, 0), **kw: Any) -> list[Any]:
    return details_json(clean_game_details(details, games=games, games_to_win=2, **kw))


def refused(details: object, games: tuple[int, int, int] = (2, 1, 0), **kw: Any) -> DetailsError:
    with pytest.raises(DetailsError) as caught:
        clean_game_details(details, games=games, games_to_win=2, **kw)
    return caught.value


def with_deck(side: str) -> BosDeck | None:
    return DECK


# --- BOS: Going First ---------------------------------------------------------------------


def test_bos_going_first_lower_bidder_receives_ether_equal_to_the_bid() -> None:
    # The guide's example: player one bids 4, player two 7: two chooses, one gets 4 ether.
    out = clean([game("a", (4, 7)), game("b", (2, 0)), game("a", (0, 5))])
    assert out[0]["ether"] == [4, 0] and out[0]["chose_first"] == "b"
    assert out[1]["ether"] == [0, 0] and out[1]["chose_first"] == "a"
    assert out[2]["ether"] == [0, 0] and out[2]["chose_first"] == "b"


def test_bos_going_first_chose_first_must_be_the_higher_bidder() -> None:
    err = refused([game("a", (4, 7), chose_first="a"), game("b"), game("a")])
    assert err.field == "game_details[0].chose_first"
    assert "BOS: Going First" in err.message


def test_bos_going_first_given_ether_must_match_the_bids() -> None:
    err = refused([game("a"), game("b", (1, 6), ether=[0, 1]), game("a")])
    assert err.field == "game_details[1].ether"
    assert "[1, 0]" in err.message and "BOS: Going First" in err.message
    out = clean([game("a"), game("b", (1, 6), ether=[1, 0]), game("a")])
    assert out[1]["ether"] == [1, 0]


def test_bos_going_first_equal_bids_are_bid_again() -> None:
    err = refused([game("a", (3, 3)), game("b"), game("a")])
    assert err.field == "game_details[0].bids"
    assert "bid again" in err.message and "BOS: Going First" in err.message


@pytest.mark.parametrize("bids", [[-1, 2], [1.5, 2], [True, 2], ["3", 2], [MAX_BID + 1, 0], [1]])
def test_bos_going_first_bids_are_bounded_non_negative_whole_numbers(bids: list[Any]) -> None:
    err = refused([{"winner": "a", "bids": bids}, game("b"), game("a")])
    assert err.field == "game_details[0].bids"


def test_bos_going_first_who_went_first_is_optional_and_kept() -> None:
    out = clean([game("a", first="b"), game("b"), game("a")])
    assert out[0]["first"] == "b" and "first" not in out[1]
    assert refused([game("a", first="c"), game("b"), game("a")]).field == "game_details[0].first"


# --- BOS: Decay and BOS: Best of 3 Match ------------------------------------------------------


def test_bos_decay_every_game_has_a_winner() -> None:
    err = refused([{"bids": [1, 2]}, game("b"), game("a")])
    assert err.field == "game_details[0].winner" and "BOS: Decay" in err.message
    assert refused([game("x"), game("b"), game("a")]).field == "game_details[0].winner"


def test_bos_decay_no_drawn_games_in_the_count() -> None:
    err = refused([game("a"), game("b")], games=(1, 1, 1))
    assert err.field == "game_details" and "BOS: Decay" in err.message


def test_bos_best_of_3_winners_must_match_the_reported_games() -> None:
    err = refused([game("a"), game("a"), game("b")], games=(2, 1, 0))
    assert err.field == "game_details[2]"  # the match was over after two games
    err = refused([game("b"), game("b")], games=(2, 0, 0))
    assert err.field == "game_details" and "BOS: Best of 3 Match" in err.message
    err = refused([game("a"), game("b")], games=(2, 1, 0))
    assert err.field == "game_details" and "one entry per game" in err.message


def test_bos_best_of_3_at_most_three_games() -> None:
    err = refused([game("a"), game("b"), game("a"), game("b")])
    assert err.field == "game_details"


def test_bos_best_of_1_one_game() -> None:
    out = details_json(clean_game_details([game("b")], games=(0, 1, 0), games_to_win=1))
    assert out[0]["winner"] == "b"
    with pytest.raises(DetailsError):
        clean_game_details([game("b"), game("a")], games=(1, 1, 0), games_to_win=1)


def test_bos_best_of_3_an_unfinished_match_records_the_games_played() -> None:
    assert len(clean([game("a")], games=(1, 0, 0))) == 1


def test_bos_time_control_end_on_time_is_kept_and_played_is_the_default() -> None:
    out = clean([game("a"), game("b", end="time"), game("a")])
    assert [g["end"] for g in out] == ["played", "time", "played"]
    assert refused([game("a", end="late"), game("b"), game("a")]).field == "game_details[0].end"


@pytest.mark.parametrize(
    ("details", "field"),
    [
        ({"winner": "a"}, "game_details"),
        (["a"], "game_details[0]"),
        ([game("a", colour="red"), game("b"), game("a")], "game_details[0].colour"),
        ([game("a"), {"winner": "b"}, game("a")], "game_details[1].bids"),
    ],
)
def test_malformed_details_name_their_field(details: object, field: str) -> None:
    err = refused(details)
    assert err.field == field
    assert isinstance(err, BattledeskError) and isinstance(err, ValueError)
    assert err.as_dict()["field"] == field


# --- BOS: Reserves --------------------------------------------------------------------------


def swap(out: str, into: str, count: int = 1) -> dict[str, Any]:
    return {"out": out, "in": into, "count": count}


def test_bos_reserves_a_legal_swap_is_recorded_with_catalog_names() -> None:
    out = clean(
        [game("a"), game("b", swaps={"a": [swap("spark pup", "BRAND KNIGHT")]}), game("a")],
        deck_of=with_deck,
    )
    assert out[1]["swaps"] == {"a": [swap("Spark Pup", "Brand Knight")], "b": []}
    assert "swaps" not in out[0] and "swaps" not in out[2]


def test_bos_reserves_no_swaps_before_game_one() -> None:
    err = refused(
        [game("a", swaps={"a": [swap("Spark Pup", "Brand Knight")]}), game("b"), game("a")],
        deck_of=with_deck,
    )
    assert err.field == "game_details[0].swaps.a" and "BOS: Reserves" in err.message


def test_bos_reserves_out_must_be_in_the_main_deck() -> None:
    # Brand Knight is only in the reserves.
    err = refused(
        [game("a"), game("b", swaps={"b": [swap("Brand Knight", "Scorch Rain")]}), game("a")],
        deck_of=with_deck,
    )
    assert err.field == "game_details[1].swaps.b[0].out" and "BOS: Reserves" in err.message


def test_bos_reserves_out_must_be_a_summon_or_spell() -> None:
    err = refused(
        [game("a"), game("b", swaps={"a": [swap("Furnace Tyrant", "Brand Knight")]}), game("a")],
        deck_of=with_deck,
    )
    assert err.field == "game_details[1].swaps.a[0].out" and "boss" in err.message


def test_bos_reserves_in_must_be_in_the_reserves() -> None:
    err = refused(
        [game("a"), game("b", swaps={"a": [swap("Spark Pup", "Heat Wave")]}), game("a")],
        deck_of=with_deck,
    )
    assert err.field == "game_details[1].swaps.a[0].in"
    err = refused(
        [game("a"), game("b", swaps={"a": [swap("Coal Golem", "Spark Pup", 2)]}), game("a")],
        deck_of=with_deck,
    )
    assert err.field == "game_details[1].swaps.a[0].in" and "hold 1" in err.message


def test_bos_reserves_unknown_card_names_the_swap() -> None:
    err = refused(
        [game("a"), game("b", swaps={"a": [swap("Spark Pup", "No Such Card")]}), game("a")],
        deck_of=with_deck,
    )
    assert err.field == "game_details[1].swaps.a[0].in" and "unknown card" in err.message


def test_bos_reserves_a_swap_that_breaks_the_deck_rules_is_refused_with_the_rule() -> None:
    # Kindle for Scorch Rain keeps the counts; Heat Wave (a spell) for Brand Knight (a summon)
    # leaves 11 summons and 9 spells (BOS: Starting Info): that swap is named.
    swaps = {"a": [swap("Kindle", "Scorch Rain"), swap("Heat Wave", "Brand Knight")]}
    err = refused([game("a"), game("b", swaps=swaps), game("a")], deck_of=with_deck)
    assert err.field == "game_details[1].swaps.a[1]"
    assert "BOS: Starting Info" in err.message and "summons" in err.message


def test_bos_reserves_a_type_balanced_exchange_is_legal() -> None:
    out = clean(
        [
            game("a"),
            game(
                "b",
                swaps={"a": [swap("Heat Wave", "Scorch Rain"), swap("Coal Golem", "Brand Knight")]},
            ),
            game("a"),
        ],
        deck_of=with_deck,
    )
    assert len(out[1]["swaps"]["a"]) == 2


def test_bos_reserves_swaps_are_cumulative_across_games() -> None:
    # Before game 2 Spark Pup goes to the reserves; before game 3 it can come back (3 of them
    # there now) and Brand Knight, now in the deck, can go out again.
    details = [
        game("a"),
        game("b", swaps={"a": [swap("Spark Pup", "Brand Knight", 2)]}),
        game("a", swaps={"a": [swap("Brand Knight", "Spark Pup", 2)]}),
    ]
    assert len(clean(details, deck_of=with_deck)[2]["swaps"]["a"]) == 1
    # Without game 2's swap, Brand Knight is not in the main deck before game 3.
    details[1] = game("b")
    err = refused(details, deck_of=with_deck)
    assert err.field == "game_details[2].swaps.a[0].out"


def test_bos_reserves_without_a_registered_list_swaps_are_refused() -> None:
    err = refused(
        [game("a"), game("b", swaps={"b": [swap("Spark Pup", "Brand Knight")]}), game("a")]
    )
    assert err.field == "game_details[1].swaps.b" and "no registered decklist" in err.message


def test_bos_reserves_the_list_is_read_only_for_a_side_that_swapped() -> None:
    asked: list[str] = []

    def deck_of(side: str) -> BosDeck | None:
        asked.append(side)
        return DECK

    clean(
        [game("a"), game("b", swaps={"b": [swap("Spark Pup", "Brand Knight")]}), game("a")],
        deck_of=deck_of,
    )
    assert asked == ["b"]


# --- the plugin -----------------------------------------------------------------------------


def test_bos_and_boba_plugins_provide_match_rules_boba_its_trophies() -> None:
    rules = get_game("bos").match_rules()
    assert isinstance(rules, MatchRules) and rules.has_game_details
    assert {f.key for f in rules.form_fields()} >= {"winner", "bids", "chose_first", "swaps"}
    boba = get_game("boba").match_rules()
    assert isinstance(boba, MatchRules) and boba.has_game_details
    assert [f.key for f in boba.form_fields()] == ["trophies"]
    with pytest.raises(GameDetailsError) as caught:
        boba.clean_details([], ResultContext((1, 0, 0), BEST_OF_THREE))
    assert caught.value.field == "battles"


def test_bos_plugin_reads_the_registered_list_from_its_stored_json() -> None:
    from engine.bos.deck_plugin import DECK_RULES

    data = DECK_RULES.to_data(DECK.decklist, CATALOG)
    context = ResultContext(
        (2, 0, 0), BEST_OF_THREE, deck=lambda side: RegisteredDeck(data, CATALOG, COMPETITIVE)
    )
    details = MATCH_RULES.clean_details(
        [game("a"), game("a", swaps={"b": [swap("Kindle", "Scorch Rain")]})], context
    )
    assert details.to_json()[1]["swaps"]["b"] == [swap("Kindle", "Scorch Rain")]
    assert details.games[0]["ether"] == (0, 1)


def test_form_values_become_details() -> None:
    rows = [
        {"winner": "a", "bids": ["3", "1"], "chose_first": "", "first": "b", "swaps": ["", ""]},
        {"winner": "b", "bids": ["0", "2"], "swaps": ["2 Spark Pup > Brand Knight", ""]},
        {"winner": "", "bids": ["", ""], "swaps": ["", ""]},
    ]
    out = details_from_form(rows)
    assert thaw(out) == [
        {"winner": "a", "first": "b", "bids": [3, 1]},
        {
            "winner": "b",
            "bids": [0, 2],
            "swaps": {"a": [swap("Spark Pup", "Brand Knight", 2)], "b": []},
        },
    ]
    assert details_from_form([{"winner": "", "bids": ["", ""]}]) is None
    with pytest.raises(DetailsError) as caught:
        details_from_form([{"winner": "a"}, {"swaps": ["", "Spark Pup"]}])
    assert caught.value.field == "game_details[1].swaps.b[0]"


# --- properties -----------------------------------------------------------------------------


@st.composite
def valid_match(draw: st.DrawFn) -> tuple[list[dict[str, Any]], tuple[int, int, int]]:
    winners: list[str] = []
    wins = {"a": 0, "b": 0}
    length = draw(st.integers(1, 3))
    for _ in range(length):
        if max(wins.values()) == 2:
            break
        w = draw(st.sampled_from(["a", "b"]))
        winners.append(w)
        wins[w] += 1
    details = []
    for w in winners:
        bids = draw(
            st.tuples(st.integers(0, MAX_BID), st.integers(0, MAX_BID)).filter(
                lambda b: b[0] != b[1]
            )
        )
        entry: dict[str, Any] = {"winner": w, "bids": list(bids)}
        if draw(st.booleans()):
            entry["chose_first"] = "a" if bids[0] > bids[1] else "b"
        if draw(st.booleans()):
            entry["first"] = draw(st.sampled_from(["a", "b"]))
        if draw(st.booleans()):
            entry["ether"] = list(ether_for(bids))
        if draw(st.booleans()):
            entry["end"] = draw(st.sampled_from(["played", "time"]))
        details.append(entry)
    return details, (wins["a"], wins["b"], 0)


@settings(max_examples=200)
@given(valid_match())
def test_bos_going_first_valid_generated_details_always_clean_and_ether_is_derived(
    case: tuple[list[dict[str, Any]], tuple[int, int, int]],
) -> None:
    details, games = case
    out = clean(details, games=games)
    assert len(out) == len(details)
    for given_, got in zip(details, out, strict=True):
        bid_a, bid_b = given_["bids"]
        low = "a" if bid_a < bid_b else "b"
        assert got["chose_first"] == ("b" if low == "a" else "a")
        expected = [bid_a, 0] if low == "a" else [0, bid_b]
        assert got["ether"] == expected
        assert min(got["ether"]) == 0 and max(got["ether"]) == min(bid_a, bid_b)
        assert got["winner"] == given_["winner"]
    # Cleaning is idempotent: the output is valid input and cleans to itself.
    assert clean(out, games=games) == out


@settings(max_examples=100)
@given(valid_match(), st.integers(0, 2), st.sampled_from(["winner", "bids", "chose_first"]))
def test_a_broken_game_is_refused_naming_that_game(
    case: tuple[list[dict[str, Any]], tuple[int, int, int]], index: int, key: str
) -> None:
    details, games = case
    i = index % len(details)
    broken = [dict(g) for g in details]
    bids = broken[i]["bids"]
    broken[i][key] = {"winner": "nobody", "bids": [bids[0], bids[0]], "chose_first": "x"}[key]
    err = refused(broken, games=games)
    assert err.field == f"game_details[{i}].{key}"


def test_describe_gives_each_game_in_words_and_nothing_for_unreadable_details() -> None:
    names = {"a": "Ann", "b": "Bo"}
    details = clean(
        [
            game("a", (4, 7)),
            game("b", swaps={"a": [swap("Spark Pup", "Brand Knight")]}),
            game("a", end="time"),
        ],
        deck_of=with_deck,
    )
    lines = MATCH_RULES.describe(details, names)
    text = [" ".join(t.render() for t in g) for g in lines]
    assert (
        text[0]
        == "Game 1: Ann won. Bids Ann 4, Bo 7: Bo chose who went first, Ann received 4 ether."
    )
    assert "Reserve swaps by Ann: 1 Spark Pup → Brand Knight." in text[1]
    assert text[2].startswith("Game 3: Ann won on time.")
    assert MATCH_RULES.describe([{"winner": "z"}], names) == ()
    assert MATCH_RULES.describe("junk", names) == ()
    assert get_game("boba").match_rules().describe(details, names) == ()


@st.composite
def legal_swaps(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Three games; before games 2 and 3 each side swaps main-deck cards for reserve cards of
    the same type, drawn from the deck as the earlier swaps left it."""
    from engine.bos.cards import CardType

    details: list[dict[str, Any]] = [game("a"), game("b"), game("a")]
    for side in ("a", "b"):
        main: dict[str, int] = {}
        reserves: dict[str, int] = {}
        for section in ("summons", "spells"):
            for line in DECK.decklist.lines(section):
                main[line.name] = line.count
        for line in DECK.decklist.lines("reserves"):
            reserves[line.name] = line.count
        kind = {c.name: c.type for c in CATALOG.cards()}
        for i in (1, 2):
            swaps = []
            for _ in range(draw(st.integers(0, 3))):
                options = [
                    (out, into)
                    for out, n in main.items()
                    if n
                    for into, m in reserves.items()
                    if m
                    and kind[out] is kind[into]
                    and kind[out] in (CardType.SUMMON, CardType.SPELL)
                ]
                if not options:
                    break
                out, into = draw(st.sampled_from(options))
                count = draw(st.integers(1, min(main[out], reserves[into])))
                main[out] -= count
                reserves[out] = reserves.get(out, 0) + count
                reserves[into] -= count
                main[into] = main.get(into, 0) + count
                swaps.append(swap(out, into, count))
            if swaps:
                details[i].setdefault("swaps", {})[side] = swaps
    return details


@settings(max_examples=100)
@given(legal_swaps())
def test_bos_reserves_like_for_like_swaps_drawn_from_the_current_deck_always_clean(
    details: list[dict[str, Any]],
) -> None:
    out = clean(details, deck_of=with_deck)
    for given_, got in zip(details, out, strict=True):
        for side in ("a", "b"):
            expected = given_.get("swaps", {}).get(side, [])
            assert got.get("swaps", {}).get(side, []) == expected


def test_bos_reserves_a_reporting_player_gives_only_own_swaps() -> None:
    details = [game("a"), game("b", swaps={"b": [swap("Spark Pup", "Brand Knight")]}), game("a")]
    err = refused(details, deck_of=with_deck, reporter="a")
    assert err.field == "game_details[1].swaps.b" and "BOS: Reserves" in err.message
    assert clean(details, deck_of=with_deck, reporter="b")[1]["swaps"]["b"][0]["in"] == (
        "Brand Knight"
    )


def test_bos_reserves_agree_merges_each_players_own_swaps_and_refuses_any_other_difference() -> (
    None
):
    mine_a = clean(
        [game("a"), game("b", swaps={"a": [swap("Kindle", "Scorch Rain")]}), game("a")],
        deck_of=with_deck,
    )
    mine_b = clean(
        [game("a"), game("b", swaps={"b": [swap("Smoke Imp", "Brand Knight")]}), game("a")],
        deck_of=with_deck,
    )
    merged = MATCH_RULES.agree(mine_a, mine_b)
    assert merged is not None
    assert merged.to_json()[1]["swaps"] == {
        "a": [swap("Kindle", "Scorch Rain")],
        "b": [swap("Smoke Imp", "Brand Knight")],
    }
    assert merged.to_json()[0] == mine_a[0]
    assert MATCH_RULES.agree(mine_a, mine_a) is not None
    other_bids = clean([game("a", (5, 1)), game("b"), game("a")])
    assert MATCH_RULES.agree(mine_a, other_bids) is None
    assert MATCH_RULES.agree(mine_a, mine_a[:2]) is None
    assert get_game("boba").match_rules().agree([], []) is None


def test_bos_reserves_visible_details_keep_only_the_viewers_own_swaps() -> None:
    both = {"a": [swap("Kindle", "Scorch Rain")], "b": [swap("Smoke Imp", "Brand Knight")]}
    details = clean([game("a"), game("b", swaps=both), game("a")], deck_of=with_deck)
    public = thaw(MATCH_RULES.visible_details(details, None))
    assert isinstance(public, list) and "swaps" not in public[1]
    assert public[1]["bids"] == [3, 1] and public[1]["end"] == "played"
    own = thaw(MATCH_RULES.visible_details(details, "b"))
    assert isinstance(own, list) and own[1]["swaps"] == {"a": [], "b": both["b"]}
    assert details[1]["swaps"] == both  # the stored details are left as they are


@settings(max_examples=100)
@given(legal_swaps())
def test_form_values_read_back_to_the_same_details(details: list[dict[str, Any]]) -> None:
    details[1]["end"] = "time"
    details[0]["first"] = "b"
    out = clean(details, deck_of=with_deck)
    again = details_from_form(MATCH_RULES.form_values(out))
    assert clean(again, deck_of=with_deck) == out


def test_bos_reserves_a_swap_that_deepens_a_violation_the_list_had_is_refused() -> None:
    """A registered list with 11 summons is the deck checks' business, but a swap that makes
    it 12 breaks BOS: Starting Info further and is refused (compared by message, not rule)."""
    eleven = (
        SAMPLE_DECKLIST.replace("2 Heat Wave", "1 Heat Wave")
        .replace("Reserves (7)\n3 Brand Knight", "Reserves (7)\n2 Brand Knight")
        .replace("2 Spark Pup\n2 Coal Golem", "2 Spark Pup\n2 Coal Golem\n1 Brand Knight")
    )
    base = BosDeck(parse_decklist(eleven, CATALOG), CATALOG, COMPETITIVE)
    assert not base.decklist.errors
    details = [game("a"), game("b", swaps={"a": [swap("Fire Lash", "Brand Knight")]}), game("a")]
    err = refused(details, deck_of=lambda side: base)
    assert err.field == "game_details[1].swaps.a[0]" and "BOS: Starting Info" in err.message
    # A swap that leaves the old violation as it was is still recorded.
    same = [game("a"), game("b", swaps={"a": [swap("Kindle", "Scorch Rain")]}), game("a")]
    assert clean(same, deck_of=lambda side: base)[1]["swaps"]["a"]


def test_bos_reserves_the_form_takes_at_most_twenty_swap_lines() -> None:
    many = "\n".join("Spark Pup > Brand Knight" for _ in range(21))
    with pytest.raises(DetailsError) as caught:
        details_from_form([{"winner": "a", "swaps": [many, ""]}])
    assert "at most 20 swaps" in caught.value.message


def test_bos_details_from_the_clock_need_every_games_bids() -> None:
    from engine.games import ClockGame

    rules = get_game("bos").match_rules()
    assert rules.clock_rules.asks_bids and not get_game("boba").clock_rules().asks_bids
    assert get_game("bos").clock_rules().bids.maximum == MAX_BID
    games = [ClockGame("a", False, (3, 1), "b"), ClockGame("b", True, (0, 2))]
    assert thaw(rules.details_from_clock(games)) == [
        {"winner": "a", "bids": [3, 1], "first": "b", "end": "played"},
        {"winner": "b", "bids": [0, 2], "end": "time"},
    ]
    assert rules.details_from_clock([*games, ClockGame("a", False)]) is None
    assert get_game("boba").match_rules().details_from_clock(games) is None
