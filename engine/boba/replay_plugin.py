"""BoBA's record replay as the game plugin exposes it (see `engine.games.Replayer`): the JSON
of `python -m engine.boba replay --json` and the CLI's exit status."""

from __future__ import annotations

from engine.boba.replay import Replay, replay, replay_text
from engine.games import ReplayOutcome


def _outcome(result: Replay) -> ReplayOutcome:
    return ReplayOutcome(json=result.to_json(), exit_status=result.exit_status)


class BobaReplayer:
    @staticmethod
    def replay(record: object) -> ReplayOutcome:
        return _outcome(replay(record, keep_states=False))

    @staticmethod
    def replay_text(text: str | bytes) -> ReplayOutcome:
        return _outcome(replay_text(text, keep_states=False))


REPLAYER = BobaReplayer()
