"""The tiebreaker registry (tournaments.tiebreakers) for the pages: labels and values in the
standings tables, and each tiebreaker of a player's row explained, translated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from engine.games import get_game
from engine.tiebreaker_entry import PlayerFigures, percent_text
from tournaments import tiebreakers
from tournaments.models import Tournament
from tournaments.standings import Scoring

FLOOR = Scoring().floor


def tiebreaker_label(key: str) -> str:
    return tiebreakers.label(key).render(_)


def pct(value: Any) -> str:
    """0.6123 -> "61.2%"."""
    return percent_text(None if value is None else float(value))


def tiebreaker_value(key: str, value: Any) -> str:
    return tiebreakers.display_value(key, value)


def tiebreaker_columns(order: Iterable[str]) -> list[tuple[str, str]]:
    """(key, label) of each tiebreaker of ``order`` that has a value to show in a column."""
    return [(key, tiebreaker_label(key)) for key in tiebreakers.shown(order)]


def player_figures(event: Tournament, row: Mapping[str, Any]) -> PlayerFigures:
    """What the explanations read of a stored standings row (matches.services.standings)."""
    opponents = row["opponents"]
    won, lost, drawn = (int(g) for g in row["games"])
    trophies_won, trophies_lost = (int(t) for t in row["trophies"])
    return PlayerFigures(
        value=None,
        opponents_match_win=tuple(float(o["match_win_pct"]) for o in opponents),
        opponents_game_win=tuple(float(o["game_win_pct"]) for o in opponents),
        games=(won, lost, drawn),
        trophies=(trophies_won, trophies_lost),
        floor=FLOOR,
        drawn_games=get_game(event.game).drawn_games,
    )


def _explanations(event: Tournament, row: dict[str, Any]) -> list[dict[str, str]]:
    """Each tiebreaker of the event in words, with the numbers that made it."""
    return [
        {
            "key": line.key,
            "label": line.label.render(_),
            "value": line.value,
            "text": line.text.render(_),
        }
        for line in tiebreakers.explain(
            event.tiebreakers, player_figures(event, row), row["tiebreakers"]
        )
    ]
