"""Whether a result may be written: the games and per-game details against the game's rules,
which side the actor plays, and a result written as on a slip.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from config.errors import ServiceError
from decks.catalog import catalog_for_event
from decks.services import active_version, event_format
from engine.games import (
    BEST_OF_ONE,
    GameDetailsError,
    RegisteredDeck,
    ResultContext,
    get_game,
)
from matches.models import (
    Match,
    Round,
    RoundStage,
)
from matches.services.history import stage_games_to_win, stage_structure
from tournaments import permissions, results, teams
from tournaments.models import (
    Registration,
    Tournament,
)


def _checked(
    tournament: Tournament, round_: Round, games: Any, match: Match | None = None
) -> results.Games:
    """The games as the match may end: a team event's deciding game is one game that always
    has a winner (a tie goes on to sudden death, CR 4.4.3; docs/teams.md)."""
    game = get_game(tournament.game)
    decider = match is not None and match.is_decider
    try:
        checked = results.check_result(
            games,
            games_to_win=teams.DECIDER_GAMES_TO_WIN
            if decider
            else stage_games_to_win(tournament, round_.stage_number),
            draws_allowed=round_.stage != RoundStage.TOP_CUT,
            drawn_games_allowed=game.drawn_games,
            rules=results.DrawRules(game.bracket_decided_rule, game.no_drawn_game_rule),
        )
    except results.ResultError as exc:
        raise ServiceError(exc.message, field=exc.field) from None
    if decider:
        try:
            teams.check_decider_games(checked)
        except teams.TeamError as exc:
            raise ServiceError(f"{exc.field}: {exc.message}.", field=exc.field) from None
    return checked


def checked_result(
    tournament: Tournament, round_: Round, games: Any, *, decider: bool = False
) -> results.Games:
    """A result's games as every report, staff entry and archive import checks them:
    possible in the event's match structure and game, in a bracket never level (a team
    event's deciding game: one game with a winner); ServiceError naming the field."""
    return _checked(tournament, round_, games, Match(is_decider=True) if decider else None)


def details_input(tournament: Tournament, battles: Any, game_details: Any) -> Any:
    """The per-game details a caller gave, as the game's MatchRules takes them: `battles` is
    the event API's name for BoBA's (the game's `api_key`), mapped through the game; a game
    that does not call its details so refuses the name (400 naming it)."""
    if battles is None:
        return game_details
    rules = get_game(tournament.game).match_rules()
    if rules.api_key != "battles":
        raise ServiceError(_("battles: this game does not record battles."), field="battles")
    if game_details is not None:
        raise ServiceError(
            _("battles: give the trophies as battles or as game_details, not both."),
            field="battles",
        )
    return rules.from_api(battles)


def _registered_deck(tournament: Tournament, registration: Registration | None) -> Any:
    """The player's registered (latest) list with the event's catalog and format, as the
    game's MatchRules reads it (engine.games.RegisteredDeck); None without a list."""
    version = active_version(registration) if registration is not None else None
    if version is None:
        return None
    return RegisteredDeck(version.data, catalog_for_event(tournament), event_format(tournament))


def _checked_details(
    tournament: Tournament,
    match: Match,
    games: results.Games,
    game_details: Any,
    reporter: str | None = None,
) -> list[dict[str, Any]] | None:
    """The per-game details of a result as the game's MatchRules cleans them (None: none
    given); a refusal is a 400 naming the field (`game_details[1].swaps.a[0]`). `reporter`:
    the reporting player's side (None: staff)."""
    if game_details is None:
        return None
    rules = get_game(tournament.game).match_rules()
    decks: dict[str, Any] = {}

    def deck(side: str) -> Any:
        if side not in decks:
            decks[side] = _registered_deck(tournament, match.a if side == "a" else match.b)
        return decks[side]

    structure = stage_structure(tournament, match.round.stage_number)
    context = ResultContext(games, structure or BEST_OF_ONE, deck=deck, reporter=reporter)
    try:
        return rules.clean_details(game_details, context).to_json()
    except GameDetailsError as exc:
        # The API keeps the field path; pages phrase the cause (matches.views.problem_text).
        raise ServiceError(f"{exc.field}: {exc.message}", field=exc.field) from exc


def acting_side(actor: Any, match: Match) -> str | None:
    """'a' or 'b' when the actor plays in this match."""
    if not permissions.is_authenticated(actor):
        return None
    if match.a.player_id == actor.pk:
        return "a"
    if match.b is not None and match.b.player_id == actor.pk:
        return "b"
    return None


def games_text(games: Sequence[int]) -> str:
    """A result as on a slip, a's games first: "2-1", "1-1-1"."""
    won_a, won_b, drawn = [*list(games), 0, 0, 0][:3]
    return f"{won_a}-{won_b}-{drawn}" if drawn else f"{won_a}-{won_b}"
