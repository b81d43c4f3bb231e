"""The tiebreaker registry: every tiebreaker the standings can rank by, one entry each.

Pure code: no Django. An entry (`engine.tiebreaker_entry.TiebreakerEntry`) has the key, the
label, how the standings core ranks by it, how its value is shown and how it is explained to a
player. The game-neutral entries are here (:data:`CORE`); each game adds its own through its
plugin (`GamePlugin.load_tiebreakers`: BoBA's battle differential). Everything that names a
tiebreaker (the standings core, the cut line, the pages, the CSV export, an event's settings)
reads this registry.

An event ranks by the order its organiser chose (`Tournament.tiebreaker_order`), or by its
game's default order (`GamePlugin.tiebreakers`) when none was chosen; :func:`check_order`
says whether an order is valid for a game. :func:`fingerprint` names what an order computes:
stored standings computed with another fingerprint are computed again.

Adding a tiebreaker is one entry (here, or in the game's own list) and its tests.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from engine.games import GAMES, N_, Text
from engine.tiebreaker_entry import (
    PlayerFigures,
    TiebreakerEntry,
    floor_text,
    percent_text,
)

# Bump when the standings core's own numbers change (the floor, how a percentage is taken):
# every stored standings row is then computed again on its next read.
CORE_REVISION = 1


# --- the game-neutral entries -------------------------------------------------------------


def _opponents_average(
    message: str, floor: float, parts: Sequence[float], value: float | int | None
) -> Text:
    return Text.of(
        message,
        floor=floor_text(floor),
        parts=" + ".join(map(percent_text, parts)),
        n=len(parts),
        value=percent_text(value),
    )


def explain_omw(figures: PlayerFigures) -> Text:
    if figures.opponents_match_win:
        return _opponents_average(
            N_(
                "Opponents' match-win %% (OMW): the average of your opponents' match-win "
                "percentages, each at least %(floor)s: (%(parts)s) / %(n)d = %(value)s."
            ),
            figures.floor,
            figures.opponents_match_win,
            figures.value,
        )
    return Text.of(
        N_(
            "Opponents' match-win %% (OMW): you have had no opponent yet (only byes), "
            "so it is the minimum, %(floor)s."
        ),
        floor=floor_text(figures.floor),
    )


def explain_ogw(figures: PlayerFigures) -> Text:
    if figures.opponents_game_win:
        return _opponents_average(
            N_(
                "Opponents' game-win %% (OGW): the average of your opponents' game-win "
                "percentages, each at least %(floor)s: (%(parts)s) / %(n)d = %(value)s."
            ),
            figures.floor,
            figures.opponents_game_win,
            figures.value,
        )
    return Text.of(
        N_(
            "Opponents' game-win %% (OGW): you have had no opponent yet (only byes), "
            "so it is the minimum, %(floor)s."
        ),
        floor=floor_text(figures.floor),
    )


def explain_gw(figures: PlayerFigures) -> Text:
    won, lost, drawn = figures.games
    played = won + lost + drawn
    if not figures.drawn_games and not drawn:
        # A game without drawn games (GamePlugin.drawn_games): no draws to explain.
        return Text.of(
            N_(
                "Game-win %% (GW): your game points divided by 3 points for each game you "
                "played, at least %(floor)s. You won %(won)d games (3 points each) and lost "
                "%(lost)d, byes included: (3 \u00d7 %(won)d) / (3 \u00d7 %(played)d) = "
                "%(value)s."
            ),
            floor=floor_text(figures.floor),
            won=won,
            lost=lost,
            played=played,
            value=percent_text(figures.value),
        )
    return Text.of(
        N_(
            "Game-win %% (GW): your game points divided by 3 points for each game you "
            "played, at least %(floor)s. You won %(won)d games (3 points each), drew "
            "%(drawn)d (1 point each) and lost %(lost)d, byes included: "
            "(3 \u00d7 %(won)d + %(drawn)d) / (3 \u00d7 %(played)d) = %(value)s."
        ),
        floor=floor_text(figures.floor),
        won=won,
        drawn=drawn,
        lost=lost,
        played=played,
        value=percent_text(figures.value),
    )


def explain_h2h(figures: PlayerFigures) -> Text:
    return Text(
        N_(
            "Head-to-head: used only when exactly two players are still tied after every "
            "other tiebreaker; the one who did better in their matches against each other "
            "ranks higher."
        )
    )


OMW = TiebreakerEntry(
    key="omw",
    label=Text(N_("opponents' match-win %")),
    explain=explain_omw,
    column="omw",
    display="percent",
)
GW = TiebreakerEntry(
    key="gw",
    label=Text(N_("game-win %")),
    explain=explain_gw,
    column="game_win",
    display="percent",
)
OGW = TiebreakerEntry(
    key="ogw",
    label=Text(N_("opponents' game-win %")),
    explain=explain_ogw,
    column="ogw",
    display="percent",
)
HEAD_TO_HEAD = TiebreakerEntry(
    key="h2h",
    label=Text(N_("head-to-head")),
    explain=explain_h2h,
    head_to_head=True,
    display="none",
)

CORE: tuple[TiebreakerEntry, ...] = (OMW, GW, OGW, HEAD_TO_HEAD)
# The order the standings core ranks by when it is given none (MTR Appendix C's three).
DEFAULT_ORDER: tuple[str, ...] = ("omw", "gw", "ogw")


# --- the registry -------------------------------------------------------------------------


def registry() -> dict[str, TiebreakerEntry]:
    """Every registered tiebreaker by key: the game-neutral ones, then each game's."""
    entries = {entry.key: entry for entry in CORE}
    for game in GAMES.values():
        for entry in game.load_tiebreakers():
            entries.setdefault(entry.key, entry)
    return entries


def keys() -> tuple[str, ...]:
    """Every registered key, the game-neutral ones first."""
    return tuple(registry())


def owner(key: str) -> str | None:
    """The key of the game that registers ``key``, or None for a game-neutral one."""
    if any(entry.key == key for entry in CORE):
        return None
    for game in GAMES.values():
        if any(entry.key == key for entry in game.load_tiebreakers()):
            return game.key
    return None


def for_game(game: str) -> tuple[TiebreakerEntry, ...]:
    """The tiebreakers an event of ``game`` may rank by: the game-neutral ones and its own."""
    plugin = GAMES.get(game)
    own = plugin.load_tiebreakers() if plugin is not None else ()
    return (*CORE, *own)


class TiebreakerOrderError(ValueError):
    """An order the registry refuses: ``index`` into the order, and the reason as a Text."""

    def __init__(self, index: int, reason: Text) -> None:
        super().__init__(index, reason.render())
        self.index = index
        self.reason = reason


def resolve(order: Iterable[str]) -> tuple[TiebreakerEntry, ...]:
    """The entries of ``order``, for any game (the standings core's check)."""
    return _checked(tuple(order), registry(), None)


def check_order(order: Iterable[str], game: str) -> tuple[TiebreakerEntry, ...]:
    """The entries of an event's order: known keys, each once, of the event's game."""
    return _checked(tuple(order), {e.key: e for e in for_game(game)}, game)


def _checked(
    order: tuple[str, ...], allowed: Mapping[str, TiebreakerEntry], game: str | None
) -> tuple[TiebreakerEntry, ...]:
    entries = []
    for index, key in enumerate(order):
        if not isinstance(key, str):
            raise TiebreakerOrderError(index, Text(N_("a tiebreaker is named by its key")))
        if key in order[:index]:
            raise TiebreakerOrderError(index, Text.of(N_("duplicate tiebreaker %(key)r"), key=key))
        entry = allowed.get(key)
        if entry is None:
            other = owner(key) if key in registry() else None
            if game is not None and other is not None:
                raise TiebreakerOrderError(
                    index,
                    Text.of(
                        N_("%(key)r is a tiebreaker of %(other)s, not of %(game)s"),
                        key=key,
                        other=GAMES[other].name,
                        game=GAMES[game].name if game in GAMES else game,
                    ),
                )
            raise TiebreakerOrderError(index, Text.of(N_("unknown tiebreaker %(key)r"), key=key))
        entries.append(entry)
    return tuple(entries)


def fingerprint(order: Iterable[str]) -> str:
    """What an order computes, as text: the core's revision and each entry's key and revision
    ("1:omw@1,gw@1"). Stored standings with another fingerprint are stale."""
    known = registry()
    parts = [f"{key}@{known[key].revision}" if key in known else key for key in order]
    return f"{CORE_REVISION}:{','.join(parts)}"


# --- showing and explaining ---------------------------------------------------------------


def label(key: str) -> Text:
    """The tiebreaker's label; an unknown key (an old stored row) is shown as it is."""
    entry = registry().get(key)
    return entry.label if entry is not None else Text.plain(key)


def is_head_to_head(key: str) -> bool:
    """Whether ``key`` ranks by the players' matches against each other (no value)."""
    entry = registry().get(key)
    return entry is not None and entry.head_to_head


def shown(order: Iterable[str]) -> tuple[str, ...]:
    """The keys of ``order`` that have a per-player value (a column in the tables)."""
    known = registry()
    return tuple(key for key in order if key not in known or known[key].has_value)


def display_value(key: str, value: float | int | None) -> str:
    """A tiebreaker's value as the tables show it: "61.2%", "+3", "—" for none."""
    if value is None:
        return "—"
    entry = registry().get(key)
    display = entry.display if entry is not None else "plain"
    if display == "percent" or isinstance(value, float):
        return percent_text(value)
    if display == "signed":
        return f"{int(value):+d}"
    return str(value)


@dataclass(frozen=True, slots=True)
class Explanation:
    """One line of a player's tiebreaker explanation: label, shown value and the sentence."""

    key: str
    label: Text
    value: str  # empty for a tiebreaker without a per-player value (head-to-head)
    text: Text


def explain(
    order: Iterable[str], figures: PlayerFigures, values: Mapping[str, float | int | None]
) -> list[Explanation]:
    """Each tiebreaker of ``order`` in words, with the numbers that made it: the player's
    ``figures`` with each tiebreaker's value from ``values``. A key the registry does not
    know is left out."""
    known = registry()
    out = []
    for key in order:
        entry = known.get(key)
        if entry is None:
            continue
        value = values.get(key)
        shown_value = display_value(key, value) if entry.has_value else ""
        text = entry.explain(replace(figures, value=value))
        out.append(Explanation(key, entry.label, shown_value, text))
    return out
