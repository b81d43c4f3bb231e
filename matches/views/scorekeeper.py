"""Results from paper slips (the scorekeeper page) and the printable slips with their QR codes."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from config.errors import Forbidden, ServiceError
from config.pages import int_or_none
from matches import services
from matches.models import MatchStatus, Round, RoundStatus
from matches.presenters import score_text
from matches.views.common import games_to_win_of
from matches.views.staff_common import match_url, parse_result, recent_entries, staff_round

QR_AUTO_MASK_UP_TO = 128
QR_CACHE_SECONDS = 24 * 3600


@dataclass(frozen=True)
class SlipOutcome:
    """What became of one slip typed on the scorekeeper page: saved (with the entry for the
    running list) or refused (with the reason, the form field it is about and, when there is
    one, a link to act on it or the label of the second confirmation it needs). The page
    without JavaScript and the page's script (as JSON) read the same outcome."""

    saved: bool
    message: str
    status: int = 200
    field: str = ""
    table: int | None = None
    result: str = ""
    players: str = ""
    undo_url: str = ""
    link_url: str = ""
    link_text: str = ""
    confirm_label: str = ""
    unchanged: bool = False
    settled_dispute: bool = False

    def as_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": self.saved,
            "message": self.message,
            "table": self.table,
            "result": self.result,
        }
        if self.saved:
            now = timezone.localtime()
            body.update(
                players=self.players,
                undo_url=self.undo_url,
                undo_text=_("Undo or correct table %(t)s") % {"t": self.table},
                unchanged=self.unchanged,
                settled_dispute=self.settled_dispute,
                datetime=now.isoformat(),
                time=now.strftime("%H:%M:%S"),
            )
        else:
            body["field"] = self.field
            if self.link_url:
                body["link"] = {"url": self.link_url, "text": self.link_text}
            if self.confirm_label:
                body["confirm"] = {"field": "confirm_override", "label": self.confirm_label}
        return body


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _scorekeeper_context(request: HttpRequest, round_: Round) -> dict[str, Any]:
    return {
        "event": round_.tournament,
        "round": round_,
        "entries": [
            (v, score_text((v.after or {}).get("games")))
            for v in recent_entries(round_, request.user)
        ],
        "open": round_.status in (RoundStatus.PUBLISHED, RoundStatus.FINISHED),
    }


@login_required
def scorekeeper(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Results from paper slips, keyboard only: table, result, Enter; the focus comes back.

    Without JavaScript a saved slip redirects back with its message; a refused one shows the
    page again with the slip kept in the form and the reason beside it. The page's script
    (static/js/scorekeeper.js) queues the slips and sends each with ``Accept:
    application/json``: the answer is the slip's outcome as JSON, 200 saved, 400 or 409
    refused (naming the field)."""
    round_ = staff_round(request, slug, number)
    url = reverse("scorekeeper", args=[slug, number])
    if request.method == "POST":
        outcome = _scorekeeper_enter(request, round_)
        if _wants_json(request):
            return JsonResponse(outcome.as_json(), status=outcome.status)
        if outcome.saved:
            messages.success(request, outcome.message)
            return redirect(url)
        context = _scorekeeper_context(request, round_)
        context.update(
            refused=outcome,
            slip_table=request.POST.get("table", "")[:8],
            slip_result=request.POST.get("result", "")[:12],
        )
        return render(request, "matches/staff/scorekeeper.html", context, status=outcome.status)
    return render(request, "matches/staff/scorekeeper.html", _scorekeeper_context(request, round_))


def _refusal_text(exc: ServiceError) -> str:
    """A service's refusal without its leading field name ("games: ..."): the scorekeeper
    shows it beside the field."""
    prefix = f"{exc.field}: " if exc.field else ""
    return exc.message[len(prefix) :] if prefix and exc.message.startswith(prefix) else exc.message


def _scorekeeper_enter(request: HttpRequest, round_: Round) -> SlipOutcome:
    table_text = request.POST.get("table", "").strip()
    result_text = request.POST.get("result", "").strip()
    table = int_or_none(table_text.lstrip("#tT"))
    if table is None:
        return SlipOutcome(
            False, _("Table: type the table number from the slip."), 400, field="table"
        )
    games = parse_result(result_text)
    if games is None:
        return SlipOutcome(
            False,
            _("Table %(t)d: write the result like 2-0, 2-1, 1-1-1 or 0-2 (not “%(r)s”).")
            % {"t": table, "r": result_text[:20]},
            400,
            field="result",
            table=table,
        )
    shown = score_text(games)
    match = round_.matches.select_related("a__player", "b__player").filter(table=table).first()
    if match is None:
        return SlipOutcome(
            False,
            _("Table %(t)d: there is no table %(t)d in round %(n)d.")
            % {"t": table, "n": round_.number},
            400,
            field="table",
            table=table,
            result=shown,
        )
    match.round = round_
    names = f"{match.a.name} v {match.b.name if match.b else '—'}"
    if match.status == MatchStatus.FINAL and match.games != games:
        return SlipOutcome(
            False,
            _(
                "Table %(t)d already has the final result %(old)s; not changed to %(new)s. "
                "A correction needs a reason:"
            )
            % {"t": table, "old": score_text(match.games), "new": shown},
            409,
            field="result",
            table=table,
            result=shown,
            players=names,
            link_url=match_url(match, "result"),
            link_text=_("open table %(t)d") % {"t": table},
        )
    unchanged = match.status == MatchStatus.FINAL
    disputed = match.status == MatchStatus.DISPUTED
    try:
        services.match_report(
            actor=request.user,
            match=match,
            games=list(games),
            confirm_override=request.POST.get("confirm_override") == "1",
        )
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None
    except services.OverridesReport as exc:
        return SlipOutcome(
            False,
            _(
                "Table %(t)d: %(name)s reported %(theirs)s, still waiting for the opponent's "
                "confirmation. Enter %(new)s over that report?"
            )
            % {
                "t": table,
                "name": exc.reporter,
                "theirs": score_text(exc.reported),
                "new": shown,
            },
            exc.status_code,
            field="confirm_override",
            table=table,
            result=shown,
            players=names,
            confirm_label=_("Yes, enter %(r)s over the report") % {"r": shown},
        )
    except ServiceError as exc:
        return SlipOutcome(
            False,
            _("Table %(t)d: %(why)s") % {"t": table, "why": _refusal_text(exc)},
            exc.status_code,
            field="result"
            if exc.field in ("games", "battles", "game_details")
            else exc.field or "",
            table=table,
            result=shown,
            players=names,
        )
    if unchanged:
        message = _("Table %(t)d: %(r)s was already entered (%(names)s); nothing changed.")
    elif disputed:
        message = _("Table %(t)d: %(r)s entered (%(names)s); the dispute is settled.")
    else:
        message = _("Table %(t)d: %(r)s entered (%(names)s).")
    return SlipOutcome(
        True,
        message % {"t": table, "r": shown, "names": names},
        table=table,
        result=shown,
        players=names,
        undo_url=match_url(match, "result"),
        unchanged=unchanged,
        settled_dispute=disputed,
    )


# --- match slips -------------------------------------------------------------------------------


@login_required
def match_slips(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Printable slips, one per table, each with a QR code to the match's report page."""
    round_ = staff_round(request, slug, number)
    matches = list(
        round_.matches.filter(b__isnull=False)
        .select_related("a__player", "b__player")
        .order_by("table", "id")
    )
    games_to_win = games_to_win_of(round_)
    # A large round fixes the QR mask: choosing the best of eight takes most of the time
    # (1,024 codes: about 8 s against 2 s), and any mask scans. The codes of a round are
    # cached as one entry per round version (bumped whenever who sits where changes).
    fixed_mask = len(matches) > QR_AUTO_MASK_UP_TO
    host = request.build_absolute_uri("/")
    key = (
        "slip-qr:"
        + hashlib.sha1(f"{round_.pk}|{round_.version}|{host}|{get_language()}".encode()).hexdigest()
    )
    codes: dict[int, str] = cache.get(key) or {}
    missing = False
    slips = []
    for m in matches:
        report_url = request.build_absolute_uri(f"/matches/{m.pk}/report/")
        qr = codes.get(m.pk)
        if qr is None:
            missing = True
            title = _("QR code: report the result of table %(t)s") % {"t": m.table or "—"}
            code = segno.make(report_url, micro=False, mask=0 if fixed_mask else None)
            qr = codes[m.pk] = code.svg_inline(scale=2, title=title)
        slips.append({"match": m, "qr": qr, "url": report_url})
    if missing:
        cache.set(key, codes, timeout=QR_CACHE_SECONDS)
    context = {
        "event": round_.tournament,
        "round": round_,
        "slips": slips,
        "games_to_win": games_to_win,
        "best_of": 2 * games_to_win - 1,
    }
    return render(request, "matches/staff/slips.html", context)
