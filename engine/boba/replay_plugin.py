"""BoBA's record replay as the game plugin exposes it (see `engine.plugin.Replayer`): the JSON
of `python -m engine.boba replay --json` and the CLI's exit status."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.boba import ENGINE_VERSION
from engine.boba.replay import replay, replay_text
from engine.plugin import (
    N_,
    ReplaySummary,
    Text,
    json_object,
)
from engine.replay_plugin import RecordReplayer, replay_summary


def summary(replay: Mapping[str, Any]) -> ReplaySummary:
    """A stored replay JSON of this game in a few lines: decided after which battle, the
    battles a record without a result goes to, the trophies."""
    trophies = json_object(replay.get("trophies"))
    score = tuple(
        (str(player), count)
        for player, count in trophies.items()
        if isinstance(count, int) and not isinstance(count, bool)
    )
    return replay_summary(
        replay,
        decided_at="decided_after_battle",
        steps="battles",
        decided=N_("decided after battle %(n)d"),
        stops_after=(
            N_("The record stops after %(n)d battle: no result yet."),
            N_("The record stops after %(n)d battles: no result yet."),
        ),
        score_label=Text.of(N_("Trophies")) if score else None,
        score=score,
    )


REPLAYER = RecordReplayer(
    engine_version=ENGINE_VERSION,
    run=lambda record: replay(record, keep_states=False),
    run_text=lambda text: replay_text(text, keep_states=False),
    summarise=summary,
)
