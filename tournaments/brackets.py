"""Elimination brackets (single and double) and round robins, for 2 to 256 players or teams.

Pure code: no Django. The event-structures contract decides the rules cited as
(event-structures: Stages) and (event-structures: Placings). Vocabulary:

seed
    A player's place in the entry order (the frozen standings of the stage that seeded this
    one); seed 1 is first. Players are plain ids, so the same functions pair teams.
bracket size
    The next power of two at or above the player count. Seed s meets seed size + 1 - s in the
    first round, laid out so that the top seeds can only meet late (``topcut.bracket_order``):
    for 8, 1 v 8, 4 v 5, 2 v 7, 3 v 6. When seed size + 1 - s does not exist, seed s has a
    **bye**: an :class:`EliminationMatch` with ``b`` None, won by ``a`` without playing. Byes
    therefore go to the top seeds and are never matches played.
match reference
    Where a match sits in the bracket: :class:`MatchRef`, written ``"R2-1"`` (single
    elimination round 2, position 1), ``"W1-3"`` (winners' side), ``"L4-2"`` (losers' side),
    ``"GF1"`` and ``"GF2"`` (the grand final and its reset). Positions count from 1 and never
    move, so a drawing can place a match before anyone is in it.
winners
    The results so far: a mapping from match reference to the winner's id. None means the
    match ended drawn, which elimination forbids (event-structures: Stages): it is refused
    naming the match. Byes need no entry.
losers' side (double elimination, the standard layout)
    Losers round 1 pairs the losers of winners' round 1 (positions 1 and 2, 3 and 4, ...).
    Then the rounds alternate: a **drop-in** round, where the survivors meet the losers of the
    next winners' round, and a **reduction** round, where the survivors meet each other. The
    drop-ins are crossed so that players who met on the winners' side do not meet again soon:
    the losers of winners' rounds 2, 4, 6, ... drop in reversed (the loser of the last match
    meets the first survivor), those of winners' rounds 3, 5, ... drop in with the halves
    swapped. In a bracket of 16 or more no rematch can happen before losers round 4. The
    losers' side champion meets the winners' side champion in the grand final; when the
    player from the losers' side wins it, both have lost once and a second grand final (the
    bracket reset) decides (event-structures: Stages).
bracket round
    The matches of one side's round: "Quarterfinals", "Winners round 2", "Losers round 1"...
    Rounds are played in dependency order (a round whose players come from earlier rounds
    only); a round made of byes alone needs no play and is skipped, but keeps its number.
round robin
    Everyone meets everyone once, by the circle method (Berger tables); with an odd count one
    player sits each round out (a bye, one each; see :func:`round_robin`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from engine.games import N_, Text
from tournaments.topcut import BracketError

__all__ = [
    "MAX_PLAYERS",
    "BracketError",
    "BracketRound",
    "BracketState",
    "Elimination",
    "EliminationMatch",
    "MatchRef",
    "Placing",
    "RoundRobinMatch",
    "RoundRobinRound",
    "bracket_size",
    "bracket_state",
    "double_elimination",
    "round_robin",
    "seed_order",
    "single_elimination",
    "single_round_label",
]

MAX_PLAYERS: Final = 256
"""The largest bracket (event-structures: Stages; issue 21: any cut size from 2 to 256)."""

Side = Literal["single", "winners", "losers", "grand_final"]
_PREFIX: Final[Mapping[str, str]] = {"single": "R", "winners": "W", "losers": "L"}
_SIDE_OF_PREFIX: Final[Mapping[str, Side]] = {"R": "single", "W": "winners", "L": "losers"}
_REF_PATTERN: Final = re.compile(r"^(?:([RWL])([1-9][0-9]*)-([1-9][0-9]*)|GF([12]))$")


# -- references, matches, rounds -------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class MatchRef:
    """A match's place in the bracket: side, round number and position (both from 1)."""

    side: Side
    round: int
    position: int

    @property
    def code(self) -> str:
        """``"R2-1"``, ``"W1-3"``, ``"L4-2"``, ``"GF1"``, ``"GF2"``."""
        if self.side == "grand_final":
            return f"GF{self.round}"
        return f"{_PREFIX[self.side]}{self.round}-{self.position}"

    @classmethod
    def parse(cls, code: str) -> MatchRef:
        """The reference written by :attr:`code`."""
        found = _REF_PATTERN.match(code)
        if found is None:
            raise BracketError("ref", f"{code!r} is not a bracket match reference")
        letter, number, position, final = found.groups()
        if final is not None:
            return cls("grand_final", int(final), 1)
        return cls(_SIDE_OF_PREFIX[letter], int(number), int(position))

    def __str__(self) -> str:
        return self.code


@dataclass(frozen=True)
class EliminationMatch:
    """One match whose players are known. ``a`` is the better seed (in a grand final, the
    winners' side champion); a bye has ``b`` and ``seed_b`` None and is won by ``a``.

    ``reset`` marks the second grand final (the bracket reset).
    """

    ref: MatchRef
    a: str
    b: str | None
    seed_a: int
    seed_b: int | None
    reset: bool = False

    @property
    def is_bye(self) -> bool:
        return self.b is None


@dataclass(frozen=True)
class BracketRound:
    """A round of one side. ``name`` is the English name the API shows ("Quarterfinals");
    ``label`` is the same as a translatable :class:`~engine.games.Text` for the pages.

    ``matches`` lists the matches whose players are known, byes included, by position.
    """

    side: Side
    number: int
    label: Text
    matches: tuple[EliminationMatch, ...]

    @property
    def name(self) -> str:
        return self.label.render()

    @property
    def played(self) -> tuple[EliminationMatch, ...]:
        """The matches to play (byes left out)."""
        return tuple(m for m in self.matches if m.b is not None)


@dataclass(frozen=True)
class Elimination:
    """Where a player went out: the round's side, number and name (for placings)."""

    player: str
    ref: MatchRef
    name: str


@dataclass(frozen=True)
class Placing:
    """One row of the placings (event-structures: Placings). ``eliminated_in`` is the name of
    the round the player went out in; None for the champion and for players still in."""

    place: int
    player: str
    seed: int
    eliminated_in: str | None


@dataclass(frozen=True)
class BracketState:
    """A bracket with the results so far (from :func:`bracket_state`).

    ``rounds``: every round with at least one match whose players are known, in the order
    they are played. ``next_round``: the first round not finished that has a match to play
    (the round being played, or the one to pair next); None once there is a champion.
    ``eliminations``: who went out where, in the order it happened. ``losses``: each
    player's matches lost so far, in seed order (byes are never lost).
    """

    kind: Literal["single_elimination", "double_elimination"]
    players: tuple[str, ...]
    size: int
    rounds: tuple[BracketRound, ...]
    next_round: BracketRound | None
    champion: str | None
    eliminations: tuple[Elimination, ...]
    losses: tuple[tuple[str, int], ...]

    @property
    def finished(self) -> bool:
        return self.champion is not None

    def eliminated_in(self, player: str) -> Elimination | None:
        """Where ``player`` went out; None for the champion and for players still in."""
        for gone in self.eliminations:
            if gone.player == player:
                return gone
        if player not in self.players:
            raise BracketError("player", f"{player!r} is not in this bracket")
        return None

    def placings(self) -> tuple[Placing, ...]:
        """Every player once, places 1..N (event-structures: Placings).

        Players who went further rank above those who went out earlier; players who went out
        in the same round are ordered by seed (their final standing in the stage that seeded
        the bracket). Before the end, the players still in come first, by seed.
        """
        seed = {p: i + 1 for i, p in enumerate(self.players)}
        out_at = {e.player: e for e in self.eliminations}
        still_in = sorted((p for p in self.players if p not in out_at), key=seed.__getitem__)
        # Out later in the bracket is further: a higher round, and the grand final last of all
        # (nobody goes out on the winners' side of a double elimination).
        gone = sorted(
            out_at,
            key=lambda p: (out_at[p].ref.side != "grand_final", -out_at[p].ref.round, seed[p]),
        )
        return tuple(
            Placing(place, player, seed[player], out_at[player].name if player in out_at else None)
            for place, player in enumerate([*still_in, *gone], start=1)
        )


# -- names -----------------------------------------------------------------------------------------
def _single_label(places: int) -> Text:
    """Named by the places in the round (event-structures: Stages)."""
    if places == 2:
        return Text.of(N_("Final"))
    if places == 4:
        return Text.of(N_("Semifinals"))
    if places == 8:
        return Text.of(N_("Quarterfinals"))
    return Text.of(N_("Round of %(places)s"), places=places)


def single_round_label(places: int) -> Text:
    """The name of a single-elimination round with ``places`` players in it (2: "Final", 4:
    "Semifinals", 8: "Quarterfinals", then "Round of 16", ...), for the legacy top cut."""
    if places < 2 or places & (places - 1):
        raise BracketError("places", "a bracket round holds a power of two from 2 places")
    return _single_label(places)


def _side_label(side: Side, number: int) -> Text:
    if side == "winners":
        return Text.of(N_("Winners round %(number)s"), number=number)
    if side == "losers":
        return Text.of(N_("Losers round %(number)s"), number=number)
    return Text.of(N_("Grand final"))


# -- seeding ---------------------------------------------------------------------------------------
def bracket_size(players: int) -> int:
    """The bracket for ``players`` players: the next power of two, 2 to 256 players."""
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise BracketError("players", "a bracket needs at least 2 players")
    if players > MAX_PLAYERS:
        raise BracketError("players", f"at most {MAX_PLAYERS} players")
    size = 2
    while size < players:
        size *= 2
    return size


def seed_order(size: int) -> tuple[int, ...]:
    """Seeds in bracket order for a power of two up to 256: 8 -> 1, 8, 4, 5, 2, 7, 3, 6.

    The same layout as ``topcut.bracket_order`` (which stops at 64): seed s meets seed
    size + 1 - s, and the top seeds can only meet late.
    """
    if size not in {2**k for k in range(1, 9)}:
        raise BracketError("size", "must be a power of two from 2 to 256")
    order = [1, 2]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return tuple(order)


def _check_players(players: Sequence[str]) -> tuple[str, ...]:
    ids = tuple(players)
    if any(not isinstance(p, str) or not p for p in ids):
        raise BracketError("players", "every player is a non-empty id")
    if len(set(ids)) != len(ids):
        raise BracketError("players", "a player is listed twice")
    bracket_size(len(ids))
    return ids


# -- the layout: where each match's players come from ----------------------------------------------
@dataclass(frozen=True)
class _Seed:
    seed: int


@dataclass(frozen=True)
class _WinnerOf:
    ref: MatchRef


@dataclass(frozen=True)
class _LoserOf:
    ref: MatchRef


_Feed = _Seed | _WinnerOf | _LoserOf


@dataclass(frozen=True)
class _Slot:
    ref: MatchRef
    feed_a: _Feed
    feed_b: _Feed


def _winners_side(side: Side, size: int) -> list[list[_Slot]]:
    """The winners' side (or the whole single-elimination bracket), round by round."""
    order = seed_order(size)
    rounds = [
        [
            _Slot(MatchRef(side, 1, p + 1), _Seed(order[2 * p]), _Seed(order[2 * p + 1]))
            for p in range(size // 2)
        ]
    ]
    while len(rounds[-1]) > 1:
        before = rounds[-1]
        number = len(rounds) + 1
        rounds.append(
            [
                _Slot(
                    MatchRef(side, number, p + 1),
                    _WinnerOf(before[2 * p].ref),
                    _WinnerOf(before[2 * p + 1].ref),
                )
                for p in range(len(before) // 2)
            ]
        )
    return rounds


def _drop_in_position(winners_round: int, position: int, matches: int) -> int:
    """Which loser of winners' round ``winners_round`` (0-based position) meets the survivor
    at ``position``: reversed for even winners' rounds, halves swapped for odd ones."""
    if winners_round % 2 == 0:
        return matches - 1 - position
    return (position + matches // 2) % matches


def _losers_side(size: int, winners: list[list[_Slot]]) -> list[list[_Slot]]:
    """The standard losers' side for a winners' side of ``size`` places (none for 2)."""
    k = len(winners)
    if k < 2:
        return []
    first = winners[0]
    rounds = [
        [
            _Slot(
                MatchRef("losers", 1, q + 1),
                _LoserOf(first[2 * q].ref),
                _LoserOf(first[2 * q + 1].ref),
            )
            for q in range(size // 4)
        ]
    ]
    for j in range(2, k + 1):
        dropping = winners[j - 1]
        survivors = rounds[-1]
        m = len(dropping)
        rounds.append(
            [
                _Slot(
                    MatchRef("losers", len(rounds) + 1, q + 1),
                    _WinnerOf(survivors[q].ref),
                    _LoserOf(dropping[_drop_in_position(j, q, m)].ref),
                )
                for q in range(m)
            ]
        )
        if j < k:
            survivors = rounds[-1]
            rounds.append(
                [
                    _Slot(
                        MatchRef("losers", len(rounds) + 1, q + 1),
                        _WinnerOf(survivors[2 * q].ref),
                        _WinnerOf(survivors[2 * q + 1].ref),
                    )
                    for q in range(m // 2)
                ]
            )
    return rounds


def _schedule(rounds: list[list[_Slot]]) -> list[list[_Slot]]:
    """Rounds in playing order: by dependency depth, winners' side first at equal depth."""
    depth: dict[MatchRef, int] = {}
    keyed: list[tuple[int, int, int, list[_Slot]]] = []
    side_order = {"single": 0, "winners": 0, "losers": 1, "grand_final": 2}
    for slots in rounds:
        d = 0
        for slot in slots:
            for feed in (slot.feed_a, slot.feed_b):
                if not isinstance(feed, _Seed):
                    d = max(d, depth[feed.ref])
        for slot in slots:
            depth[slot.ref] = d + 1
        keyed.append((d + 1, side_order[slots[0].ref.side], slots[0].ref.round, slots))
    return [slots for *_, slots in sorted(keyed, key=lambda t: t[:3])]


# -- playing it out --------------------------------------------------------------------------------
class _Undecided:
    """The winner or loser of a match that has no result yet."""


_UNDECIDED: Final = _Undecided()
_Seat = str | None | _Undecided  # a player, nobody (a bye's missing side), or not known yet


def single_elimination(players: Sequence[str]) -> BracketState:
    """A single-elimination bracket for ``players`` in seed order, before any result."""
    return bracket_state("single_elimination", players, {})


def double_elimination(players: Sequence[str]) -> BracketState:
    """A double-elimination bracket for ``players`` in seed order, before any result."""
    return bracket_state("double_elimination", players, {})


def bracket_state(
    kind: Literal["single_elimination", "double_elimination"],
    players: Sequence[str],
    winners: Mapping[MatchRef, str | None] | Mapping[str, str | None],
) -> BracketState:
    """The bracket for ``players`` (seed order) after the results in ``winners``.

    ``winners`` maps a :class:`MatchRef` (or its code, ``"W2-1"``) to the winner's id; None is
    a drawn match, which is refused (event-structures: Stages). A result for a match whose
    players are not known yet, or for a player who is not in that match, is refused naming
    the match. Byes need no entry (an entry naming the player with the bye is accepted).
    """
    if kind not in ("single_elimination", "double_elimination"):
        raise BracketError("kind", "must be single_elimination or double_elimination")
    ids = _check_players(players)
    run = _PlayOut(kind, ids, _results(winners))
    size = bracket_size(len(ids))
    if kind == "single_elimination":
        layout = _winners_side("single", size)
    else:
        winners_side = _winners_side("winners", size)
        layout = winners_side + _losers_side(size, winners_side)
    for slots in _schedule(layout):
        run.play_round(slots)
    if kind == "single_elimination":
        won = run.seat[layout[-1][0].ref][0]
        champion = won if isinstance(won, str) else None
    else:
        winners_final = run.seat[MatchRef("winners", len(layout[0]).bit_length(), 1)]
        if size == 2:
            losers_champion = winners_final[1]
        else:
            losers_champion = run.seat[MatchRef("losers", len(layout) - len(winners_side), 1)][0]
        champion = run.grand_final(winners_final[0], losers_champion)
    unknown = sorted(set(run.results) - run.used)
    if unknown:
        raise BracketError(f"winners[{unknown[0].code}]", "no such match in this bracket yet")
    return BracketState(
        kind=kind,
        players=ids,
        size=size,
        rounds=tuple(run.rounds),
        next_round=run.next_round,
        champion=champion,
        eliminations=tuple(run.eliminations),
        losses=tuple(run.losses.items()),
    )


class _PlayOut:
    """Walks the layout in playing order, filling each match from its feeds and results."""

    def __init__(
        self,
        kind: Literal["single_elimination", "double_elimination"],
        ids: tuple[str, ...],
        results: Mapping[MatchRef, str | None],
    ) -> None:
        self.kind = kind
        self.ids = ids
        self.results = results
        self.seed_of = {p: i + 1 for i, p in enumerate(ids)}
        self.seat: dict[MatchRef, tuple[_Seat, _Seat]] = {}  # each match's winner and loser
        self.rounds: list[BracketRound] = []
        self.next_round: BracketRound | None = None
        self.eliminations: list[Elimination] = []
        self.losses = dict.fromkeys(ids, 0)
        self.used: set[MatchRef] = set()

    def play_round(self, slots: list[_Slot]) -> None:
        first = slots[0].ref
        if first.side == "single":
            label = _single_label(2 * len(slots))
        else:
            label = _side_label(first.side, first.round)
        known = [
            match for slot in slots if (match := self._settle(slot, label.render())) is not None
        ]
        self._add_round(first.side, first.round, label, known)

    def grand_final(self, top: _Seat, bottom: _Seat) -> str | None:
        """The winners' side champion (``a``) against the losers' side champion; a second
        match (the bracket reset) only when the losers' side player wins the first."""
        label = _side_label("grand_final", 1)
        for number in (1, 2):
            if not isinstance(top, str) or not isinstance(bottom, str):
                return None
            ref = MatchRef("grand_final", number, 1)
            match = EliminationMatch(
                ref, top, bottom, self.seed_of[top], self.seed_of[bottom], reset=number == 2
            )
            self._add_round("grand_final", number, label, [match])
            outcome = self._result(match, label.render())
            if outcome is None:
                return None
            won, lost = outcome
            if self.losses[lost] == 2:
                self.eliminations.append(Elimination(lost, ref, label.render()))
                return won
        raise AssertionError("the reset is the last grand final")  # pragma: no cover

    def _feed(self, feed: _Feed) -> _Seat:
        if isinstance(feed, _Seed):
            return self.ids[feed.seed - 1] if feed.seed <= len(self.ids) else None
        winner, loser = self.seat[feed.ref]
        return winner if isinstance(feed, _WinnerOf) else loser

    def _settle(self, slot: _Slot, name: str) -> EliminationMatch | None:
        """Record the slot's winner and loser; the match when its players are known."""
        ref = slot.ref
        a, b = self._feed(slot.feed_a), self._feed(slot.feed_b)
        if isinstance(a, _Undecided) or isinstance(b, _Undecided):
            if ref in self.results:
                raise BracketError(
                    f"winners[{ref.code}]", "the players of this match are not known yet"
                )
            self.seat[ref] = (_UNDECIDED, _UNDECIDED)
            return None
        if a is None or b is None:
            present = a if a is not None else b
            if ref in self.results:
                if present is None or self.results[ref] != present:
                    raise BracketError(f"winners[{ref.code}]", "this is a bye, not a match played")
                self.used.add(ref)
            self.seat[ref] = (present, None)
            return (
                None
                if present is None
                else EliminationMatch(ref, present, None, self.seed_of[present], None)
            )
        x, y = sorted((a, b), key=self.seed_of.__getitem__)
        match = EliminationMatch(ref, x, y, self.seed_of[x], self.seed_of[y])
        outcome = self._result(match, name)
        if outcome is None:
            self.seat[ref] = (_UNDECIDED, _UNDECIDED)
            return match
        self.seat[ref] = outcome
        if self.kind == "single_elimination" or ref.side == "losers":
            self.eliminations.append(Elimination(outcome[1], ref, name))
        return match

    def _result(self, match: EliminationMatch, name: str) -> tuple[str, str] | None:
        """The played match's winner and loser (counting the loss); None without a result."""
        ref = match.ref
        if ref not in self.results:
            return None
        self.used.add(ref)
        won = self.results[ref]
        assert match.b is not None
        if won is None:
            raise BracketError(
                f"winners[{ref.code}]",
                f"{name} {ref.code} ({match.a} v {match.b}) cannot end drawn "
                "(event-structures: Stages)",
            )
        if won not in (match.a, match.b):
            raise BracketError(f"winners[{ref.code}]", f"{won!r} did not play {ref.code}")
        lost = match.b if won == match.a else match.a
        self.losses[lost] += 1
        return won, lost

    def _add_round(
        self, side: Side, number: int, label: Text, matches: list[EliminationMatch]
    ) -> None:
        if not matches:
            return
        made = BracketRound(side, number, label, tuple(matches))
        self.rounds.append(made)
        to_play = any(m.b is not None and m.ref not in self.results for m in made.matches)
        if to_play and self.next_round is None:
            self.next_round = made


def _results(
    winners: Mapping[MatchRef, str | None] | Mapping[str, str | None],
) -> dict[MatchRef, str | None]:
    """The results keyed by :class:`MatchRef`, whichever way they were given."""
    out: dict[MatchRef, str | None] = {}
    for key, won in winners.items():
        if isinstance(key, MatchRef):
            ref = key
        elif isinstance(key, str) and _REF_PATTERN.match(key):
            ref = MatchRef.parse(key)
        else:
            raise BracketError("winners", f"{key!r} is not a bracket match reference")
        if ref in out:
            raise BracketError(f"winners[{ref.code}]", "the match is given twice")
        if won is not None and not isinstance(won, str):
            raise BracketError(f"winners[{ref.code}]", "a winner is a player id")
        out[ref] = won
    return out


# -- round robin -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class RoundRobinMatch:
    """One round-robin match; ``table`` counts from 1. ``a`` takes the first seat."""

    table: int
    a: str
    b: str


@dataclass(frozen=True)
class RoundRobinRound:
    """One round: its matches and, for an odd count, the player who sits it out."""

    number: int
    matches: tuple[RoundRobinMatch, ...]
    bye: str | None

    @property
    def label(self) -> Text:
        return Text.of(N_("Round %(number)s"), number=self.number)

    @property
    def name(self) -> str:
        """``"Round 3"`` (event-structures: Stages)."""
        return self.label.render()


def round_robin(players: Sequence[str]) -> tuple[RoundRobinRound, ...]:
    """Every round of a round robin of ``players`` (seed order; teams alike), by Berger tables.

    The circle method as the FIDE Berger tables lay it out (for 6: 1-6 2-5 3-4, then 6-4 5-3
    1-2, then 2-6 3-1 4-5, ...): the last place stays put (for an odd count it is empty:
    whoever faces it has the bye) and the others turn half the circle a round, so every pair
    meets exactly once, in n - 1 rounds for an even count and n for an odd one. The fixed place changes seats
    every round, and every player takes the first seat in half their matches (one more or
    one fewer when they play an odd number).

    A bye here is not a match played and scores nothing: with an odd count every player sits
    out exactly once, so the byes are even and, unlike a Swiss bye (a win, because only some
    players get one), need no points to be fair; giving none keeps them out of the
    opponents' and game-win percentages too (event-structures: Stages, "a bye each round for
    an odd count").
    """
    ids = tuple(players)
    if any(not isinstance(p, str) or not p for p in ids):
        raise BracketError("players", "every player is a non-empty id")
    if len(set(ids)) != len(ids):
        raise BracketError("players", "a player is listed twice")
    if len(ids) < 2:
        raise BracketError("players", "a round robin needs at least 2 players")
    places: list[str | None] = [*ids, None] if len(ids) % 2 else list(ids)
    count = len(places)
    circle, fixed = places[:-1], places[-1]
    rounds: list[RoundRobinRound] = []
    for number in range(1, count):
        pairs = [(circle[0], fixed) if number % 2 else (fixed, circle[0])]
        pairs += [(circle[i], circle[count - 1 - i]) for i in range(1, count // 2)]
        bye = next((x if y is None else y for x, y in pairs if x is None or y is None), None)
        played = [(x, y) for x, y in pairs if x is not None and y is not None]
        rounds.append(
            RoundRobinRound(
                number,
                tuple(RoundRobinMatch(t, x, y) for t, (x, y) in enumerate(played, start=1)),
                bye,
            )
        )
        circle = circle[count // 2 :] + circle[: count // 2]
    return tuple(rounds)
