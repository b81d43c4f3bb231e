"""Organiser pages for the event archive and the CSV exports (thin: the same reads and
services as the API in eventdata/archive_api.py)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from config.errors import ServiceError
from eventdata import archive
from eventdata.archive_selectors import event_archive
from eventdata.archive_store import stored_archive_path, stored_archives
from matches import exports
from tournaments import permissions as perms
from tournaments.models import Tournament
from tournaments.selectors import visible_event

CSV_EXPORTS: dict[str, Callable[[Tournament, int | None], str]] = {
    "standings": exports.standings_csv,
    "pairings": exports.pairings_csv,
    "results": lambda event, _round: exports.results_csv(event),
}


def round_param(value: str | None) -> int | None:
    """`?round=N` for the CSV exports: a round number, or absent."""
    if value in (None, ""):
        return None
    if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= 32767:
        raise ServiceError(_("round: a round number from 1 to 32767."), field="round")
    return int(value)


def csv_response(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def archive_response(event: Tournament) -> HttpResponse:
    response = HttpResponse(
        archive.dumps(event_archive(event)), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-archive.json"'
    return response


def _organiser_event(request: HttpRequest, slug: str) -> Tournament:
    event = visible_event(request, slug)
    if not perms.is_organiser_of(request.user, event):
        raise PermissionDenied
    return event


@login_required
def event_archive_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = _organiser_event(request, slug)
    context = {
        "event": event,
        "stored": stored_archives(event),
        "rounds": list(event.rounds.order_by("number").values_list("number", flat=True)),
    }
    return render(request, "tournaments/archive.html", context)


@login_required
def event_archive_download(request: HttpRequest, slug: str) -> HttpResponse:
    return archive_response(_organiser_event(request, slug))


def stored_archive_response(event: Tournament, name: str) -> FileResponse:
    """One kept archive of the event, streamed from the file storage through this response.

    Never a redirect to the store (a presigned URL): every download is checked here, the
    store's address need not be reachable from browsers, and no link that works for anyone
    holding it is handed out. Archives are a few MB, downloaded now and then by organisers."""
    path = stored_archive_path(event, name)
    if path is None:
        raise Http404("No such archive.")
    return FileResponse(
        default_storage.open(path, "rb"),
        as_attachment=True,
        filename=f"{event.slug}-{name}",
        content_type="application/json",
    )


@login_required
def event_archive_stored(request: HttpRequest, slug: str, name: str) -> FileResponse:
    return stored_archive_response(_organiser_event(request, slug), name)


@login_required
def event_export_csv(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    event = _organiser_event(request, slug)
    if kind not in CSV_EXPORTS:
        raise Http404("No such export.")
    try:
        text = CSV_EXPORTS[kind](event, round_param(request.GET.get("round")))
    except ServiceError as exc:
        return render(
            request,
            "tournaments/archive.html",
            {
                "event": event,
                "stored": stored_archives(event),
                "rounds": list(event.rounds.order_by("number").values_list("number", flat=True)),
                "error": exc.message,
            },
            status=exc.status_code,
        )
    return csv_response(text, f"{event.slug}-{kind}.csv")
