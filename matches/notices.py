"""The messages about rounds and matches: what each says and to whom, queued through the
neutral notifications API (notifications.services.queue, inside ``safely``).

Called by matches/services inside their transactions, after the change they tell: pairings
published (``round_publish``), a result to confirm (a player's report), a dispute ruled
(``call_ruling``) or settled by a staff result, a player disqualified (``penalty_give``; the
message itself is the drop's, in notifications), the round's last minutes (the round timer's
warning: matches.services.timer). Each kind is a ``notifications.models.Kind``;
the delivery keys are ``<event>:<kind>:<object>:v<version>:<recipient>`` as before.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from matches.models import (
    CallKind,
    JudgeCall,
    Match,
    MatchStatus,
    Penalty,
    PenaltyKind,
    Round,
    Ruling,
)
from notifications import services as notification_services
from notifications.models import Kind
from notifications.services import MAX_SUBJECT, Message, Recipient, queue, safely, site_url
from tournaments.models import Registration


def _person(registration: Registration | None) -> str:
    return registration.name if registration is not None else _("nobody")


def _result_text(match: Match, games: tuple[int, int, int] | None) -> str:
    if games is None:
        return _("no result")
    text = f"{_person(match.a)} {games[0]}-{games[1]} {_person(match.b)}"
    if games[2]:
        text += " " + _("(%(n)d drawn)") % {"n": games[2]}
    return text


def _table_text(match: Match) -> str:
    return _("table %(t)s") % {"t": match.table} if match.table else _("no table")


@dataclass(frozen=True)
class _Seat:
    name: str
    recipient: Recipient | None


_PERSON_FIELDS = (
    "id",
    "walk_in_name",
    "player_id",
    "player__email",
    "player__is_active",
    "player__display_name",
    "player__first_name",
    "player__last_name",
    "player__username",
)
_SEAT_FIELDS = tuple(f"a__{f}" for f in _PERSON_FIELDS) + tuple(f"b__{f}" for f in _PERSON_FIELDS)


def _seat(values: tuple[Any, ...]) -> _Seat | None:
    """A registration read by _PERSON_FIELDS (all None for a bye's missing opponent)."""
    pk, walk_in, player_id, email, active, display_name, first, last, username = values
    if pk is None:
        return None
    if player_id is None:
        return _Seat(walk_in, None)
    # As accounts.User.public_name.
    name = display_name or f"{first or ''} {last or ''}".strip() or username
    return _Seat(name, Recipient(player_id, email or "", bool(active)))


def notify_pairings_published(round_: Round) -> int:
    """Every player of the round: their table and opponent (or bye); the webhook: a link."""
    return safely("pairings", lambda: _pairings_published(round_))


def _pairings_published(round_: Round) -> int:
    tournament = round_.tournament
    slug = tournament.slug
    pairings_url = site_url(reverse("round_pairings", args=[slug, round_.number]))
    my_match_url = site_url(reverse("my_match", args=[slug]))
    heading = _("Round %(n)d of %(event)s is paired.") % {
        "n": round_.number,
        "event": tournament.name,
    }

    def emails() -> Iterable[Message]:
        # Plain values, not models: a 2,048-player round is written inside the publishing
        # transaction, so this stays a single query and a loop over tuples.
        bye_subject = _("%(event)s round %(n)d: a bye") % {
            "event": tournament.name,
            "n": round_.number,
        }
        bye_seat = _("You have a bye this round.")
        seat_text = _("You play %(name)s at %(table)s.")
        subject_text = _("%(event)s round %(n)d: %(table)s")
        push_text = _("Round %(n)d: %(table)s vs %(name)s")
        push_bye = _("Round %(n)d: a bye")
        my_match_path = reverse("my_match", args=[slug])
        links = "\n\n".join(
            [
                _("Your match: %(url)s") % {"url": my_match_url},
                _("All pairings: %(url)s") % {"url": pairings_url},
            ]
        )
        for row in Match.objects.filter(round=round_).values_list("table", *_SEAT_FIELDS):
            table = _("table %(t)s") % {"t": row[0]} if row[0] else _("no table")
            size = len(_PERSON_FIELDS)
            a, b = _seat(row[1 : 1 + size]), _seat(row[1 + size :])
            for me, them in ((a, b), (b, a)):
                if me is None or me.recipient is None:
                    continue
                if them is None:
                    seat, subject = bye_seat, bye_subject
                    line = push_bye % {"n": round_.number}
                else:
                    seat = seat_text % {"name": them.name, "table": table}
                    subject = subject_text % {
                        "event": tournament.name,
                        "n": round_.number,
                        "table": table,
                    }
                    line = push_text % {"n": round_.number, "table": table, "name": them.name}
                yield Message(
                    me.recipient,
                    subject,
                    f"{heading}\n\n{seat}\n\n{links}",
                    push=line,
                    url=my_match_path,
                )

    def webhook() -> Message:
        text = f"{heading} {_('Pairings')}: {pairings_url}"
        return Message(
            None,
            heading,
            text,
            {
                "round": round_.number,
                "stage": round_.stage,
                "pairings_url": pairings_url,
                "matches": round_.matches.count(),
            },
        )

    return queue(
        tournament,
        Kind.PAIRINGS_PUBLISHED,
        f"round:{round_.pk}:v{round_.version}",
        emails=emails,
        webhook=webhook,
    )


def notify_result_to_confirm(match: Match) -> int:
    """After a player's report (the match waits for one side): the opponent is asked to
    confirm. Does nothing for any other state of the match."""
    if match.status != MatchStatus.REPORTED or match.b_id is None:
        return 0
    return safely("result to confirm", lambda: _result_to_confirm(match))


def _result_to_confirm(match: Match) -> int:
    match = Match.objects.select_related("round__tournament", "a__player", "b__player").get(
        pk=match.pk
    )
    report = match.reports.first()
    if report is None:
        return 0
    reporter = match.a if report.registration_id == match.a_id else match.b
    confirmer = match.b if reporter == match.a else match.a
    round_ = match.round
    tournament = round_.tournament
    result = _result_text(match, report.games)
    report_url = site_url(reverse("match_report_page", args=[match.pk]))
    where = _("round %(n)d, %(table)s") % {"n": round_.number, "table": _table_text(match)}

    def emails() -> Iterable[Message]:
        if confirmer is None or confirmer.player is None:
            return []
        subject = _("%(event)s: confirm your result") % {"event": tournament.name}
        body = "\n\n".join(
            [
                _("%(name)s reported the result of your match (%(where)s): %(result)s.")
                % {"name": _person(reporter), "where": where, "result": result},
                _("Confirm it, or report what happened if it is wrong: %(url)s")
                % {"url": report_url},
            ]
        )
        line = _("Your opponent reported %(result)s: confirm it.") % {"result": result}
        return [
            Message(
                confirmer.player,
                subject,
                body,
                push=line,
                url=reverse("match_report_page", args=[match.pk]),
            )
        ]

    def webhook() -> Message:
        text = _("%(event)s, %(where)s: %(name)s reported %(result)s; %(other)s to confirm.") % {
            "event": tournament.name,
            "where": where,
            "name": _person(reporter),
            "result": result,
            "other": _person(confirmer),
        }
        return Message(
            None,
            text[:MAX_SUBJECT],
            text,
            {
                "round": round_.number,
                "table": match.table,
                "match": match.pk,
                "reported_by": reporter.pk if reporter else None,
                "games": list(report.games),
            },
        )

    return queue(
        tournament,
        Kind.RESULT_TO_CONFIRM,
        f"match:{match.pk}:v{match.result_version}",
        emails=emails,
        webhook=webhook,
    )


def notify_dispute_ruled(ruling: Ruling) -> int:
    """Both players of a disputed match: the judge's ruling. Other calls: nothing."""
    if ruling.call.kind != CallKind.DISPUTE:  # the caller's call, already loaded
        return 0
    return safely("dispute ruling", lambda: _dispute_ruled(ruling))


def _dispute_ruled(ruling: Ruling) -> int:
    ruling = Ruling.objects.select_related(
        "call__match__round__tournament", "call__match__a__player", "call__match__b__player"
    ).get(pk=ruling.pk)
    if ruling.call.kind != CallKind.DISPUTE:
        return 0
    match = ruling.call.match
    tournament = match.round.tournament
    where = _where(match)
    decision = ruling.get_decision_display()
    result = _result_text(match, match.games if match.status == MatchStatus.FINAL else None)
    return _queue_dispute_outcome(
        match,
        f"ruling:{ruling.pk}",
        subject=_("%(event)s: a judge ruled on your result") % {"event": tournament.name},
        lines=[
            _("A judge ruled on the disputed result of your match (%(where)s).") % {"where": where},
            f"{decision}. {_('Result')}: {result}.",
            ruling.text,
        ],
        webhook_text=_("%(event)s, %(where)s: dispute ruled. %(decision)s; result %(result)s.")
        % {"event": tournament.name, "where": where, "decision": decision, "result": result},
        decision=ruling.decision,
        line=_("A judge ruled on your match (%(where)s).") % {"where": where},
    )


def notify_dispute_settled(call: JudgeCall, match: Match) -> int:
    """Both players of a disputed match whose dispute a staff result settled (an entry or a
    correction rather than a ruling): the final result, as a ruling would tell them. Other
    calls: nothing."""
    if call.kind != CallKind.DISPUTE:
        return 0
    return safely("dispute settled", lambda: _dispute_settled(call, match))


def _dispute_settled(call: JudgeCall, match: Match) -> int:
    match = Match.objects.select_related("round__tournament", "a__player", "b__player").get(
        pk=match.pk
    )
    tournament = match.round.tournament
    where = _where(match)
    result = _result_text(match, match.games)
    return _queue_dispute_outcome(
        match,
        f"call:{call.pk}:v{match.result_version}",
        subject=_("%(event)s: your disputed result is settled") % {"event": tournament.name},
        lines=[
            _("Staff entered the final result of your disputed match (%(where)s).")
            % {"where": where},
            f"{_('Result')}: {result}.",
        ],
        webhook_text=_("%(event)s, %(where)s: dispute settled by staff; result %(result)s.")
        % {"event": tournament.name, "where": where, "result": result},
        decision="settled",
        line=_("Your disputed match is settled (%(where)s): %(result)s.")
        % {"where": where, "result": result},
    )


def _where(match: Match) -> str:
    return _("round %(n)d, %(table)s") % {"n": match.round.number, "table": _table_text(match)}


def _queue_dispute_outcome(
    match: Match,
    obj: str,
    *,
    subject: str,
    lines: list[str],
    webhook_text: str,
    decision: str,
    line: str,
) -> int:
    """How a dispute ended (a ruling, or a staff result that settled it): an e-mail to each
    player of the match with a link to it, and the webhook's post."""
    round_ = match.round
    tournament = round_.tournament
    my_match_path = reverse("my_match", args=[tournament.slug])
    my_match_url = site_url(my_match_path)

    def emails() -> Iterable[Message]:
        body = "\n\n".join([*lines, _("Your match: %(url)s") % {"url": my_match_url}])
        return [
            Message(r.player, subject, body, push=line, url=my_match_path)
            for r in (match.a, match.b)
            if r is not None and r.player is not None
        ]

    def webhook() -> Message:
        fields = {
            "round": round_.number,
            "table": match.table,
            "match": match.pk,
            "decision": decision,
            "result": match.result_json(),
        }
        return Message(None, webhook_text[:MAX_SUBJECT], webhook_text, fields)

    return queue(tournament, Kind.DISPUTE_RULED, obj, emails=emails, webhook=webhook)


def notify_player_disqualified(penalty: Penalty) -> int:
    """A disqualification: the drop's message says so (notifications.services). Other
    penalties: nothing."""
    if penalty.penalty != PenaltyKind.DISQUALIFICATION:
        return 0
    return notification_services.notify_player_disqualified(
        registration_id=penalty.registration_id,
        infraction=str(penalty.infraction_label),
        penalty_id=penalty.pk,
    )


def notify_round_ending(round_: Round, ends_at: datetime, minutes_left: int) -> int:
    """The players of the round's unfinished matches: ``minutes_left`` minutes left (the
    round timer's warning; matches with an extension end later and are not told). Once per
    end time: time added to the round makes a new end time and a new warning."""
    return safely("round ending", lambda: _round_ending(round_, ends_at, minutes_left))


def _round_ending(round_: Round, ends_at: datetime, minutes_left: int) -> int:
    tournament = round_.tournament
    my_match_path = reverse("my_match", args=[tournament.slug])
    line = _("Round %(n)d: %(m)d minutes left") % {"n": round_.number, "m": minutes_left}
    subject = f"{tournament.name}: {line}"

    def emails() -> Iterable[Message]:
        rows = (
            Match.objects.filter(round=round_, extension_minutes=0, b__isnull=False)
            .exclude(status=MatchStatus.FINAL)
            .values_list(*_SEAT_FIELDS)
        )
        size = len(_PERSON_FIELDS)
        for row in rows:
            for seat in (_seat(row[:size]), _seat(row[size:])):
                if seat is not None and seat.recipient is not None:
                    yield Message(
                        seat.recipient,
                        subject,
                        _("%(line)s. Your match: %(url)s")
                        % {"line": line, "url": site_url(my_match_path)},
                        push=line,
                        url=my_match_path,
                    )

    def webhook() -> Message:
        return Message(
            None,
            subject[:MAX_SUBJECT],
            subject,
            {"round": round_.number, "ends_at": ends_at.isoformat(), "minutes_left": minutes_left},
        )

    return queue(
        tournament,
        Kind.ROUND_ENDING,
        f"round:{round_.pk}:ends:{int(ends_at.timestamp())}",
        emails=emails,
        webhook=webhook,
    )
