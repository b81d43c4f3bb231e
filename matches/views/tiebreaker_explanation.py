"""Each tiebreaker of an event in words, with the numbers that made it (the player's standings
page), and the labels and values the standings table shows.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.games import get_game
from tournaments.models import Tournament
from tournaments.standings import TIEBREAKER_LABELS, Scoring

FLOOR = Scoring().floor

# The pure core's English labels, marked for translation here (same text as TIEBREAKER_LABELS).
TIEBREAKER_NAMES = {
    "omw": gettext_lazy("opponents' match-win %"),
    "gw": gettext_lazy("game-win %"),
    "ogw": gettext_lazy("opponents' game-win %"),
    "battle_diff": gettext_lazy("battle differential"),
    "h2h": gettext_lazy("head-to-head"),
}
PERCENT_TIEBREAKERS = ("omw", "gw", "ogw")


def tiebreaker_label(key: str) -> str:
    return str(TIEBREAKER_NAMES.get(key) or TIEBREAKER_LABELS.get(key, key))


def pct(value: Any) -> str:
    """0.6123 -> "61.2%"."""
    if value is None:
        return "—"
    return f"{float(value) * 100:.1f}%"


def tiebreaker_value(key: str, value: Any) -> str:
    if value is None:
        return "—"
    if key in PERCENT_TIEBREAKERS or isinstance(value, float):
        return pct(value)
    if key == "battle_diff":
        return f"{int(value):+d}"
    return str(value)


def _explanations(event: Tournament, row: dict[str, Any]) -> list[dict[str, str]]:
    """Each tiebreaker of the event in words, with the numbers that made it."""
    floor = f"{FLOOR * 100:g}%"
    out: list[dict[str, str]] = []
    opponents = row["opponents"]
    for key in event.tiebreakers:
        value = row["tiebreakers"].get(key)
        if key == "omw":
            if opponents:
                parts = " + ".join(pct(o["match_win_pct"]) for o in opponents)
                text = _(
                    "Opponents' match-win %% (OMW): the average of your opponents' match-win "
                    "percentages, each at least %(floor)s: (%(parts)s) / %(n)d = %(value)s."
                ) % {"floor": floor, "parts": parts, "n": len(opponents), "value": pct(value)}
            else:
                text = _(
                    "Opponents' match-win %% (OMW): you have had no opponent yet (only byes), "
                    "so it is the minimum, %(floor)s."
                ) % {"floor": floor}
        elif key == "ogw":
            if opponents:
                parts = " + ".join(pct(o["game_win_pct"]) for o in opponents)
                text = _(
                    "Opponents' game-win %% (OGW): the average of your opponents' game-win "
                    "percentages, each at least %(floor)s: (%(parts)s) / %(n)d = %(value)s."
                ) % {"floor": floor, "parts": parts, "n": len(opponents), "value": pct(value)}
            else:
                text = _(
                    "Opponents' game-win %% (OGW): you have had no opponent yet (only byes), "
                    "so it is the minimum, %(floor)s."
                ) % {"floor": floor}
        elif key == "gw":
            won, lost, drawn = (int(g) for g in row["games"])
            played = won + lost + drawn
            if not get_game(event.game).drawn_games and not drawn:
                # A game without drawn games (engine.games.GamePlugin.drawn_games): no draws
                # to explain.
                text = _(
                    "Game-win %% (GW): your game points divided by 3 points for each game you "
                    "played, at least %(floor)s. You won %(won)d games (3 points each) and lost "
                    "%(lost)d, byes included: (3 \u00d7 %(won)d) / (3 \u00d7 %(played)d) = "
                    "%(value)s."
                ) % {
                    "floor": floor,
                    "won": won,
                    "lost": lost,
                    "played": played,
                    "value": pct(value),
                }
            else:
                text = _(
                    "Game-win %% (GW): your game points divided by 3 points for each game you "
                    "played, at least %(floor)s. You won %(won)d games (3 points each), drew "
                    "%(drawn)d (1 point each) and lost %(lost)d, byes included: "
                    "(3 \u00d7 %(won)d + %(drawn)d) / (3 \u00d7 %(played)d) = %(value)s."
                ) % {
                    "floor": floor,
                    "won": won,
                    "drawn": drawn,
                    "lost": lost,
                    "played": played,
                    "value": pct(value),
                }
        elif key == "battle_diff":
            won_t, lost_t = (int(t) for t in row["trophies"])
            text = _(
                "Battle differential: the trophies you won minus the trophies you lost, over "
                "all your games: %(won)d \u2212 %(lost)d = %(value)+d."
            ) % {"won": won_t, "lost": lost_t, "value": won_t - lost_t}
        elif key == "h2h":
            text = _(
                "Head-to-head: used only when exactly two players are still tied after every "
                "other tiebreaker; the one who did better in their matches against each other "
                "ranks higher."
            )
        else:
            continue
        shown = "" if key == "h2h" else tiebreaker_value(key, value)
        out.append({"key": key, "label": tiebreaker_label(key), "value": shown, "text": text})
    return out
