"""The engine returns frozen values (issue 20, step 5): every value a registered game's plugin
hands the site holds no list, dict or set anywhere inside (tuples, read-only mappings and
frozen dataclasses instead); the site thaws what it stores or sends as JSON
(`engine.frozen.thaw`). The methods named `to_*` (`to_api`, `to_data`, `to_dict`,
`to_json`) are the seam's JSON encoders: they give the caller fresh JSON of its own."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from engine.frozen import freeze, thaw
from engine.games import (
    BEST_OF_ONE,
    BEST_OF_THREE,
    GAMES,
    ClockGame,
    GamePlugin,
    MatchStructure,
    ResultContext,
)
from engine.plugin import AdjudicationInput, AdjudicationInputError, AdjudicationView, CatalogCard
from tests.engine.bos.factory import end, record, start

GOLDEN = Path(__file__).resolve().parent / "boba" / "golden"

# Per game: a recorded result (games, structure, its details JSON) and a game record to
# replay. A new game adds its own here (the test below fails until it does).
SAMPLES: dict[str, dict[str, Any]] = {
    "boba": {
        "games": (2, 1, 0),
        "structure": BEST_OF_THREE,
        "details": [{"trophies": [4, 3]}, {"trophies": [2, 5]}, {"trophies": [7, 0]}],
        "clock": [ClockGame("a", False), ClockGame("b", True), ClockGame("a", False)],
        "record": (GOLDEN / "playmaker_full_game_all_seven.json").read_text(encoding="utf-8"),
    },
    "bos": {
        "games": (2, 1, 0),
        "structure": BEST_OF_THREE,
        "details": None,  # the game's demo details
        "clock": [ClockGame("a", False, (3, 1), "b"), ClockGame("b", True, (0, 2))],
        "record": json.dumps(record([start("A"), end("A"), start("B")])),
    },
}


def mutable_parts(value: object, path: str = "") -> list[str]:
    """Where `value` holds a list, dict or set, looking inside tuples, frozensets, mappings
    and the fields of dataclasses (paths like `.games[0]['bids']`); empty: frozen all
    through."""
    if isinstance(value, list | dict | set | bytearray):
        return [f"{path or '<value>'}: {type(value).__name__}"]
    found: list[str] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            found += mutable_parts(item, f"{path}[{key!r}]")
    elif isinstance(value, tuple | frozenset):
        for i, item in enumerate(value):
            found += mutable_parts(item, f"{path}[{i}]")
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            found += mutable_parts(getattr(value, f.name), f"{path}.{f.name}")
    return found


def test_the_walk_finds_a_list_a_dict_or_a_set_at_any_depth() -> None:
    @dataclasses.dataclass(frozen=True)
    class Holder:
        inner: object

    assert mutable_parts(Holder(MappingProxyType({"a": (1, [2])}))) == [".inner['a'][1]: list"]
    assert mutable_parts(({"a": 1},)) == ["[0]: dict"]
    assert mutable_parts(frozenset({(1, 2)})) == []
    assert mutable_parts(Holder((MappingProxyType({"s": frozenset()}), {3}))) == [".inner[1]: set"]


def test_freeze_and_thaw_are_inverse_on_json() -> None:
    value = {"a": [1, {"b": [True, None, 2.5]}], "c": "x"}
    frozen = freeze(value)
    assert mutable_parts(frozen) == []
    assert thaw(frozen) == value
    assert json.dumps(thaw(frozen)) == json.dumps(value)
    with pytest.raises(TypeError):
        freeze({"a": object()})
    with pytest.raises(TypeError):
        freeze({1: "not a JSON key"})


class NoCards:
    """An event catalog without cards (the adjudication page's CardPool)."""

    def find(self, ref: str, kinds: object = None) -> CatalogCard | None:
        return None

    def search(self, query: str) -> tuple[CatalogCard, ...]:
        return ()


def _decode(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except ValueError:
        raise AdjudicationInputError("record", "not JSON") from None
    assert isinstance(data, dict)
    return data


def _page(game: GamePlugin, post: dict[str, str] | None, record_text: str) -> AdjudicationView:
    """The game's judge-desk page for a GET (post None) or a posted form."""
    adjudicator = game.adjudicator()
    assert adjudicator is not None
    return adjudicator.page(
        AdjudicationInput(
            post=post,
            query={},
            record_text=record_text,
            players={"A": "Ann", "B": "Bob"},
            decks={"A": None, "B": None},
            mode="",
            cards=NoCards(),
            decode=_decode,
        )
    )


def _returned(game: GamePlugin) -> dict[str, object]:
    """What the game's plugin methods return for the sample inputs, by method."""
    sample = SAMPLES[game.key]
    out: dict[str, object] = {
        "formats": game.formats(),
        "modes": game.modes,
        "match_structures": game.match_structures,
        "clock": game.clock,
        "clock_rules": game.clock_rules(),
        "rule_sections": game.rule_sections(),
        "demo_details": game.demo_details(["a", "b", "a"], 3),
    }
    deck_rules = game.deck_rules()
    catalog = deck_rules.build_catalog([card.to_dict() for card in deck_rules.demo_cards()])
    fmt = deck_rules.resolve_format(game.default_format)
    evaluation = deck_rules.evaluate(
        deck_rules.export(deck_rules.sample(catalog, fmt, 1), catalog), catalog, fmt
    )
    assert evaluation.readable and evaluation.data
    out |= {
        "deck_rules.evaluate": evaluation,
        "deck_rules.format_parameters": deck_rules.format_parameters(),
        "deck_rules.rules": deck_rules.rules,
        "deck_rules.detail_ids": deck_rules.detail_ids(evaluation.data),
        "deck_rules.sections": deck_rules.sections(evaluation.data, {}),
        "deck_rules.charts": deck_rules.charts(evaluation.statistics, fmt),
        "deck_rules.decklist_help": deck_rules.decklist_help,
    }
    rules = game.match_rules()
    structure: MatchStructure = sample["structure"]
    details_json = sample["details"] or thaw(game.demo_details(["a", "b", "a"], 3))
    cleaned = rules.clean_details(details_json, ResultContext(sample["games"], structure))
    details = cleaned.to_json()
    form = rules.form_values(details)
    assert form, "the sample details read as form values"
    out |= {
        "match_rules.form_fields": rules.form_fields(),
        "match_rules.clean_details": cleaned,
        "match_rules.clean_details(frozen)": rules.clean_details(
            freeze(details_json), ResultContext(sample["games"], structure)
        ),
        "match_rules.form_values": form,
        "match_rules.details_from_form": rules.details_from_form(form),
        "match_rules.visible_details(a)": rules.visible_details(details, "a"),
        "match_rules.visible_details(None)": rules.visible_details(details, None),
        "match_rules.agree": rules.agree(details, details),
        "match_rules.describe": rules.describe(details, {"a": "Ann", "b": "Bob"}),
        "match_rules.details_from_clock": rules.details_from_clock(sample["clock"]),
        "match_rules.from_api": rules.from_api(rules.to_api(details)),
        "match_rules.unplayed_game": rules.unplayed_game,
        "match_rules.match_score": rules.match_score(details),
        "match_rules.clock_rules": rules.clock_rules,
    }
    replayer = game.replayer()
    if replayer is not None:
        outcome = replayer.replay_text(sample["record"])
        out |= {
            "replayer.replay_text": outcome,
            "replayer.replay": replayer.replay(json.loads(sample["record"])),
            "replayer.summary": replayer.summary(outcome.to_json()),
        }
    if game.adjudicator() is not None:
        out |= {
            "adjudicator.page(GET)": _page(game, None, sample["record"]),
            "adjudicator.page(show step 1)": _page(
                game, {"op": "show", "step": "1"}, sample["record"]
            ),
            "adjudicator.page(malformed)": _page(game, {"op": "show"}, '{"actions": 3}'),
            "adjudicator.page(empty)": _page(game, None, ""),
        }
    return out


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_value_a_game_plugin_returns_is_frozen_all_through(key: str) -> None:
    assert key in SAMPLES, f"add sample inputs for the game {key!r}"
    returned = _returned(GAMES[key])
    assert returned["match_rules.clean_details"] is not None
    problems = [
        f"{method}{where}" for method, value in returned.items() for where in mutable_parts(value)
    ]
    assert problems == []


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_frozen_values_thaw_to_the_json_the_site_stores(key: str) -> None:
    """Frozen is a view of the same JSON: what the site stores and sends is unchanged."""
    game = GAMES[key]
    sample = SAMPLES[key]
    rules = game.match_rules()
    details_json = sample["details"] or thaw(game.demo_details(["a", "b", "a"], 3))
    context = ResultContext(sample["games"], sample["structure"])
    cleaned = rules.clean_details(details_json, context)
    assert json.loads(json.dumps(cleaned.to_json())) == cleaned.to_json()
    assert (
        rules.clean_details(
            thaw(rules.details_from_form(rules.form_values(cleaned.to_json()))), context
        )
        == cleaned
    )
    assert rules.clean_details(freeze(details_json), context) == cleaned
    replayer = game.replayer()
    assert replayer is not None
    outcome = replayer.replay_text(sample["record"])
    assert json.loads(json.dumps(outcome.to_json())) == outcome.to_json()
    assert outcome.legal


def test_a_best_of_one_game_details_round_trip_through_the_form() -> None:
    rules = GAMES["boba"].match_rules()
    cleaned = rules.clean_details([{"trophies": [7, 0]}], ResultContext((1, 0, 0), BEST_OF_ONE))
    assert cleaned.to_json() == [{"trophies": [7, 0]}]
    assert rules.details_from_form(rules.form_values(cleaned.to_json())) == (
        MappingProxyType({"trophies": (7, 0)}),
    )


# Every game with a judge-desk page (each game today has one).
JUDGED_GAMES = sorted(key for key, game in GAMES.items() if game.load_adjudicator is not None)


@pytest.mark.parametrize("key", JUDGED_GAMES)
def test_the_adjudication_page_shows_frozen_analysis_and_details(key: str) -> None:
    """The judge-desk page's `analysis` and `details` are read-only all through (tuples and
    read-only mappings); the game's working values (the replay trace and the decoded record)
    stay with the game, and the replay's JSON thaws to exactly what the replayer gives."""
    game = GAMES[key]
    assert game.adjudicator() is not None
    record_text = SAMPLES[key]["record"]
    view = _page(game, {"op": "show", "step": "1"}, record_text)
    assert view.analysis is not None
    assert isinstance(view.analysis, MappingProxyType)
    assert isinstance(view.details, MappingProxyType)
    assert mutable_parts(view.analysis) == [] and mutable_parts(view.details) == []
    assert "replay" not in view.analysis and "record" not in view.analysis
    assert view.analysis["step"] == 1 and isinstance(view.analysis["panels"], tuple)
    replayer = game.replayer()
    assert replayer is not None
    assert thaw(view.analysis["replay_json"]) == replayer.replay_text(record_text).to_json()
    context = view.context()
    assert context["analysis"] is view.analysis
    assert all(context[key] is value for key, value in view.details.items())
    assert _page(game, None, "").analysis is None
