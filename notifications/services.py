"""Use cases for notifications: the only code that writes settings and queues deliveries.

*Queueing* (``notify_*``), called by other apps' services inside their transactions (or, for a
drop, through tournaments.extensions.player_dropped): each writes one ``Delivery`` row per
message (e-mail to a player with an address, or the event's webhook) under a unique idempotency
key, and schedules the Celery task that sends them with ``transaction.on_commit``, so nothing
goes out for a change that is rolled back. It runs in a savepoint and never raises: a
notification never stops a round being published.

*Sending* (``deliver``, ``sweep``, the webhook's checks and post) is notifications/delivery.py.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import ServiceError
from config.locks import for_update
from config.outbox import send_after_commit
from matches.models import CallKind, JudgeCall, Match, MatchStatus, Round, Ruling
from notifications import selectors, tasks
from notifications.delivery import check_webhook_url
from notifications.models import (
    Channel,
    Delivery,
    DeliveryStatus,
    Kind,
    NotificationSettings,
)
from tournaments import permissions
from tournaments.audit import audit
from tournaments.models import Registration, Tournament

logger = logging.getLogger(__name__)

MAX_SUBJECT = 200


# --- settings --------------------------------------------------------------------------------


def _check_kinds(value: Any, name: str) -> list[str]:
    if not isinstance(value, list | tuple):
        raise ServiceError(_("%(f)s: a list of kinds.") % {"f": name}, field=name)
    kinds: list[str] = []
    for item in value:
        if item not in Kind.values:
            raise ServiceError(
                _("%(f)s: unknown kind %(k)s.") % {"f": name, "k": str(item)[:40]}, field=name
            )
        if item not in kinds:
            kinds.append(item)
    return kinds


def _settings_view(prefs: NotificationSettings) -> dict[str, Any]:
    """What the audit trail keeps: the webhook's host only (its path is a secret token)."""
    return {
        "webhook_host": urlsplit(prefs.webhook_url).hostname or "",
        "email_kinds": list(prefs.email_kinds or []),
        "webhook_kinds": list(prefs.webhook_kinds or []),
    }


def settings_update(
    *,
    actor: Any,
    tournament: Tournament,
    webhook_url: str | None = None,
    email_kinds: Iterable[str] | None = None,
    webhook_kinds: Iterable[str] | None = None,
) -> NotificationSettings:
    """The event's organisers set its webhook and which kinds go out on each channel; a field
    left as None keeps its value."""
    permissions.require_organiser(actor, tournament)
    url = check_webhook_url(webhook_url) if webhook_url is not None else None
    emails = _check_kinds(list(email_kinds), "email_kinds") if email_kinds is not None else None
    hooks = (
        _check_kinds(list(webhook_kinds), "webhook_kinds") if webhook_kinds is not None else None
    )
    with transaction.atomic():
        # The site's lock order (config/locks.py): the event, then its settings.
        tournament = for_update(Tournament.objects).get(pk=tournament.pk)
        permissions.require_organiser(actor, tournament)
        prefs, _created = for_update(NotificationSettings.objects).get_or_create(
            tournament=tournament
        )
        before, before_url = _settings_view(prefs), prefs.webhook_url
        if url is not None:
            prefs.webhook_url = url
        if emails is not None:
            prefs.email_kinds = emails
        if hooks is not None:
            prefs.webhook_kinds = hooks
        prefs.updated_by = actor if permissions.is_authenticated(actor) else None
        prefs.save()
        after = _settings_view(prefs)
        if after != before or prefs.webhook_url != before_url:
            audit(
                tournament=tournament,
                actor=actor,
                action="notifications.settings_changed",
                target=prefs,
                before=before,
                after=after,
            )
    return prefs


# --- queueing --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Message:
    """One message to queue: to a player (``recipient``) by e-mail, or (None) to the webhook."""

    recipient: Any | None
    subject: str
    body: str
    payload: dict[str, Any] = field(default_factory=dict)


_quiet: ContextVar[bool] = ContextVar("notifications_quiet", default=False)


@contextmanager
def quiet() -> Iterator[None]:
    """Queue nothing inside this block: for changes that are news to nobody, such as loading
    the demo's history."""
    token = _quiet.set(True)
    try:
        yield
    finally:
        _quiet.reset(token)


def _link(path: str) -> str:
    return str(getattr(settings, "SITE_URL", "") or "").rstrip("/") + path


def _queue(
    tournament: Tournament,
    kind: str,
    obj: str,
    emails: Callable[[], Iterable[Message]],
    webhook: Callable[[], Message],
) -> int:
    """Write the deliveries of one occurrence (kind + object + version) and send them after
    commit. The builders run only for the channels that are on."""
    if _quiet.get():
        return 0
    prefs = selectors.settings_for(tournament)
    source = f"{kind}:{obj}"[:120]
    rows: list[tuple[Any, ...]] = []
    if prefs.sends(Channel.EMAIL, kind):
        for message in emails():
            user = message.recipient
            if user is None or not user.email or not user.is_active:
                continue
            rows.append(_row(tournament, kind, source, Channel.EMAIL, user.pk, message))
    if prefs.sends(Channel.WEBHOOK, kind):
        rows.append(_row(tournament, kind, source, Channel.WEBHOOK, None, webhook()))
    if not rows:
        return 0
    _insert(rows)
    # In this savepoint: the task is sent after commit, or later if the broker is down.
    send_after_commit(tasks.dispatch_task, tournament.pk, source)
    return len(rows)


_COLUMNS = (
    "tournament_id",
    "kind",
    "channel",
    "key",
    "source",
    "recipient_id",
    "subject",
    "body",
    "payload",
    "status",
    "attempts",
    "error",
    "created_at",
    "sent_via",
)


def _row(
    tournament: Tournament,
    kind: str,
    source: str,
    channel: str,
    user_id: int | None,
    message: Message,
) -> tuple[Any, ...]:
    """One delivery as the values of _COLUMNS but the last two (status and the time)."""
    to = f"user:{user_id}" if user_id is not None else "webhook"
    return (
        tournament.pk,
        str(kind),
        str(channel),
        f"{tournament.pk}:{source}:{to}"[:200],
        source,
        user_id,
        message.subject[:MAX_SUBJECT],
        message.body[:10_000],
        message.payload,
    )


def _insert(rows: list[tuple[Any, ...]]) -> None:
    """Write the rows; a key already queued (the same occurrence told twice) is left as it was.

    Multi-row INSERT ... ON CONFLICT DO NOTHING statements, not bulk_create: the ORM prepares
    each field of each row in Python (about half a second per thousand deliveries), and a
    round's worth of messages is written inside the transaction that publishes it."""
    ops = connection.ops
    table = ops.quote_name(Delivery._meta.db_table)
    columns = ", ".join(ops.quote_name(c) for c in _COLUMNS)
    one = "(" + ", ".join(["%s"] * len(_COLUMNS)) + ")"
    now = ops.adapt_datetimefield_value(timezone.now())
    pending = str(DeliveryStatus.PENDING)
    conflict = f"ON CONFLICT ({ops.quote_name('key')}) DO NOTHING"
    batch = max(1, min(500, (connection.features.max_query_params or 65535) // len(_COLUMNS)))
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch):
            chunk = rows[start : start + batch]
            params: list[Any] = []
            for row in chunk:
                payload = ops.adapt_json_value(row[-1], DjangoJSONEncoder)
                params.extend((*row[:-1], payload, pending, 0, "", now, ""))
            cursor.execute(
                f"INSERT INTO {table} ({columns}) VALUES {', '.join([one] * len(chunk))} {conflict}",
                params,
            )


def _safely(what: str, queue: Callable[[], int]) -> int:
    """Queue in a savepoint; a failure is logged and never undoes the caller's change."""
    try:
        with transaction.atomic():
            return queue()
    except Exception:
        logger.exception("notifications: could not queue %s", what)
        return 0


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
class Recipient:
    """What sending needs of a player's account, read as plain values."""

    pk: int
    email: str
    is_active: bool


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
    return _safely("pairings", lambda: _pairings_published(round_))


def _pairings_published(round_: Round) -> int:
    tournament = round_.tournament
    slug = tournament.slug
    pairings_url = _link(reverse("round_pairings", args=[slug, round_.number]))
    my_match_url = _link(reverse("my_match", args=[slug]))
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
                else:
                    seat = seat_text % {"name": them.name, "table": table}
                    subject = subject_text % {
                        "event": tournament.name,
                        "n": round_.number,
                        "table": table,
                    }
                yield Message(me.recipient, subject, f"{heading}\n\n{seat}\n\n{links}")

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

    return _queue(
        tournament, Kind.PAIRINGS_PUBLISHED, f"round:{round_.pk}:v{round_.version}", emails, webhook
    )


def notify_result_to_confirm(match: Match) -> int:
    """After a player's report (the match waits for one side): the opponent is asked to
    confirm. Does nothing for any other state of the match."""
    if match.status != MatchStatus.REPORTED or match.b_id is None:
        return 0
    return _safely("result to confirm", lambda: _result_to_confirm(match))


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
    report_url = _link(reverse("match_report_page", args=[match.pk]))
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
        return [Message(confirmer.player, subject, body)]

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

    return _queue(
        tournament,
        Kind.RESULT_TO_CONFIRM,
        f"match:{match.pk}:v{match.result_version}",
        emails,
        webhook,
    )


def notify_dispute_ruled(ruling: Ruling) -> int:
    """Both players of a disputed match: the judge's ruling. Other calls: nothing."""
    if ruling.call.kind != CallKind.DISPUTE:  # the caller's call, already loaded
        return 0
    return _safely("dispute ruling", lambda: _dispute_ruled(ruling))


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
    )


def notify_dispute_settled(call: JudgeCall, match: Match) -> int:
    """Both players of a disputed match whose dispute a staff result settled (an entry or a
    correction rather than a ruling): the final result, as a ruling would tell them. Other
    calls: nothing."""
    if call.kind != CallKind.DISPUTE:
        return 0
    return _safely("dispute settled", lambda: _dispute_settled(call, match))


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
    )


def _where(match: Match) -> str:
    return _("round %(n)d, %(table)s") % {"n": match.round.number, "table": _table_text(match)}


def _queue_dispute_outcome(
    match: Match, obj: str, *, subject: str, lines: list[str], webhook_text: str, decision: str
) -> int:
    """How a dispute ended (a ruling, or a staff result that settled it): an e-mail to each
    player of the match with a link to it, and the webhook's post."""
    round_ = match.round
    tournament = round_.tournament
    my_match_url = _link(reverse("my_match", args=[tournament.slug]))

    def emails() -> Iterable[Message]:
        body = "\n\n".join([*lines, _("Your match: %(url)s") % {"url": my_match_url}])
        return [
            Message(r.player, subject, body)
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

    return _queue(tournament, Kind.DISPUTE_RULED, obj, emails, webhook)


def _drop_object(registration: Registration) -> str:
    assert registration.dropped_at is not None
    return f"registration:{registration.pk}:{registration.dropped_at.strftime('%Y%m%d%H%M%S%f')}"


def _dropped_messages(
    registration: Registration, infraction: str | None
) -> tuple[Callable[[], Iterable[Message]], Callable[[], Message]]:
    tournament = registration.tournament
    if infraction is None:
        subject = _("%(event)s: you have dropped") % {"event": tournament.name}
        line = _("You are dropped from %(event)s%(after)s: you will not be paired again.")
        webhook_text = _("%(event)s: %(name)s dropped%(after)s.")
    else:
        subject = _("%(event)s: you are disqualified") % {"event": tournament.name}
        line = _("You are disqualified from %(event)s%(after)s (%(infraction)s).")
        webhook_text = _("%(event)s: %(name)s is disqualified%(after)s (%(infraction)s).")
    after = (
        _(" after round %(n)d") % {"n": registration.drop_round} if registration.drop_round else ""
    )
    values = {
        "event": tournament.name,
        "after": after,
        "name": registration.name,
        "infraction": infraction or "",
    }

    def emails() -> Iterable[Message]:
        if registration.player is None:
            return []
        body = "\n\n".join(
            [
                line % values,
                _(
                    "Your results so far stay in the standings. Talk to the organiser if this is "
                    "a mistake."
                ),
            ]
        )
        return [Message(registration.player, subject, body)]

    def webhook() -> Message:
        text = webhook_text % values
        return Message(
            None,
            text[:MAX_SUBJECT],
            text,
            {
                "registration": registration.pk,
                "player": registration.name,
                "round": registration.drop_round,
                "disqualified": infraction is not None,
            },
        )

    return emails, webhook


def notify_player_dropped(registration: Registration) -> int:
    """The dropped player (and the webhook, when that kind is on for it)."""
    return _safely("drop", lambda: _player_dropped(registration))


def player_dropped_receiver(*, registration: Registration, **_: Any) -> None:
    """tournaments.extensions.player_dropped: inside the drop's transaction, as before."""
    notify_player_dropped(registration)


def _player_dropped(registration: Registration) -> int:
    registration = Registration.objects.select_related("player", "tournament").get(
        pk=registration.pk
    )
    if registration.dropped_at is None:
        return 0
    emails, webhook = _dropped_messages(registration, None)
    return _queue(
        registration.tournament,
        Kind.PLAYER_DROPPED,
        _drop_object(registration),
        emails,
        webhook,
    )


def notify_player_disqualified(penalty: Any) -> int:
    """A disqualification: the drop's message, still pending in this transaction, says so;
    a player who had dropped before is told separately. Other penalties: nothing."""
    if penalty.penalty != "disqualification":
        return 0
    return _safely("disqualification", lambda: _player_disqualified(penalty))


def _player_disqualified(penalty: Any) -> int:
    registration = Registration.objects.select_related("player", "tournament").get(
        pk=penalty.registration_id
    )
    emails, webhook = _dropped_messages(registration, str(penalty.infraction_label))
    if registration.dropped_at is not None:
        source = f"{Kind.PLAYER_DROPPED}:{_drop_object(registration)}"[:120]
        pending = list(
            Delivery.objects.filter(
                tournament_id=registration.tournament_id,
                source=source,
                status=DeliveryStatus.PENDING,
            )
        )
        if pending:
            for delivery in pending:
                message = (
                    next(iter(emails()), None) if delivery.channel == Channel.EMAIL else webhook()
                )
                if message is None:
                    continue
                delivery.subject = message.subject[:MAX_SUBJECT]
                delivery.body = message.body
                delivery.payload = {**message.payload, "penalty": penalty.pk}
                delivery.save(update_fields=["subject", "body", "payload"])
            return len(pending)
    return _queue(
        registration.tournament, Kind.PLAYER_DROPPED, f"penalty:{penalty.pk}", emails, webhook
    )
