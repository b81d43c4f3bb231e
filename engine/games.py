"""Games as plugins: what the site needs to know about a game, looked up by its key.

Django apps call `get_game(event.game)` and use what it returns (modes, formats, match
structures, deck validation, replay); nothing outside engine/ branches on a game's name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable


def N_(message: str) -> str:
    """Mark an engine string for translation without translating it (no Django here): the
    site renders `Text` with gettext, and `makemessages -k N_` collects these strings."""
    return message


@dataclass(frozen=True, slots=True)
class Text:
    """A message for people: an English message id plus its parameters, translated by the
    site (`gettext(message) % params`). `literal` text (names, numbers) is shown as is."""

    message: str
    params: tuple[tuple[str, object], ...] = ()
    literal: bool = False

    @classmethod
    def of(cls, message: str, **params: object) -> Text:
        return cls(message, tuple(params.items()))

    @classmethod
    def plain(cls, text: str) -> Text:
        return cls(text, (), True)

    def render(self, translate: Callable[[str], str] = lambda m: m) -> str:
        text = self.message if self.literal else translate(self.message)
        return text % dict(self.params) if self.params else text


TableCell = Text | str | int


@dataclass(frozen=True, slots=True)
class DeckColumn:
    """A column a section shows after quantity and card name."""

    key: str
    title: Text
    numeric: bool = False


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """One line of a section: `values` follow the section's columns (None: unknown)."""

    count: int
    name: str
    printing: str = ""
    values: tuple[str | int | None, ...] = ()


@dataclass(frozen=True, slots=True)
class DeckSection:
    key: str
    title: Text
    columns: tuple[DeckColumn, ...]
    entries: tuple[DeckEntry, ...]
    total: int


@dataclass(frozen=True, slots=True)
class ChartSeries:
    """One deck chart as data; the site draws it (`bar`: vertical bars with an optional cap
    line, `hbar`: named counts, `meter`: one total against an optional cap)."""

    kind: Literal["bar", "hbar", "meter"]
    id_suffix: str
    title: Text
    description: tuple[Text, ...]
    bars: tuple[tuple[str, int], ...] = ()
    value: int = 0
    cap: int | None = None
    cap_label: Text | None = None
    value_label: Text | None = None
    x_label: Text | None = None
    empty_text: Text | None = None
    table_headers: tuple[Text, Text] = (Text(""), Text(""))
    table_rows: tuple[tuple[TableCell, TableCell], ...] = ()
    # Shown under the chart (parts joined with a space), when not empty.
    note: tuple[Text, ...] = ()


class DeckReport(Protocol):
    """A validation report: legal or not, and its JSON form (stored with the version)."""

    @property
    def legal(self) -> bool: ...

    def to_dict(self) -> dict[str, Any]: ...


class DeckStatisticsLike(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


class ReadDecklist(Protocol):
    """A list as the game read it; `errors` are the lines it could not read."""

    @property
    def errors(self) -> Sequence[object]: ...


class CatalogEntry(Protocol):
    """A card read from an import: its external id and its fields (`card_fields` keys)."""

    @property
    def id(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...


class ImportRejection(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


class ImportOutcome(Protocol):
    @property
    def entries(self) -> Sequence[CatalogEntry]: ...

    @property
    def rejections(self) -> Sequence[ImportRejection]: ...


# Opaque to the site: a game's built catalog and its resolved format.
GameCatalog = Any
GameFormat = Any


@dataclass(frozen=True, slots=True)
class DeckEvaluation:
    """A list read, validated and described: what "check my deck" and a submission keep.
    `report` and `statistics` are the JSON forms stored with a version."""

    decklist: object
    readable: bool
    legal: bool
    report: dict[str, Any]
    statistics: dict[str, Any]
    sections: tuple[DeckSection, ...]
    text: str
    data: dict[str, Any]


@runtime_checkable
class DeckRules(Protocol):
    """What the decks app asks of a game; nothing in it names a game's own concepts."""

    card_fields: tuple[str, ...]
    rules: Mapping[str, object]
    # The catalog fields `sections` shows beside a card (looked up by `detail_ids`).
    detail_fields: tuple[str, ...]

    def build_catalog(self, rows: Iterable[Mapping[str, Any]]) -> GameCatalog: ...

    def card_from_fields(self, fields: Mapping[str, Any]) -> CatalogEntry: ...

    def resolve_format(self, key: str, params: Mapping[str, Any] | None = None) -> GameFormat: ...

    def format_parameters(self) -> dict[str, dict[str, Any]]: ...

    def parse_import(
        self, files: Sequence[tuple[str, bytes]], existing: Iterable[Mapping[str, Any]] = ()
    ) -> ImportOutcome: ...

    def read_decklist(
        self, source: str | bytes | Mapping[str, Any], catalog: GameCatalog
    ) -> ReadDecklist: ...

    def validate(self, decklist: Any, catalog: GameCatalog, fmt: GameFormat) -> DeckReport: ...

    def statistics(
        self, decklist: Any, catalog: GameCatalog, fmt: GameFormat | None
    ) -> DeckStatisticsLike: ...

    def export(self, decklist: Any, catalog: GameCatalog, title: str | None = None) -> str: ...

    def to_data(self, decklist: Any, catalog: GameCatalog) -> dict[str, Any]: ...

    def demo_cards(self) -> Sequence[CatalogEntry]: ...

    def sample(self, catalog: GameCatalog, fmt: GameFormat, seed: int = 0) -> Any: ...

    def community_cards(
        self, rows: Iterable[Mapping[str, Any]]
    ) -> tuple[Sequence[CatalogEntry], Sequence[ImportRejection]]: ...

    def detail_ids(self, data: Mapping[str, Any]) -> set[str]: ...

    def sections(
        self, data: Mapping[str, Any], details: Mapping[str, Mapping[str, Any]]
    ) -> tuple[DeckSection, ...]: ...

    def charts(
        self, statistics: Mapping[str, Any], fmt: GameFormat | None
    ) -> tuple[ChartSeries, ...]: ...

    def evaluate(
        self, source: str | bytes | Mapping[str, Any], catalog: GameCatalog, fmt: GameFormat
    ) -> DeckEvaluation: ...


@dataclass(frozen=True, slots=True)
class ReplayOutcome:
    """A game record replayed: `json` is exactly the JSON of the game's replay CLI
    (`python -m engine.boba replay --json` for BoBA); `exit_status` is the CLI's exit code:
    0 legal, 1 an illegal action, 2 a malformed record, 3 an engine failure."""

    json: dict[str, Any]
    exit_status: int

    @property
    def legal(self) -> bool:
        return self.exit_status == 0

    @property
    def malformed(self) -> bool:
        return self.exit_status == 2


@runtime_checkable
class Replayer(Protocol):
    """A game's record replay, for the site (the API and the adjudication pages)."""

    def replay(self, record: object) -> ReplayOutcome:
        """Replay a decoded record (JSON values)."""
        ...

    def replay_text(self, text: str | bytes) -> ReplayOutcome:
        """Replay a record given as JSON text (unreadable text is a malformed record)."""
        ...


@dataclass(frozen=True, slots=True)
class GameMode:
    key: str
    label: str


@dataclass(frozen=True, slots=True)
class FormatChoice:
    key: str
    label: str
    mode: str


@dataclass(frozen=True, slots=True)
class MatchStructure:
    key: str
    label: str
    games_to_win: int

    @property
    def max_games(self) -> int:
        return self.games_to_win * 2 - 1


BEST_OF_ONE = MatchStructure("bo1", "Best of 1", 1)
BEST_OF_THREE = MatchStructure("bo3", "Best of 3", 2)


@dataclass(frozen=True, slots=True)
class GamePlugin:
    key: str
    name: str
    modes: tuple[GameMode, ...]
    match_structures: tuple[MatchStructure, ...]
    # Loaded lazily so that importing the registry stays cheap and free of the engines.
    load_formats: Callable[[], tuple[FormatChoice, ...]] = field(repr=False)
    load_deck_rules: Callable[[], DeckRules] = field(repr=False)
    # Swiss tiebreakers after match points, in order (names of tournaments.standings).
    tiebreakers: tuple[str, ...] = ("omw", "gw", "ogw")
    # Trophies per game, when the game records them per battle (BoBA: seven battles).
    battles_per_game: int | None = None
    # The game's record replay, when it has one.
    load_replayer: Callable[[], Replayer] | None = field(default=None, repr=False)

    def formats(self) -> tuple[FormatChoice, ...]:
        return self.load_formats()

    def deck_rules(self) -> DeckRules:
        """The game's deck rules: catalog import, decklist parsing, validation, export."""
        return self.load_deck_rules()

    def replayer(self) -> Replayer | None:
        """The game's record replay, or None when the game records no games."""
        return self.load_replayer() if self.load_replayer is not None else None

    def format(self, key: str) -> FormatChoice | None:
        return next((f for f in self.formats() if f.key == key), None)

    def mode(self, key: str) -> GameMode | None:
        return next((m for m in self.modes if m.key == key), None)

    def match_structure(self, key: str) -> MatchStructure | None:
        return next((s for s in self.match_structures if s.key == key), None)


def _boba_deck_rules() -> DeckRules:
    from engine.boba.deck_plugin import DECK_RULES

    return DECK_RULES


def _boba_replayer() -> Replayer:
    from engine.boba.replay_plugin import REPLAYER

    return REPLAYER


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
    battles_per_game=7,
    load_replayer=_boba_replayer,
)

GAMES: dict[str, GamePlugin] = {BOBA.key: BOBA}


class UnknownGame(KeyError):
    pass


def get_game(key: str) -> GamePlugin:
    try:
        return GAMES[key]
    except KeyError:
        raise UnknownGame(f"Unknown game '{key}'. Known games: {', '.join(GAMES)}.") from None


def game_choices() -> list[tuple[str, str]]:
    return [(game.key, game.name) for game in GAMES.values()]
