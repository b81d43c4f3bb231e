"""Pages of the decks app: card imports, "check my deck", decklist submission, deck pages,
the event's decklists overview and deck checks. Each change calls the same service as the API;
who may see a page is decided by `tournaments.permissions` and `decks.services`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import Forbidden, ServiceError
from config.pages import attempt, next_or, visible_event
from decks import charts, selectors, services
from decks.forms import (
    CardImportForm,
    DeckCheckCreateForm,
    DeckCheckRecordForm,
    DecklistCheckForm,
    DecklistSubmitForm,
)
from decks.models import (
    Card,
    CardImport,
    Catalog,
    DeckCheck,
    DeckCheckResult,
    Decklist,
    DecklistVersion,
    EventCatalog,
)
from engine.games import get_game
from tournaments import permissions as perms
from tournaments import services as tournament_services
from tournaments.models import Registration, RegistrationStatus, Tournament

CHECK_GAME = "boba"
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


def _section_titles() -> list[tuple[str, str]]:
    return [
        ("heroes", _("Heroes")),
        ("playbook", _("Playbook")),
        ("bonus_plays", _("Bonus Plays")),
        ("hot_dogs", _("Hot Dogs")),
    ]


def _card_details(
    event: Tournament, data_list: Iterable[Mapping[str, Any]]
) -> dict[str, dict[str, Any]]:
    """Cost and DBS of the Plays named in some lists (from the event's catalog), in one query."""
    ids: set[str] = set()
    for data in data_list:
        for key in ("playbook", "bonus_plays"):
            ids.update(str(item.get("id")) for item in data.get(key, []) if isinstance(item, dict))
    if not ids:
        return {}
    rows = (
        selectors.event_cards(event)
        .filter(external_id__in=ids)
        .values("external_id", "cost", "dbs")
    )
    return {row["external_id"]: row for row in rows}


def _sections(data: Mapping[str, Any], details: Mapping[str, Mapping[str, Any]]) -> list[dict]:
    """The stored list as sections in game order, Heroes by Power (highest first) then name,
    other sections by name."""
    out = []
    for key, title in _section_titles():
        items = [item for item in data.get(key) or [] if isinstance(item, dict)]
        if not items:
            continue
        if key == "heroes":
            items.sort(key=lambda i: (-(i.get("power") or 0), str(i.get("name")), i.get("weapon")))
        else:
            items.sort(key=lambda i: str(i.get("name")).casefold())
        entries = []
        for item in items:
            extra = details.get(str(item.get("id")), {})
            printing = ""
            if item.get("set") and item.get("card_number"):
                printing = f"{item['set']} #{item['card_number']}"
            entries.append(
                {
                    "count": item.get("count", 1),
                    "name": item.get("name", ""),
                    "weapon": item.get("weapon"),
                    "power": item.get("power"),
                    "cost": extra.get("cost"),
                    "dbs": extra.get("dbs"),
                    "printing": printing,
                }
            )
        out.append(
            {
                "key": key,
                "title": title,
                "total": sum(int(e["count"] or 0) for e in entries),
                "entries": entries,
                "plays": key in ("playbook", "bonus_plays"),
                "heroes": key == "heroes",
            }
        )
    return out


# --- charts -------------------------------------------------------------------------------


def _int_keyed(counts: Mapping[str, Any] | None) -> list[tuple[str, int]]:
    rows = []
    for key, value in (counts or {}).items():
        try:
            rows.append((int(key), int(value)))
        except (TypeError, ValueError):
            continue
    return [(str(k), v) for k, v in sorted(rows)]


def deck_charts(statistics: Mapping[str, Any], fmt: Any, prefix: str = "chart") -> list[dict]:
    """The deck page's four pictures (with their hidden tables) from stored statistics."""
    stats = statistics or {}
    power_cap = getattr(fmt, "max_heroes_per_power", None)
    dbs_cap = getattr(fmt, "dbs_cap", None) if fmt is not None else stats.get("dbs_cap")
    out = []

    powers = _int_keyed(stats.get("hero_power_histogram"))
    over = [p for p, n in powers if power_cap is not None and n > power_cap]
    title = _("Heroes per Power value")
    desc = _("%(heroes)s Heroes, average Power %(avg)s.") % {
        "heroes": stats.get("heroes", 0),
        "avg": stats.get("average_hero_power", 0),
    }
    if power_cap is not None:
        desc += " " + _("At most %(cap)s Heroes may share a Power value.") % {"cap": power_cap}
        if over:
            desc += " " + _("Over the limit at Power %(powers)s.") % {"powers": ", ".join(over)}
    out.append(
        _chart(
            f"{prefix}-power",
            title,
            charts.bar_chart(
                chart_id=f"{prefix}-power",
                title=title,
                desc=desc,
                bars=powers,
                cap=power_cap,
                cap_label=_("max %(cap)s per Power") % {"cap": power_cap} if power_cap else "",
                x_label=_("Hero Power"),
                empty_text=_("No Heroes"),
            ),
            charts.data_table(caption=title, headers=(_("Power"), _("Heroes")), rows=powers),
            desc,
            bars=len(powers),
        )
    )

    weapons = sorted(
        ((str(k), int(v)) for k, v in (stats.get("weapon_breakdown") or {}).items()),
        key=lambda kv: (-kv[1], kv[0]),
    )
    title = _("Heroes per weapon type")
    desc = ", ".join(f"{k}: {v}" for k, v in weapons) or _("No Heroes")
    out.append(
        _chart(
            f"{prefix}-weapons",
            title,
            charts.hbar_chart(
                chart_id=f"{prefix}-weapons",
                title=title,
                desc=desc,
                bars=weapons,
                empty_text=_("No Heroes"),
            ),
            charts.data_table(caption=title, headers=(_("Weapon"), _("Heroes")), rows=weapons),
            "",
        )
    )

    curve = _int_keyed(stats.get("play_cost_curve"))
    variable = int(stats.get("plays_with_variable_cost") or 0)
    title = _("Play cost curve")
    desc = _("Plays per Hot Dog cost, Playbook and Bonus Plays.")
    note = ""
    if variable:
        note = _("%(n)s Plays have a variable cost and are not drawn.") % {"n": variable}
        desc += " " + note
    out.append(
        _chart(
            f"{prefix}-cost",
            title,
            charts.bar_chart(
                chart_id=f"{prefix}-cost",
                title=title,
                desc=desc,
                bars=curve,
                x_label=_("Hot Dog cost"),
                empty_text=_("No Plays"),
            ),
            charts.data_table(caption=title, headers=(_("Cost"), _("Plays")), rows=curve),
            note,
            bars=len(curve),
        )
    )

    total = int(stats.get("dbs_total") or 0)
    title = _("Deck Balancing Score")
    if dbs_cap is not None:
        value_label = _("DBS %(total)s of %(cap)s") % {"total": total, "cap": dbs_cap}
        desc = value_label + ("" if total <= dbs_cap else " " + _("Over the cap."))
    else:
        value_label = _("DBS %(total)s (no cap in this format)") % {"total": total}
        desc = value_label
    rows: list[tuple[object, object]] = [(_("Total"), total)]
    if dbs_cap is not None:
        rows.append((_("Cap"), dbs_cap))
    out.append(
        _chart(
            f"{prefix}-dbs",
            title,
            charts.meter(
                chart_id=f"{prefix}-dbs",
                title=title,
                desc=desc,
                value=total,
                cap=dbs_cap,
                value_label=value_label,
                cap_label=_("cap %(cap)s") % {"cap": dbs_cap} if dbs_cap is not None else "",
            ),
            charts.data_table(caption=title, headers=(_("Figure"), _("Value")), rows=rows),
            "",
        )
    )
    return out


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
    if not perms.can_create_events(request.user):
        raise PermissionDenied
    catalogs = [
        c
        for c in Catalog.objects.select_related("owner")
        if services.can_import_into(request.user, c)
    ]
    site_wide = services.can_manage_shared_catalogs(request.user)
    form = CardImportForm(
        request.POST or None,
        request.FILES or None,
        initial={"game": "boba"},
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
    imports = CardImport.objects.defer("payload").select_related("uploaded_by")[:10]
    return render(request, "decks/card_import_upload.html", {"form": form, "imports": imports})


@login_required
def card_import_detail(request: HttpRequest, pk: int) -> HttpResponse:
    if not perms.can_create_events(request.user):
        raise PermissionDenied
    card_import = get_object_or_404(
        CardImport.objects.defer("payload").select_related("uploaded_by"), pk=pk
    )
    running = card_import.status in (CardImport.Status.PENDING, CardImport.Status.RUNNING)
    context = {
        "card_import": card_import,
        "running": running,
        "catalog_size": Card.objects.filter(catalog=card_import.catalog_id).count()
        if card_import.catalog_id
        else 0,
    }
    return render(request, "decks/card_import_detail.html", context)


# --- check my deck ------------------------------------------------------------------------


def decklist_check(request: HttpRequest) -> HttpResponse:
    """Validate a pasted list against a format without saving anything; open to everyone.
    The official card list by default; `?catalog=` or `?event=` chooses another."""
    choices = selectors.catalogs_for_choice(CHECK_GAME)
    event_slug = request.GET.get("event", "")
    event = (
        Tournament.objects.visible_to(request.user).filter(slug=event_slug).first()
        if event_slug
        else None
    )
    initial: dict[str, Any] = {"catalog": request.GET.get("catalog", "")}
    if event is not None and event.game == CHECK_GAME:
        chosen = selectors.event_catalog(event)
        initial = {"catalog": chosen.slug if chosen else "", "format": event.format_key}
        if chosen is not None and chosen not in choices:
            choices.append(chosen)
    form = DecklistCheckForm(request.POST or None, initial=initial, catalogs=choices)
    result = None
    lines: list[dict[str, Any]] = []
    fmt = None
    if request.method == "POST" and form.is_valid():
        text = form.cleaned_data["decklist"]
        try:
            result = services.decklist_check(
                game=CHECK_GAME,
                format_key=form.cleaned_data["format"],
                source=text,
                catalog=form.cleaned_data["catalog"] or None,
            )
            fmt = get_game(CHECK_GAME).deck_rules().resolve_format(form.cleaned_data["format"])
        except ServiceError as exc:
            messages.error(request, exc.message)
            if exc.code == "too_large":
                form = DecklistCheckForm(
                    initial={
                        "format": form.cleaned_data["format"],
                        "catalog": form.cleaned_data["catalog"],
                    },
                    catalogs=choices,
                )
        else:
            lines = _numbered_lines(text, result["report"])
    context = {
        "form": form,
        "result": result,
        "report": result["report"] if result else None,
        "lines": lines,
        "charts": deck_charts(result["statistics"], fmt, "check") if result else [],
        "format_name": getattr(fmt, "name", ""),
        "rules": get_game(CHECK_GAME).deck_rules().rules,
    }
    return render(request, "decks/check.html", context)


# --- decklist submission ------------------------------------------------------------------


@login_required
def my_decklist(request: HttpRequest, slug: str) -> HttpResponse:
    """The current person's own decklist page for an event."""
    event = visible_event(request, slug)
    registration = tournament_services.registration_for(user=request.user, tournament=event)
    if registration is None:
        messages.info(request, _("You are not registered for this event."))
        return redirect(event.get_absolute_url())
    return redirect("decks:registration_decklist", pk=registration.pk)


@login_required
def registration_decklist(request: HttpRequest, pk: int) -> HttpResponse:
    """A registration's decklist: submit (the player, or an organiser for them), lock state,
    report of the active version and the version history."""
    registration = get_object_or_404(
        Registration.objects.select_related("tournament", "player"), pk=pk
    )
    event = registration.tournament
    if not perms.can_view_registration(request.user, registration):
        raise PermissionDenied
    is_organiser = perms.is_organiser_of(request.user, event)
    is_own = perms.is_own_registration(request.user, registration)
    versions = list(
        DecklistVersion.objects.filter(decklist__registration=registration).select_related(
            "submitted_by"
        )
    )
    active = versions[0] if versions else None
    decklist = Decklist.objects.filter(registration=registration).first()
    unlocked = bool(decklist and decklist.unlocked)
    lock = services.decklist_lock_reason(event)
    registered = registration.status == RegistrationStatus.REGISTERED
    can_submit = (is_organiser or is_own) and registered and (not lock or unlocked or is_organiser)

    form = DecklistSubmitForm(initial={"decklist": active.text if active else ""})
    refused_report = None
    lines: list[dict[str, Any]] = []
    if request.method == "POST":
        form = DecklistSubmitForm(request.POST)
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
                    form = DecklistSubmitForm(initial={"decklist": active.text if active else ""})
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
    version = get_object_or_404(
        DecklistVersion.objects.select_related(
            "decklist__registration__tournament", "decklist__registration__player", "submitted_by"
        ),
        pk=pk,
    )
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
        "sections": _sections(version.data, _card_details(event, [version.data])),
        "charts": deck_charts(version.statistics, fmt, f"deck{version.pk}"),
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
    if not (is_staff or event.decklists_published_at):
        return _refuse(request)
    is_organiser = perms.is_organiser_of(request.user, event)
    registrations = (
        event.registrations.filter(status=RegistrationStatus.REGISTERED)
        .select_related("player")
        .order_by("player__display_name", "walk_in_name", "pk")
    )
    unlocked = set(
        Decklist.objects.filter(registration__tournament=event, unlocked=True).values_list(
            "registration_id", flat=True
        )
    )
    latest = services.latest_versions(event)
    rows = []
    counts = {"none": 0, "legal": 0, "illegal": 0}
    for r in registrations:
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
            }
        )
    context = {
        "event": event,
        "rows": rows,
        "counts": counts,
        "is_staff": is_staff,
        "is_organiser": is_organiser,
        "catalog": selectors.event_catalog(event) if is_staff else None,
        "catalog_chosen": is_staff and EventCatalog.objects.filter(tournament=event).exists(),
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
    checks = (
        DeckCheck.objects.filter(tournament=event)
        .select_related("created_by")
        .annotate(
            players=Count("results"),
            problems=Count("results", filter=Q(results__outcome=DeckCheckResult.Outcome.PROBLEM)),
            pending=Count("results", filter=Q(results__outcome=DeckCheckResult.Outcome.PENDING)),
        )
    )
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
                "sections": _sections(result.version.data, details) if result.version else [],
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
