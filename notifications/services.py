"""Use cases for notifications: the only code that writes settings and queues deliveries.

*Queueing* is game- and match-neutral and public, for the apps above that tell their news:
``queue(tournament, kind, occurrence, emails=..., webhook=...)`` writes one ``Delivery`` row
per message (e-mail to a player with an address, or the event's webhook) under a unique
idempotency key, and schedules the Celery task that sends them with ``transaction.on_commit``,
so nothing goes out for a change that is rolled back; ``safely(what, ...)`` runs the building
and the queueing in a savepoint and never raises: a notification never stops a round being
published. ``quiet()`` turns queueing off for a block. The messages about rounds and matches
(pairings, a result to confirm, a dispute ruled or settled, a disqualification) are built in
matches/notices.py; the drop's message is here, as tournaments.extensions.player_dropped's
receiver.

*Sending* (``deliver``, ``sweep``, the webhook's checks and post) is notifications/delivery.py.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Forbidden, ServiceError
from config.locks import for_update
from config.outbox import send_after_commit
from notifications import push, selectors, signing, tasks
from notifications.delivery import check_webhook_url
from notifications.models import (
    MAX_PUSH_ENDPOINT,
    MAX_USER_AGENT,
    Channel,
    Delivery,
    DeliveryStatus,
    Kind,
    NotificationSettings,
    PushSubscription,
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
        "push_kinds": list(prefs.push_kinds or []),
    }


def settings_update(
    *,
    actor: Any,
    tournament: Tournament,
    webhook_url: str | None = None,
    email_kinds: Iterable[str] | None = None,
    webhook_kinds: Iterable[str] | None = None,
    push_kinds: Iterable[str] | None = None,
) -> NotificationSettings:
    """The event's organisers set its webhook and which kinds go out on each channel; a field
    left as None keeps its value."""
    permissions.require_organiser(actor, tournament)
    url = check_webhook_url(webhook_url) if webhook_url is not None else None
    emails = _check_kinds(list(email_kinds), "email_kinds") if email_kinds is not None else None
    hooks = (
        _check_kinds(list(webhook_kinds), "webhook_kinds") if webhook_kinds is not None else None
    )
    pushes = _check_kinds(list(push_kinds), "push_kinds") if push_kinds is not None else None
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
        if prefs.webhook_url and not prefs.webhook_secrets:
            # A webhook is signed from its first post (Standard Webhooks).
            prefs.webhook_secrets = [_secret_entry(timezone.now())]
        if emails is not None:
            prefs.email_kinds = emails
        if hooks is not None:
            prefs.webhook_kinds = hooks
        if pushes is not None:
            prefs.push_kinds = pushes
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


# The longest a rotated-out signing secret keeps signing beside the new one.
MAX_OVERLAP_HOURS = 7 * 24


def _secret_entry(now: datetime) -> dict[str, Any]:
    return {"secret": signing.new_secret(), "created_at": now.isoformat(), "retires_at": None}


def webhook_secret_rotate(
    *, actor: Any, tournament: Tournament, overlap_hours: Any = 24
) -> NotificationSettings:
    """A new signing secret for the event's webhook; the current one keeps signing beside it
    for ``overlap_hours`` (0 to 168), so the receiver can switch without missing a post.
    Secrets already retired are forgotten. Audited without the secrets."""
    permissions.require_organiser(actor, tournament)
    if (
        isinstance(overlap_hours, bool)
        or not isinstance(overlap_hours, int)
        or not 0 <= overlap_hours <= MAX_OVERLAP_HOURS
    ):
        raise ServiceError(
            _("overlap_hours: whole hours from 0 to %(n)d.") % {"n": MAX_OVERLAP_HOURS},
            field="overlap_hours",
        )
    now = timezone.now()
    with transaction.atomic():
        tournament = for_update(Tournament.objects).get(pk=tournament.pk)
        permissions.require_organiser(actor, tournament)
        prefs, _created = for_update(NotificationSettings.objects).get_or_create(
            tournament=tournament
        )
        retires = (now + timedelta(hours=overlap_hours)).isoformat()
        kept = []
        for entry in prefs.webhook_secrets or []:
            if entry.get("retires_at") is None:
                entry = {**entry, "retires_at": retires}
            if datetime.fromisoformat(entry["retires_at"]) > now:
                kept.append(entry)
        prefs.webhook_secrets = [*kept, _secret_entry(now)]
        prefs.updated_by = actor if permissions.is_authenticated(actor) else None
        prefs.save()
        audit(
            tournament=tournament,
            actor=actor,
            action="notifications.webhook_secret_rotated",
            target=prefs,
            overlap_hours=overlap_hours,
            secrets_in_use=len(prefs.secrets_in_use(now)),
        )
    return prefs


# --- queueing --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Message:
    """One message to queue: to a player (``recipient``) by e-mail and push, or (None) to the
    webhook.

    The recipient is an account (accounts.User) or a ``Recipient``: whatever has the ``pk``,
    ``email`` and ``is_active`` that sending reads."""

    recipient: Any | None
    subject: str
    body: str
    payload: dict[str, Any] = field(default_factory=dict)
    # By push: the one line a phone's lock screen shows (empty: the subject) and the page of
    # the site a tap opens (a path; empty: the event's page).
    push: str = ""
    url: str = ""


@dataclass(frozen=True)
class Recipient:
    """What sending needs of a player's account, read as plain values (for messages built from
    ``values_list`` rows rather than models)."""

    pk: int
    email: str
    is_active: bool


EmailBuilder = Callable[[], Iterable[Message]]
WebhookBuilder = Callable[[], Message]

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


def site_url(path: str) -> str:
    """``path`` (a reverse()d URL) as an absolute link on the site (settings.SITE_URL)."""
    return str(getattr(settings, "SITE_URL", "") or "").rstrip("/") + path


def queue(
    tournament: Tournament,
    kind: str,
    occurrence: str,
    *,
    emails: EmailBuilder,
    webhook: WebhookBuilder,
) -> int:
    """Write the deliveries of one occurrence and send them after commit; how many were written.

    ``kind`` is a ``Kind``; ``occurrence`` names the object and its version (``round:12:v3``),
    so that telling the same occurrence twice queues it once: every delivery's key is the event,
    ``kind:occurrence`` and the recipient. The builders run only for the channels the event has
    on for this kind: ``emails`` gives one message per player (players without an active account
    with an address are skipped), ``webhook`` the one post.

    Precondition: inside the caller's transaction; call it through ``safely`` so that a failure
    rolls back its savepoint only. Inside ``quiet()`` it queues nothing."""
    if _quiet.get():
        return 0
    prefs = selectors.settings_for(tournament)
    source = f"{kind}:{occurrence}"[:120]
    rows: list[tuple[Any, ...]] = []
    by_email = prefs.sends(Channel.EMAIL, kind)
    by_push = prefs.sends(Channel.PUSH, kind) and push.enabled()
    if by_email or by_push:
        messages = [m for m in emails() if m.recipient is not None and m.recipient.is_active]
        if by_email:
            for message in messages:
                user = message.recipient
                if user is not None and user.email:
                    rows.append(_row(tournament, kind, source, Channel.EMAIL, user.pk, message))
        if by_push:
            rows.extend(_push_rows(tournament, kind, source, messages))
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
    if channel == Channel.PUSH:
        to = f"push:{user_id}"
    else:
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


def _push_rows(
    tournament: Tournament, kind: str, source: str, messages: list[Message]
) -> list[tuple[Any, ...]]:
    """One push delivery per player with a subscribed phone or browser (one query for all):
    the lock screen's line as the subject, the event's name as the body, and where a tap
    goes."""
    ids = {m.recipient.pk for m in messages if m.recipient is not None}
    if not ids:
        return []
    subscribed = set(
        PushSubscription.objects.filter(user_id__in=ids).values_list("user_id", flat=True)
    )
    rows = []
    event_path = tournament.get_absolute_url()
    for message in messages:
        user_id = message.recipient.pk if message.recipient is not None else None
        if user_id is None or user_id not in subscribed:
            continue
        subscribed.discard(user_id)  # one per player, even if told twice in one occurrence
        line = Message(
            message.recipient,
            (message.push or message.subject)[:MAX_SUBJECT],
            tournament.name,
            {"url": message.url or event_path, "tag": f"{tournament.slug}:{kind}"[:64]},
        )
        rows.append(_row(tournament, kind, source, Channel.PUSH, user_id, line))
    return rows


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


def safely(what: str, build_and_queue: Callable[[], int]) -> int:
    """Run ``build_and_queue`` (which reads what it needs and calls ``queue``) in a savepoint;
    a failure is logged and never undoes the caller's change: a notification never stops a
    round being published. ``what`` names it in the log."""
    try:
        with transaction.atomic():
            return build_and_queue()
    except Exception:
        logger.exception("notifications: could not queue %s", what)
        return 0


def _drop_object(registration: Registration) -> str:
    assert registration.dropped_at is not None
    return f"registration:{registration.pk}:{registration.dropped_at.strftime('%Y%m%d%H%M%S%f')}"


def _dropped_messages(
    registration: Registration, infraction: str | None
) -> tuple[EmailBuilder, WebhookBuilder]:
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
    return safely("drop", lambda: _player_dropped(registration))


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
    return queue(
        registration.tournament,
        Kind.PLAYER_DROPPED,
        _drop_object(registration),
        emails=emails,
        webhook=webhook,
    )


def registration_suspended_receiver(
    *, registration: Registration, suspension: Any, **_: Any
) -> None:
    """organisations.signals.registration_suspended: inside the suspension's transaction."""
    safely("suspension", lambda: _registration_suspended(registration, suspension))


def _registration_suspended(registration: Registration, suspension: Any) -> int:
    registration = Registration.objects.select_related("player", "tournament").get(
        pk=registration.pk
    )
    tournament = registration.tournament
    values = {
        "event": tournament.name,
        "org": suspension.organisation.name,
        "until": timezone.localtime(suspension.until).strftime("%Y-%m-%d %H:%M"),
        "reason": suspension.reason,
        "name": registration.name,
    }

    def emails() -> Iterable[Message]:
        if registration.player is None:
            return []
        subject = _("%(event)s: your registration is cancelled") % values
        body = "\n\n".join(
            [
                _(
                    "%(org)s has suspended you from its events until %(until)s, so your "
                    "registration for %(event)s is cancelled."
                )
                % values,
                _("The reason given: %(reason)s") % values,
                _("Talk to the organiser if this is a mistake."),
            ]
        )
        return [Message(registration.player, subject[:MAX_SUBJECT], body)]

    def webhook() -> Message:
        # The reason stays between the organisation and the player.
        text = _("%(event)s: %(name)s's registration is cancelled (suspended).") % values
        return Message(
            None,
            text[:MAX_SUBJECT],
            text,
            {"registration": registration.pk, "player": registration.name},
        )

    return queue(
        tournament,
        Kind.PLAYER_SUSPENDED,
        f"registration:{registration.pk}:suspension:{suspension.pk}",
        emails=emails,
        webhook=webhook,
    )


def notify_player_disqualified(*, registration_id: int, infraction: str, penalty_id: int) -> int:
    """A player disqualified by the penalty ``penalty_id`` for ``infraction`` (its label): the
    drop's message, still pending in this transaction, says so; a player who had dropped before
    is told separately. The app that gives penalties (matches.notices) decides which ones
    disqualify."""
    return safely(
        "disqualification",
        lambda: _player_disqualified(registration_id, infraction, penalty_id),
    )


def _player_disqualified(registration_id: int, infraction: str, penalty_id: int) -> int:
    registration = Registration.objects.select_related("player", "tournament").get(
        pk=registration_id
    )
    emails, webhook = _dropped_messages(registration, infraction)
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
                delivery.payload = {**message.payload, "penalty": penalty_id}
                delivery.save(update_fields=["subject", "body", "payload"])
            return len(pending)
    return queue(
        registration.tournament,
        Kind.PLAYER_DROPPED,
        f"penalty:{penalty_id}",
        emails=emails,
        webhook=webhook,
    )


# --- push subscriptions ----------------------------------------------------------------------

# A player's phones and browsers: past this many the oldest subscription makes room.
MAX_PUSH_SUBSCRIPTIONS_PER_PLAYER = 10


def push_subscribe(
    *, actor: Any, endpoint: Any, p256dh: Any, auth: Any, user_agent: Any = ""
) -> PushSubscription:
    """A signed-in player's browser asks to be told by push (its PushSubscription.toJSON()).
    The same endpoint subscribed again (or by another account signed in on that browser)
    replaces the old keys and owner. PushOff (503) when the site has no VAPID keys."""
    if not permissions.is_authenticated(actor):
        raise Forbidden(_("Sign in to be notified on this phone."))
    push.vapid()
    url = push.check_endpoint(endpoint)
    key, secret = push.check_keys(p256dh, auth)
    agent = user_agent if isinstance(user_agent, str) else ""
    agent = "".join(c for c in agent if c.isprintable())[:MAX_USER_AGENT]
    with transaction.atomic():
        subscription, _created = PushSubscription.objects.update_or_create(
            endpoint=url,
            defaults={"user": actor, "p256dh": key, "auth": secret, "user_agent": agent},
        )
        keep = list(
            PushSubscription.objects.filter(user=actor)
            .order_by("-created_at", "-id")
            .values_list("id", flat=True)[:MAX_PUSH_SUBSCRIPTIONS_PER_PLAYER]
        )
        PushSubscription.objects.filter(user=actor).exclude(id__in=keep).delete()
    return subscription


def push_unsubscribe(*, actor: Any, endpoint: Any) -> int:
    """The player's browser stops being told by push; how many subscriptions were removed
    (0 for an endpoint the player never subscribed). Works with push switched off too."""
    if not permissions.is_authenticated(actor):
        raise Forbidden(_("Sign in to be notified on this phone."))
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > MAX_PUSH_ENDPOINT:
        raise ServiceError(_("endpoint: the push service's address."), field="endpoint")
    deleted, _kinds = PushSubscription.objects.filter(user=actor, endpoint=endpoint).delete()
    return deleted
