"""The overlay pages (for OBS browser sources), the page listing them, and the organiser's
feature-match form on the round control (docs/overlays.md). Thin: the feeds build the data,
the services write."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.pages import attempt, int_or_none, next_or
from matches.models import Match, RoundStatus
from overlays import feeds, services
from overlays.api import public_event
from overlays.live import overlay_arg
from overlays.models import MAX_SLOT
from overlays.selectors import feature_slots
from tournaments import permissions
from tournaments.models import Tournament
from tournaments.selectors import visible_event

STATUS_LABELS = {
    "playing": _("playing"),
    "reported": _("reported"),
    "judge": _("with a judge"),
    "final": _("final"),
}


def _status(word: str) -> str:
    return _(STATUS_LABELS.get(word, word))


def pairing_line(row: dict[str, Any]) -> str:
    """A pairing in words, as static/js/overlay.js writes it."""
    text = (f"{_('Table')} {row['table']}: " if row["table"] else "") + f"{row['a']} "
    text += _("bye") if row["bye"] else f"{_('vs')} {row['b']}"
    games = row["games"]
    if games:
        text += f" {games[0]}\u2013{games[1]}" + (f"\u2013{games[2]}" if games[2] else "")
    else:
        text += f" \u00b7 {_status(row['status'])}"
    return text


def _page(
    request: HttpRequest, event: Tournament, kind: str, arg: int, template: str, **extra: Any
) -> HttpResponse:
    feed_kwargs: dict[str, Any] = {"slug": event.slug}
    if kind == "feature":
        feed_kwargs["slot"] = arg
    feed_url = reverse(f"api-overlay-{kind}", kwargs=feed_kwargs)
    stream_url = reverse(f"api-overlay-{kind}-stream", kwargs=feed_kwargs)
    query = f"?rows={arg}" if kind in ("standings", "pairings") else ""
    context = {
        "event": event,
        "kind": kind,
        "feed_url": feed_url + query,
        "stream_url": settings.OVERLAY_STREAM_ORIGIN + stream_url + query
        if settings.OVERLAY_SSE
        else "",
        "poll_seconds": settings.OVERLAY_POLL_SECONDS,
        **extra,
    }
    return render(request, template, context)


def feature_page(request: HttpRequest, slug: str, slot: int) -> HttpResponse:
    event = public_event(slug)
    if not 1 <= slot <= MAX_SLOT:
        raise Http404("No such feature slot.")
    data = feeds.feature_feed(event, slot)
    word = _status(data["match"]["status"]) if data["match"] else ""
    return _page(
        request, event, "feature", slot, "overlays/feature.html", data=data, status_word=word
    )


def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = public_event(slug)
    rows = overlay_arg("standings", request, None)
    data = feeds.standings_feed(event, rows)
    lines = [
        f"{r['rank']}. {r['name']} \u00b7 {r['points']} {_('pts')} ({r['record']})"
        for r in data["rows"]
    ]
    return _page(request, event, "standings", rows, "overlays/ticker.html", data=data, lines=lines)


def pairings_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = public_event(slug)
    rows = overlay_arg("pairings", request, None)
    data = feeds.pairings_feed(event, rows)
    lines = [pairing_line(r) for r in data["rows"]]
    return _page(request, event, "pairings", rows, "overlays/ticker.html", data=data, lines=lines)


def bracket_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = public_event(slug)
    data = feeds.bracket_feed(event)
    rounds = [
        {"name": r["name"], "lines": [pairing_line(m) for m in r["matches"]]}
        for r in data["rounds"]
    ]
    return _page(request, event, "bracket", 0, "overlays/bracket.html", data=data, rounds=rounds)


def overlay_index(request: HttpRequest, slug: str) -> HttpResponse:
    """Every overlay's address, to copy into OBS."""
    event = public_event(slug)
    entries: list[tuple[str, str, dict[str, Any]]] = [
        (_("Feature match %(n)d") % {"n": n}, "feature", {"slug": slug, "slot": n}) for n in (1, 2)
    ]
    entries += [
        (_("Standings ticker"), "standings", {"slug": slug}),
        (_("Pairings ticker"), "pairings", {"slug": slug}),
        (_("Bracket"), "bracket", {"slug": slug}),
    ]
    rows = []
    for label, kind, kwargs in entries:
        page = reverse(f"overlay-{kind}", kwargs=kwargs)
        rows.append(
            {
                "label": label,
                "page": page,
                "page_abs": request.build_absolute_uri(page),
                "feed": reverse(f"api-overlay-{kind}", kwargs=kwargs),
            }
        )
    return render(request, "overlays/index.html", {"event": event, "rows": rows})


def _running_round(event: Tournament) -> Any:
    return (
        event.rounds.filter(status__in=(RoundStatus.PAIRED, RoundStatus.PUBLISHED))
        .order_by("-number")
        .first()
    )


def feature_section(request: HttpRequest, event: Tournament) -> str:
    """The round control's and dashboard's "Feature matches" section (organisers): the
    running round's feature matches, each with "Take off stream", and a form to put a table
    on stream. Provided through tournaments.extensions.provide_dashboard_section."""
    if not permissions.is_organiser_of(request.user, event):
        return ""
    round_ = _running_round(event)
    if round_ is None:
        return ""
    slots = feature_slots(round_)
    featured = [
        {"match": m, "slot": slots[m.pk]}
        for m in round_.matches.filter(pk__in=slots).select_related("a__player", "b__player")
    ]
    featured.sort(key=lambda f: f["slot"])
    return render_to_string(
        "overlays/_section.html",
        {
            "event": event,
            "round": round_,
            "featured": featured,
            "slots": range(1, MAX_SLOT + 1),
            "next": request.get_full_path(),
        },
        request=request,
    )


@login_required
@require_POST
def feature_form(request: HttpRequest, slug: str) -> HttpResponse:
    """Mark (``table`` and optional ``slot``) or unmark (``unmark``: a match id) from the
    round control; the same services as the API."""
    event = visible_event(request, slug)
    fallback = reverse("event_detail", kwargs={"slug": slug})
    if not permissions.is_organiser_of(request.user, event):
        raise PermissionDenied(_("Only the event's organisers mark feature matches."))
    round_ = _running_round(event)
    if round_ is None:
        messages.error(request, _("match: no round is paired or running."))
        return redirect(next_or(request, fallback))
    unmark = int_or_none(request.POST.get("unmark"))
    if unmark is not None:
        match = get_object_or_404(Match, pk=unmark, round=round_)
        attempt(
            request,
            lambda: services.feature_unmark(actor=request.user, match=match),
            _("Table %(t)s is off the stream overlays.") % {"t": match.table or "-"},
        )
        return redirect(next_or(request, fallback))
    table = int_or_none(request.POST.get("table"))
    slot = int_or_none(request.POST.get("slot"))
    match = round_.matches.filter(table=table).select_related("a__player", "b__player").first()
    if match is None:
        messages.error(
            request,
            _("table: round %(n)d has no table %(t)s.")
            % {"n": round_.number, "t": table if table is not None else "?"},
        )
        return redirect(next_or(request, fallback))
    match.round = round_
    attempt(
        request,
        lambda: services.feature_mark(actor=request.user, match=match, slot=slot),
        _("Table %(t)s is a feature match.") % {"t": match.table},
    )
    return redirect(next_or(request, fallback))
