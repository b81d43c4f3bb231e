"""The game plugin types: what a game tells the site (GamePlugin) and the values it hands
over (DeckSection, ReplaySummary, GameDetails, DetailField, ...). The messages for people
(`Text`, `N_`, `PlayerRef`, `Score`, `for_reader`) are `engine.text`'s, re-exported here.

A game's own modules (engine/boba/, engine/bos/) import these types; the registry of games
(engine.games) imports the games. Every value here is frozen: the site reads it, never
changes it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from engine.errors import BattledeskError
from engine.frozen import Frozen, FrozenMap, FrozenRows, freeze, freeze_map, freeze_rows, thaw
from engine.text import N_ as N_
from engine.text import PlayerRef as PlayerRef
from engine.text import Score as Score
from engine.text import Text as Text
from engine.text import for_reader as for_reader

if TYPE_CHECKING:
    from engine.tiebreaker_entry import TiebreakerEntry


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
    `report` and `statistics` are the JSON forms stored with a version, `data` the list as
    the deck rules' `to_data` JSON; all three frozen (given as JSON, kept frozen: `thaw`
    them, or use the `*_json` methods, to store them)."""

    decklist: object
    readable: bool
    legal: bool
    report: FrozenMap
    statistics: FrozenMap
    sections: tuple[DeckSection, ...]
    text: str
    data: FrozenMap

    def __post_init__(self) -> None:
        for name in ("report", "statistics", "data"):
            object.__setattr__(self, name, freeze_map(getattr(self, name)))

    def report_json(self) -> dict[str, Any]:
        return thaw(self.report)

    def statistics_json(self) -> dict[str, Any]:
        return thaw(self.statistics)

    def data_json(self) -> dict[str, Any]:
        return thaw(self.data)


@runtime_checkable
class DeckRules(Protocol):
    """What the decks app asks of a game; nothing in it names a game's own concepts."""

    card_fields: tuple[str, ...]
    # The card field that says what kind of card it is (the site indexes and filters on it).
    kind_field: str
    rules: Mapping[str, object]
    # The catalog fields `sections` shows beside a card (looked up by `detail_ids`).
    detail_fields: tuple[str, ...]
    # How to write a list: the section headings and an example line (the decklist forms' help).
    decklist_help: Text

    def build_catalog(self, rows: Iterable[Mapping[str, Any]]) -> GameCatalog: ...

    def card_from_fields(self, fields: Mapping[str, Any]) -> CatalogEntry: ...

    def resolve_format(self, key: str, params: Mapping[str, Any] | None = None) -> GameFormat: ...

    def format_parameters(self) -> Mapping[str, FrozenMap]: ...

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

    def detail_ids(self, data: Mapping[str, Any]) -> frozenset[str]: ...

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

    json: FrozenMap
    exit_status: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "json", freeze_map(self.json))

    def to_json(self) -> dict[str, Any]:
        """`json` as plain JSON (what is stored with a ruling, what the API sends)."""
        return thaw(self.json)

    @property
    def legal(self) -> bool:
        return self.exit_status == 0

    @property
    def malformed(self) -> bool:
        return self.exit_status == 2


@dataclass(frozen=True, slots=True)
class ReplaySummary:
    """A stored replay in a few lines, for a ruling on the judge's call page. The game reads
    its own replay JSON; the page shows these fields. `winner` is a player letter; `decided`
    says when the game was decided, `progress` how far a record without a result goes, and
    `score` the game's running score under `score_label` (BoBA: trophies), when it has one."""

    legal: bool
    rule: str = ""
    message: str = ""
    action: int | None = None
    finished: bool = False
    winner: str | None = None
    decided: Text | None = None
    progress: Text | None = None
    score_label: Text | None = None
    score: tuple[tuple[str, int], ...] = ()


def _str_or_empty(value: object) -> str:
    return value if isinstance(value, str) else ""


def json_object(value: object) -> dict[str, Any]:
    """`value` if it is a JSON object, else an empty one (stored JSON is read defensively)."""
    return value if isinstance(value, dict) else {}


def json_list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def summary_common(replay: Mapping[str, Any]) -> dict[str, Any]:
    """The fields every game's replay JSON shares (the same shape: legal, error, result)."""
    error = json_object(replay.get("error"))
    result = json_object(replay.get("result"))
    action = error.get("action")
    winner = result.get("winner")
    return {
        "legal": bool(replay.get("legal")),
        "rule": _str_or_empty(error.get("rule")),
        "message": _str_or_empty(error.get("message")),
        "action": action if isinstance(action, int) and not isinstance(action, bool) else None,
        "finished": bool(result),
        "winner": winner if isinstance(winner, str) and winner else None,
    }


@runtime_checkable
class Replayer(Protocol):
    """A game's record replay, for the site (the API and the adjudication pages)."""

    def summary(self, replay: Mapping[str, Any]) -> ReplaySummary:
        """A stored replay JSON (this game's) in a few lines; never raises on odd JSON."""
        ...

    def replay(self, record: object) -> ReplayOutcome:
        """Replay a decoded record (JSON values)."""
        ...

    def replay_text(self, text: str | bytes) -> ReplayOutcome:
        """Replay a record given as JSON text (unreadable text is a malformed record)."""
        ...

    @property
    def engine_version(self) -> str:
        """Which engine replayed: stored with a ruling beside the record and its replay."""
        ...


# A rule section a judge cites: (the citation as written in a ruling, its title), e.g.
# ("CR 4.2.2", "Turn and Battle Structure (Substitution)") or ("BOS: Main Phase", "Main Phase").
RuleSection = tuple[str, str]


class CardRuling(Protocol):
    """One published ruling on a card's text (its JSON: id, card, question, answer, ...)."""

    @property
    def citations(self) -> Sequence[str]: ...

    def to_json(self) -> dict[str, Any]: ...


@runtime_checkable
class CardRulings(Protocol):
    """A game's rulings on card texts, searchable by card name (the rulings page and API)."""

    @property
    def max_query(self) -> int: ...

    def search(self, query: str) -> Sequence[CardRuling]: ...

    def count(self) -> int: ...


class AdjudicationInputError(BattledeskError):
    """Something the judge typed on the adjudication page cannot be used; `field` names it."""

    field: str

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)


@dataclass(frozen=True, slots=True)
class CatalogCard:
    """A card of the event's catalog as the site hands it to a game: its id in the catalog,
    name, kind (the deck rules' `kind_field` value) and every field the site stores of it."""

    ref: str
    name: str
    kind: str
    fields: Mapping[str, Any]


class CardPool(Protocol):
    """The event's catalog, for an adjudicator to look cards up (the site queries it)."""

    def find(self, ref: str, kinds: Sequence[str] | None = None) -> CatalogCard | None:
        """The card with this id, else the one with this exact name (case-insensitive),
        among `kinds` (None: any kind)."""
        ...

    def search(self, query: str) -> Sequence[CatalogCard]:
        """Cards whose name holds `query` or whose id is `query` (a bounded list)."""
        ...


@dataclass(frozen=True, slots=True)
class AdjudicationInput:
    """What the adjudication page hands a game's adjudicator: the form posted (None on a
    GET), the query string, the record text (posted, uploaded or the last ruling's), the two
    players' names and registered lists (the deck rules' `to_data` JSON, None: no list), the
    event's mode, the catalog, `decode` (record text to JSON, bounded; raises
    AdjudicationInputError naming `record`), `gettext` (the site's translation) and
    `recorded_details`: the match's per-game details as its result holds them (key "match")
    and as each player last reported them (keys "A" and "B"), absent when not recorded."""

    post: Mapping[str, str] | None
    query: Mapping[str, str]
    record_text: str
    players: Mapping[str, str]
    decks: Mapping[str, Mapping[str, Any] | None]
    mode: str
    cards: CardPool
    decode: Callable[[str], dict[str, Any]] = field(repr=False)
    gettext: Callable[[str], str] = field(default=lambda m: m, repr=False)
    errors: tuple[AdjudicationInputError, ...] = ()
    recorded_details: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class AdjudicationView:
    """What a game's judge-desk page shows, as the game computed it: the record text,
    `analysis` (the replay step by step; None without a record), the `errors` of what the
    judge typed, the `op` the page ran, and `details`: the game's own page data (its form
    values, builder options, what-if). `analysis` and `details` are frozen all through
    (tuples and read-only mappings: `engine.frozen.freeze_shown`); the analysis holds what
    the page shows (panels, actions, result, errors, the replay's JSON), not the game's
    working values (the replay trace, the decoded record). The site picks the template (by
    the game's key) and adds the call, the match and the ruling form."""

    record_text: str
    analysis: Mapping[str, Any] | None
    errors: tuple[AdjudicationInputError, ...]
    op: str = ""
    details: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def context(self) -> dict[str, Any]:
        """The page as template variables: the game's details, then the common fields."""
        return {
            **self.details,
            "record_text": self.record_text,
            "analysis": self.analysis,
            "errors": self.errors,
            "op": self.op,
        }


@runtime_checkable
class Adjudicator(Protocol):
    """A game's judge-desk page: the record form (paste, upload or build a record) and the
    replay, step by step, as an AdjudicationView."""

    @property
    def record_format(self) -> str:
        """The record's format name, for the form's label (`bos-game-record/1`)."""
        ...

    def page(self, request: AdjudicationInput) -> AdjudicationView: ...


@dataclass(frozen=True, slots=True)
class RegisteredDeck:
    """A player's registered list as the decks app stores it (the deck rules' `to_data`
    JSON), with the catalog and the event's format it is validated against."""

    data: Mapping[str, Any]
    catalog: GameCatalog
    fmt: GameFormat


@dataclass(frozen=True, slots=True)
class ResultContext:
    """What a reported result's game details are checked against: the games `(won by a, won
    by b, drawn)` already checked, the match structure, and `deck(side)` ("a" or "b"), the
    player's registered list (None: no list), read only when a check needs it. `reporter`:
    the side of the player who reports (None: staff); a player vouches only for what their
    own list says (a player's list is private until the organiser publishes the lists)."""

    games: tuple[int, int, int]
    structure: MatchStructure
    deck: Callable[[str], RegisteredDeck | None] = field(default=lambda side: None, repr=False)
    reporter: str | None = None


@dataclass(frozen=True, slots=True)
class GameDetails:
    """Per-game details of a result as a game's MatchRules cleaned them: `games` holds one
    JSON object per game played, in order, frozen (given as JSON, kept frozen); `to_json` is
    what Match.game_details stores."""

    games: FrozenRows

    def __post_init__(self) -> None:
        object.__setattr__(self, "games", freeze_rows(self.games))

    def to_json(self) -> list[dict[str, Any]]:
        return [thaw(game) for game in self.games]


@dataclass(frozen=True, slots=True)
class DetailField:
    """One per-game input of a report form, for the site to draw without knowing the game.

    `kind`: "side" (which player: me or my opponent), "number" (a whole number from
    `minimum` to `maximum`), "lines" (free text lines), "choice" (one of `choices`, the
    first the default). `per_side`: one input for each
    player (`own_only`: only the reporting player's own, the opponent's left empty).
    `from_game`: shown from this game number on (1: every game)."""

    key: str
    label: Text
    kind: Literal["side", "number", "lines", "choice"]
    per_side: bool = False
    required: bool = False
    minimum: int = 0
    maximum: int | None = None
    help: Text | None = None
    from_game: int = 1
    own_only: bool = False
    choices: tuple[tuple[str, Text], ...] = ()


_DETAILS_FIELD = re.compile(
    r"^game_details(?:\[(\d+)\](?:\.(\w+)(?:\.([ab]))?(?:\[(\d+)\])?(?:\.\w+)?)?)?$"
)


class GameDetailsError(BattledeskError, ValueError):
    """Game details a game refuses: `field` names the part (`game_details[1].bids`), for
    tools (the API's `field`). For pages, its parts: `game` (index from 0), `part` (the key
    of a `DetailField`, or None), `side` ("a", "b" or None: the part of one player's),
    `item` (a line of a "lines" field, from 0), read from `field`; `text` says it for
    people (`PlayerRef` and `Score` parameters: see `for_reader`)."""

    field: str

    def __init__(
        self,
        field: str,
        message: str,
        *,
        text: Text | None = None,
        game: int | None = None,
        part: str | None = None,
    ) -> None:
        super().__init__(field, message)
        self.text = text if text is not None else Text.plain(message)
        parsed = _DETAILS_FIELD.match(field)
        groups = parsed.groups() if parsed else (None, None, None, None)
        # A game whose details the event API names otherwise (BoBA: `battles[1]`) says
        # which game and part it means.
        self.game: int | None = int(groups[0]) if groups[0] is not None else game
        self.part: str | None = groups[1] if groups[1] is not None else part
        self.side: str | None = groups[2]
        self.item: int | None = int(groups[3]) if groups[3] is not None else None


@runtime_checkable
class MatchRules(Protocol):
    """What a result of the game is, beyond the games count: per-game details (who won each
    game and whatever else the game records of it), checked against the games and the match
    structure. A game without details accepts none."""

    @property
    def has_game_details(self) -> bool:
        """Whether the game records per-game details at all (the report form asks for them)."""
        ...

    def clean_details(self, details: object, context: ResultContext) -> GameDetails:
        """The details as they are stored, or GameDetailsError naming the field."""
        ...

    def form_fields(self) -> tuple[DetailField, ...]:
        """The per-game inputs of the report form (empty: none)."""
        ...

    def details_from_form(self, games: Sequence[Mapping[str, object]]) -> FrozenRows | None:
        """The report form's per-game values, already in a/b terms (a "side" field: "a" or
        "b" or ""; a per-side field: `[a's text, b's text]`; otherwise the text), as the
        details JSON `clean_details` takes; games left empty are dropped."""
        ...

    def form_values(self, details: object) -> FrozenRows:
        """Recorded details as the report form's values, in the terms `details_from_form`
        takes (a "side" field: "a" or "b"; a per-side field: `[a's text, b's text]`), to fill
        the form in again; unreadable details give none."""
        ...

    def visible_details(self, details: object, side: str | None) -> Frozen:
        """What of recorded details a person may see before the event's lists are published:
        `side` is the viewer's own side ("a" or "b"), None for anyone else (staff see all)."""
        ...

    @property
    def details_can_dispute(self) -> bool:
        """Whether two reports with the same games but different details are a dispute
        (BOS: who won each game and how). False: the details never dispute a result, the
        confirming report's stand (BoBA's trophies: the event API's "same result" is the
        games, event-api.md "Results")."""
        ...

    def agree(self, details_a: object, details_b: object) -> GameDetails | None:
        """The match's details from the two players' cleaned reports (a's, b's), or None
        when they disagree (a dispute)."""
        ...

    def describe(self, details: object, names: Mapping[str, str]) -> tuple[tuple[Text, ...], ...]:
        """Recorded details for people: per game, its sentences (`names`: "a" and "b" to the
        players' names). Details that do not read give nothing, never an error."""
        ...

    @property
    def clock_rules(self) -> ClockRules:
        """What the match clock takes with a game's start (the bids, their range)."""
        ...

    def details_from_clock(self, games: Sequence[ClockGame]) -> FrozenRows | None:
        """The details JSON of the games a match clock saw (for `clean_details`), or None
        when the clock cannot tell enough of them (a game started without its bids)."""
        ...

    @property
    def api_key(self) -> str:
        """The event API's name for the details: "game_details", or the name the game's
        details had in the API before they were per-game details (BoBA: "battles")."""
        ...

    def to_api(self, details: object) -> object:
        """Recorded details in the event API's shape under `api_key`."""
        ...

    def from_api(self, value: object) -> Frozen:
        """The event API's value under `api_key` as the details JSON `clean_details` takes."""
        ...

    @property
    def unplayed_game(self) -> FrozenMap | None:
        """The details of a game a penalty gives without it being played (BoBA: no
        trophies), or None when the game cannot record one (BOS: every game has its bids)."""
        ...

    def match_score(self, details: object) -> tuple[int, int] | None:
        """The game's own score over the match from recorded details, a's and b's (BoBA:
        trophies, for its battle differential), or None when the game keeps none."""
        ...


@dataclass(frozen=True, slots=True)
class BidRange:
    """The bids a match clock takes with a game's start, `[bid of a, bid of b]`: whole
    numbers from 0 to `maximum`; equal bids are refused unless `ties` (a tie decides
    nothing: the players bid again). `rule` is cited when a bid is refused."""

    maximum: int
    ties: bool = False
    rule: str = ""


# What the event API takes with a start for a game that does not bid (docs/match-clock.md).
ANY_GAME_BIDS = BidRange(maximum=99)


@dataclass(frozen=True, slots=True)
class ClockRules:
    """What a game's rules make of its match clock. `asks_bids`: the clock page asks both
    players' bids when a game starts (a game that bids for the first player; with them a
    loss on time records the games' details). `bids`: the range the clock checks bids
    against; the event API takes bids with a start for every game (docs/match-clock.md), so
    a game that does not bid still has one."""

    asks_bids: bool = False
    bids: BidRange = ANY_GAME_BIDS


DEFAULT_CLOCK_RULES = ClockRules()


@dataclass(frozen=True, slots=True)
class ClockGame:
    """One game as a match clock saw it: who won, whether the loser ran out of time, the bids
    given when it started (None: none) and who went first (None: not said)."""

    winner: str
    on_time: bool
    bids: tuple[int, int] | None = None
    first: str | None = None


class DetailsAsStored:
    """The part of MatchRules for details the event API takes and shows as they are stored
    (`game_details`), that no penalty game can be added to and that keep no score of their
    own: every game's but BoBA's (its trophies are the API's `battles`)."""

    __slots__ = ()
    api_key = "game_details"
    details_can_dispute = True
    unplayed_game: FrozenMap | None = None

    def to_api(self, details: object) -> object:
        return details

    def from_api(self, value: object) -> Frozen:
        return freeze(value)

    def match_score(self, details: object) -> tuple[int, int] | None:
        return None


@dataclass(frozen=True, slots=True)
class NoGameDetails(DetailsAsStored):
    """MatchRules of a game that records nothing per game beyond the games count."""

    has_game_details: bool = False

    def clean_details(self, details: object, context: ResultContext) -> GameDetails:
        raise GameDetailsError("game_details", "this game records no per-game details")

    def form_fields(self) -> tuple[DetailField, ...]:
        return ()

    def details_from_form(self, games: Sequence[Mapping[str, object]]) -> FrozenRows | None:
        return None

    def form_values(self, details: object) -> FrozenRows:
        return ()

    def visible_details(self, details: object, side: str | None) -> Frozen:
        return freeze(details)

    def agree(self, details_a: object, details_b: object) -> GameDetails | None:
        return None

    def describe(self, details: object, names: Mapping[str, str]) -> tuple[tuple[Text, ...], ...]:
        return ()

    clock_rules: ClockRules = DEFAULT_CLOCK_RULES

    def details_from_clock(self, games: Sequence[ClockGame]) -> FrozenRows | None:
        return None


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
class ClockDefaults:
    """A game's recommended match clock (a chess clock for the two players of a table):
    minutes each player has, and the delay each turn before a player's time starts to run."""

    minutes_per_player: int
    delay_seconds: int


# Per-game details of an invented result, for the demo data: (the winner of each game, "a"
# or "b", in order; a seed) -> the details JSON the game's MatchRules accepts.
DemoDetails = Callable[[Sequence[str], int], FrozenRows]


@dataclass(frozen=True, slots=True)
class GamePlugin:
    key: str
    name: str
    modes: tuple[GameMode, ...]
    match_structures: tuple[MatchStructure, ...]
    # Loaded lazily so that importing the registry stays cheap and free of the engines.
    load_formats: Callable[[], tuple[FormatChoice, ...]] = field(repr=False)
    load_deck_rules: Callable[[], DeckRules] = field(repr=False)
    # The default order of the Swiss tiebreakers after match points (keys of the registry,
    # tournaments.tiebreakers); an event's organiser may choose another.
    tiebreakers: tuple[str, ...] = ("omw", "gw", "ogw")
    # The game's own tiebreakers, registered beside the game-neutral ones.
    load_tiebreakers: Callable[[], tuple[TiebreakerEntry, ...]] = field(
        default=lambda: (), repr=False
    )
    # The game's record replay, when it has one.
    load_replayer: Callable[[], Replayer] | None = field(default=None, repr=False)
    # Whether a single game may end drawn, and the rules cited when a draw is refused: a
    # game that must have a winner, a bracket match that must be decided.
    drawn_games: bool = True
    no_drawn_game_rule: str = ""
    bracket_decided_rule: str = ""
    # The recommended match clock, when the game's rules recommend one (None: no clock).
    clock: ClockDefaults | None = None
    # The rule sections a judge cites (titles only); the card rulings, when the game has
    # published ones; the judge desk's adjudication page, when the game records games.
    load_rule_sections: Callable[[], tuple[RuleSection, ...]] = field(
        default=lambda: (), repr=False
    )
    load_rulings: Callable[[], CardRulings] | None = field(default=None, repr=False)
    load_adjudicator: Callable[[], Adjudicator] | None = field(default=None, repr=False)
    # What a result is beyond the games count (per-game details); None: nothing more.
    load_match_rules: Callable[[], MatchRules] | None = field(default=None, repr=False)
    # What a new event of this game starts with (keys of modes, formats, match structures).
    default_mode: str = ""
    default_format: str = ""
    default_match_structure: str = "bo1"
    # Invented per-game result details for the demo (None: the game records none).
    load_demo_details: Callable[[], DemoDetails] | None = field(default=None, repr=False)
    # The card fields (its deck rules' card_fields) that hold rules text: what a card
    # search's "text" looks in. Empty: the site keeps no card text for the game.
    card_text_fields: tuple[str, ...] = ()

    def demo_details(self, winners: Sequence[str], seed: int) -> FrozenRows | None:
        """Per-game details of an invented result (the demo's), or None when the game has
        none to record."""
        if self.load_demo_details is None:
            return None
        return self.load_demo_details()(winners, seed)

    def formats(self) -> tuple[FormatChoice, ...]:
        return self.load_formats()

    def deck_rules(self) -> DeckRules:
        """The game's deck rules: catalog import, decklist parsing, validation, export."""
        return self.load_deck_rules()

    def replayer(self) -> Replayer | None:
        """The game's record replay, or None when the game records no games."""
        return self.load_replayer() if self.load_replayer is not None else None

    def clock_rules(self) -> ClockRules:
        """What the match clock takes with a game's start, by the game's rules."""
        return self.match_rules().clock_rules

    def match_rules(self) -> MatchRules:
        """What a result of the game holds beyond the games count (NoGameDetails: nothing)."""
        return self.load_match_rules() if self.load_match_rules is not None else NoGameDetails()

    def rule_sections(self) -> tuple[RuleSection, ...]:
        """The sections of the game's rules a ruling cites, in the rules' order."""
        return self.load_rule_sections()

    def citation_example(self) -> str:
        """Two of the game's citations as written, to show judges the form a citation takes."""
        return ", ".join(code for code, _title in self.rule_sections()[:2])

    def section_title(self, citation: str) -> str | None:
        """The title of a cited section ("CR 4.2.2" -> its title), or None if not listed."""
        cited = " ".join((citation or "").split())
        return next((title for code, title in self.rule_sections() if code == cited), None)

    def rulings(self) -> CardRulings | None:
        """The game's published card rulings, or None when it has none."""
        return self.load_rulings() if self.load_rulings is not None else None

    def adjudicator(self) -> Adjudicator | None:
        """The judge desk's record form and replay page, or None when the game has none."""
        return self.load_adjudicator() if self.load_adjudicator is not None else None

    def format(self, key: str) -> FormatChoice | None:
        return next((f for f in self.formats() if f.key == key), None)

    def mode(self, key: str) -> GameMode | None:
        return next((m for m in self.modes if m.key == key), None)

    def match_structure(self, key: str) -> MatchStructure | None:
        return next((s for s in self.match_structures if s.key == key), None)
