"""Pages of the decks app: card imports, "check my deck", decklist submission, deck pages,
the event's decklists overview and deck checks. Each change calls the same service as the API;
who may see a page is decided by `tournaments.permissions` and `decks.services`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import Forbidden, ServiceError
from config.pages import attempt, int_or_none, next_or
from decks import charts, selectors, services
from decks.forms import (
    CardImportForm,
    DeckCheckCreateForm,
    DeckCheckRecordForm,
    DecklistCheckForm,
    DecklistSubmitForm,
    format_label,
    game_switch_data,
)
from decks.models import (
    Card,
    CardImport,
    DeckCheck,
    DeckCheckResult,
    Decklist,
    DecklistVersion,
)
from engine.games import GAMES, ChartSeries, DeckSection, Text, default_game, get_game
from organisations.models import Organisation
from tournaments import permissions as perms
from tournaments import selectors as tournament_selectors
from tournaments.models import Registration, RegistrationStatus, Tournament
from tournaments.selectors import event_visible, visible_event

MAX_NUMBERED_LINES = 2_000
WIDE_CHART_BARS = 12  # more bars than this: the chart takes a full row (and may scroll)


def _refuse(request: HttpRequest) -> HttpResponse:
    """Anonymous people are sent to log in; a logged-in person without the right gets 403."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied


def _event_format(tournament: Tournament) -> Any:
    """The event's format, or None when its custom parameters no longer read (the page then
    shows the list without format-dependent marks instead of failing)."""
    try:
        return services.event_format(tournament)
    except ServiceError:
        return None


def _player_code(registration: Registration) -> str:
    return registration.player.player_id if registration.player_id else ""


# --- the list, grouped --------------------------------------------------------------------


def _t(text: Text | None) -> str:
    """An engine message in the reader's language."""
    return text.render(_) if text is not None else ""


def _card_details(
    event: Tournament, data_list: Iterable[Mapping[str, Any]]
) -> dict[str, dict[str, Any]]:
    """The catalog fields the game's sections show beside some lists' cards, in one query."""
    rules = get_game(event.game).deck_rules()
    ids: set[str] = set()
    for data in data_list:
        ids.update(rules.detail_ids(data))
    if not ids or not rules.detail_fields:
        return {}
    rows = (
        selectors.event_cards(event)
        .filter(external_id__in=ids)
        .values("external_id", *rules.detail_fields)
    )
    return {row["external_id"]: row for row in rows}


def _sections(
    game: str, data: Mapping[str, Any], details: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The stored list as the game's sections, ready for templates/decks/_list.html."""
    return section_rows(get_game(game).deck_rules().sections(data, details))


def section_rows(sections: Iterable[DeckSection]) -> list[dict[str, Any]]:
    return [
        {
            "key": section.key,
            "title": _t(section.title),
            "total": section.total,
            "columns": [
                {"title": _t(column.title), "numeric": column.numeric} for column in section.columns
            ],
            "entries": [
                {
                    "count": entry.count,
                    "name": entry.name,
                    "printing": entry.printing,
                    "cells": [
                        {"value": value, "numeric": column.numeric}
                        for column, value in zip(section.columns, entry.values, strict=False)
                    ],
                }
                for entry in section.entries
            ],
        }
        for section in sections
    ]


# --- charts -------------------------------------------------------------------------------


def deck_charts(
    game: str, statistics: Mapping[str, Any], fmt: Any, prefix: str = "chart"
) -> list[dict[str, Any]]:
    """The game's deck charts (with their hidden tables) from stored statistics."""
    rules = get_game(game).deck_rules()
    return [_draw(series, prefix) for series in rules.charts(statistics or {}, fmt)]


def _cell(value: Text | str | int) -> object:
    return _t(value) if isinstance(value, Text) else value


def _draw(series: ChartSeries, prefix: str) -> dict[str, Any]:
    chart_id = f"{prefix}-{series.id_suffix}"
    title = _t(series.title)
    desc = " ".join(_t(part) for part in series.description)
    empty = _t(series.empty_text) if series.empty_text is not None else _("No data")
    if series.kind == "bar":
        svg = charts.bar_chart(
            chart_id=chart_id,
            title=title,
            desc=desc,
            bars=series.bars,
            cap=series.cap,
            cap_label=_t(series.cap_label),
            x_label=_t(series.x_label),
            empty_text=empty,
        )
    elif series.kind == "hbar":
        svg = charts.hbar_chart(
            chart_id=chart_id, title=title, desc=desc, bars=series.bars, empty_text=empty
        )
    else:
        svg = charts.meter(
            chart_id=chart_id,
            title=title,
            desc=desc,
            value=series.value,
            cap=series.cap,
            value_label=_t(series.value_label),
            cap_label=_t(series.cap_label),
        )
    table = charts.data_table(
        caption=title,
        headers=(_t(series.table_headers[0]), _t(series.table_headers[1])),
        rows=[(_cell(a), _cell(b)) for a, b in series.table_rows],
    )
    return _chart(
        chart_id,
        title,
        svg,
        table,
        " ".join(_t(part) for part in series.note),
        bars=len(series.bars) if series.kind == "bar" else 0,
    )


def _chart(
    chart_id: str, heading: str, svg: str, table: str, note: str, *, bars: int = 0
) -> dict[str, Any]:
    # Both strings are built by decks.charts, which escapes every label it is given.
    return {
        "id": chart_id,
        "heading": heading,
        "svg": mark_safe(svg),
        "table": mark_safe(table),
        "note": note,
        "wide": bars > WIDE_CHART_BARS,
    }


# --- report helpers -----------------------------------------------------------------------


def _numbered_lines(text: str, report: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The pasted list with line numbers, the lines the report names marked."""
    flagged: dict[int, str] = {}
    for item in (report or {}).get("violations", []):
        if isinstance(item.get("line"), int):
            flagged.setdefault(item["line"], "error")
    for item in (report or {}).get("warnings", []):
        if isinstance(item.get("line"), int):
            flagged.setdefault(item["line"], "warning")
    lines = text.splitlines()[:MAX_NUMBERED_LINES]
    return [
        {"number": n, "text": line, "flag": flagged.get(n, "")}
        for n, line in enumerate(lines, start=1)
    ]


# --- card imports -------------------------------------------------------------------------


@login_required
def card_import_upload(request: HttpRequest) -> HttpResponse:
    catalogs = [c for c in selectors.catalog_list() if services.can_import_into(request.user, c)]
    if not perms.can_create_events(request.user) and not catalogs:
        raise PermissionDenied  # an organisation's organiser may import into its catalogs
    site_wide = services.can_manage_shared_catalogs(request.user)
    form = CardImportForm(
        request.POST or None,
        request.FILES or None,
        initial={"game": request.GET.get("game") or default_game()},
        catalogs=catalogs,
        default_label=_("The official catalog") if site_wide else _("My own catalog"),
    )
    if request.method == "POST" and form.is_valid():
        uploads = form.cleaned_data["files"]
        size = sum(f.size or 0 for f in uploads)
        if size > services.MAX_IMPORT_BYTES:
            form.add_error(
                "files",
                _("%(size)s MB is over the %(limit)s MB limit.")
                % {
                    "size": size // 1024 // 1024,
                    "limit": services.MAX_IMPORT_BYTES // 1024 // 1024,
                },
            )
        else:
            files = [(f.name, f.read()) for f in uploads]
            try:
                card_import = services.card_import_start(
                    actor=request.user,
                    game=form.cleaned_data["game"],
                    files=files,
                    catalog=form.cleaned_data["catalog"] or None,
                )
            except Forbidden as exc:
                raise PermissionDenied(exc.message) from None
            except ServiceError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                messages.success(request, _("Upload received: the import is running."))
                return redirect("decks:card_import_detail", pk=card_import.pk)
    imports = selectors.card_imports_for(request.user)[:10]
    return render(request, "decks/card_import_upload.html", {"form": form, "imports": imports})


@login_required
def card_import_detail(request: HttpRequest, pk: int) -> HttpResponse:
    if not perms.can_create_events(request.user):
        raise PermissionDenied
    # Only the importer (and site administrators) see an import; anyone else gets a 404.
    card_import = get_object_or_404(selectors.card_imports_for(request.user), pk=pk)
    running = card_import.status in (CardImport.Status.PENDING, CardImport.Status.RUNNING)
    context = {
        "card_import": card_import,
        "running": running,
        "catalog_size": Card.objects.filter(catalog=card_import.catalog_id).count()
        if card_import.catalog_id
        else 0,
    }
    return render(request, "decks/card_import_detail.html", context)


# --- card search --------------------------------------------------------------------------

CARD_PAGE_SIZE = 50
MAX_CARD_PAGE = 2_000
# The card's identity columns: shown first (name, kind, set, number), not again among the
# game's own fields.
_IDENTITY_FIELDS = ("id", "name", "set", "card_number")
_PAGE_PARAMS = ("catalog", "event", "page")


def card_search(request: HttpRequest) -> HttpResponse:
    """Search a game's cards by name, type, set, power and rules text; open to everyone.

    The game's default card list, or `?catalog=` / `?event=` for another; the filters are the
    cards API's (`decks.selectors.card_query` and `search_cards`), so a search here is the same
    URL query as `GET /api/cards/`."""
    params = dict(request.GET.lists())
    event_slug = request.GET.get("event", "").strip()
    event = event_visible(user=request.user, slug=event_slug) if event_slug else None
    asked = request.GET.get("game", "").strip()
    game = event.game if event is not None else (asked if asked in GAMES else default_game())
    rules = get_game(game).deck_rules()
    problem: ServiceError | None = None
    catalog = None
    try:
        if event_slug and event is None:
            raise ServiceError(
                _("event: no event %(slug)r.") % {"slug": event_slug[:80]}, field="event"
            )
        catalog = services.read_catalog(
            game=game, slug=request.GET.get("catalog", "").strip() or None, event=event
        )
        query = selectors.card_query(params, also=_PAGE_PARAMS)
    except ServiceError as exc:
        problem, query = exc, selectors.CardQuery()
    query = replace(query, game=game)
    pool = Card.objects.filter(catalog=catalog) if catalog is not None else Card.objects.none()
    cards = pool.none()
    if problem is None:
        try:
            cards = selectors.search_cards(pool, query)
        except ServiceError as exc:
            problem = exc
    number = int_or_none(request.GET.get("page")) or 1
    page = Paginator(cards, CARD_PAGE_SIZE).get_page(min(max(number, 1), MAX_CARD_PAGE))
    shown = [f for f in rules.card_fields if f not in _IDENTITY_FIELDS and f != rules.kind_field]
    keep = {k: v for k, v in request.GET.items() if k != "page" and v.strip()}
    context = {
        "game": get_game(game),
        "games": list(GAMES.values()),
        "catalog": catalog,
        "event": event,
        "query": query,
        "problem": problem,
        "kinds": selectors.card_choices(pool, "kind"),
        "sets": selectors.card_choices(pool, "set_name"),
        "has_power": "power" in rules.card_fields,
        "has_text": bool(selectors.card_text_fields(game)),
        "columns": [{"name": f, "title": f.replace("_", " ").capitalize()} for f in shown],
        "page": page,
        "rows": [_card_row(card, shown) for card in page.object_list],
        "keep_query": urlencode(keep),
        "api_query": urlencode(keep if event is not None else {"game": game, **keep}),
    }
    return render(request, "decks/card_search.html", context, status=400 if problem else 200)


def _card_row(card: Card, fields: Iterable[str]) -> dict[str, Any]:
    columns = {f.name for f in Card._meta.concrete_fields}
    return {
        "card": card,
        "values": [
            getattr(card, name) if name in columns else card.attributes.get(name) for name in fields
        ],
    }


# --- check my deck ------------------------------------------------------------------------


def decklist_check(request: HttpRequest) -> HttpResponse:
    """Validate a pasted list against a format without saving anything; open to everyone.
    The game's official card list by default; `?game=`, `?catalog=` or `?event=` choose
    another game, card list or an event's list and format."""
    event_slug = request.GET.get("event", "")
    event = event_visible(user=request.user, slug=event_slug) if event_slug else None
    asked = request.GET.get("game", "")
    game = event.game if event is not None else (asked if asked in GAMES else default_game())
    choices = [c for g in GAMES for c in selectors.catalogs_for_choice(g)]
    initial: dict[str, Any] = {"game": game, "catalog": request.GET.get("catalog", "")}
    if event is not None:
        chosen = selectors.event_catalog(event)
        initial.update(catalog=chosen.slug if chosen else "", format=event.format_key)
        if chosen is not None and chosen not in choices:
            choices.append(chosen)
    form = DecklistCheckForm(request.POST or None, initial=initial, catalogs=choices)
    result = None
    lines: list[dict[str, Any]] = []
    fmt = None
    if request.method == "POST" and form.is_valid():
        game = form.cleaned_data["game"]
        text = form.cleaned_data["decklist"]
        if form.switched_from:
            messages.info(
                request,
                _(
                    "%(game)s has no format “%(old)s”: the list was checked against its "
                    "default format, %(new)s."
                )
                % {
                    "game": get_game(game).name,
                    "old": format_label(form.switched_from),
                    "new": format_label(form.cleaned_data["format"]),
                },
            )
        try:
            result = services.decklist_check(
                game=game,
                format_key=form.cleaned_data["format"],
                source=text,
                catalog=form.cleaned_data["catalog"] or None,
            )
            fmt = get_game(game).deck_rules().resolve_format(form.cleaned_data["format"])
        except ServiceError as exc:
            messages.error(request, exc.message)
            if exc.code == "too_large":
                form = DecklistCheckForm(
                    initial={
                        "game": game,
                        "format": form.cleaned_data["format"],
                        "catalog": form.cleaned_data["catalog"],
                    },
                    catalogs=choices,
                )
        else:
            lines = _numbered_lines(text, result.report_json())
    elif request.method == "POST" and form.data.get("game") in GAMES:
        game = form.data["game"]
    context = {
        "form": form,
        "result": result,
        "report": result.report_json() if result else None,
        "lines": lines,
        "charts": deck_charts(game, result.statistics, fmt, "check") if result else [],
        "format_name": getattr(fmt, "name", ""),
        "game_name": get_game(game).name,
        "rules": get_game(game).deck_rules().rules,
        "game_switch": game_switch_data(),
    }
    return render(request, "decks/check.html", context)


# --- decklist submission ------------------------------------------------------------------


@login_required
def my_decklist(request: HttpRequest, slug: str) -> HttpResponse:
    """The current person's own decklist page for an event."""
    event = visible_event(request, slug)
    registration = tournament_selectors.registration_for(user=request.user, tournament=event)
    if registration is None:
        messages.info(request, _("You are not registered for this event."))
        return redirect(event.get_absolute_url())
    return redirect("decks:registration_decklist", pk=registration.pk)


@login_required
def registration_decklist(request: HttpRequest, pk: int) -> HttpResponse:
    """A registration's decklist: submit (the player, or an organiser for them), lock state,
    report of the active version and the version history."""
    registration = selectors.registration_get(pk)
    if registration is None:
        raise Http404("No such registration.")
    event = registration.tournament
    if not perms.can_view_registration(request.user, registration):
        raise PermissionDenied
    is_organiser = perms.is_organiser_of(request.user, event)
    is_own = perms.is_own_registration(request.user, registration)
    versions = list(selectors.decklist_versions(registration))
    active = versions[0] if versions else None
    decklist = Decklist.objects.filter(registration=registration).first()
    unlocked = bool(decklist and decklist.unlocked)
    lock = services.decklist_lock_reason(event)
    registered = registration.status == RegistrationStatus.REGISTERED
    can_submit = (is_organiser or is_own) and registered and (not lock or unlocked or is_organiser)

    form = DecklistSubmitForm(initial={"decklist": active.text if active else ""}, game=event.game)
    refused_report = None
    lines: list[dict[str, Any]] = []
    if request.method == "POST":
        form = DecklistSubmitForm(request.POST, game=event.game)
        if form.is_valid():
            text = form.cleaned_data["decklist"]
            try:
                version = services.decklist_submit(
                    actor=request.user, registration=registration, source=text
                )
            except services.DecklistUnreadable as exc:
                refused_report = exc.report
                lines = _numbered_lines(text, refused_report)
                messages.error(
                    request,
                    _(
                        "The list could not be read, so nothing was saved. Fix the lines the "
                        "report names and submit again."
                    ),
                )
            except Forbidden as exc:
                raise PermissionDenied(exc.message) from None
            except ServiceError as exc:
                messages.error(request, exc.message)
                if exc.code == "too_large":
                    form = DecklistSubmitForm(
                        initial={"decklist": active.text if active else ""}, game=event.game
                    )
            else:
                if version.legal:
                    messages.success(
                        request,
                        _("Version %(n)s saved: the list is legal.") % {"n": version.number},
                    )
                else:
                    messages.warning(
                        request,
                        _(
                            "Version %(n)s saved, but the list is not legal in this format: "
                            "the report below says what to fix."
                        )
                        % {"n": version.number},
                    )
                return redirect("decks:registration_decklist", pk=registration.pk)
    context = {
        "event": event,
        "registration": registration,
        "player_code": _player_code(registration),
        "form": form,
        "active": active,
        "versions": versions,
        "lock": lock,
        "unlocked": unlocked,
        "registered": registered,
        "can_submit": can_submit,
        "is_organiser": is_organiser,
        "is_own": is_own,
        "refused_report": refused_report,
        "format_name": event.format_label,
        "lines": lines,
        "rules": get_game(event.game).deck_rules().rules,
    }
    return render(request, "decks/registration_decklist.html", context)


@require_POST
@login_required
def decklist_unlock(request: HttpRequest, pk: int) -> HttpResponse:
    registration = get_object_or_404(Registration.objects.select_related("tournament"), pk=pk)
    unlocked = request.POST.get("unlocked", "1") == "1"
    attempt(
        request,
        lambda: services.decklist_unlock(
            actor=request.user, registration=registration, unlocked=unlocked
        ),
        _("%(name)s may change their list again.") % {"name": registration.name}
        if unlocked
        else _("%(name)s's list is locked again.") % {"name": registration.name},
    )
    fallback = reverse("decks:event_decklists", kwargs={"slug": registration.tournament.slug})
    return redirect(next_or(request, fallback))


# --- the deck page ------------------------------------------------------------------------


def decklist_version(request: HttpRequest, pk: int) -> HttpResponse:
    """One version of a list: grouped and sorted, with charts; printable as a registration
    sheet. The player, the event's staff, or everyone once the lists are published."""
    version = get_object_or_404(selectors.decklist_version_list(), pk=pk)
    registration = version.decklist.registration
    event = registration.tournament
    if not services.can_view_decklist(request.user, registration):
        return _refuse(request)
    fmt = _event_format(event)
    latest = (
        DecklistVersion.objects.filter(decklist=version.decklist)
        .order_by("-number")
        .values_list("pk", "number")
        .first()
    )
    context = {
        "event": event,
        "registration": registration,
        "player_code": _player_code(registration),
        "version": version,
        "latest": latest,
        "is_latest": latest is None or latest[0] == version.pk,
        "sections": _sections(event.game, version.data, _card_details(event, [version.data])),
        "charts": deck_charts(event.game, version.statistics, fmt, f"deck{version.pk}"),
        "report": version.report,
        "format_name": getattr(fmt, "name", event.format_label),
        "may_manage": perms.can_view_registration(request.user, registration),
        "rules": get_game(event.game).deck_rules().rules,
    }
    return render(request, "decks/decklist_version.html", context)


# --- the event's decklists ----------------------------------------------------------------


def event_decklists(request: HttpRequest, slug: str) -> HttpResponse:
    """Every registered player's list status for the staff; public once published."""
    event = visible_event(request, slug)
    is_staff = perms.is_staff_of(request.user, event)
    whole = event.decklists_published_at is not None
    one_by_one = services.published_one_by_one(event)
    if not (is_staff or whole or one_by_one):
        return _refuse(request)
    is_organiser = perms.is_organiser_of(request.user, event)
    registrations = selectors.registered_players(event).order_by(
        "player__display_name", "walk_in_name", "pk"
    )
    unlocked = selectors.unlocked_decklists(event)
    latest = services.latest_versions(event)
    rows = []
    counts = {"none": 0, "legal": 0, "illegal": 0}
    for r in registrations:
        if not (is_staff or whole or r.pk in one_by_one):
            continue  # only the top decklists are public
        version = latest.get(r.pk)
        state = "none" if version is None else ("legal" if version.legal else "illegal")
        counts[state] += 1
        rows.append(
            {
                "registration": r,
                "player_code": _player_code(r),
                "version": version,
                "state": state,
                "unlocked": r.pk in unlocked,
                "published": whole or r.pk in one_by_one,
            }
        )
    context = {
        "event": event,
        "rows": rows,
        "counts": counts,
        "is_staff": is_staff,
        "is_organiser": is_organiser,
        "catalog": selectors.event_catalog(event) if is_staff else None,
        "catalog_chosen": is_staff and selectors.event_catalog_chosen(event),
        "catalog_choices": selectors.catalogs_for_choice(event.game, request.user)
        if is_organiser
        else [],
        "lock": services.decklist_lock_reason(event),
        "finished": event.status == "finished",
    }
    return render(request, "decks/event_decklists.html", context)


@require_POST
@login_required
def event_decklists_publish(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    published = request.POST.get("published", "1") == "1"
    attempt(
        request,
        lambda: services.decklists_publish(
            actor=request.user, tournament=event, published=published
        ),
        _("The decklists are public.") if published else _("The decklists are private again."),
    )
    return redirect("decks:event_decklists", slug=event.slug)


@require_POST
@login_required
def event_catalog(request: HttpRequest, slug: str) -> HttpResponse:
    """An organiser chooses the card list the event's decklists read (the same service as the
    API's POST /api/events/{slug}/catalog/)."""
    event = visible_event(request, slug)
    catalog = selectors.catalog_by_slug(request.POST.get("catalog", "")[:80])
    if catalog is None:
        if not perms.is_organiser_of(request.user, event):
            raise PermissionDenied
        messages.error(request, _("Card list: choose one of the lists offered."))
    else:
        attempt(
            request,
            lambda: services.event_catalog_set(
                actor=request.user, tournament=event, catalog=catalog
            ),
            _("The event's lists are now read against %(name)s.") % {"name": catalog.name},
        )
    return redirect("decks:event_decklists", slug=event.slug)


# --- deck checks --------------------------------------------------------------------------


@login_required
def event_deck_checks(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    if not perms.is_staff_of(request.user, event):
        raise PermissionDenied
    form = DeckCheckCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            deck_check = services.deck_check_create(
                actor=request.user,
                tournament=event,
                round_number=form.cleaned_data["round_number"],
                count=form.cleaned_data["count"],
                seed=form.cleaned_data["seed"],
            )
        except Forbidden as exc:
            raise PermissionDenied(exc.message) from None
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(
                request,
                _("%(n)s players picked for a deck check.") % {"n": deck_check.results.count()},
            )
            return redirect("decks:deck_check_detail", pk=deck_check.pk)
    checks = selectors.deck_check_list(event)
    return render(
        request, "decks/event_deck_checks.html", {"event": event, "form": form, "checks": checks}
    )


@login_required
def deck_check_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The printable sheet of a deck check, with a form per player to record the outcome."""
    deck_check = get_object_or_404(
        DeckCheck.objects.select_related("tournament", "created_by"), pk=pk
    )
    event = deck_check.tournament
    if not perms.is_staff_of(request.user, event):
        raise PermissionDenied
    results = list(
        deck_check.results.select_related("registration__player", "version", "checked_by")
    )
    details = _card_details(event, [r.version.data for r in results if r.version])
    rows = []
    for result in results:
        rows.append(
            {
                "result": result,
                "player_code": _player_code(result.registration),
                "sections": _sections(event.game, result.version.data, details)
                if result.version
                else [],
                "form": DeckCheckRecordForm(
                    prefix=f"result-{result.pk}",
                    initial={
                        "outcome": result.outcome,
                        "notes": result.notes,
                        "penalty_reference": result.penalty_reference,
                    },
                ),
            }
        )
    context = {"event": event, "deck_check": deck_check, "rows": rows}
    return render(request, "decks/deck_check_detail.html", context)


@require_POST
@login_required
def deck_check_record(request: HttpRequest, pk: int, result_pk: int) -> HttpResponse:
    result = get_object_or_404(
        DeckCheckResult.objects.select_related("registration__player"),
        pk=result_pk,
        deck_check_id=pk,
    )
    form = DeckCheckRecordForm(request.POST, prefix=f"result-{result.pk}")
    if not form.is_valid():
        if not perms.is_staff_of(request.user, get_object_or_404(DeckCheck, pk=pk).tournament):
            raise PermissionDenied
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            messages.error(request, f"{label}: {errors[0]}" if label else errors[0])
    else:
        attempt(
            request,
            lambda: services.deck_check_record(
                actor=request.user, result=result, **form.cleaned_data
            ),
            _("Deck check of %(name)s recorded.") % {"name": result.registration.name},
        )
    return redirect(reverse("decks:deck_check_detail", kwargs={"pk": pk}) + f"#result-{result.pk}")


@login_required
@require_POST
def organisation_catalog_new(request: HttpRequest, slug: str) -> HttpResponse:
    """The organisation's management page's "new card catalog" form (owners and organisers):
    the same service as POST /api/organisations/{slug}/catalogs/."""
    organisation = get_object_or_404(Organisation, slug=slug)
    back = reverse("organisations:manage", args=[organisation.slug]) + "#catalogs"
    made = attempt(
        request,
        lambda: services.custom_catalog_create(
            actor=request.user,
            game=request.POST.get("game", "").strip(),
            name=request.POST.get("name", "")[:200],
            organisation=organisation,
        ),
        _("The card catalog is made: import its cards from the card import page."),
    )
    return redirect(back if not made else reverse("decks:card_import_upload"))
