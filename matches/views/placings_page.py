"""Final placings: the event page's summary (champion, finalist, top 4, top 8), the page with
everyone (printable), and the organiser's "publish the top decklists" with its confirmation."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from config.pages import attempt
from matches import selectors, services
from matches.placings import entrant_key, event_placings, placings_json, stage_names
from matches.services.top_decklists import DEFAULT_TOP, MAX_TOP
from tournaments import permissions as perms
from tournaments.models import Tournament
from tournaments.selectors import visible_event
from tournaments.status import EventStatus

PLACINGS_PER_PAGE = 1000
# The event page's summary: who is shown under which title (places from, to).
SUMMARY_GROUPS = (
    (gettext_lazy("Champion"), 1, 1),
    (gettext_lazy("Finalist"), 2, 2),
    (gettext_lazy("Top 4"), 3, 4),
    (gettext_lazy("Top 8"), 5, 8),
)


def final_summary(event: Tournament) -> list[dict[str, Any]] | None:
    """The event page's final placings: the top 8 grouped as champion, finalist, top 4 and
    top 8; None until the placings are final (a finished event's only: the rest of the time
    the page costs no query for them)."""
    if event.status != EventStatus.FINISHED:
        return None
    placings = event_placings(event)
    if not placings.final or not placings.rows:
        return None
    body = placings_json(event, placings=placings, limit=8)
    groups = []
    for title, first, last in SUMMARY_GROUPS:
        names = [row["name"] for row in body["rows"] if first <= row["place"] <= last]
        if names:
            groups.append({"title": str(title), "names": names})
    return groups


def placings(request: HttpRequest, slug: str) -> HttpResponse:
    """Everyone's place, printable (``?all=1``: every row on one page, for printing)."""
    event = visible_event(request, slug)
    last = services.last_finished_swiss_round(event)
    hidden = last is not None and selectors.standings_hidden_for(request.user, event, last.number)
    body = placings_json(event) if not hidden else {"final": False, "count": 0, "rows": []}
    names = stage_names(event)
    rows = [
        {**row, "stage_name": names.get(row["stage"], str(row["stage"]))} for row in body["rows"]
    ]
    show_all = request.GET.get("all") == "1"
    page = Paginator(rows, max(len(rows), 1) if show_all else PLACINGS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "matches/placings.html",
        {
            "event": event,
            "final": body["final"],
            "hidden": hidden,
            "count": body["count"],
            "page": page,
            "show_all": show_all,
            "entrant": entrant_key(event),
        },
    )


@require_POST
@login_required
def placings_publish_top(request: HttpRequest, slug: str) -> HttpResponse:
    """The dashboard's "publish the top decklists": a second page to confirm, then the
    service (the same as ``POST /api/events/{slug}/decklists/publish-top/``)."""
    event = visible_event(request, slug)
    if not perms.is_organiser_of(request.user, event):
        raise PermissionDenied
    raw = request.POST.get("top", str(DEFAULT_TOP)).strip()
    top = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 4 else 0
    if request.POST.get("confirm") != "yes":
        if not 1 <= top <= MAX_TOP:
            messages.error(request, _("top: from 1 to %(max)d.") % {"max": MAX_TOP})
            return redirect("event_dashboard", slug=slug)
        return render(
            request,
            "tournaments/confirm.html",
            {
                "event": event,
                "title": _("Publish the top %(n)d decklists?") % {"n": top},
                "consequences": _(
                    "The decklists of places 1 to %(n)d of the final placings become public: "
                    "anyone can open their deck pages. The other lists stay private. "
                    "Unpublishing the event's decklists makes them private again."
                )
                % {"n": top},
                "hidden": [("top", top)],
                "checkbox_label": _("Yes, publish the top %(n)d decklists.") % {"n": top},
                "button_label": _("Publish the top decklists"),
                "back_url": reverse("event_dashboard", args=[event.slug]),
                "back_label": _("Back, change nothing"),
                "action": request.path,
            },
        )
    attempt(
        request,
        lambda: services.top_decklists_publish(actor=request.user, tournament=event, top=top),
        _("The top %(n)d decklists are public.") % {"n": top},
    )
    return redirect("event_dashboard", slug=slug)
