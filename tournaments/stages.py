"""Event stages: their definitions, entry rules and carried records (event-structures: Stages).

Pure code: no Django. The site stores an event's stages as the JSON of the contract, parses it
with :func:`parse_stages`, and calls :func:`apply_entry` and :func:`carried_history` with plain
values it read from the models.

Notes on terminology
--------------------
stage
    One part of an event, run as a whole: a Swiss, a single or double elimination bracket or a
    round robin. Stages are numbered from 1 in the order given; error paths index the JSON list
    from 0 (``stages[1].entry.top`` is stage 2's).
entry
    How a stage after the first gets its players: from the frozen final standings of the
    earlier stages it names (``from``), the first ``top`` N or everyone active on at least
    ``points`` match points; or a list of registration ids by hand (``players``). The first
    stage has no entry: it is played by the registered players, except those a source-less
    stage lists by hand (see *flight*).
flight
    Stages that run side by side and feed the same later stage (``from`` names them all):
    their players are merged and ranked together by points, then the event's tiebreakers
    (:func:`merge_final_standings`). The contract lets only the first stage go without an
    entry, so the second and later flights list their players by hand and draw from no stage;
    the first flight is everyone else (:func:`first_stage_players`).
carry
    ``"points"``: a Swiss stage continues its players' records; the standings and the pairing
    read the rounds of every earlier stage it draws from (and, when those carry too, of theirs)
    as one history, so nobody meets an opponent of an earlier stage again. ``"none"``: a fresh
    start. Elimination and round-robin stages always carry ``"none"``.
carried round numbers
    Round k of every stage that carries nothing is round k of the carried history: parallel
    flights line up round for round, however late a flight started, and nobody's rounds are
    renumbered. A carrying stage's rounds follow the last round of the stages it draws from
    (:func:`carried_history`).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from engine.errors import BattledeskError
from tournaments.standings import MatchRecord, Player
from tournaments.swiss import recommended_structure
from tournaments.topcut import CUT_POLICIES, CutResult, CutRow, cut_line

StageKind = Literal["swiss", "single_elimination", "double_elimination", "round_robin"]
Carry = Literal["points", "none"]

SWISS: Final = "swiss"
SINGLE_ELIMINATION: Final = "single_elimination"
DOUBLE_ELIMINATION: Final = "double_elimination"
ROUND_ROBIN: Final = "round_robin"
STAGE_KINDS: Final[tuple[StageKind, ...]] = (
    SWISS,
    SINGLE_ELIMINATION,
    DOUBLE_ELIMINATION,
    ROUND_ROBIN,
)
ELIMINATION_KINDS: Final[frozenset[str]] = frozenset({SINGLE_ELIMINATION, DOUBLE_ELIMINATION})
CARRY_MODES: Final[tuple[Carry, ...]] = ("points", "none")

MIN_CUT: Final = 2  # the smallest bracket, and the fewest players any stage can be played by
MAX_CUT: Final = 256  # the largest elimination bracket (issue 21: cut sizes 2 to 256)
MAX_STAGES: Final = 16
MAX_NAME: Final = 64
MAX_ROUNDS: Final = 64
ROUND_MINUTES_RANGE: Final = (5, 600)  # as the event's own round_minutes (event-api)
# Keys a client may send back from ``GET .../stages/``: the site fills them, parsing ignores them.
READ_ONLY_KEYS: Final = frozenset({"number", "status", "players"})
_STAGE_KEYS: Final = frozenset(
    {"name", "kind", "rounds", "match_structure", "round_minutes", "entry", "carry"}
)
_ENTRY_KEYS: Final = frozenset({"from", "top", "points", "players"})


class StageError(BattledeskError, ValueError):
    """A bad stage list: ``field`` is the path into it, e.g. ``stages[1].entry.top``."""

    field: str

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)


class EntryError(StageError):
    """An entry rule that cannot be applied (too few players, ...): ``field`` is ``"entry"``.

    The site answers ``400`` naming ``entry`` (event-structures: Stages).
    """

    code = "entry"

    def __init__(self, message: str) -> None:
        super().__init__("entry", message)


# -- the definitions --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """A stage's entry rule. ``sources`` is the contract's ``from`` (stage numbers).

    Exactly one of ``top``, ``points`` and ``players`` is set; ``sources`` is required with
    ``top`` and ``points`` and optional with ``players`` (then the stage waits for those
    stages to finish, and nothing more).
    """

    sources: tuple[int, ...] = ()
    top: int | None = None
    points: int | None = None
    players: tuple[int, ...] | None = None

    @property
    def rule(self) -> Literal["top", "points", "players"]:
        if self.top is not None:
            return "top"
        if self.points is not None:
            return "points"
        return "players"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.sources:
            out["from"] = list(self.sources)
        if self.top is not None:
            out["top"] = self.top
        if self.points is not None:
            out["points"] = self.points
        if self.players is not None:
            out["players"] = list(self.players)
        return out


@dataclass(frozen=True)
class Stage:
    """One stage as the contract defines it (event-structures: Stages).

    ``rounds`` None: Swiss plays the recommended count for its players, elimination runs to a
    champion, round robin plays everyone once (:func:`planned_rounds`). ``match_structure`` and
    ``round_minutes`` None: the event's own.
    """

    number: int
    name: str
    kind: StageKind
    rounds: int | None = None
    match_structure: str | None = None
    round_minutes: int | None = None
    entry: Entry | None = None
    carry: Carry = "none"

    @property
    def is_elimination(self) -> bool:
        return self.kind in ELIMINATION_KINDS

    @property
    def sources(self) -> tuple[int, ...]:
        return self.entry.sources if self.entry is not None else ()

    def to_json(self) -> dict[str, Any]:
        """The contract's shape (without the site's ``number``, ``status`` and ``players``)."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.rounds is not None:
            out["rounds"] = self.rounds
        if self.match_structure is not None:
            out["match_structure"] = self.match_structure
        if self.round_minutes is not None:
            out["round_minutes"] = self.round_minutes
        if self.entry is not None:
            out["entry"] = self.entry.to_json()
        out["carry"] = self.carry
        return out


def stages_to_json(stages: Iterable[Stage]) -> list[dict[str, Any]]:
    return [stage.to_json() for stage in stages]


# -- parsing ----------------------------------------------------------------------------------------
def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_in(value: object, low: int, high: int | None, path: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise StageError(path, "must be an integer")
    number = value
    if number < low or (high is not None and number > high):
        raise StageError(path, f"must be from {low} to {high}" if high else f"must be >= {low}")
    return number


def parse_stages(
    data: Any, *, match_structures: Collection[str] | None = None
) -> tuple[Stage, ...]:
    """The stages of the contract's JSON list, checked (event-structures: Stages).

    ``match_structures``: the keys the event's game offers (the site passes them); None
    accepts any non-empty key. Raises :class:`StageError` naming the first bad field.
    """
    if not isinstance(data, list):
        raise StageError("stages", "must be a list of stages")
    if not data:
        raise StageError("stages", "must list at least one stage")
    if len(data) > MAX_STAGES:
        raise StageError("stages", f"at most {MAX_STAGES} stages")
    stages: list[Stage] = []
    for index, item in enumerate(data):
        stages.append(_parse_stage(item, index, stages, match_structures))
    return tuple(stages)


def _parse_stage(
    item: Any, index: int, earlier: Sequence[Stage], match_structures: Collection[str] | None
) -> Stage:
    path = f"stages[{index}]"
    if not isinstance(item, dict):
        raise StageError(path, "must be an object")
    for key in item:
        if key not in _STAGE_KEYS and key not in READ_ONLY_KEYS:
            raise StageError(f"{path}.{key}", "unknown field")
    number = index + 1
    kind = item.get("kind")
    if kind not in STAGE_KINDS:
        raise StageError(f"{path}.kind", f"must be one of {', '.join(STAGE_KINDS)}")
    name = item.get("name", f"Stage {number}")
    if not isinstance(name, str) or not name.strip():
        raise StageError(f"{path}.name", "must be a non-empty string")
    if len(name.strip()) > MAX_NAME:
        raise StageError(f"{path}.name", f"at most {MAX_NAME} characters")
    rounds = item.get("rounds")
    if rounds is not None:
        if kind in ELIMINATION_KINDS:
            raise StageError(f"{path}.rounds", "an elimination stage runs to a champion")
        rounds = _int_in(rounds, 1, MAX_ROUNDS, f"{path}.rounds")
    structure = item.get("match_structure")
    if structure is not None and (
        not isinstance(structure, str)
        or not structure
        or (match_structures is not None and structure not in match_structures)
    ):
        known = f": one of {', '.join(sorted(match_structures))}" if match_structures else ""
        raise StageError(f"{path}.match_structure", f"unknown match structure{known}")
    minutes = item.get("round_minutes")
    if minutes is not None:
        minutes = _int_in(minutes, *ROUND_MINUTES_RANGE, f"{path}.round_minutes")
    entry = _parse_entry(item.get("entry"), f"{path}.entry", number)
    carry = item.get("carry", "none")
    if carry not in CARRY_MODES:
        raise StageError(f"{path}.carry", 'must be "points" or "none"')
    if carry == "points":
        _check_carry(kind, entry, earlier, f"{path}.carry")
    return Stage(
        number=number,
        name=name.strip(),
        kind=kind,
        rounds=rounds,
        match_structure=structure,
        round_minutes=minutes,
        entry=entry,
        carry=carry,
    )


def _parse_entry(value: Any, path: str, number: int) -> Entry | None:
    if number == 1:
        if value is not None:
            raise StageError(path, "the first stage has no entry: the registered players play it")
        return None
    if value is None:
        raise StageError(path, "every stage after the first needs an entry rule")
    if not isinstance(value, dict):
        raise StageError(path, "must be an object")
    for key in value:
        if key not in _ENTRY_KEYS:
            raise StageError(f"{path}.{key}", "unknown field")
    rules = [key for key in ("top", "points", "players") if value.get(key) is not None]
    if len(rules) != 1:
        raise StageError(path, 'needs exactly one of "top", "points" and "players"')
    sources: tuple[int, ...] = ()
    if value.get("from") is not None:
        raw = value["from"]
        if not isinstance(raw, list) or not raw:
            raise StageError(f"{path}.from", "must be a non-empty list of stage numbers")
        for k, source in enumerate(raw):
            if not _is_int(source) or not 1 <= source < number:
                raise StageError(
                    f"{path}.from[{k}]", f"must be an earlier stage (1 to {number - 1})"
                )
            if source in raw[:k]:
                raise StageError(f"{path}.from[{k}]", f"stage {source} is listed twice")
        sources = tuple(raw)
    elif rules[0] != "players":
        raise StageError(f"{path}.from", "required: the earlier stages whose finishers enter")
    if rules[0] == "top":
        return Entry(sources, top=_int_in(value["top"], MIN_CUT, MAX_CUT, f"{path}.top"))
    if rules[0] == "points":
        return Entry(sources, points=_int_in(value["points"], 0, None, f"{path}.points"))
    raw = value["players"]
    if not isinstance(raw, list) or len(raw) < MIN_CUT:
        raise StageError(f"{path}.players", f"must list at least {MIN_CUT} registration ids")
    for k, player in enumerate(raw):
        if not _is_int(player) or player < 1:
            raise StageError(f"{path}.players[{k}]", "must be a registration id")
    if len(set(raw)) != len(raw):
        duplicate = next(k for k, p in enumerate(raw) if p in raw[:k])
        raise StageError(f"{path}.players[{duplicate}]", f"{raw[duplicate]} is listed twice")
    return Entry(sources, players=tuple(raw))


def _check_carry(kind: str, entry: Entry | None, earlier: Sequence[Stage], path: str) -> None:
    if kind != SWISS:
        raise StageError(path, "elimination and round-robin stages always carry none")
    if entry is None or not entry.sources:
        raise StageError(path, 'carrying records needs "entry.from": the stages to carry from')
    for source in entry.sources:
        if earlier[source - 1].is_elimination:
            raise StageError(
                path,
                f"stage {source} is an elimination bracket: only Swiss and round-robin "
                "records carry",
            )


# -- what the stages mean ---------------------------------------------------------------------------
def planned_rounds(stage: Stage, players: int) -> int:
    """Rounds ``stage`` plays with ``players`` players (event-structures: Stages).

    Swiss: ``rounds``, else the recommended count for the attendance (Magic Tournament Rules
    Appendix E, as :func:`tournaments.swiss.recommended_structure`). Single elimination: to a
    champion, log2 of the bracket. Double elimination: the most rounds a bracket of that size
    can take when winners' and losers' rounds that can be played together are: 2 x log2 of
    the bracket, plus the bracket reset. Round robin: ``rounds``, else n - 1 for an even
    count and n for an odd one (a bye each round).
    """
    if not _is_int(players) or players < MIN_CUT:
        raise StageError("players", f"a stage needs at least {MIN_CUT} players")
    if stage.kind == SWISS:
        return stage.rounds or recommended_structure(players)[0]
    if stage.kind == ROUND_ROBIN:
        return stage.rounds or (players if players % 2 else players - 1)
    depth = math.ceil(math.log2(players))
    return depth if stage.kind == SINGLE_ELIMINATION else 2 * depth + 1


def later_flight_players(stages: Sequence[Stage]) -> frozenset[int]:
    """The players a later stage drawing from no earlier stage lists by hand (a later
    flight): stage 1 is everyone else."""
    return frozenset(
        player
        for stage in stages[1:]
        if stage.entry is not None and not stage.entry.sources and stage.entry.players
        for player in stage.entry.players
    )


def first_stage_players(stages: Sequence[Stage], registered: Iterable[int]) -> tuple[int, ...]:
    """The registered players who play stage 1: everyone but the later flights' players
    (:func:`later_flight_players`). Order kept."""
    flights = later_flight_players(stages)
    return tuple(player for player in registered if player not in flights)


def stages_feeding(stages: Sequence[Stage], number: int) -> tuple[int, ...]:
    """The stage numbers whose rounds stage ``number``'s carried history reads, in order:
    its sources and, for each source that carries, that source's own (and so on)."""
    seen: set[int] = set()
    pending = list(_stage(stages, number).sources)
    while pending:
        source = pending.pop()
        if source in seen:
            continue
        seen.add(source)
        stage = _stage(stages, source)
        if stage.carry == "points":
            pending.extend(stage.sources)
    return tuple(sorted(seen))


def _stage(stages: Sequence[Stage], number: int) -> Stage:
    for stage in stages:
        if stage.number == number:
            return stage
    raise StageError("number", f"no stage {number}")


# -- the legacy shape and the presets --------------------------------------------------------------
def legacy_stages(top_cut_size: int | None) -> tuple[Stage, ...]:
    """The stages of an event created without ``stages`` (event-structures: Stages): one Swiss
    stage, then a single elimination of ``top: top_cut_size`` when the event has a top cut."""
    swiss = Stage(number=1, name="Swiss", kind=SWISS)
    if not top_cut_size:
        return (swiss,)
    _int_in(top_cut_size, MIN_CUT, MAX_CUT, "top_cut_size")
    return (
        swiss,
        Stage(
            number=2,
            name=f"Top {top_cut_size}",
            kind=SINGLE_ELIMINATION,
            entry=Entry((1,), top=top_cut_size),
        ),
    )


def _numbered(stages: Sequence[Stage]) -> tuple[Stage, ...]:
    """Checked through the parser, so that a preset is always a valid stage list."""
    return parse_stages(stages_to_json(replace(s, number=k + 1) for k, s in enumerate(stages)))


def preset_swiss_top_cut(top: int = 8, *, rounds: int | None = None) -> tuple[Stage, ...]:
    """Swiss, then a single-elimination top ``top``."""
    return _numbered(
        [
            Stage(0, "Swiss", SWISS, rounds=rounds),
            Stage(0, f"Top {top}", SINGLE_ELIMINATION, entry=Entry((1,), top=top)),
        ]
    )


def preset_day_two(
    points: int = 18,
    top: int = 8,
    *,
    day_one_rounds: int | None = None,
    day_two_rounds: int | None = None,
) -> tuple[Stage, ...]:
    """Day 1 Swiss; day 2 Swiss for everyone on ``points`` or more, records carried; top ``top``."""
    return _numbered(
        [
            Stage(0, "Day 1", SWISS, rounds=day_one_rounds),
            Stage(
                0,
                "Day 2",
                SWISS,
                rounds=day_two_rounds,
                entry=Entry((1,), points=points),
                carry="points",
            ),
            Stage(0, f"Top {top}", SINGLE_ELIMINATION, entry=Entry((2,), top=top)),
        ]
    )


def preset_flights(
    later_flights: Sequence[Sequence[int]],
    points: int = 18,
    top: int = 8,
    *,
    day_one_rounds: int | None = None,
    day_two_rounds: int | None = None,
) -> tuple[Stage, ...]:
    """Day 1 in flights merging into one day 2 (records carried), then a top ``top``.

    ``later_flights``: the registration ids of flights B, C, ... (by hand, as the contract
    lets only stage 1 go without an entry); flight A is every other registered player
    (:func:`first_stage_players`). Four flights: three lists.
    """
    if not later_flights:
        raise StageError("later_flights", "flights need at least a second flight")
    flights = [Stage(0, "Flight A", SWISS, rounds=day_one_rounds)] + [
        Stage(
            0,
            f"Flight {chr(ord('B') + k)}",
            SWISS,
            rounds=day_one_rounds,
            entry=Entry(players=tuple(ids)),
        )
        for k, ids in enumerate(later_flights)
    ]
    everyone = tuple(range(1, len(flights) + 1))
    day_two = len(flights) + 1
    return _numbered(
        [
            *flights,
            Stage(
                0,
                "Day 2",
                SWISS,
                rounds=day_two_rounds,
                entry=Entry(everyone, points=points),
                carry="points",
            ),
            Stage(0, f"Top {top}", SINGLE_ELIMINATION, entry=Entry((day_two,), top=top)),
        ]
    )


def preset_round_robin_top_cut(top: int = 8) -> tuple[Stage, ...]:
    """A round robin, then a single-elimination top ``top`` (APEX Madness's shape)."""
    return _numbered(
        [
            Stage(0, "Round robin", ROUND_ROBIN),
            Stage(0, f"Top {top}", SINGLE_ELIMINATION, entry=Entry((1,), top=top)),
        ]
    )


def preset_double_elimination(match_structure: str | None = None) -> tuple[Stage, ...]:
    """One double-elimination bracket for every registered player."""
    return _numbered(
        [Stage(0, "Double elimination", DOUBLE_ELIMINATION, match_structure=match_structure)]
    )


PRESETS: Final[Mapping[str, Callable[[], tuple[Stage, ...]]]] = {
    "swiss_top_8": preset_swiss_top_cut,
    "day_two": preset_day_two,
    "round_robin_top_8": preset_round_robin_top_cut,
    "double_elimination": preset_double_elimination,
}
"""The presets that need nothing but their defaults; :func:`preset_flights` needs the flights."""


# -- entry rules ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FinalRow:
    """One row of a stage's frozen final standings, as an entry rule reads it.

    ``tiebreakers``: the event's tiebreakers in order with their values (higher is better; None
    where a tiebreaker has no value of its own, head-to-head). ``rank``: the stage's rank
    (shared by players tied on everything). In a team event ``registration`` is a team id.
    """

    registration: int
    rank: int
    points: int
    tiebreakers: tuple[tuple[str, float | int | None], ...] = ()
    dropped: bool = False


@dataclass(frozen=True)
class MergedRow:
    """A row of the merged standings of one or more stages: ``rank`` among all of them."""

    registration: int
    rank: int
    points: int
    tiebreakers: tuple[tuple[str, float | int | None], ...]
    dropped: bool
    stage: int


@dataclass(frozen=True)
class Admission:
    """Who enters a stage: ``players`` in seed order. ``cut`` is the cut line of a ``top`` rule
    (its notes name the tiebreaker that decided each place at the line, decision 13)."""

    players: tuple[int, ...]
    cut: CutResult | None = None


_KEY_DIGITS = 9  # as the standings core: tiebreaker values compared rounded to 9 digits


def _value_key(value: float | int | None) -> tuple[int, float]:
    return (0, 0.0) if value is None else (1, round(float(value), _KEY_DIGITS))


def merge_final_standings(finals: Mapping[int, Sequence[FinalRow]]) -> list[MergedRow]:
    """The final standings of the stages ``finals`` (by stage number) ranked together.

    By match points, then the tiebreakers in the order the rows list them (the event's; those
    without a value, head-to-head, skipped: players of different flights never met), as the
    standings core ranks. Players of one stage tied on all of that keep that stage's order
    (its head-to-head decisions) and are interleaved with the other stages' tied players;
    those still level share a rank and are listed by stage then registration id. For a single
    stage this gives back its own ranks.
    """
    rows: list[tuple[tuple[Any, ...], int, FinalRow]] = []
    seen: dict[int, int] = {}
    for stage, stage_rows in sorted(finals.items()):
        for row in stage_rows:
            if row.registration in seen:
                raise EntryError(
                    f"registration {row.registration} is in the final standings of stages "
                    f"{seen[row.registration]} and {stage}"
                )
            seen[row.registration] = stage
            key = (row.points, tuple(_value_key(v) for n, v in row.tiebreakers if n != "h2h"))
            rows.append((key, stage, row))
    # Depth: how many players of the same stage with the same key its standings put above.
    groups: dict[tuple[Any, int], list[FinalRow]] = {}
    for key, stage, row in rows:
        groups.setdefault((key, stage), []).append(row)
    depth: dict[int, int] = {}
    for members in groups.values():
        ranks = sorted(r.rank for r in members)
        for row in members:
            depth[row.registration] = bisect_left(ranks, row.rank)
    order = sorted(
        rows,
        key=lambda t: (
            _negated(t[0]),
            depth[t[2].registration],
            t[1],
            t[2].registration,
        ),
    )
    merged: list[MergedRow] = []
    rank = 0
    previous: tuple[Any, ...] | None = None
    for position, (key, stage, row) in enumerate(order, start=1):
        marker = (key, depth[row.registration])
        if marker != previous:
            rank, previous = position, marker
        merged.append(
            MergedRow(row.registration, rank, row.points, row.tiebreakers, row.dropped, stage)
        )
    return merged


def _negated(key: tuple[Any, ...]) -> tuple[Any, ...]:
    points, values = key
    return (-points, tuple((-present, -value) for present, value in values))


def apply_entry(
    stage: Stage,
    finals: Mapping[int, Sequence[FinalRow]],
    *,
    cut_policy: str = "strict",
    registered: Collection[int] | None = None,
) -> Admission:
    """Who enters ``stage``, in seed order (event-structures: Stages).

    ``finals``: the frozen final standings of each stage in the entry's ``from`` (by number).
    ``top N`` draws the cut line on the merged standings with the event's ``cut_policy``
    (decision 13: ``"strict"`` or ``"points"``); ``points P`` admits every active player on at
    least P match points; ``players`` admits the list in its order (each one must be in
    ``registered`` when that is given). Raises :class:`EntryError` when the rule admits too
    few players (fewer than N for ``top``, fewer than 2 otherwise) or more than an elimination
    bracket holds.
    """
    entry = stage.entry
    if entry is None:
        raise EntryError(f"stage {stage.number} has no entry rule: the registered players play it")
    if cut_policy not in CUT_POLICIES:
        raise StageError("cut_policy", f"must be one of {CUT_POLICIES}")
    missing = [source for source in entry.sources if source not in finals]
    if missing and entry.rule != "players":
        raise StageError("finals", f"no final standings for stage {missing[0]}")
    if entry.rule == "players":
        assert entry.players is not None
        if registered is not None:
            unknown = [p for p in entry.players if p not in registered]
            if unknown:
                raise EntryError(f"registration {unknown[0]} is not registered for the event")
        return _admitted(stage, entry.players)
    merged = merge_final_standings({source: finals[source] for source in entry.sources})
    if entry.rule == "points":
        assert entry.points is not None
        threshold = entry.points
        return _admitted(
            stage,
            tuple(r.registration for r in merged if not r.dropped and r.points >= threshold),
            f"at least {threshold} points",
        )
    assert entry.top is not None
    active = sum(1 for r in merged if not r.dropped)
    if active < entry.top:
        raise EntryError(
            f"a top {entry.top} needs {entry.top} active players, stage"
            f"{'s' if len(entry.sources) > 1 else ''} "
            f"{', '.join(map(str, entry.sources))} finished with {active}"
        )
    cut = cut_line(
        [CutRow(str(r.registration), r.rank, r.points, r.tiebreakers, r.dropped) for r in merged],
        entry.top,
        cut_policy,
    )
    return _admitted(stage, tuple(int(p) for p in cut.qualified), f"the top {entry.top}", cut)


def _admitted(
    stage: Stage, players: tuple[int, ...], rule: str = "the list", cut: CutResult | None = None
) -> Admission:
    if len(players) < MIN_CUT:
        raise EntryError(
            f"{rule} admits {len(players)} player{'s' if len(players) != 1 else ''}; "
            f"stage {stage.number} needs at least {MIN_CUT}"
        )
    if stage.is_elimination and len(players) > MAX_CUT:
        raise EntryError(f"{rule} admits {len(players)} players; a bracket holds at most {MAX_CUT}")
    return Admission(players, cut)


# -- carried records --------------------------------------------------------------------------------
@dataclass(frozen=True)
class StageHistory:
    """One stage's own Swiss or round-robin history, as the standings core takes it.

    ``players``: the stage's players (``late_entry_round`` and ``bye_rounds`` count the
    stage's own rounds from 1); ``rounds``: its finished rounds, in order.
    """

    number: int
    players: tuple[Player, ...]
    rounds: tuple[tuple[MatchRecord, ...], ...]


@dataclass(frozen=True)
class CarriedHistory:
    """The history a carrying stage's pairing and standings read (event-structures: Stages).

    ``players``: everyone of the stages it reads, the admitted players active and the others
    dropped (never paired; still counted in their opponents' tiebreakers, as the Magic
    Tournament Rules read opponents' whole records). ``rounds``: the carried rounds, round k of
    every stage's history at ``first_round[stage] + k - 1``. The stage's own round r is round
    ``len(rounds) + r`` of the carried history once its earlier rounds are appended; filter
    the standings to ``admitted`` to show the stage's own table.
    """

    players: tuple[Player, ...]
    rounds: tuple[tuple[MatchRecord, ...], ...]
    first_round: Mapping[int, int]
    admitted: tuple[str, ...]

    @property
    def next_round(self) -> int:
        """The carried round number of the stage's first round."""
        return len(self.rounds) + 1


def carried_history(
    stages: Sequence[Stage],
    number: int,
    histories: Mapping[int, StageHistory],
    admitted: Sequence[str],
) -> CarriedHistory:
    """The carried history of stage ``number`` (carry ``points``) for the standings core.

    ``histories``: the own history of every stage it reads (:func:`stages_feeding`);
    ``admitted``: its players (player ids as in the histories). Round numbers line up as the
    module docstring says: a stage carrying nothing starts at round 1, so parallel flights
    share round numbers; a carrying stage starts after the last round of the stages it draws
    from. Nobody's rounds are renumbered inside a stage, and nobody may be in two stages whose
    rounds overlap (a player in two flights is an error).
    """
    stage = _stage(stages, number)
    if stage.carry != "points":
        raise StageError("number", f"stage {number} carries nothing")
    feeding = stages_feeding(stages, number)
    for source in feeding:
        if source not in histories:
            raise StageError("histories", f"no history for stage {source}")
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for source in feeding:  # in number order: a stage's sources come before it
        own = _stage(stages, source)
        start = 1
        if own.carry == "points":
            start = max((last[s] for s in own.sources), default=0) + 1
        first[source] = start
        last[source] = start + len(histories[source].rounds) - 1
    total = max((last[s] for s in stage.sources), default=0)
    rounds: list[list[MatchRecord]] = [[] for _ in range(total)]
    busy: dict[tuple[str, int], int] = {}
    players: dict[str, Player] = {}
    for source in feeding:
        history = histories[source]
        offset = first[source] - 1
        for k, matches in enumerate(history.rounds):
            for match in matches:
                for pid in (match.a, match.b):
                    if pid is None:
                        continue
                    clash = busy.setdefault((pid, offset + k + 1), source)
                    if clash != source:
                        raise StageError(
                            "histories",
                            f"player {pid!r} plays round {offset + k + 1} of the carried "
                            f"history in stages {clash} and {source}",
                        )
            rounds[offset + k].extend(matches)
        for player in history.players:
            # Unshifted (a stage from round 1, as flights are): the same player, not a copy.
            shifted = (
                player
                if offset == 0
                else replace(
                    player,
                    late_entry_round=player.late_entry_round + offset,
                    bye_rounds=tuple(r + offset for r in player.bye_rounds),
                )
            )
            earlier = players.get(player.id)
            # The first stage a player played keeps his entry; the latest one his table.
            players[player.id] = (
                shifted if earlier is None else replace(earlier, fixed_table=player.fixed_table)
            )
    admitted_set = set(admitted)
    if len(admitted_set) != len(admitted):
        raise StageError("admitted", "a player is listed twice")
    out: list[Player] = []
    for pid, player in players.items():
        dropped = pid not in admitted_set
        out.append(player if player.dropped == dropped else replace(player, dropped=dropped))
    for pid in admitted:
        if pid not in players:
            # Entered by hand without earlier rounds: joins at zero on the stage's first round.
            out.append(Player(pid, late_entry_round=total + 1))
    return CarriedHistory(
        players=tuple(out),
        rounds=tuple(tuple(r) for r in rounds),
        first_round=first,
        admitted=tuple(admitted),
    )
