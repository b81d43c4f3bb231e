"""Rulings on card texts: how the engine reads a Play whose text admits more than one reading.

The rulings live in one data file, ``rulings.json`` (our own words, never the cards' texts):
each names the card it is about (its exact name in the play library, or ``"*"`` for a
general ruling), the question, the engine's answer, the reasoning with the Comprehensive
Rules sections it rests on, and the test that pins the engine to it. The replay lists the
rulings of the cards run in a game (:func:`rulings_for_cards`); the site's rulings page and
API search them by card (:func:`search`).

Pure: no Django; the file is read once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .play_library import base_name, normalise_name

if TYPE_CHECKING:
    from .record import Record
    from .state import GameState

RULINGS_PATH = Path(__file__).with_name("rulings.json")
GENERAL = "*"
MAX_QUERY = 100

_FIELDS = ("id", "card", "question", "answer", "reasoning", "citations", "test")


class RulingsError(ValueError):
    """rulings.json is not as this module expects (names the entry and the field)."""


@dataclass(frozen=True, slots=True)
class Ruling:
    """One ruling: the engine's reading of one card's text (or of every card, ``"*"``)."""

    id: str
    card: str
    question: str
    answer: str
    reasoning: str
    citations: tuple[str, ...]
    test: str

    @property
    def general(self) -> bool:
        return self.card == GENERAL

    def summary(self) -> dict[str, str]:
        """What a replay lists: id, card, question and answer."""
        return {"id": self.id, "card": self.card, "question": self.question, "answer": self.answer}

    def to_json(self) -> dict[str, Any]:
        return {**self.summary(), "reasoning": self.reasoning, "citations": list(self.citations)}


def _card_key(name: str) -> str:
    """A card name as rulings are looked up: normalised, variants through their base name."""
    return normalise_name(base_name(name))


def _parse(raw: Any) -> tuple[Ruling, ...]:
    entries = raw.get("rulings") if isinstance(raw, dict) else raw
    if not isinstance(entries, list):
        raise RulingsError("rulings.json: expected a list of rulings under 'rulings'")
    out: list[Ruling] = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise RulingsError(f"rulings[{i}]: must be an object")
        for key in _FIELDS:
            if key not in entry:
                raise RulingsError(f"rulings[{i}].{key}: missing")
        for key in _FIELDS:
            if key == "citations":
                continue
            if not isinstance(entry[key], str) or not entry[key].strip():
                raise RulingsError(f"rulings[{i}].{key}: must be a non-empty string")
        cites = entry["citations"]
        if not isinstance(cites, list) or not all(isinstance(c, str) for c in cites):
            raise RulingsError(f"rulings[{i}].citations: must be a list of strings")
        out.append(
            Ruling(
                id=entry["id"],
                card=entry["card"],
                question=entry["question"],
                answer=entry["answer"],
                reasoning=entry["reasoning"],
                citations=tuple(cites),
                test=entry["test"],
            )
        )
    return tuple(out)


@cache
def all_rulings() -> tuple[Ruling, ...]:
    """Every ruling, in the file's order (read once; none when the file is absent)."""
    if not RULINGS_PATH.exists():
        return ()
    return _parse(json.loads(RULINGS_PATH.read_text(encoding="utf-8")))


@cache
def _by_card() -> dict[str, tuple[Ruling, ...]]:
    index: dict[str, list[Ruling]] = {}
    for ruling in all_rulings():
        if not ruling.general:
            index.setdefault(_card_key(ruling.card), []).append(ruling)
    return {key: tuple(rulings) for key, rulings in index.items()}


def by_id(ruling_id: str) -> Ruling | None:
    """The ruling with this id, or None."""
    return next((r for r in all_rulings() if r.id == ruling_id), None)


def rulings_for_card(name: str) -> tuple[Ruling, ...]:
    """The rulings on one card (case-insensitive; a variant ("... - htd") has its base
    play's rulings). General rulings are not included."""
    return _by_card().get(_card_key(name), ())


def general_rulings() -> tuple[Ruling, ...]:
    """The rulings about every card (card ``"*"``)."""
    return tuple(r for r in all_rulings() if r.general)


def search(query: str) -> tuple[Ruling, ...]:
    """Rulings whose card name contains ``query`` (case- and spacing-insensitive; a variant
    name finds its base play's rulings). A blank query lists every ruling; only the first
    :data:`MAX_QUERY` characters are read."""
    q = normalise_name((query or "")[:MAX_QUERY])
    if not q:
        return all_rulings()
    base = _card_key(q)
    return tuple(
        r
        for r in all_rulings()
        if q in normalise_name(r.card) or (base and base in normalise_name(r.card))
    )


def rulings_for_cards(names: Iterable[str]) -> list[Ruling]:
    """The rulings on these cards, in the order the cards come (first use), each once."""
    seen: set[str] = set()
    out: list[Ruling] = []
    for name in names:
        for ruling in rulings_for_card(name):
            if ruling.id not in seen:
                seen.add(ruling.id)
                out.append(ruling)
    return out


def plays_run(record: Record, state: GameState) -> list[str]:
    """The names of the plays run in a replayed game up to ``state``, in order of first use:
    the plays of ``run`` actions in the record's order, each followed by the plays it ran in
    turn (Copycat, Luck Of The Draw...), then any other play the state saw run."""
    used = [[cid for _battle, cid in ps.used] for ps in state.p]
    ran = {cid for ids in used for cid in ids}
    top = [a.card for a in record.actions if a.do == "run" and a.card in ran]
    top_set = set(top)
    order: list[str] = []
    seen: set[str] = set()

    def emit(cid: str) -> None:
        if cid not in seen:
            seen.add(cid)
            order.append(cid)

    for cid in top:
        assert cid is not None
        emit(cid)
        for ids in used:
            if cid in ids:
                j = ids.index(cid) + 1
                while j < len(ids) and ids[j] not in top_set:
                    emit(ids[j])
                    j += 1
    for ps in state.p:
        for _battle, cid in sorted(ps.used, key=lambda u: u[0]):
            emit(cid)
    return [card.name for cid in order if (card := record.cards.get(cid)) is not None]


def rulings_in_game(record: Record | None, state: GameState | None) -> list[dict[str, str]]:
    """What a replay lists under ``rulings``: the rulings on the cards run in the game, in
    order of first use (general rulings are left out)."""
    if record is None or state is None:
        return []
    return [r.summary() for r in rulings_for_cards(plays_run(record, state))]
