"""The judge desk: the live queue of calls and disputed results across the events a person
judges today, one call's page (claim, hand back, escalate, extra time, the ruling), and the
player's "call a judge" button on their match.

Thin, like the staff pages: every change goes through matches.services (the same calls as
the judging API), every read through matches.selectors or a small query here. The queue and
call pages are for the event's judges and organisers: a player gets a 403, a call of an event
the person does not staff a 404 (selectors.call_visible).
"""

from __future__ import annotations

import json
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from config import shared_copies
from config.errors import Conflict, Forbidden, ServiceError
from config.pages import attempt, int_or_none, next_or
from engine.errors import MAX_RECORD_DEPTH
from engine.games import GamePlugin, get_game
from matches import queue_values, selectors, services
from matches.adjudication_views import posted_record_problem
from matches.models import (
    OPEN_CALL_STATUSES,
    CallStatus,
    JudgeCall,
    Match,
    RoundStatus,
    Ruling,
    RulingDecision,
)
from matches.presenters import score_text
from matches.views.staff_common import staff_timer_context
from tournaments import permissions as perms
from tournaments.models import Tournament

PAGE_SIZE = 50
POLL_SECONDS = 10
NOSCRIPT_REFRESH_SECONDS = 30
SESSION_FLAG = "judge_desk"  # base.html shows the "Judge desk" link from it: no query


# --- small helpers -----------------------------------------------------------------------------


def waiting_text(since: datetime, now: datetime) -> str:
    """ "waiting 4 min", "waiting 1 h 05 min", "waiting under a minute"."""
    minutes = max(0, math.floor((now - since).total_seconds() / 60))
    if minutes < 1:
        return _("waiting under a minute")
    if minutes < 60:
        return ngettext("waiting %(m)d min", "waiting %(m)d min", minutes) % {"m": minutes}
    return _("waiting %(h)d h %(m)02d min") % {"h": minutes // 60, "m": minutes % 60}


def took_text(since: datetime, until: datetime) -> str:
    minutes = max(0, math.floor((until - since).total_seconds() / 60))
    return ngettext("resolved after %(m)d min", "resolved after %(m)d min", minutes) % {
        "m": minutes
    }


def _mark_judge(request: HttpRequest) -> None:
    if not request.session.get(SESSION_FLAG):
        request.session[SESSION_FLAG] = True


def _judge_events(request: HttpRequest) -> list[Tournament]:
    """The running events whose calls reach this person; 403 for someone who staffs nothing."""
    events = list(
        selectors.judged_events(request.user)
        .only("name", "slug", "status", "starts_at", "head_judge_id")
        .order_by("starts_at", "pk")
    )
    if not events:
        user = request.user
        staffs = (
            user.is_superuser
            or Tournament.objects.filter(Q(judges=user) | Q(organisers=user)).exists()
        )
        if not staffs:
            raise PermissionDenied(_("Only judges and organisers of an event may see the queue."))
    _mark_judge(request)
    return events


def _staff_call(request: HttpRequest, pk: int) -> JudgeCall:
    """A call of an event this person staffs; 404 when it is hidden, 403 for its players."""
    call = selectors.call_visible(request.user, pk)
    if not perms.is_staff_of(request.user, call.tournament):
        raise PermissionDenied(_("Only this event's judges and organisers may see this page."))
    call.match.round.tournament = call.tournament
    return call


def _call_url(call: JudgeCall, anchor: str = "") -> str:
    url = reverse("judge_call", args=[call.pk])
    return f"{url}#{anchor}" if anchor else url


# --- the queue ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class QueueRow:
    call: JudgeCall
    waiting: str
    waiting_minutes: int
    players: str
    last_note: str
    mine: bool
    can_claim: bool
    url: str
    claim_url: str


def queue_rows(calls: Any, user_id: int | None, now: datetime) -> list[QueueRow]:
    """The rows as the queue shows them; ``user_id`` None renders them for every judge
    (nobody's rows are "mine")."""
    rows = []
    # One reverse for the page, not three per row: the queue is rendered every 10 seconds.
    base = reverse("judge_call", args=[0]).rsplit("0/", 1)[0]
    for call in calls:
        match = call.match
        players = f"{match.a.name} v {match.b.name}" if match.b is not None else match.a.name
        if call.status == CallStatus.RESOLVED and call.resolved_at:
            waiting = took_text(call.opened_at, call.resolved_at)
        else:
            waiting = waiting_text(call.opened_at, now)
        notes = [line for line in (call.notes or "").splitlines() if line.strip()]
        rows.append(
            QueueRow(
                call=call,
                waiting=waiting,
                waiting_minutes=max(0, int((now - call.opened_at).total_seconds() // 60)),
                players=players,
                last_note=notes[-1] if notes else "",
                mine=user_id is not None and call.holder_id == user_id,
                can_claim=call.is_open and call.holder_id is None,
                url=f"{base}{call.pk}/",
                claim_url=f"{base}{call.pk}/claim/",
            )
        )
    return rows


FILTER_LABELS = {
    "open": gettext_lazy("Open"),
    "mine": gettext_lazy("Mine"),
    "escalated": gettext_lazy("Escalated"),
    "resolved": gettext_lazy("Resolved"),
    "all": gettext_lazy("All"),
}
MAX_PAGE = 1000  # bounds the copies of the queue a judge can make the server keep
MINE_SHOWN = 20
CSRF_PLACEHOLDER = shared_copies.CSRF_PLACEHOLDER


@dataclass(frozen=True)
class QueueView:
    """What the judge asked to see: filter, sort, one of their events, a page."""

    events: list[Tournament]
    state: str
    sort: str
    event: Tournament | None
    page: int

    @classmethod
    def from_request(cls, request: HttpRequest, events: list[Tournament]) -> QueueView:
        state = request.GET.get("status", "open")
        sort = request.GET.get("sort", "waiting")
        slug = request.GET.get("event", "")
        page = int_or_none(request.GET.get("page")) or 1
        return cls(
            events=events,
            state=state if state in selectors.QUEUE_FILTERS else "open",
            sort=sort if sort in selectors.QUEUE_SORTS else "waiting",
            event=next((e for e in events if e.slug == slug), None),
            page=min(max(page, 1), MAX_PAGE),
        )

    def keep(self) -> dict[str, str]:
        keep = {"status": self.state, "sort": self.sort}
        if self.event is not None:
            keep["event"] = self.event.slug
        return keep

    def here(self, page: int) -> str:
        here = reverse("judge_queue") + "?" + urlencode(self.keep())
        return here + (f"&page={page}" if page > 1 else "")

    def cache_key(self) -> str:
        ids = ",".join(str(e.pk) for e in self.events)
        event = self.event.pk if self.event is not None else ""
        return (
            f"judge-queue:list:{translation.get_language()}:{ids}:{event}:"
            f"{self.state}:{self.sort}:{self.page}"
        )


class RenderedRows:
    """Each queue row's HTML as rendered last, by everything it shows (the call's row, its
    match, holder and players, its waiting text, the list it is in, the language): while the
    queue changes several times a second, most of its rows do not, and rendering them was
    most of what a look at the queue cost. Per process, the least recently used dropped past
    `kept`; a row whose key differs in anything it shows is rendered again."""

    def __init__(self, kept: int) -> None:
        self.kept = kept
        self._rows: OrderedDict[tuple[Any, ...], str] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def key(row: QueueRow, here: str, multiple_events: bool) -> tuple[Any, ...]:
        call = row.call
        match = call.match
        holder = call.holder
        return (
            translation.get_language(),
            here,
            multiple_events,
            call.tournament.name if multiple_events else "",
            call.pk,
            call.status,
            call.kind,
            call.escalated,
            call.holder_id,
            holder.public_name if holder is not None else "",
            call.question,
            match.table,
            match.round.number,
            row.waiting,
            row.waiting_minutes >= 5,
            row.players,
            row.last_note,
            row.mine,
            row.can_claim,
            row.url,
            row.claim_url,
        )

    def rendered(self, rows: list[QueueRow], here: str, *, multiple_events: bool) -> list[str]:
        out = []
        for row in rows:
            key = self.key(row, here, multiple_events)
            with self._lock:
                html = self._rows.get(key)
                if html is not None:
                    self._rows.move_to_end(key)
            if html is None:
                html = render_to_string(
                    "matches/judge/_queue_row.html",
                    {
                        "row": row,
                        "here": here,
                        "multiple_events": multiple_events,
                        "csrf_token": CSRF_PLACEHOLDER,
                    },
                )
                with self._lock:
                    self._rows[key] = html
                    while len(self._rows) > self.kept:
                        self._rows.popitem(last=False)
            out.append(mark_safe(html))  # rendered by Django's templates, which escaped it
        return out

    def clear(self) -> None:
        with self._lock:
            self._rows.clear()


ROWS = RenderedRows(4096)


def _render_list(view: QueueView, user: Any, now: datetime, shared: bool) -> dict[str, Any]:
    """The list of calls with its counts: ``shared`` renders it for every judge of these
    events (no "mine", a placeholder for the CSRF token)."""
    ids = [e.pk for e in view.events]
    holder = None if shared else user
    qs = selectors.queue_calls(ids, state=view.state, sort=view.sort, event=view.event, user=holder)
    # The rows only display: read as plain values, not 400 model instances (queue_values).
    page = Paginator(queue_values.QueueCalls(qs), PAGE_SIZE).get_page(view.page)
    is_open = Q(status__in=OPEN_CALL_STATUSES)
    counts = JudgeCall.objects.filter(tournament__in=ids).aggregate(
        open=Count("pk", filter=is_open),
        escalated=Count("pk", filter=is_open & Q(escalated=True)),
    )
    here = view.here(page.number)
    rows = queue_rows(page.object_list, None if shared else user.pk, now)
    context = {
        "events": view.events,
        "state": view.state,
        "page": page,
        "rows": rows,
        "row_html": ROWS.rendered(rows, here, multiple_events=len(view.events) > 1),
        "counts": counts,
        "now": now,
        "keep_query": urlencode(view.keep()),
        "here": here,
        "state_label": FILTER_LABELS[view.state],
        "csrf_token": CSRF_PLACEHOLDER,
    }
    html = render_to_string("matches/judge/_queue_rows.html", context)
    return {"html": html, "counts": counts, "here": here}


def shared_queue_list(view: QueueView, user: Any, now: datetime) -> dict[str, Any]:
    """The list every judge of these events sees, rendered once per change of their calls
    and shared (config.shared_copies): a copy younger than JUDGE_QUEUE_MAX_STALE_SECONDS is
    served even after a change, except to whoever made one since; no copy outlives
    JUDGE_QUEUE_CACHE_SECONDS, which bounds how old its waiting times can be."""
    return shared_copies.shared_copy(
        key=view.cache_key(),
        kind=selectors.QUEUE_COPIES,
        object_ids=[e.pk for e in view.events],
        user_id=user.pk,
        render=lambda: _render_list(view, user, now, shared=True),
        grace=settings.JUDGE_QUEUE_MAX_STALE_SECONDS,
        ttl=settings.JUDGE_QUEUE_CACHE_SECONDS,
    )


def mine_rows(user: Any, view: QueueView, now: datetime) -> list[QueueRow]:
    """The calls this judge holds, for the box above the shared list."""
    ids = [e.pk for e in view.events]
    held = JudgeCall.objects.filter(
        tournament__in=ids, holder=user, status__in=OPEN_CALL_STATUSES
    ).values_list("pk", flat=True)[:MINE_SHOWN]
    # Most looks at the queue are by judges holding nothing: a cheap query says so, and only
    # the calls they hold are read with everything their rows show.
    held_ids = list(held)
    if not held_ids:
        return []
    calls = selectors.queue_calls(ids, state="mine", user=user).filter(pk__in=held_ids)
    return queue_rows(calls, user.pk, now)


@login_required
def judge_queue(request: HttpRequest) -> HttpResponse:
    """Every open item across the events the person judges today; ``?partial=1`` is the
    list alone, which static/js/judge-queue.js fetches every 10 seconds. The list is shared
    by the judges (shared_queue_list); what is theirs alone (the calls they hold) is read
    per request and is small."""
    events = _judge_events(request)
    view = QueueView.from_request(request, events)
    now = timezone.now()
    user = request.user
    mine: list[QueueRow] = []
    if not events:
        listing = {"html": "", "counts": {"open": 0, "escalated": 0}, "here": view.here(1)}
    elif view.state == "mine":
        listing = _render_list(view, user, now, shared=False)
    else:
        listing = shared_queue_list(view, user, now)
    if events:
        mine = mine_rows(user, view, now)
    html = shared_copies.personal(request, listing["html"])
    counts = {**listing["counts"], "mine": len(mine)}
    filter_labels = {key: FILTER_LABELS[key] for key in selectors.QUEUE_FILTERS}
    here = listing["here"]
    keep = view.keep()
    context: dict[str, Any] = {
        "events": events,
        "event": view.event,
        "state": view.state,
        "sort": view.sort,
        "list_html": mark_safe(html),  # rendered by Django's templates, which escaped it
        "mine": mine if view.state != "mine" else [],
        "me": user.pk,
        "counts": counts,
        "here": here,
        "poll_url": here + "&partial=1",
        "poll_seconds": POLL_SECONDS,
        "refresh_seconds": NOSCRIPT_REFRESH_SECONDS,
        "filters": [
            (key, label, reverse("judge_queue") + "?" + urlencode({**keep, "status": key}))
            for key, label in filter_labels.items()
        ],
        "sorts": [("waiting", _("Waiting longest first")), ("table", _("By table"))],
    }
    if request.GET.get("partial") == "1":
        response = render(request, "matches/judge/_queue_list.html", context)
        response["X-Judge-Queue"] = "1"
        response["Cache-Control"] = "no-store"
        return response
    return render(request, "matches/judge/queue.html", context)


# --- one call ----------------------------------------------------------------------------------


def replay_summary(ruling: Ruling, game: GamePlugin) -> dict[str, Any] | None:
    """The engine's verdict on a ruling's record, in words: legal or not (with the rule it
    broke), the winner and the trophies or turns (whatever the game's replay reports)."""
    replay = ruling.replay
    if not isinstance(replay, dict):
        return None
    record = ruling.record if isinstance(ruling.record, dict) else {}
    names = record.get("players") if isinstance(record.get("players"), dict) else {}

    def who(letter: Any) -> str:
        name = names.get(letter) if isinstance(letter, str) else None
        return f"{name} ({letter})" if name else str(letter or "")

    replayer = game.replayer()
    if replayer is None:
        return None
    summary = replayer.summary(replay)
    return {
        "legal": summary.legal,
        "rule": summary.rule,
        "rule_title": game.section_title(summary.rule) or "",
        "message": summary.message,
        "action": summary.action,
        "winner": who(summary.winner) if summary.winner else "",
        "decided": summary.decided.render(_) if summary.decided else "",
        "finished": summary.finished,
        "progress": summary.progress.render(_) if summary.progress else "",
        "score_label": summary.score_label.render(_) if summary.score_label else "",
        "score": [(who(player), n) for player, n in summary.score],
        "engine_version": ruling.engine_version,
    }


def _rulings(call: JudgeCall, game: GamePlugin) -> list[dict[str, Any]]:
    out = []
    for ruling in call.rulings.select_related("judge").order_by("created_at", "id"):
        out.append(
            {
                "ruling": ruling,
                "citations": [(c, game.section_title(c) or "") for c in ruling.citations or []],
                "result_text": score_text((ruling.result or {}).get("games")),
                "replay": replay_summary(ruling, game),
            }
        )
    return out


def _field_key(field: str | None) -> str:
    """Which part of the ruling form a service error names."""
    field = field or ""
    if field.startswith("citations"):
        return "citations"
    if field.startswith("record"):
        return "record"
    if field in ("result", "games", "battles", "round"):
        return "result"
    if field in ("text", "decision"):
        return field
    return "form"


def _call_context(
    request: HttpRequest,
    call: JudgeCall,
    form: dict[str, Any] | None = None,
    errors: dict[str, str] | None = None,
) -> dict[str, Any]:
    user = request.user
    match = call.match
    round_ = match.round
    event = call.tournament
    now = timezone.now()
    is_organiser = perms.is_organiser_of(user, event)
    form = form or {}
    picked = set(form.get("citations", []))
    game = get_game(event.game)
    context: dict[str, Any] = {
        "call": call,
        "event": event,
        "round": round_,
        "match": match,
        "reports": _reports_with_details(match, event.game),
        "result_text": score_text(match.games),
        "waiting": (
            took_text(call.opened_at, call.resolved_at)
            if call.resolved_at
            else waiting_text(call.opened_at, now)
        ),
        "notes": [line for line in (call.notes or "").splitlines() if line.strip()],
        "rulings": _rulings(call, game),
        "head_judge": event.head_judge,
        "is_holder": call.holder_id == user.pk,
        "can_claim": call.is_open and call.holder_id is None,
        "can_hand_back": call.status == CallStatus.CLAIMED
        and (call.holder_id == user.pk or is_organiser),
        "can_rule": call.is_open and call.holder_id in (None, user.pk),
        "can_extend": match.b_id is not None and round_.status == RoundStatus.PUBLISHED,
        "max_extension": services.MAX_EXTENSION_MINUTES,
        "sections": [(code, title, code in picked) for code, title in game.rule_sections()],
        "citation_example": game.citation_example(),
        "can_adjudicate": game.adjudicator() is not None,
        "drawn_games": game.drawn_games,
        "decisions": RulingDecision.choices,
        "form": form,
        "other_citations": form.get("other", ""),
        "errors": errors or {},
        "queue_url": reverse("judge_queue"),
        "adjudicate_url": reverse("judge_call", args=[call.pk]) + "adjudicate/",
        "here": _call_url(call),
    }
    if round_.status == RoundStatus.PUBLISHED and match.b_id is not None:
        context.update(staff_timer_context(round_, match.extension_minutes))
        context["show_timer"] = True
    _mark_judge(request)
    return context


@login_required
def judge_call(request: HttpRequest, pk: int) -> HttpResponse:
    call = _staff_call(request, pk)
    return render(request, "matches/judge/call.html", _call_context(request, call))


@require_POST
@login_required
def judge_call_claim(request: HttpRequest, pk: int) -> HttpResponse:
    call = _staff_call(request, pk)
    table = call.match.table or "—"
    done = attempt(
        request,
        lambda: services.call_claim(actor=request.user, call=call),
        _("You hold the call at table %(t)s.") % {"t": table},
    )
    if done:
        return redirect(next_or(request, _call_url(call)))
    # Someone else got there first: back to the queue (the row's ``back``) to pick another.
    back = request.POST.get("back", "")
    if back and url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(back)
    return redirect(next_or(request, reverse("judge_queue")))


@require_POST
@login_required
def judge_claim_next(request: HttpRequest) -> HttpResponse:
    """The longest-waiting call nobody holds: no race with the other judges to lose."""
    call = services.call_claim_next(actor=request.user)
    if call is None:
        messages.info(request, _("Nothing is waiting for a judge."))
        return redirect("judge_queue")
    messages.success(
        request, _("You hold the call at table %(t)s.") % {"t": call.match.table or "—"}
    )
    return redirect(_call_url(call))


@require_POST
@login_required
def judge_call_hand_back(request: HttpRequest, pk: int) -> HttpResponse:
    call = _staff_call(request, pk)
    attempt(
        request,
        lambda: services.call_hand_back(actor=request.user, call=call),
        _("The call at table %(t)s is back in the queue.") % {"t": call.match.table or "—"},
    )
    return redirect(next_or(request, _call_url(call)))


@require_POST
@login_required
def judge_call_note(request: HttpRequest, pk: int) -> HttpResponse:
    call = _staff_call(request, pk)
    attempt(
        request,
        lambda: services.call_add_note(
            actor=request.user, call=call, text=request.POST.get("note", "")
        ),
        _("Note added."),
    )
    return redirect(next_or(request, _call_url(call)))


@require_POST
@login_required
def judge_call_escalate(request: HttpRequest, pk: int) -> HttpResponse:
    call = _staff_call(request, pk)
    head = call.tournament.head_judge
    success = (
        _("Escalated: %(name)s, the head judge, now holds this call.") % {"name": head.public_name}
        if head is not None
        else _("Escalated: the call is flagged for every judge (the event has no head judge).")
    )
    attempt(
        request,
        lambda: services.call_escalate(
            actor=request.user, call=call, note=request.POST.get("note", "")
        ),
        success,
    )
    return redirect(next_or(request, _call_url(call)))


@require_POST
@login_required
def judge_call_extend(request: HttpRequest, pk: int) -> HttpResponse:
    """Extra minutes for the call's table: the extension feeds that match's timer."""
    call = _staff_call(request, pk)
    match = call.match
    minutes = int_or_none(request.POST.get("minutes"))
    if minutes is None:
        messages.error(
            request,
            _("Minutes: a whole number from 0 to %(max)d.")
            % {"max": services.MAX_EXTENSION_MINUTES},
        )
    else:
        attempt(
            request,
            lambda: services.match_extend(actor=request.user, match=match, minutes=minutes),
            _("Table %(t)s has %(m)d extra minutes.") % {"t": match.table or "—", "m": minutes},
        )
    return redirect(next_or(request, _call_url(call, "extension")))


def _reports_with_details(match: Match, game: str) -> list[Any]:
    """The match's reports, each with its per-game details in words (`detail_lines`): in a
    dispute the judge sees where the two reports differ, game by game."""
    reports = list(match.reports.select_related("registration__player").order_by("id"))
    name_b = match.b.name if match.b is not None else ""
    for report in reports:
        report.detail_lines = selectors.game_detail_lines(
            game, report.game_details, match.a.name, name_b
        )
    return reports


def _citations_from(request: HttpRequest) -> tuple[list[str], str]:
    picked = [c.strip() for c in request.POST.getlist("citations") if c.strip()]
    other = request.POST.get("other_citations", "").strip()
    typed = [
        part.strip()
        for part in other.replace(";", ",").replace("\n", ",").split(",")
        if part.strip()
    ]
    seen: list[str] = []
    for citation in picked + typed:
        citation = " ".join(citation.split())
        if citation not in seen:
            seen.append(citation)
    return seen, other


def _result_from(request: HttpRequest) -> dict[str, Any] | None:
    """The games of a result change, a's first; None when the three boxes are empty."""
    raw = [request.POST.get(n, "").strip() for n in ("games_a", "games_b", "games_drawn")]
    if not any(raw):
        return None
    values = [int_or_none(v or ("0" if i == 2 else "")) for i, v in enumerate(raw)]
    if any(v is None or v < 0 for v in values):
        raise ServiceError(
            _("result: whole numbers of games, 0 or more, for both players."), field="result"
        )
    return {"games": values}


def _record_from(request: HttpRequest) -> Any:
    """The game record from the upload or the text box (the upload wins); None if neither."""
    upload = request.FILES.get("record_file")
    if upload is not None:
        if upload.size and upload.size > services.MAX_RECORD_BYTES:
            raise ServiceError(
                _("record: at most %(n)d bytes.") % {"n": services.MAX_RECORD_BYTES},
                field="record",
            )
        text = upload.read().decode("utf-8", errors="replace")
    else:
        text = request.POST.get("record", "").strip()
    if not text.strip():
        return None
    if len(text.encode()) > services.MAX_RECORD_BYTES:
        raise ServiceError(
            _("record: at most %(n)d bytes.") % {"n": services.MAX_RECORD_BYTES}, field="record"
        )
    try:
        data = json.loads(text)
    except RecursionError:
        raise ServiceError(
            _("record: nested more than %(n)d levels deep.") % {"n": MAX_RECORD_DEPTH},
            field="record",
        ) from None
    except json.JSONDecodeError as exc:
        raise ServiceError(
            _("record: not valid JSON (line %(line)d, column %(col)d: %(msg)s).")
            % {"line": exc.lineno, "col": exc.colno, "msg": exc.msg},
            field="record",
        ) from None
    problem = posted_record_problem(text, data)
    if problem is not None:
        field, message = problem
        raise ServiceError(f"{field}: {message}", field=field)
    return data


@require_POST
@login_required
def judge_call_ruling(request: HttpRequest, pk: int) -> HttpResponse:
    """The holding judge's ruling; a mistake comes back in the form, naming the field."""
    call = _staff_call(request, pk)
    citations, other = _citations_from(request)
    form = {
        "text": request.POST.get("text", ""),
        "citations": citations,
        "other": other,
        "games_a": request.POST.get("games_a", ""),
        "games_b": request.POST.get("games_b", ""),
        "games_drawn": request.POST.get("games_drawn", ""),
        "record": request.POST.get("record", ""),
        "decision": request.POST.get("decision", ""),
    }
    decision = form["decision"] or None
    try:
        result = _result_from(request)
        record = _record_from(request)
        services.call_ruling(
            actor=request.user,
            call=call,
            text=form["text"],
            citations=citations,
            record=record,
            result=result,
            decision=decision,
        )
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None
    except ServiceError as exc:
        field = exc.field or ""
        message = exc.message
        if field and not message.startswith(field):
            message = f"{field}: {message}"
        context = _call_context(request, call, form, {_field_key(field): message})
        context["error_summary"] = message
        return render(
            request,
            "matches/judge/call.html",
            context,
            status=409 if isinstance(exc, Conflict) else 400,
        )
    messages.success(
        request,
        _("Ruling recorded for table %(t)s: the call is resolved and both players see it.")
        % {"t": call.match.table or "—"},
    )
    return redirect(_call_url(call, "rulings"))


# --- the player's side: call a judge -----------------------------------------------------------


@require_POST
@login_required
def match_call(request: HttpRequest, pk: int) -> HttpResponse:
    """A player of the match (or staff) calls a judge from the match page."""
    match = selectors.match_visible(request.user, pk)
    fallback = reverse("my_match", kwargs={"slug": match.round.tournament.slug})
    try:
        _opened, created = services.call_open(
            actor=request.user, match=match, question=request.POST.get("question", "")
        )
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("A judge has been called: stay at your table.")
            if created
            else _("Your message was added to your open call."),
        )
    return redirect(next_or(request, fallback))
