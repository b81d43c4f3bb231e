"""The registry of games: each game's GamePlugin, looked up by its key.

Django apps call `get_game(event.game)` and use what it returns (modes, formats, match
structures, deck validation, replay); nothing outside engine/ branches on a game's name. The
plugin types live in engine.plugin (the games' own modules import them from there); they are
re-exported here so `from engine.games import Text` keeps working.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.plugin import (
    BEST_OF_ONE,
    BEST_OF_THREE,
    DEFAULT_CLOCK_RULES,
    N_,
    AdjudicationInput,
    AdjudicationInputError,
    AdjudicationView,
    Adjudicator,
    BidRange,
    CardPool,
    CardRuling,
    CardRulings,
    CatalogCard,
    CatalogEntry,
    ChartSeries,
    ClockDefaults,
    ClockGame,
    ClockRules,
    DeckColumn,
    DeckEntry,
    DeckEvaluation,
    DeckReport,
    DeckRules,
    DeckSection,
    DeckStatisticsLike,
    DemoDetails,
    DetailField,
    DetailsAsStored,
    FormatChoice,
    GameCatalog,
    GameDetails,
    GameDetailsError,
    GameFormat,
    GameMode,
    GamePlugin,
    ImportOutcome,
    ImportRejection,
    MatchRules,
    MatchStructure,
    NoGameDetails,
    PlayerRef,
    ReadDecklist,
    RegisteredDeck,
    Replayer,
    ReplayOutcome,
    ReplaySummary,
    ResultContext,
    RuleSection,
    Score,
    TableCell,
    Text,
    for_reader,
    json_list,
    json_object,
    summary_common,
)

if TYPE_CHECKING:
    from engine.tiebreaker_entry import TiebreakerEntry

__all__ = [
    "BEST_OF_ONE",
    "BEST_OF_THREE",
    "BOBA",
    "BOS",
    "DEFAULT_CLOCK_RULES",
    "DEFAULT_GAME",
    "GAMES",
    "N_",
    "AdjudicationInput",
    "AdjudicationInputError",
    "AdjudicationView",
    "Adjudicator",
    "BidRange",
    "CardPool",
    "CardRuling",
    "CardRulings",
    "CatalogCard",
    "CatalogEntry",
    "ChartSeries",
    "ClockDefaults",
    "ClockGame",
    "ClockRules",
    "DeckColumn",
    "DeckEntry",
    "DeckEvaluation",
    "DeckReport",
    "DeckRules",
    "DeckSection",
    "DeckStatisticsLike",
    "DemoDetails",
    "DetailField",
    "DetailsAsStored",
    "FormatChoice",
    "GameCatalog",
    "GameDetails",
    "GameDetailsError",
    "GameFormat",
    "GameMode",
    "GamePlugin",
    "ImportOutcome",
    "ImportRejection",
    "MatchRules",
    "MatchStructure",
    "NoGameDetails",
    "PlayerRef",
    "ReadDecklist",
    "RegisteredDeck",
    "ReplayOutcome",
    "ReplaySummary",
    "Replayer",
    "ResultContext",
    "RuleSection",
    "Score",
    "TableCell",
    "Text",
    "UnknownGame",
    "default_game",
    "for_reader",
    "game_choices",
    "get_game",
    "json_list",
    "json_object",
    "summary_common",
]


def _boba_deck_rules() -> DeckRules:
    from engine.boba.deck_plugin import DECK_RULES

    return DECK_RULES


def _boba_replayer() -> Replayer:
    from engine.boba.replay_plugin import REPLAYER

    return REPLAYER


def _boba_rule_sections() -> tuple[RuleSection, ...]:
    from engine.boba.rule_sections import RULE_SECTIONS

    return RULE_SECTIONS


def _boba_rulings() -> CardRulings:
    from engine.boba.rulings_plugin import CARD_RULINGS

    return CARD_RULINGS


def _boba_match_rules() -> MatchRules:
    from engine.boba.trophies import MATCH_RULES

    return MATCH_RULES


def _boba_adjudicator() -> Adjudicator:
    from engine.boba.adjudication import ADJUDICATOR

    return ADJUDICATOR


def _boba_tiebreakers() -> tuple[TiebreakerEntry, ...]:
    from engine.boba.tiebreakers import TIEBREAKERS

    return TIEBREAKERS


def _boba_formats() -> tuple[FormatChoice, ...]:
    from engine.boba.deckbuilding.formats import FORMAT_PRESETS

    return tuple(
        FormatChoice(key, fmt.name, fmt.game_mode.value) for key, fmt in FORMAT_PRESETS.items()
    )


BOBA = GamePlugin(
    key="boba",
    name="Bo Jackson Battle Arena",
    modes=(
        GameMode("rookie", "Rookie"),
        GameMode("substitution", "Substitution"),
        GameMode("playmaker", "Playmaker"),
    ),
    match_structures=(BEST_OF_ONE, BEST_OF_THREE),
    load_formats=_boba_formats,
    load_deck_rules=_boba_deck_rules,
    # Battle differential last: trophies are BoBA's own measure of a close game.
    tiebreakers=("omw", "gw", "ogw", "battle_diff"),
    load_tiebreakers=_boba_tiebreakers,
    # Equal trophies after seven battles is a drawn game (CR 4.4.2); sudden death decides a
    # game that must have a winner (CR 4.4.3).
    bracket_decided_rule="CR 4.4.3",
    load_replayer=_boba_replayer,
    load_rule_sections=_boba_rule_sections,
    load_rulings=_boba_rulings,
    load_adjudicator=_boba_adjudicator,
    # Trophies per game (seven battles, CR 4.4.1), the event API's `battles`.
    load_match_rules=_boba_match_rules,
    default_mode="playmaker",
    default_format="playmaker",
    default_match_structure="bo1",
    card_text_fields=("ability",),
)


def _bos_deck_rules() -> DeckRules:
    from engine.bos.deck_plugin import DECK_RULES

    return DECK_RULES


def _bos_replayer() -> Replayer:
    from engine.bos.replay_plugin import REPLAYER

    return REPLAYER


def _bos_match_rules() -> MatchRules:
    from engine.bos.match import MATCH_RULES

    return MATCH_RULES


def _bos_rule_sections() -> tuple[RuleSection, ...]:
    from engine.bos.rule_sections import RULE_SECTIONS

    return RULE_SECTIONS


def _bos_adjudicator() -> Adjudicator:
    from engine.bos.adjudication import ADJUDICATOR

    return ADJUDICATOR


def _bos_demo_details() -> DemoDetails:
    from engine.bos.demo_catalog import demo_game_details

    return demo_game_details


def _bos_formats() -> tuple[FormatChoice, ...]:
    from engine.bos.formats import FORMAT_PRESETS

    return tuple(FormatChoice(key, fmt.name, "competitive") for key, fmt in FORMAT_PRESETS.items())


BOS = GamePlugin(
    key="bos",
    name="BOS",
    modes=(GameMode("competitive", "Competitive"),),
    # BOS: Best of 3 Match; best of one stays available for casual events.
    match_structures=(BEST_OF_THREE, BEST_OF_ONE),
    load_formats=_bos_formats,
    load_deck_rules=_bos_deck_rules,
    # Games always have a winner (BOS: Decay), so game wins are the measure after points.
    tiebreakers=("omw", "gw", "ogw"),
    load_replayer=_bos_replayer,
    load_rule_sections=_bos_rule_sections,
    load_adjudicator=_bos_adjudicator,
    load_match_rules=_bos_match_rules,
    # Decay ensures a winner every game (BOS: Decay); a match is decided in games.
    drawn_games=False,
    no_drawn_game_rule="BOS: Decay",
    bracket_decided_rule="BOS: Best of 3 Match",
    # BOS: Time Control recommends 15 minutes with a 30-second delay every turn.
    clock=ClockDefaults(minutes_per_player=15, delay_seconds=30),
    default_mode="competitive",
    default_format="competitive",
    default_match_structure="bo3",
    load_demo_details=_bos_demo_details,
    card_text_fields=("summoning_condition", "ability"),
)

GAMES: dict[str, GamePlugin] = {BOBA.key: BOBA, BOS.key: BOS}
DEFAULT_GAME = BOBA.key


class UnknownGame(KeyError):
    pass


def get_game(key: str) -> GamePlugin:
    try:
        return GAMES[key]
    except KeyError:
        raise UnknownGame(f"Unknown game '{key}'. Known games: {', '.join(GAMES)}.") from None


def game_choices() -> list[tuple[str, str]]:
    return [(game.key, game.name) for game in GAMES.values()]


def default_game() -> str:
    """The game a new event, catalog or check starts on when none is named."""
    return DEFAULT_GAME
