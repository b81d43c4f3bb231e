"""What a BoBA match result records per game: the trophies each player won (pure: no Django).

A BoBA game is seven battles; each battle won is a trophy (CR 4.4.1), so a game's trophies
are at most seven between the two players (battles that nobody wins give none).
``game_details`` is a list, one object per game played, in order::

    {"trophies": [won by a, won by b]}

They are optional (a result may give the games alone), but given, they cover every game
played. The event API names them ``battles``, ``[[a, b], ...]`` (its shape since the first
release): :meth:`TrophyRules.to_api` and :meth:`TrophyRules.from_api` translate, and the
errors name the API's field (``battles[1]``) with the game and part for the report form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.frozen import Frozen, FrozenMap, FrozenRows, freeze, freeze_map
from engine.plugin import (
    DEFAULT_CLOCK_RULES,
    N_,
    ClockGame,
    ClockRules,
    DetailField,
    GameDetails,
    GameDetailsError,
    ResultContext,
    Text,
)

BATTLES_PER_GAME = 7
TROPHY_RULE = "CR 4.4.1"
API_KEY = "battles"

FORM_FIELDS: tuple[DetailField, ...] = (
    DetailField(
        "trophies",
        Text(N_("Trophies")),
        "number",
        per_side=True,
        maximum=BATTLES_PER_GAME,
        help=Text.of(
            N_("Fill in every game played, or none. A game has %(n)d battles."),
            n=BATTLES_PER_GAME,
        ),
    ),
)


def _error(game: int | None, message: str, text: Text) -> GameDetailsError:
    field = API_KEY if game is None else f"{API_KEY}[{game}]"
    return GameDetailsError(field, message, text=text, game=game, part="trophies")


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _pair(value: object) -> tuple[int, int] | None:
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    a, b = _count(value[0]), _count(value[1])
    return (a, b) if a is not None and b is not None else None


def trophies_of(details: object) -> tuple[tuple[int, int], ...] | None:
    """Per game, (trophies of a, trophies of b) of recorded details; None when there are none
    or they do not read (stored JSON is read defensively)."""
    if not isinstance(details, list | tuple) or not details:
        return None
    out: list[tuple[int, int]] = []
    for game in details:
        pair = _pair(game.get("trophies")) if isinstance(game, Mapping) else None
        if pair is None:
            return None
        out.append(pair)
    return tuple(out)


def clean_trophies(details: object, played: int) -> tuple[tuple[int, int], ...]:
    """The trophies of each of the `played` games, or GameDetailsError naming the game."""
    if not isinstance(details, list | tuple) or len(details) != played:
        raise _error(
            None,
            f"give trophies for each of the {played} games played",
            Text.of(N_("give the trophies of each of the %(n)d games played"), n=played),
        )
    out: list[tuple[int, int]] = []
    for i, game in enumerate(details):
        pair = _pair(game.get("trophies")) if isinstance(game, Mapping) else None
        if pair is None or (isinstance(game, Mapping) and set(game) != {"trophies"}):
            raise _error(
                i,
                "must be two whole numbers, 0 or more",
                Text(N_("give two whole numbers, 0 or more")),
            )
        if sum(pair) > BATTLES_PER_GAME:
            raise _error(
                i,
                f"{sum(pair)} trophies in one game: a game has only {BATTLES_PER_GAME} battles",
                Text.of(
                    N_("%(n)d trophies in one game: a game has only %(max)d battles (%(rule)s)"),
                    n=sum(pair),
                    max=BATTLES_PER_GAME,
                    rule=TROPHY_RULE,
                ),
            )
        out.append(pair)
    return tuple(out)


def _form_count(text: object) -> int | None:
    stripped = str(text or "").strip()
    return int(stripped) if stripped.isdigit() and len(stripped) <= 6 else None


@dataclass(frozen=True, slots=True)
class TrophyRules:
    """engine.plugin.MatchRules for BoBA: the trophies of each game."""

    has_game_details: bool = True
    api_key: str = API_KEY
    # The event API's "same result" is the games: different trophies never dispute a result;
    # the confirming report's stand.
    details_can_dispute: bool = False
    # A game given by a penalty was not played: no battle, no trophy.
    unplayed_game: FrozenMap | None = field(
        default_factory=lambda: freeze_map({"trophies": (0, 0)})
    )
    clock_rules: ClockRules = DEFAULT_CLOCK_RULES

    def clean_details(self, details: object, context: ResultContext) -> GameDetails:
        trophies = clean_trophies(details, sum(context.games))
        return GameDetails(tuple({"trophies": (a, b)} for a, b in trophies))

    def form_fields(self) -> tuple[DetailField, ...]:
        return FORM_FIELDS

    def details_from_form(self, games: Sequence[Mapping[str, object]]) -> FrozenRows | None:
        """Games whose two inputs are empty are left out; the rest are checked by
        `clean_details` (so a half-filled form is refused, naming the game)."""
        out: list[FrozenMap] = []
        for i, values in enumerate(games):
            pair = values.get("trophies")
            texts = [str(t).strip() for t in pair] if isinstance(pair, list | tuple) else []
            if not any(texts):
                continue
            counts = [_form_count(t) for t in texts]
            if len(counts) != 2 or None in counts:
                raise _error(i, "enter trophies as whole numbers", Text(N_("enter whole numbers")))
            out.append(freeze_map({"trophies": counts}))
        return tuple(out) or None

    def form_values(self, details: object) -> FrozenRows:
        trophies = trophies_of(details)
        if trophies is None:
            return ()
        return tuple(freeze_map({"trophies": (str(a), str(b))}) for a, b in trophies)

    def visible_details(self, details: object, side: str | None) -> Frozen:
        return freeze(details)

    def agree(self, details_a: object, details_b: object) -> GameDetails | None:
        trophies = trophies_of(details_a)
        if trophies is None or trophies != trophies_of(details_b):
            return None
        return GameDetails(tuple({"trophies": (a, b)} for a, b in trophies))

    def describe(self, details: object, names: Mapping[str, str]) -> tuple[tuple[Text, ...], ...]:
        trophies = trophies_of(details) or ()
        return tuple(
            (
                Text.of(
                    N_("Game %(n)d: trophies %(a)s %(trophies_a)d, %(b)s %(trophies_b)d."),
                    n=n,
                    a=names.get("a", "a"),
                    trophies_a=a,
                    b=names.get("b", "b"),
                    trophies_b=b,
                ),
            )
            for n, (a, b) in enumerate(trophies, start=1)
        )

    def details_from_clock(self, games: Sequence[ClockGame]) -> FrozenRows | None:
        return None  # the clock does not count trophies

    def to_api(self, details: object) -> object:
        """Recorded details as the event API's `battles`: `[[a, b], ...]`."""
        trophies = trophies_of(details)
        return [list(pair) for pair in trophies] if trophies is not None else None

    def from_api(self, value: object) -> Frozen:
        """The event API's `battles` as details for `clean_details` (which checks them)."""
        if not isinstance(value, list | tuple):
            return freeze(value)
        return tuple(freeze_map({"trophies": g}) for g in value)

    def match_score(self, details: object) -> tuple[int, int] | None:
        """Trophies won by a and by b over the match (the battle differential's measure)."""
        trophies = trophies_of(details)
        if trophies is None:
            return None
        return (sum(a for a, _ in trophies), sum(b for _, b in trophies))


MATCH_RULES = TrophyRules()
