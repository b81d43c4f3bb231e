"""BoBA's own tiebreaker: the battle differential.

A battle's winner places a trophy and a drawn battle places none (CR 4.1.2 "Battle Result");
trophies track the battle wins of a game (CR 4.4.1). The battle differential is the trophies a
player won minus the trophies he lost, over all his games: BoBA's measure of a close game,
registered here (through the BoBA `GamePlugin`), not in the game-neutral core.
"""

from __future__ import annotations

from operator import sub

from engine.plugin import N_, Text
from engine.tiebreaker_entry import Columns, PlayerFigures, TiebreakerEntry


def battle_differential(columns: Columns) -> list[int]:
    """Trophies won minus trophies lost, per player (one C-level pass)."""
    return list(map(sub, columns["trophies_won"], columns["trophies_lost"]))


def explain_battle_differential(figures: PlayerFigures) -> Text:
    won, lost = figures.trophies
    return Text.of(
        N_(
            "Battle differential: the trophies you won minus the trophies you lost, over "
            "all your games: %(won)d \u2212 %(lost)d = %(value)+d."
        ),
        won=won,
        lost=lost,
        value=won - lost,
    )


BATTLE_DIFFERENTIAL = TiebreakerEntry(
    key="battle_diff",
    label=Text.of(N_("battle differential")),
    explain=explain_battle_differential,
    compute=battle_differential,
    display="signed",
)

TIEBREAKERS: tuple[TiebreakerEntry, ...] = (BATTLE_DIFFERENTIAL,)
