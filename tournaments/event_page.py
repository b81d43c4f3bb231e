"""The event page (`/events/{slug}/`) as a stored copy with the reader's own part spliced in.

Everybody loads the event page when a round is published. What it shows is nearly the same
for everyone: the event's facts, its counts, its rounds and schedule. What differs is small:
who is signed in (the header's name and player id, the CSRF token of the log-out form),
their registration (status, check-in code, the forms they may send), their role (staff
links), and the moment (a running timer's `data-now` and `data-remaining`).

Vocabulary:
- **state**: everything the page shows that is not a reader's own value, all of it read for
  this request (the event's row, the rounds, the counts): the copy's version. Nothing of it is
  kept only in the cache, so an evicted or stale key can never make a stale page look fresh;
  the counts are the shared copy the page always read (at most
  ``DASHBOARD_MAX_STALE_SECONDS`` old, and fresh for whoever just changed them). On
  PostgreSQL what is derived from it (the rounds section, the state's digest) is kept per
  process under a key of what it is made of, versions read with the event's row included
  (`_state_key`): still decided by what this request read.
- **kind of reader**: every yes/no the templates branch on about the reader (signed in,
  organiser, registered and how, checked in, staff...). Readers of one kind get the same
  page but for their own values.
- **own values**: the reader's id, name, player id, registration id, check-in code, CSRF
  token, and the timer's now. The copy is rendered with a *stand-in* for each (the same
  template, the same context otherwise), and the stand-ins are replaced per request by the
  reader's values, escaped as the template would have escaped them. Stand-ins are derived
  from SECRET_KEY, so nothing an organiser writes on the page can name one.

`fresh_page` renders the page whole, as it always was: tests compare it byte for byte with
the copy for every kind of reader; a request that carries messages (shown once, then gone)
gets it too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import segno
from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from config import shared_copies, stand_ins
from config.cache import redis_is_down
from config.kept import Kept
from config.stand_ins import (
    CSRF,
    digest,
    has_messages,
    number_stand_in,
    plain_rows,
    stand_in,
    written,
)
from tournaments import extensions, lottery_rules
from tournaments import permissions as perms
from tournaments.audit import EVENT_COPIES
from tournaments.forms import ClaimForm
from tournaments.jsonld import event_jsonld_text
from tournaments.models import Registration, RegistrationStatus, Tournament
from tournaments.selectors import (
    ROWS_VERSION_ATTR,
    event_facts_without_rounds,
    event_row_version,
    event_rows_version,
    registration_counts,
    registration_for,
    rows_version,
    visible_event_with_roles,
)
from tournaments.status import (
    LABELS,
    ON_THE_DAY,
    EventStatus,
    players_refusal,
    registration_refusal,
)
from tournaments.swiss import recommended_structure

TEMPLATE = "tournaments/event_detail.html"
QR_SECONDS = 24 * 3600


def _qr_key(player_id: str) -> str:
    return f"check-in-qr:{get_language()}:{player_id}"


_NOT_READ = object()


def check_in_qr(player_id: str, read: Any = _NOT_READ) -> SafeString:
    """The player's id as a QR code: a scanner at the desk types it like a keyboard. Drawn
    once per player and language (a player reloads the event page all day; drawing costs
    more than the rest of their part of it). `read`: what the cache held under its key,
    when the caller already asked it (None: nothing)."""
    key = _qr_key(player_id)
    svg: str | None = cache.get(key) if read is _NOT_READ else read
    if svg is None:
        drawn = segno.make(player_id, error="m").svg_inline(
            scale=6, border=2, title=_("QR code of your player id, %(id)s") % {"id": player_id}
        )
        svg = drawn.replace("<svg ", '<svg role="img" ', 1)  # segno escapes the title
        cache.set(key, svg, QR_SECONDS)
    return mark_safe(svg)


# --- the context, as the page always had it -----------------------------------------------------


def page_context(request: HttpRequest, event: Tournament) -> dict[str, Any]:
    """Everything the event page's template reads beyond the context processors, each part
    computed for this request (nothing taken from what the process kept)."""
    return {**_context_and_state(request, event, keep=False)[0], "claim_form": ClaimForm()}


def _context_and_state(
    request: HttpRequest, event: Tournament, *, keep: bool
) -> tuple[dict[str, Any], str]:
    """The page's context (but its claim form, which only a render needs) and the digest of
    its state but a running timer's (`page_state`). With `keep`, the rounds section and that
    digest come from what this process kept for the same state (`_kept_states`)."""
    # The version of the event's rounds, stages and organisers, read with the event's row on
    # PostgreSQL: the reads of those rows below take them from what this process kept for
    # that version (no query instead of four, and no JSON to decode:
    # tournaments.selectors.page_rows_version). Set here only: this request writes nothing.
    setattr(event, ROWS_VERSION_ATTR, event_rows_version(event))
    registration = registration_for(user=request.user, tournament=event)
    if registration is not None:
        registration.player = request.user  # registration_for found the reader's own
    # The reader's check-in QR code, when the page shows it, is read from the cache in the
    # same round trip as the counts.
    qr_key = ""
    if _shows_check_in_code(registration, event):
        assert registration is not None and registration.player is not None
        qr_key = _qr_key(registration.player.player_id)
    also: dict[str, Any] = {qr_key: None} if qr_key else {}
    # Everyone loads the event page at once when a round is published: its one aggregate is
    # counted once per change of the event and shared (config.shared_copies); whoever just
    # registered or withdrew sees their own change at once.
    counts: dict[str, int] = shared_copies.shared_copy(
        key=f"event-counts:{event.pk}",
        kind=EVENT_COPIES,
        object_ids=[event.pk],
        user_id=request.user.pk,
        render=lambda: {"counts": registration_counts(event)},
        grace=settings.DASHBOARD_MAX_STALE_SECONDS,
        ttl=60,
        also=also,
    )["counts"]
    # Offer only what can be done now: the same words as the service's refusal.
    registration_closed = registration_refusal(event_facts_without_rounds(event), timezone.now())
    context: dict[str, Any] = {
        "event": event,
        "registration": registration,
        "counts": counts,
        "registration_open": registration_closed is None,
        "registration_closed": registration_closed.render(_) if registration_closed else "",
        "player_check_in_offered": event.player_check_in_open
        and players_refusal(event.status) is None,
        "is_organiser": perms.is_organiser_of(request.user, event),
        "is_staff": perms.is_staff_of(request.user, event),
        "status_label": LABELS[event.status_enum],
        "recommended_rounds": recommended_structure(max(counts["registered"], 2))[0],
        "lottery_entries_closed": lottery_rules.entries_closed(event),
        # schema.org Event for search engines (part of the page's state: the host included).
        "event_jsonld": event_jsonld_text(event, request.build_absolute_uri("/")),
    }
    if qr_key:
        assert registration is not None and registration.player is not None  # as above
        context["check_in_qr"] = check_in_qr(registration.player.player_id, also[qr_key])
    key = _state_key(request, context) if keep else None
    kept = None if key is None else _kept_states.get(key)
    if kept is not None:
        rounds, state = kept
        if rounds is not None:
            current = rounds["current_round"]
            timer = extensions.rounds_pages().rounds_timer(event, current) if current else None
            context["rounds_info"] = {**rounds, "timer": timer}
        return context, state
    if event.status != EventStatus.CANCELLED:
        context["rounds_info"] = extensions.rounds_pages().rounds_section(
            request, event, counts["registered"]
        )
    state = digest(page_state(request, context))
    if key is not None:
        rounds_info: dict[str, Any] | None = context.get("rounds_info")
        rounds = None
        if rounds_info is not None:
            rounds = {k: v for k, v in rounds_info.items() if k != "timer"}
        _kept_states.put(key, (rounds, state))
    return context, state


# --- the page's state, kept per process for what it is made of ----------------------------------

# At most this many states a process (least recently used dropped first): each is an event's
# rounds section (a few rows) and a digest, for one combination of the inputs below.
KEPT_STATES_MAX = 256
_kept_states: Kept[tuple[Any, ...], tuple[dict[str, Any] | None, str]] = Kept(KEPT_STATES_MAX)
# The context's entries that are not the page's state (the reader's own), or that the key
# names otherwise (the event by its row's version, the counts as a tuple).
_NOT_IN_KEY = frozenset({"registration", "check_in_qr", "rounds_info", "claim_form", "event"})
_PLAIN_VALUE = (int, float, bool, str, type(None))


def _state_key(request: HttpRequest, context: dict[str, Any]) -> tuple[Any, ...] | None:
    """Everything the page's state (`page_state`) is made of, but the rounds section's timer,
    as a key: the versions of the event's row and of its rounds, stages and organisers (read
    with the event on PostgreSQL: tournaments.selectors), the counts, the language, the site's
    state, the path and every other value of the context (each plain; a value that is not:
    None, nothing kept). The rounds section also depends on whether the reader is the event's
    staff (the `is_staff` entry). None where something the state shows is read from rows
    that have no version here: an event without versions (read otherwise, or on SQLite), a
    team event (its teams are counted for the schedule) and a finished event (its
    placings)."""
    event: Tournament = context["event"]
    row = event_row_version(event)
    rows = rows_version(event)
    if row is None or rows is None or event.is_team_event:
        return None
    if event.status == EventStatus.FINISHED:
        return None
    parts: list[Any] = [
        event.pk,
        row,
        rows,
        get_language(),
        redis_is_down(),
        tuple(stand_ins.push_keys()),
        request.path,
    ]
    for name, value in context.items():
        if name in _NOT_IN_KEY:
            continue
        if name == "counts":
            value = tuple(sorted(value.items()))
        elif not isinstance(value, _PLAIN_VALUE):
            return None
        parts.append((name, value))
    return tuple(parts)


def forget_kept_states() -> None:
    """Drop every kept state (tests)."""
    _kept_states.clear()


def _shows_check_in_code(registration: Registration | None, event: Tournament) -> bool:
    return (
        registration is not None
        and registration.player_id is not None
        and registration.status == RegistrationStatus.REGISTERED
        and event.status_enum in ON_THE_DAY
    )


def fresh_page(request: HttpRequest, event: Tournament) -> HttpResponse:
    """The page rendered whole for this request (what the stored copy must equal)."""
    return render(request, TEMPLATE, page_context(request, event))


# --- the stored copy -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _StandInPlayer:
    player_id: str


@dataclass(frozen=True)
class _StandInRegistration:
    """What the templates read of the reader's registration."""

    pk: int
    status: str
    checked_in: bool
    dropped: bool
    player: _StandInPlayer | None
    invitation: str = ""
    bye_rounds: tuple[int, ...] = ()


def _own_values(request: HttpRequest, context: dict[str, Any]) -> dict[str, str]:
    """Stand-in -> the reader's value, as the template would have written it. An id is
    written as `{% url %}` and `{{ }}` write it alike (plain digits: no thousands
    separator in these settings)."""
    values = stand_ins.user_values(request)
    registration: Registration | None = context["registration"]
    if registration is not None:
        values[str(number_stand_in("registration"))] = str(registration.pk)
        if registration.invitation:
            values[stand_in("invitation")] = written(registration.invitation)
    if "check_in_qr" in context:
        values[stand_in("qr")] = str(context["check_in_qr"])
    timer = (context.get("rounds_info") or {}).get("timer")
    if timer:
        values[stand_in("now")] = written(timer["now_iso"])
        values[stand_in("remaining")] = written(timer["remaining"])
    return values


def _stand_in_context(request: HttpRequest, context: dict[str, Any]) -> dict[str, Any]:
    """The page's context with a stand-in for each own value (the context processors' `user`,
    `request`, `csrf_token` and `messages` included: the view's context overrides them)."""
    stand_in_user = stand_ins.stand_in_user(request)
    registration: Registration | None = context["registration"]
    stand_in_registration = None
    if registration is not None:
        stand_in_registration = _StandInRegistration(
            pk=number_stand_in("registration"),
            status=str(registration.status),
            checked_in=registration.checked_in,
            dropped=registration.dropped,
            player=_StandInPlayer(stand_in("playerid"))
            if registration.player_id is not None
            else None,
            invitation=stand_in("invitation") if registration.invitation else "",
            bye_rounds=tuple(registration.bye_rounds or ()),
        )
    shown = {
        **context,
        **stand_ins.reader_context(request, stand_in_user),
        "registration": stand_in_registration,
    }
    if "check_in_qr" in context:
        shown["check_in_qr"] = mark_safe(stand_in("qr"))
    rounds_info = context.get("rounds_info")
    if rounds_info and rounds_info.get("timer"):
        shown["rounds_info"] = {
            **rounds_info,
            "timer": {
                **rounds_info["timer"],
                "now_iso": stand_in("now"),
                "remaining": stand_in("remaining"),
            },
        }
    return shown


def reader_kind(request: HttpRequest, context: dict[str, Any]) -> list[Any]:
    """Every yes/no about the reader that the templates branch on."""
    registration: Registration | None = context["registration"]
    return [
        *stand_ins.user_kind(request),
        context["is_organiser"],
        context["is_staff"],
        None
        if registration is None
        else [
            str(registration.status),
            registration.checked_in,
            registration.dropped,
            registration.player_id is not None,
            bool(registration.invitation),
            list(registration.bye_rounds or ()),
        ],
        "check_in_qr" in context,
    ]


def page_state(request: HttpRequest, context: dict[str, Any]) -> list[Any]:
    """Everything else the page shows but the rounds section's timer (`timer_in_state`): the
    event's row, its counts, what can be done now, the rounds and the schedule, the language,
    the site's state."""
    rounds_info = dict(context.get("rounds_info") or {})
    rounds_info.pop("timer", None)
    shared = {
        k: v
        for k, v in context.items()
        if k not in ("registration", "check_in_qr", "rounds_info", "claim_form")
    }
    return [
        get_language(),
        redis_is_down(),
        stand_ins.push_keys(),
        request.path,
        plain_rows(shared),
        plain_rows(rounds_info),
    ]


def timer_in_state(context: dict[str, Any]) -> Any:
    """The rounds section's timer as part of the page's state: its fields but the clock's. A
    running timer's remaining time is not part of the state (the player's timer shows its end
    and the stand-ins' `data-remaining`/`data-now`): it would make every second a new state
    (a new copy rendered) for as long as the round runs."""
    timer = (context.get("rounds_info") or {}).get("timer")
    return plain_rows(stand_ins.timer_state(timer) if timer else timer)


def stored_page(request: HttpRequest, event: Tournament) -> HttpResponse:
    """The page from its stored copy for this state and kind of reader, with the reader's own
    values put in; rendered whole when the request carries messages."""
    context, state = _context_and_state(request, event, keep=True)
    if has_messages(request):
        return render(request, TEMPLATE, {**context, "claim_form": ClaimForm()})
    html = _spliced(request, context, state, render=True)
    assert html is not None  # rendered when not stored
    return HttpResponse(html)


def _spliced(
    request: HttpRequest, context: dict[str, Any], state: str, *, render: bool
) -> str | None:
    """The reader's page: the stored copy of this state (`state`: the digest of `page_state`)
    and kind of reader (rendered and stored when missing, with `render`; else None) with the
    reader's own values put in."""
    kind = digest(reader_kind(request, context))
    version = digest([kind, state, timer_in_state(context)])
    name = f"event-page:{context['event'].pk}:{kind}"

    def render_copy() -> bytes:
        shown = _stand_in_context(request, {**context, "claim_form": ClaimForm()})
        html: str = render_to_string(TEMPLATE, shown, request=request)
        return html.encode()

    html = stand_ins.stored_page(name, version, render_copy if render else None)
    if html is None:
        return None
    for placeholder, value in _own_values(request, context).items():
        html = html.replace(placeholder, value)
    if CSRF in html:  # only a page with a form asks for the token (and sets its cookie)
        html = html.replace(CSRF, stand_ins.csrf_token(request))
    return html


def event_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The event page (tournaments.views.event_detail)."""
    return stored_page(request, visible_event_with_roles(request, slug, with_registration=True))


def fast_event_page(request: HttpRequest, slug: str) -> bytes | None:
    """A signed-in reader's event page for config.fast_path (tournaments.fast_routes): what
    `event_page` answers them, from the same reads, when its copy is stored; None (the full
    stack answers) for an event they may not see, messages waiting, or a copy not stored yet
    (the full stack renders it once)."""
    with perms.roles_remembered():
        try:
            event = visible_event_with_roles(request, slug, with_registration=True)
        except Http404:
            return None
        context, state = _context_and_state(request, event, keep=True)
        if has_messages(request):
            return None
        html = _spliced(request, context, state, render=False)
    return None if html is None else html.encode()
