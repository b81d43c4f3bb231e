"""BOS's record replay as the game plugin exposes it (see `engine.plugin.Replayer`): the JSON
of `python -m engine.bos replay --json` and the CLI's exit status."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.bos import ENGINE_VERSION
from engine.bos.replay import replay, replay_text
from engine.plugin import (
    N_,
    ReplaySummary,
    Text,
    json_object,
)
from engine.replay_plugin import RecordReplayer, replay_summary


def summary(replay: Mapping[str, Any]) -> ReplaySummary:
    """A stored replay JSON of this game in a few lines: decided on which turn, the turns a
    record without a result goes to, each player's life where the record stops (the stream
    overlay shows it as the judge's replay has it)."""
    life = json_object(replay.get("life"))
    score = tuple(
        (str(player), count)
        for player, count in life.items()
        if isinstance(count, int) and not isinstance(count, bool)
    )
    return replay_summary(
        replay,
        decided_at="turn",
        steps="turns",
        decided=N_("on turn %(n)d"),
        stops_after=(
            N_("The record stops after %(n)d turn: no result yet."),
            N_("The record stops after %(n)d turns: no result yet."),
        ),
        score_label=Text.of(N_("Life")) if score else None,
        score=score,
    )


REPLAYER = RecordReplayer(
    engine_version=ENGINE_VERSION,
    run=lambda record: replay(record, keep_states=False),
    run_text=lambda text: replay_text(text, keep_states=False),
    summarise=summary,
)
