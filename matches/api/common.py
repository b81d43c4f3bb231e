"""What the API's modules share: the event and match a request may see, the round's JSON, query
integers, JSON bytes for the published copies, and the per-game details check."""

from __future__ import annotations

from typing import Any

from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request

from config.errors import ServiceError
from config.pagination import MAX_OFFSET, int_param
from engine.games import get_game
from matches import selectors
from matches import serializers as s
from matches.models import Match
from tournaments.models import Tournament
from tournaments.selectors import visible_event


def event_of(request: Request, slug: str) -> Tournament:
    return visible_event(request, slug)


def match_of(request: Request, pk: int) -> Match:
    return selectors.match_visible(request.user, pk)


def round_out(round_: Any, *, registration: int | None = None) -> dict[str, Any]:
    """The round's JSON; with `registration`, only that player's match(es) in it."""
    return dict(s.RoundOutput(round_, context={"registration": registration}).data)


# A `round` query parameter as query_int reads it.
ROUND_NUMBER = {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET}

# A running timer's `remaining_seconds` in a stored copy is at most this old (`ends_at` is
# exact); the ETag leaves it out (docs/api.md, "Published copies").
RUNNING_TIMER_COPY_SECONDS = 1.0
# int_param reads a longer run of digits as 10**18: one below it is the largest id asked for.
MAX_REGISTRATION_ID = 10**18 - 1


def json_bytes(data: Any) -> bytes:
    return bytes(JSONRenderer().render(data))


def wants_json(request: Request) -> bool:
    """The client asked for JSON (the browsable API's HTML is rendered per request)."""
    return getattr(request.accepted_renderer, "format", "json") == "json"


def answer_is_private(request: Request) -> bool:
    """A signed-in reader's answer may differ from the public's (staff see more rounds)."""
    return bool(request.user.is_authenticated)


def query_int(request: Request, name: str, default: int | None) -> int | None:
    return int_param(request, name, default, minimum=0, maximum=MAX_OFFSET)


def check_api_details(tournament: Tournament, game_details: Any) -> None:
    """The event API takes per-game details under the game's own name: a game that names
    them otherwise (BoBA: `battles`) refuses `game_details`, as before its trophies were
    per-game details."""
    rules = get_game(tournament.game).match_rules()
    if game_details is not None and rules.api_key != "game_details":
        raise ServiceError(
            "game_details: this game records no per-game details", field="game_details"
        )
