"""Infractions and penalties at events of every game, as data, and what a penalty does to a
result.

Pure Python (no Django): the site's penalty form, its API and the tests read the catalogue
from here; ``matches.services`` stores a penalty and applies it to the match.

BoBA's penalty guidelines group infractions as Conduct, Gameplay and Tournament. The catalogue
below (keys, labels and *default* penalties) is the project's reading of them, not a quotation:
a judge may always give another penalty, and the site keeps what was suggested beside what was
given. Nothing in it is particular to one game's rules (infractions are about play and conduct
at an event), and BOS publishes no penalty guide, so every game's events use this one catalogue
(the project's decision; a game with its own guide would add it to its plugin). The stored
categories and penalties (matches.models.Penalty) are these.

Penalties, lightest first: caution, warning, game loss, match loss, disqualification.

The upgrade rule (the project's reading): the same infraction given to the same player again in
the same event suggests the next penalty up from the heaviest one already given for it (and at
least one step above the default). Repetition alone never suggests a disqualification: upgrades
stop at a match loss. An infraction whose default is a disqualification stays one.

What a penalty does to a match result (games are (won by a, won by b, drawn)):

game loss
    The penalised player loses one game of the match: it is a game won by the opponent, as
    ``tournaments.standings.MatchRecord.penalty_game_losses`` counts it. When that would break
    the match structure (both players would have ``games_to_win`` wins, or the match would have
    more games than a best of ``2 * games_to_win - 1``), the penalty game takes the place of a
    game already played: one of the penalised player's wins when both would have won, else a
    drawn game, else one of their wins. A player who already lost the match keeps the result
    (nothing left to lose); a bracket match that would end drawn keeps it too (the site records
    the penalty without changing the result). Best of 1: a game loss makes the opponent win 1-0.
match loss
    The opponent wins ``games_to_win`` to 0; a match the opponent already won stays as it is.
disqualification
    A match loss (the site also drops the player from the event).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.errors import BattledeskError
from engine.frozen import thaw

Side = Literal["a", "b"]
Games = tuple[int, int, int]

CAUTION = "caution"
WARNING = "warning"
GAME_LOSS = "game_loss"
MATCH_LOSS = "match_loss"
DISQUALIFICATION = "disqualification"

# Lightest first: the order upgrades climb.
PENALTIES: tuple[str, ...] = (CAUTION, WARNING, GAME_LOSS, MATCH_LOSS, DISQUALIFICATION)
PENALTY_LABELS: dict[str, str] = {
    CAUTION: "Caution",
    WARNING: "Warning",
    GAME_LOSS: "Game loss",
    MATCH_LOSS: "Match loss",
    DISQUALIFICATION: "Disqualification",
}
# Penalties that change the match result.
RESULT_PENALTIES: frozenset[str] = frozenset({GAME_LOSS, MATCH_LOSS, DISQUALIFICATION})
# Repetition alone upgrades at most to this.
UPGRADE_CAP = MATCH_LOSS

CONDUCT = "conduct"
GAMEPLAY = "gameplay"
TOURNAMENT = "tournament"
CATEGORIES: tuple[str, ...] = (CONDUCT, GAMEPLAY, TOURNAMENT)
CATEGORY_LABELS: dict[str, str] = {
    CONDUCT: "Conduct",
    GAMEPLAY: "Gameplay",
    TOURNAMENT: "Tournament",
}


class PenaltyError(BattledeskError, ValueError):
    """An unknown infraction or penalty: ``field`` names the input at fault."""

    field: str

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field, message)
        self.args = (message,)  # str(error) is the message alone, as it always was


@dataclass(frozen=True)
class Infraction:
    key: str
    category: str
    label: str
    default: str
    description: str = ""

    def to_json(self) -> dict[str, str]:
        return {
            "key": self.key,
            "category": self.category,
            "category_label": CATEGORY_LABELS[self.category],
            "label": self.label,
            "default": self.default,
            "default_label": PENALTY_LABELS[self.default],
            "description": self.description,
        }


CATALOGUE: tuple[Infraction, ...] = (
    # Gameplay: mistakes in playing the game.
    Infraction(
        "game_rule_violation",
        GAMEPLAY,
        "Game rule violation",
        WARNING,
        "A rule of the game was broken (a skipped step, a wrong target) and not caught at once.",
    ),
    Infraction(
        "looking_at_extra_cards",
        GAMEPLAY,
        "Looking at extra cards",
        WARNING,
        "Seeing cards the player was not allowed to see (a card off the top, a flipped card).",
    ),
    Infraction(
        "drawing_extra_cards",
        GAMEPLAY,
        "Drawing extra cards",
        GAME_LOSS,
        "Putting more cards in hand than the rules allow.",
    ),
    Infraction(
        "failure_to_maintain_game_state",
        GAMEPLAY,
        "Failure to maintain game state",
        CAUTION,
        "The opponent let a game rule violation pass.",
    ),
    # Tournament: the event's rules.
    Infraction(
        "tardiness",
        TOURNAMENT,
        "Tardiness",
        GAME_LOSS,
        "Not at the table when the round started (or missing a deadline the event set).",
    ),
    Infraction(
        "slow_play",
        TOURNAMENT,
        "Slow play",
        WARNING,
        "Playing too slowly for the match to finish in the time given.",
    ),
    Infraction(
        "decklist_problem",
        TOURNAMENT,
        "Decklist problem",
        GAME_LOSS,
        "The deck played does not match the registered decklist, or the decklist is illegal.",
    ),
    Infraction(
        "outside_assistance",
        TOURNAMENT,
        "Outside assistance",
        MATCH_LOSS,
        "Advice to or from someone outside the match during play.",
    ),
    Infraction(
        "insufficient_shuffling",
        TOURNAMENT,
        "Insufficient shuffling",
        WARNING,
        "The deck was not randomised before play or after a search.",
    ),
    # Conduct: how players behave.
    Infraction(
        "unsporting_conduct_minor",
        CONDUCT,
        "Unsporting conduct — minor",
        WARNING,
        "Behaviour that is disruptive or rude (swearing, leaving a mess, arguing a ruling).",
    ),
    Infraction(
        "unsporting_conduct_major",
        CONDUCT,
        "Unsporting conduct — major",
        MATCH_LOSS,
        "Harassment, threats or behaviour that harms others' event.",
    ),
    Infraction(
        "improperly_determining_a_winner",
        CONDUCT,
        "Improperly determining a winner",
        DISQUALIFICATION,
        "Deciding a match by a coin, a die or an offer rather than by playing it.",
    ),
    Infraction(
        "bribery_and_wagering",
        CONDUCT,
        "Bribery and wagering",
        DISQUALIFICATION,
        "Offering or taking something for a match result, or betting on the event.",
    ),
    Infraction(
        "cheating",
        CONDUCT,
        "Cheating",
        DISQUALIFICATION,
        "Breaking a rule on purpose to gain an advantage, or lying to a judge.",
    ),
)

_BY_KEY: dict[str, Infraction] = {i.key: i for i in CATALOGUE}


def infraction(key: object) -> Infraction:
    """The catalogue's infraction with this key, or :class:`PenaltyError` naming ``infraction``."""
    if not isinstance(key, str) or key not in _BY_KEY:
        raise PenaltyError("infraction", f"unknown infraction {key!r}")
    return _BY_KEY[key]


def by_category() -> list[tuple[str, str, list[Infraction]]]:
    """The catalogue grouped as the guidelines do: (category key, label, infractions)."""
    return [
        (category, CATEGORY_LABELS[category], [i for i in CATALOGUE if i.category == category])
        for category in CATEGORIES
    ]


def check_penalty(value: object) -> str:
    if not isinstance(value, str) or value not in PENALTIES:
        raise PenaltyError("penalty", f"one of {', '.join(PENALTIES)}")
    return value


def rank(penalty: str) -> int:
    """0 for a caution up to 4 for a disqualification."""
    return PENALTIES.index(check_penalty(penalty))


def next_up(penalty: str) -> str:
    """The next penalty up; a disqualification stays one."""
    index = rank(penalty)
    return PENALTIES[min(index + 1, len(PENALTIES) - 1)]


@dataclass(frozen=True)
class Suggestion:
    """What the catalogue suggests for an infraction, given the earlier penalties for it."""

    penalty: str
    default: str
    upgraded: bool
    repeats: int  # how many times this infraction was already given in the event

    def to_json(self) -> dict[str, object]:
        return {
            "penalty": self.penalty,
            "default": self.default,
            "upgraded": self.upgraded,
            "repeats": self.repeats,
        }


def suggest(key: str, earlier: Iterable[str] = ()) -> Suggestion:
    """The suggested penalty for infraction ``key`` when the player already received
    ``earlier`` (the penalties given for this same infraction earlier in this event)."""
    found = infraction(key)
    given = [check_penalty(p) for p in earlier]
    if not given:
        return Suggestion(found.default, found.default, False, 0)
    if found.default == DISQUALIFICATION:
        return Suggestion(DISQUALIFICATION, found.default, False, len(given))
    heaviest = max([found.default, *given], key=rank)
    suggested = next_up(heaviest)
    if rank(suggested) > rank(UPGRADE_CAP):
        suggested = heaviest if rank(heaviest) > rank(UPGRADE_CAP) else UPGRADE_CAP
    return Suggestion(suggested, found.default, suggested != found.default, len(given))


# --- what a penalty does to a result ----------------------------------------------------------


def _from_side(games: Sequence[int], side: Side) -> tuple[int, int, int]:
    won_a, won_b, drawn = (int(games[0]), int(games[1]), int(games[2]))
    return (won_a, won_b, drawn) if side == "a" else (won_b, won_a, drawn)


def _to_match(mine: int, theirs: int, drawn: int, side: Side) -> Games:
    return (mine, theirs, drawn) if side == "a" else (theirs, mine, drawn)


def _check_side(side: str) -> Side:
    if side == "a":
        return "a"
    if side == "b":
        return "b"
    raise PenaltyError("side", "must be 'a' or 'b'")


def after_game_loss(
    games: Sequence[int] | None, side: str, *, games_to_win: int, draws_allowed: bool = True
) -> Games | None:
    """The result once the player on ``side`` loses one game to a penalty, or None when it
    stays as it is (the player already lost the match, or a bracket match would end drawn)."""
    who = _check_side(side)
    if games_to_win < 1:
        raise PenaltyError("games_to_win", "at least 1")
    mine, theirs, drawn = _from_side(games or (0, 0, 0), who)
    if theirs >= games_to_win:
        return None  # the opponent has already won: nothing more to lose
    theirs += 1
    max_games = 2 * games_to_win - 1
    if mine >= games_to_win and theirs >= games_to_win:
        mine -= 1  # both would win: the penalty game takes the place of one of their wins
    elif mine + theirs + drawn > max_games:
        if drawn:
            drawn -= 1
        else:
            mine -= 1
    if not draws_allowed and mine == theirs:
        return None
    return _to_match(mine, theirs, drawn, who)


def after_match_loss(games: Sequence[int] | None, side: str, *, games_to_win: int) -> Games | None:
    """The result once the player on ``side`` loses the match to a penalty: the opponent wins
    ``games_to_win`` to 0; None when the opponent already won it."""
    who = _check_side(side)
    if games_to_win < 1:
        raise PenaltyError("games_to_win", "at least 1")
    if games is not None:
        mine, theirs, _ = _from_side(games, who)
        if theirs > mine and theirs >= games_to_win:
            return None
    return _to_match(0, games_to_win, 0, who)


def details_after(
    details: Sequence[Mapping[str, Any]] | None,
    before: Sequence[int] | None,
    after: Games,
    unplayed: Mapping[str, Any] | None,
) -> list[dict[str, Any]] | None:
    """Per-game details kept across a game loss: the games played stay as they were; a game
    added by the penalty was not played (`unplayed`: the game's details of such a game, None
    when it cannot record one). None when they cannot be kept."""
    if details is None or before is None:
        return None
    kept = [dict(game) for game in details]
    played_before = sum(int(x) for x in before)
    if len(kept) != played_before:
        return None
    if sum(after) == played_before:
        return kept
    if sum(after) == played_before + 1 and unplayed is not None:
        return [*kept, thaw(unplayed)]
    return None


def battles_after(
    battles: Sequence[Sequence[int]] | None, before: Sequence[int] | None, after: Games
) -> list[list[int]] | None:
    """Trophies per game kept across a game loss: the games played stay as they were; a game
    added by the penalty was not played (0 trophies each). None when they cannot be kept.
    (A match loss keeps none: its games were not all played.)"""
    if battles is None or before is None:
        return None
    played_before = sum(int(x) for x in before)
    played_after = sum(after)
    kept = [[int(g[0]), int(g[1])] for g in battles]
    if len(kept) != played_before:
        return None
    if played_after == played_before:
        return kept
    if played_after == played_before + 1:
        return [*kept, [0, 0]]
    return None
