"""A game's record replay as its plugin exposes it (see `engine.plugin.Replayer`), built from
the game's own pieces: its replay of decoded JSON and of JSON text (each giving the replay
trace, whose ``to_json`` is the JSON of ``python -m engine.<game> replay --json`` and whose
``exit_status`` is the CLI's), its engine version and its summary of a stored replay JSON.
Every game's replay runs the same way here; only the summary is the game's, and
:func:`replay_summary` reads what every game's replay JSON has (the result, how far a record
without one goes). Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from engine.plugin import (
    ReplayOutcome,
    ReplaySummary,
    Text,
    json_list,
    json_object,
    summary_common,
)


class ReplayTrace(Protocol):
    """What a game's replay gives back: its CLI's JSON and exit status."""

    @property
    def exit_status(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class RecordReplayer:
    """`engine.plugin.Replayer` for a game: ``run`` replays decoded JSON and ``run_text`` JSON
    text (each with ``keep_states=False``: the site keeps no positions), ``summarise`` reads
    a stored replay JSON of this game."""

    engine_version: str
    run: Callable[[object], ReplayTrace]
    run_text: Callable[[str | bytes], ReplayTrace]
    summarise: Callable[[Mapping[str, Any]], ReplaySummary]

    def replay(self, record: object) -> ReplayOutcome:
        return _outcome(self.run(record))

    def replay_text(self, text: str | bytes) -> ReplayOutcome:
        return _outcome(self.run_text(text))

    def summary(self, replay: Mapping[str, Any]) -> ReplaySummary:
        return self.summarise(replay)


def _outcome(result: ReplayTrace) -> ReplayOutcome:
    return ReplayOutcome(json=result.to_json(), exit_status=result.exit_status)


def replay_summary(
    replay: Mapping[str, Any],
    *,
    decided_at: str,
    steps: str,
    decided: str,
    stops_after: tuple[str, str],
    score_label: Text | None = None,
    score: tuple[tuple[str, int], ...] = (),
) -> ReplaySummary:
    """A stored replay JSON in a few lines (see `engine.plugin.ReplaySummary`): when a game
    with a result was decided (the result's ``decided_at`` step, in the message ``decided``),
    else how far a legal record goes (the replay's ``steps`` list, in the messages
    ``stops_after``: one step, more), and the game's own score."""
    common = summary_common(replay)
    at = json_object(replay.get("result")).get(decided_at)
    done = json_list(replay.get(steps))
    when = progress = None
    if common["finished"] and isinstance(at, int) and not isinstance(at, bool):
        when = Text.of(decided, n=at)
    elif common["legal"] and not common["finished"]:
        one, many = stops_after
        progress = Text.of(one if len(done) == 1 else many, n=len(done))
    return ReplaySummary(
        **common, decided=when, progress=progress, score_label=score_label, score=score
    )
