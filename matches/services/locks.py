"""Row locks in the site's one order, and the version counters they guard.

Every service of this package takes row locks in the order of docs/architecture.md ("Lock
order"): event, then registration, then round, then match (then its reports, then its judge
call); it skips what it does not need but never goes back up the list. Result changes lock only
their round and match (and the event first when the result can finish a bracket): the round
lock serialises the "was that the last result?" check, so a round finishes exactly once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import NotFound
from config.locks import for_update
from engine.games import MatchRules, NoGameDetails, get_game
from matches.models import (
    JudgeCall,
    Match,
    ResultVersion,
    Round,
    RoundStage,
)
from tournaments import permissions
from tournaments.models import (
    Tournament,
)


def _lock_event(tournament: Tournament | int) -> Tournament:
    pk = tournament if isinstance(tournament, int) else tournament.pk
    return for_update(Tournament.objects).get(pk=pk)


def _lock_round(round_: Round | int) -> Round:
    pk = round_ if isinstance(round_, int) else round_.pk
    try:
        return for_update(Round.objects).select_related("tournament").get(pk=pk)
    except Round.DoesNotExist:
        raise NotFound(_("round: this round no longer exists."), field="round") from None


def _lock_for_result(match: Match) -> tuple[Round, Match]:
    """Lock what a result change may write, in the site's order: the event too when the
    result can finish a bracket (and so the event), then the round, then the match."""
    # Any round but a first stage's Swiss round can finish its stage, and so the event.
    if match.round.stage != RoundStage.SWISS or match.round.stage_number != 1:
        _lock_event(match.round.tournament_id)
    round_ = _lock_round(match.round_id)
    locked = _lock_match(match.pk)
    locked.round = round_
    return round_, locked


def _lock_match(match: Match | int) -> Match:
    pk = match if isinstance(match, int) else match.pk
    return for_update(Match.objects).select_related("round__tournament").get(pk=pk)


def _bump_round(round_: Round) -> None:
    """Who sits where changed: a new cache key for the round's rendered pairings (and a new
    version of everything that shows the round)."""
    Round.objects.filter(pk=round_.pk).update(
        version=F("version") + 1,
        content_version=F("content_version") + 1,
        changed_at=timezone.now(),
    )
    round_.refresh_from_db(fields=["version", "content_version", "changed_at"])


def _round_shown_changed(round_: Round | int) -> None:
    """What the round shows changed (a result, an extension, its timer or status): a new
    version of its published copies (config.published). The caller holds the round's lock
    (the counter is in the round's row, so this adds no lock and no waiting)."""
    pk = round_ if isinstance(round_, int) else round_.pk
    Round.objects.filter(pk=pk).update(
        content_version=F("content_version") + 1, changed_at=timezone.now()
    )


def _result_dict(
    games: Sequence[int] | None, game_details: Any = None, rules: MatchRules | None = None
) -> dict[str, Any]:
    """A result as its versions keep it, in the event API's shape: the games, and the
    per-game details under the game's API name (BoBA: `battles`, `[[a, b], ...]`)."""
    if games is None:
        return {}
    out: dict[str, Any] = {"games": list(games)}
    if game_details is not None:
        rules = rules if rules is not None else NoGameDetails()
        out[rules.api_key] = rules.to_api(game_details)
    return out


def _match_result(match: Match) -> dict[str, Any]:
    rules = get_game(match.round.tournament.game).match_rules()
    out = _result_dict(match.games, match.game_details, rules)
    if out:
        out["status"] = match.status
    return out or {"status": match.status}


def _record_version(
    match: Match, *, change: str, actor: Any, before: dict[str, Any], reason: str = ""
) -> ResultVersion:
    match.result_version += 1
    return ResultVersion.objects.create(
        match=match,
        number=match.result_version,
        change=change,
        actor=actor if permissions.is_authenticated(actor) else None,
        before=before,
        after=_match_result(match),
        reason=reason,
    )


def _lock_call(call: JudgeCall | int) -> JudgeCall:
    pk = call if isinstance(call, int) else call.pk
    return for_update(JudgeCall.objects).select_related("tournament").get(pk=pk)
