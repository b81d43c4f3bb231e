"""A judge's ruling on a call: its citations, a replayed game record, and the result it sets."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, ServiceError
from engine.games import (
    Replayer,
    get_game,
)
from matches import notices
from matches.models import (
    CallStatus,
    JudgeCall,
    RoundStatus,
    Ruling,
    RulingDecision,
)
from matches.services.calls import _queue_changed
from matches.services.locks import _lock_call, _lock_for_result, _match_result
from matches.services.result_checks import _checked, _checked_details, details_input
from matches.services.results import _staff_result
from tournaments import permissions
from tournaments.audit import audit

MAX_CITATIONS = 20


MAX_RECORD_BYTES = 1024 * 1024  # a whole game is a few kilobytes; this bounds abuse


MAX_RECORD_ACTIONS = 1000  # seven battles and sudden death take well under a hundred


def check_record_bounds(record: Any) -> None:
    """Refuse a record too large to be a game before the engine sees it."""
    actions = record.get("actions") if isinstance(record, dict) else None
    if isinstance(actions, list) and len(actions) > MAX_RECORD_ACTIONS:
        raise ServiceError(
            _("record.actions: at most %(n)d actions in a game record.")
            % {"n": MAX_RECORD_ACTIONS},
            field="record.actions",
        )


CITATION_PATTERN = re.compile(r"^(CR|Summary|BOS|Formats):? ?[0-9A-Za-z .:'-]{1,60}$")


def check_citations(citations: Sequence[Any]) -> list[str]:
    if not isinstance(citations, list | tuple) or len(citations) > MAX_CITATIONS:
        raise ServiceError(
            _("citations: a list of at most %(n)d rule references.") % {"n": MAX_CITATIONS},
            field="citations",
        )
    out = []
    for i, citation in enumerate(citations):
        if not isinstance(citation, str) or not CITATION_PATTERN.match(citation.strip()):
            raise ServiceError(
                _("citations[%(i)d]: cite a rule by document and section, e.g. CR 4.2.2.")
                % {"i": i},
                field=f"citations[{i}]",
            )
        out.append(citation.strip())
    return out


def _replayer(game: str) -> Replayer:
    replayer = get_game(game).replayer()
    if replayer is None:
        raise ServiceError(_("record: this game keeps no game records."), field="record")
    return replayer


def replay_record(record: Any, game: str) -> tuple[dict[str, Any], str]:
    """The game's replay JSON for a record (legal or not) and the engine's version; malformed
    input is a 400 naming the record's field, with the same JSON."""
    replayer = _replayer(game)
    size = len(json.dumps(record, separators=(",", ":"))) if record is not None else 0
    if size > MAX_RECORD_BYTES:
        raise ServiceError(
            _("record: at most %(n)d bytes.") % {"n": MAX_RECORD_BYTES}, field="record"
        )
    check_record_bounds(record)
    replayed = replayer.replay(record).to_json()
    if replay_malformed(replayed):
        raise RecordInvalid(replayed)
    return replayed, replayer.engine_version


def replay_malformed(replay_json: dict[str, Any]) -> bool:
    """A replay that stopped before any action: the record itself is at fault (a 400)."""
    error = replay_json.get("error")
    return isinstance(error, dict) and error.get("action") is None


class RecordInvalid(ServiceError):
    """A malformed record: a 400 whose body is the replay JSON with its ``error.field``."""

    def __init__(self, replay_json: dict[str, Any]) -> None:
        error = replay_json.get("error") or {}
        field = f"record.{error.get('field')}" if error.get("field") else "record"
        super().__init__(str(error.get("message") or "malformed record"), field=field)
        self.replay_json = replay_json

    def as_dict(self) -> dict[str, object]:
        return {**self.replay_json, **super().as_dict()}


def call_ruling(
    *,
    actor: Any,
    call: JudgeCall,
    text: str,
    citations: Sequence[Any] = (),
    record: Any = None,
    result: dict[str, Any] | None = None,
    decision: str | None = None,
) -> Ruling:
    """The holding judge rules: the ruling is stored (with the engine's replay when a record
    is given, by the event's game), a result amends the match in the same transaction, and the
    call is resolved."""
    text = (text or "").strip()
    if not text:
        raise ServiceError(_("text: say what you ruled."), field="text")
    if len(text) > 5000:
        raise ServiceError(_("text: at most 5,000 characters."), field="text")
    cited = check_citations(list(citations or ()))
    if decision is not None and decision not in RulingDecision.values:
        raise ServiceError(_("decision: unknown decision."), field="decision")
    replayed, engine_version = (
        replay_record(record, call.tournament.game) if record is not None else (None, "")
    )
    with transaction.atomic():
        call = JudgeCall.objects.select_related("match__round__tournament").get(pk=call.pk)
        if result is not None:
            round_, match = _lock_for_result(call.match)
        else:
            # A ruling that leaves the result alone writes the call and the ruling only: the
            # call's lock is enough, and it does not queue behind the round's results.
            match = call.match
            round_ = match.round
        call = _lock_call(call)
        tournament = round_.tournament
        permissions.require_staff(actor, tournament)
        if call.status == CallStatus.RESOLVED:
            raise Conflict(_("call: this call is already resolved."), field="call")
        if call.holder_id is not None and call.holder_id != actor.pk:
            raise Conflict(
                _("call: %(name)s holds this call.") % {"name": call.holder.public_name},
                field="call",
                code="held",
            )
        before = _match_result(match)
        if result is not None:
            if not isinstance(result, dict):
                raise ServiceError(_("result: an object with games."), field="result")
            games = _checked(tournament, round_, result.get("games"), match)
            given = details_input(tournament, result.get("battles"), result.get("game_details"))
            details = _checked_details(tournament, match, games, given)
            if round_.status in (RoundStatus.PAIRING, RoundStatus.PAIRED):
                raise Conflict(_("round: the round is not published."), field="round")
            _staff_result(
                actor,
                tournament,
                round_,
                match,
                games,
                reason=_("Ruling: %(text)s") % {"text": text[:400]},
                game_details=details,
                settle_calls=False,
            )
        changed = _match_result(match) != before
        decision = decision or (RulingDecision.CHANGED if changed else RulingDecision.STANDS)
        ruling = Ruling.objects.create(
            call=call,
            judge=actor,
            text=text,
            citations=cited,
            decision=decision,
            record=record,
            replay=replayed,
            engine_version=engine_version,
            result=_match_result(match) if result is not None else None,
        )
        call.status = CallStatus.RESOLVED
        if call.holder_id is None:  # (reading call.holder would load the user)
            call.holder = actor
        call.resolved_at = timezone.now()
        call.save(update_fields=["status", "holder", "resolved_at"])
        notices.notify_dispute_ruled(ruling)
        _queue_changed(call, actor)
        audit(
            tournament=tournament,
            actor=actor,
            action="call.ruling",
            target=call,
            round=round_.number,
            table=match.table,
            before=before,
            after=_match_result(match),
            reason=text,
            citations=cited,
            decision=decision,
        )
    return ruling
