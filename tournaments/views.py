"""Pages for events and registrations. Each action calls the same service as the API."""

from __future__ import annotations

import hashlib
import zoneinfo
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.player_ids import normalise_player_id
from config import shared_copies
from config.errors import Forbidden, ServiceError
from config.pages import attempt, int_or_none, next_or
from tournaments import capacity, event_page, extensions, roster_import, selectors, services
from tournaments import permissions as perms
from tournaments.audit import EVENT_COPIES
from tournaments.event_page import check_in_qr  # noqa: F401  (its old import path)
from tournaments.forms import (
    ClaimForm,
    EventForm,
    JudgeForm,
    RosterImportForm,
    WalkInForm,
    game_switch_data,
)
from tournaments.models import FeeStatus, Registration, RegistrationStatus, Tournament
from tournaments.selectors import event_facts, visible_event
from tournaments.status import (
    LABELS,
    EventStatus,
    allowed_transitions,
    players_refusal,
    top_cut_refusal,
    transition_offers,
    transition_refusal,
)


def home(request: HttpRequest) -> HttpResponse:
    events = Tournament.objects.visible_to(request.user).annotate(
        registered_count=Count("registrations", filter=Q(registrations__status="registered"))
    )
    running = events.filter(status__in=[EventStatus.RUNNING, EventStatus.TOP_CUT])
    upcoming = events.filter(
        status__in=[
            EventStatus.REGISTRATION_OPEN,
            EventStatus.REGISTRATION_CLOSED,
            EventStatus.DRAFT,
        ]
    )
    return render(request, "tournaments/home.html", {"running": running, "upcoming": upcoming})


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    # A stored copy with the reader's own part put in (tournaments/event_page.py).
    return event_page.event_page(request, slug)


@require_POST
@login_required
def event_register(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)

    def register() -> None:
        registration = services.registration_register(actor=request.user, tournament=event)
        if registration.status == RegistrationStatus.WAITLISTED:
            messages.info(request, _("The event is full: you are on the waitlist."))

    attempt(request, register, _("You are registered."))
    return redirect("event_detail", slug=slug)


@require_POST
@login_required
def registration_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    registration = _own_or_managed_registration(request, pk)
    attempt(
        request,
        lambda: services.registration_withdraw(actor=request.user, registration=registration),
        _("Registration withdrawn."),
    )
    return redirect(next_or(request, registration.tournament.get_absolute_url()))


@require_POST
@login_required
def registration_check_in(request: HttpRequest, pk: int) -> HttpResponse:
    registration = _own_or_managed_registration(request, pk)
    checked_in = request.POST.get("checked_in", "1") == "1"
    attempt(
        request,
        lambda: services.registration_check_in(
            actor=request.user, registration=registration, checked_in=checked_in
        ),
        _("%(name)s checked in.") % {"name": registration.name}
        if checked_in
        else _("%(name)s is no longer checked in.") % {"name": registration.name},
    )
    return redirect(next_or(request, registration.tournament.get_absolute_url()))


@require_POST
@login_required
def registration_drop(request: HttpRequest, pk: int) -> HttpResponse:
    registration = _own_or_managed_registration(request, pk)
    attempt(
        request,
        lambda: services.registration_drop(actor=request.user, registration=registration),
        _("%(name)s dropped.") % {"name": registration.name},
    )
    return redirect(next_or(request, registration.tournament.get_absolute_url()))


@require_POST
@login_required
def registration_manage(request: HttpRequest, pk: int, operation: str) -> HttpResponse:
    """Organiser-only operations on one registration from the dashboard."""
    registration = _own_or_managed_registration(request, pk)
    confirm = request.POST.get("confirm") == "yes"
    if operation == "remove" and not confirm:
        if not perms.is_organiser_of(request.user, registration.tournament):
            raise PermissionDenied
        return _confirm_page(
            request,
            registration.tournament,
            title=_("Remove %(name)s?") % {"name": registration.name},
            consequences=services.remove_consequences(registration),
            hidden=[],
            checkbox_label=_("Yes, remove %(name)s.") % {"name": registration.name},
            button_label=_("Remove %(name)s") % {"name": registration.name},
            action=request.path,
        )
    operations: dict[str, tuple[Callable[[], Any], str]] = {
        "remove": (
            lambda: services.registration_remove(
                actor=request.user, registration=registration, confirm=confirm
            ),
            _("Registration removed."),
        ),
        "reactivate": (
            lambda: services.registration_reactivate(actor=request.user, registration=registration),
            _("Registration reactivated."),
        ),
        "reinstate": (
            lambda: services.registration_reinstate(actor=request.user, registration=registration),
            _("Player reinstated."),
        ),
    }
    if operation not in operations:
        raise Http404
    action, success = operations[operation]
    attempt(request, action, success)
    return redirect("event_dashboard", slug=registration.tournament.slug)


def _own_or_managed_registration(request: HttpRequest, pk: int) -> Registration:
    registration = get_object_or_404(
        Registration.objects.select_related("tournament", "player"), pk=pk
    )
    if not perms.can_view_registration(request.user, registration):
        raise PermissionDenied
    return registration


@login_required
def registration_claim(request: HttpRequest) -> HttpResponse:
    form = ClaimForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            registration = services.registration_claim(
                actor=request.user, claim_code=form.cleaned_data["claim_code"]
            )
        except ServiceError as exc:
            form.add_error("claim_code", exc.message)
        else:
            messages.success(request, _("Registration claimed."))
            return redirect(registration.tournament.get_absolute_url())
    return render(request, "tournaments/claim.html", {"form": form})


@login_required
def event_dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    if not perms.is_staff_of(request.user, event):
        raise PermissionDenied
    query = request.GET.get("q", "").strip()
    status_filter = request.GET.get("status", "")
    registrations = event.registrations.select_related("player").order_by(
        "status", "queued_at", "player__display_name", "walk_in_name"
    )
    if query:
        registrations = registrations.filter(
            Q(player__display_name__icontains=query)
            | Q(player__username__icontains=query)
            | Q(player__player_id__icontains=query)
            | Q(walk_in_name__icontains=query)
        )
    if status_filter in RegistrationStatus.values:
        registrations = registrations.filter(status=status_filter)
    is_organiser = perms.is_organiser_of(request.user, event)
    can_check_in = perms.can_run_check_in(request.user, event)
    page_number = min(max(int_or_none(request.GET.get("page")) or 1, 1), 10_000)
    keep = urlencode({k: v for k, v in (("q", query), ("status", status_filter)) if v})
    here = reverse("event_dashboard", args=[event.slug]) + (f"?{keep}" if keep else "")
    if page_number > 1:
        here += ("&" if keep else "?") + f"page={page_number}"
    role = "organiser" if is_organiser else "check-in" if can_check_in else "staff"

    def render_players() -> dict[str, Any]:
        page = Paginator(registrations, DASHBOARD_PAGE_SIZE).get_page(page_number)
        html = render_to_string(
            "tournaments/_dashboard_players.html",
            {
                "event": event,
                "registrations": page.object_list,
                "page": page,
                "keep_query": keep,
                "here": here,
                "is_organiser": is_organiser,
                "can_check_in": can_check_in,
                "csrf_token": shared_copies.CSRF_PLACEHOLDER,
            },
        )
        return {"html": html}

    # During check-in twenty people may watch this list while it changes several times a
    # second: one rendered copy per change of the event, shared (config.shared_copies).
    digest = hashlib.sha256(f"{query}\n{status_filter}".encode()).hexdigest()[:16]
    players = shared_copies.shared_copy(
        key=f"dashboard-players:{get_language()}:{event.pk}:{event.status}:{role}:{digest}:"
        f"{page_number}",
        kind=EVENT_COPIES,
        object_ids=[event.pk],
        user_id=request.user.pk,
        render=render_players,
        grace=settings.DASHBOARD_MAX_STALE_SECONDS,
        ttl=60,
    )
    context = {
        "event": event,
        "players_html": mark_safe(shared_copies.personal(request, players["html"])),
        "can_check_in": can_check_in,
        "query": query,
        "status_filter": status_filter,
        "status_choices": RegistrationStatus.choices,
        "counts": selectors.registration_counts(event),
        "is_organiser": is_organiser,
        "transition_values": [s.value for s in allowed_transitions(event.status)],
        **_offers_context(event),
        "status_label": LABELS[event.status_enum],
        "walk_in_form": WalkInForm(),
        "judge_form": JudgeForm(),
        "audit": event.audit_entries.select_related("actor", "registration__player")[:30],
        "stages": selectors.stage_timeline(event),
        "extra_sections": [
            mark_safe(html) for html in extensions.dashboard_sections(request, event)
        ],
    }
    if event.status in (EventStatus.RUNNING, EventStatus.TOP_CUT):
        context.update(extensions.rounds_pages().dashboard_panel(request, event))
    return render(request, "tournaments/dashboard.html", context)


def _offers_context(event: Tournament) -> dict[str, Any]:
    """What the dashboard offers now, and in words why it does not offer the rest
    (tournaments.status decides both; the services refuse with the same words)."""
    facts = event_facts(event)
    moves = []
    not_now = []
    for target, refusal in transition_offers(facts):
        if target == EventStatus.CANCELLED:
            continue  # the danger zone offers it, with its confirmation
        if refusal is None:
            moves.append((target.value, LABELS[target]))
        else:
            not_now.append((LABELS[target], refusal.render(_)))
    top_cut = None
    if event.status == EventStatus.RUNNING and event.top_cut_size:
        refusal = top_cut_refusal(facts)
        if refusal is None:
            top_cut = True
        else:
            not_now.append((LABELS[EventStatus.TOP_CUT], refusal.render(_)))
    players = players_refusal(event.status)
    return {
        "moves": moves,
        "not_now": not_now,
        "top_cut_ready": top_cut,
        "players_refusal": players.render(_) if players is not None else "",
    }


DASHBOARD_PAGE_SIZE = 50
DESK_PAGE_SIZE = 25
DESK_FILTERS = ("waiting", "checked_in", "all")
# The desk's paid/unpaid view: who still owes the entry fee, and who is settled.
DESK_FEE_FILTERS = {
    "unpaid": (FeeStatus.UNPAID, FeeStatus.REFUNDED),
    "paid": (FeeStatus.PAID, FeeStatus.COMPED),
}


def _desk_event(request: HttpRequest, slug: str) -> Tournament:
    event = visible_event(request, slug)
    if not perms.can_run_check_in(request.user, event):
        raise PermissionDenied(_("Only organisers, and judges when allowed, run check-in."))
    return event


@login_required
def event_check_in(request: HttpRequest, slug: str) -> HttpResponse:
    """The check-in desk: scan or type a player id (or a walk-in's claim code) to check them
    in, or search by name, player id or table; every action brings you back to the same
    place in the same list (the row is the anchor)."""
    event = _desk_event(request, slug)
    query = request.GET.get("q", "").strip()[:100]
    shown = request.GET.get("show", "waiting")
    if shown not in DESK_FILTERS:
        shown = "waiting"
    registrations = (
        services.desk_search(event, query)
        .filter(status=RegistrationStatus.REGISTERED)
        .select_related("player")
    )
    if shown == "waiting":
        registrations = registrations.filter(checked_in_at__isnull=True)
    elif shown == "checked_in":
        registrations = registrations.filter(checked_in_at__isnull=False)
    fee = request.GET.get("fee", "")
    if fee not in DESK_FEE_FILTERS:
        fee = ""
    if fee:
        registrations = registrations.filter(fee_status__in=DESK_FEE_FILTERS[fee])
    page = Paginator(registrations, DESK_PAGE_SIZE).get_page(request.GET.get("page"))
    keep = {k: v for k, v in (("q", query), ("show", shown), ("fee", fee)) if v}
    here = reverse("event_check_in", args=[event.slug]) + "?" + urlencode(keep)
    if page.number > 1:
        here += f"&page={page.number}"
    context = {
        "event": event,
        "query": query,
        "shown": shown,
        "page": page,
        "here": here,
        "keep_query": urlencode(keep),
        "counts": selectors.registration_counts(event),
        "filters": [
            ("waiting", _("Not checked in")),
            ("checked_in", _("Checked in")),
            ("all", _("Everyone")),
        ],
        "fee": fee,
        "fee_filters": [
            ("", _("Paid or not")),
            ("unpaid", _("Fee not paid")),
            ("paid", _("Fee paid or comped")),
        ],
        "is_organiser": perms.is_organiser_of(request.user, event),
        "check_in_closed": closed.render(_) if (closed := players_refusal(event.status)) else "",
    }
    return render(request, "tournaments/check_in.html", context)


@require_POST
@login_required
def event_check_in_action(request: HttpRequest, slug: str) -> HttpResponse:
    """One form, three buttons: the scanner's code, one row's check-in (or undo), or the
    ticked rows at once. Back to where the person was, at the row they acted on."""
    event = _desk_event(request, slug)
    back = next_or(request, reverse("event_check_in", args=[event.slug]))
    anchor = ""
    try:
        if "code" in request.POST:
            registration = services.registration_check_in_by_code(
                actor=request.user, tournament=event, code=request.POST.get("code", "")
            )
            messages.success(request, _("%(name)s checked in.") % {"name": registration.name})
        elif request.POST.get("fee_paid"):
            pk = int_or_none(request.POST.get("fee_paid"))
            registration = get_object_or_404(Registration, pk=pk or 0, tournament=event)
            capacity.fee_set(actor=request.user, registration=registration, status="paid")
            anchor = f"#reg-{registration.pk}"
            messages.success(request, _("%(name)s has paid.") % {"name": registration.name})
        elif request.POST.get("one") or request.POST.get("undo"):
            undo = bool(request.POST.get("undo"))
            pk = int_or_none(request.POST.get("undo") or request.POST.get("one"))
            registration = get_object_or_404(Registration, pk=pk or 0, tournament=event)
            services.registration_check_in(
                actor=request.user, registration=registration, checked_in=not undo
            )
            anchor = f"#reg-{registration.pk}"
            text = _("%(name)s is no longer checked in.") if undo else _("%(name)s checked in.")
            messages.success(request, text % {"name": registration.name})
        else:
            ids = [int_or_none(v) for v in request.POST.getlist("registrations")]
            if any(i is None or i < 1 for i in ids):
                raise ServiceError(_("registrations: not a list of ids."), field="registrations")
            result = services.registrations_check_in(
                actor=request.user, tournament=event, registration_ids=[i for i in ids if i]
            )
            messages.success(
                request,
                ngettext(
                    "%(n)d player checked in.", "%(n)d players checked in.", len(result.checked_in)
                )
                % {"n": len(result.checked_in)},
            )
            for registration, why in result.skipped:
                messages.warning(request, f"{registration.name}: {why}")
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect(back + anchor)


@require_POST
@login_required
def event_walk_in(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    form = WalkInForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Walk-in name: %(error)s") % {"error": form.errors["name"][0]})
    else:
        attempt(
            request,
            lambda: services.registration_add_walk_in(
                actor=request.user, tournament=event, **form.cleaned_data
            ),
            _("Walk-in %(name)s added.") % {"name": form.cleaned_data["name"]},
        )
    return redirect("event_dashboard", slug=slug)


@login_required
def event_roster_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Bulk player import: paste or upload a roster, see every row's problems, then confirm
    (the same service as POST /api/events/{slug}/registrations/import/)."""
    event = visible_event(request, slug)
    if not perms.is_organiser_of(request.user, event):
        raise PermissionDenied
    form = RosterImportForm(request.POST or None, request.FILES or None)
    preview = None
    roster_text = ""
    if request.method == "POST" and form.is_valid():
        roster = form.roster()
        roster_text = roster if isinstance(roster, str) else ""
        confirm = request.POST.get("confirm") == "yes"
        try:
            preview = roster_import.registrations_import(
                actor=request.user,
                tournament=event,
                data=roster,
                dry_run=not confirm,
                over_capacity=form.cleaned_data["over_capacity"],
            )
        except roster_import.RosterImportRefused as refused:
            preview = refused.preview
            messages.error(request, _("Nothing was imported: fix the problems below first."))
        except Forbidden as exc:
            raise PermissionDenied(exc.message) from None
        if preview.saved:
            counts = preview.counts()
            messages.success(
                request,
                _("%(n)d players added (%(walk_ins)d walk-ins); %(skipped)d were in already.")
                % {
                    "n": counts["accounts"] + counts["walk_ins"],
                    "walk_ins": counts["walk_ins"],
                    "skipped": counts["skipped"],
                },
            )
            return redirect("event_dashboard", slug=event.slug)
    status = 400 if preview is not None and not preview.ok else 200
    context = {
        "event": event,
        "form": form,
        "preview": preview,
        "counts": preview.counts() if preview is not None else None,
        "roster_text": roster_text,
        "over_capacity": form.is_bound and form.is_valid() and form.cleaned_data["over_capacity"],
    }
    return render(request, "tournaments/roster_import.html", context, status=status)


@require_POST
@login_required
def event_transition(request: HttpRequest, slug: str) -> HttpResponse:
    """Move the event on. Cancelling asks first, naming what is lost; starting shows who
    is not checked in and asks whether to drop them (both decided by the service)."""
    event = visible_event(request, slug)
    if not perms.is_organiser_of(request.user, event):
        raise PermissionDenied
    target = request.POST.get("to", "")
    confirm = request.POST.get("confirm") == "yes"
    no_shows = request.POST.get("no_shows") or None
    refusal = transition_refusal(event_facts(event), target)
    if refusal is not None:
        # A page that offered the move before the event changed: why not, in words (the
        # service would refuse the same way, naming the field for the API).
        messages.error(request, refusal.render(_))
        return redirect("event_dashboard", slug=slug)
    if target == EventStatus.RUNNING and no_shows is None:
        absent = services.no_shows(event).select_related("player").order_by("id")
        absent_count = absent.count()
        if absent_count:
            return render(
                request,
                "tournaments/start_event.html",
                {
                    "event": event,
                    "absent": absent[:NO_SHOWS_LISTED],
                    "absent_count": absent_count,
                    "counts": selectors.registration_counts(event),
                },
            )
    if target == EventStatus.CANCELLED and not confirm:
        return _confirm_page(
            request,
            event,
            title=_("Cancel %(name)s for good?") % {"name": event.name},
            consequences=services.cancel_consequences(event),
            hidden=[("to", target)],
            checkbox_label=_("Yes, cancel %(name)s; it cannot be reopened.") % {"name": event.name},
            button_label=_("Cancel the event"),
            action=request.path,
        )
    attempt(
        request,
        lambda: services.event_transition(
            actor=request.user, tournament=event, to=target, confirm=confirm, no_shows=no_shows
        ),
        _("Event status changed."),
    )
    return redirect("event_dashboard", slug=slug)


NO_SHOWS_LISTED = 200


def _confirm_page(
    request: HttpRequest,
    event: Tournament,
    *,
    title: str,
    consequences: str,
    hidden: list[tuple[str, Any]],
    checkbox_label: str,
    button_label: str,
    action: str,
) -> HttpResponse:
    """The second, explicit step of an action that cannot be undone: what is lost, a box to
    tick, and a way back."""
    return render(
        request,
        "tournaments/confirm.html",
        {
            "event": event,
            "title": title,
            "consequences": consequences,
            "hidden": hidden,
            "checkbox_label": checkbox_label,
            "button_label": button_label,
            "back_url": reverse("event_dashboard", args=[event.slug]),
            "back_label": _("Back, change nothing"),
            "action": action,
        },
    )


@require_POST
@login_required
def event_player_check_in(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    if request.POST.get("open") not in ("0", "1"):
        # A form without the field must not close check-in (it used to read as "0").
        return HttpResponseBadRequest(
            _("open: send 1 to let players check in from their phones, or 0 to stop them."),
            content_type="text/plain; charset=utf-8",
        )
    open_ = request.POST["open"] == "1"
    attempt(
        request,
        lambda: services.event_set_player_check_in(
            actor=request.user, tournament=event, open=open_
        ),
        _("Players can now check in from their phones.") if open_ else _("Player check-in closed."),
    )
    return redirect("event_dashboard", slug=slug)


@require_POST
@login_required
def event_judge(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    form = JudgeForm(request.POST)
    assigned = request.POST.get("assigned", "1") == "1"
    head = request.POST.get("head") == "1"
    user = None
    if form.is_valid():
        user = (
            get_user_model()
            .objects.filter(player_id=normalise_player_id(form.cleaned_data["player_id"]))
            .first()
        )
    if user is None:
        messages.error(request, _("Judge's player id: no account has this player id."))
    else:
        attempt(
            request,
            lambda: services.event_set_judge(
                actor=request.user, tournament=event, user=user, assigned=assigned, head=head
            ),
            _("Judges updated."),
        )
    return redirect("event_dashboard", slug=slug)


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
    if not perms.can_create_events(request.user):
        raise PermissionDenied
    return _event_form(request, None)


@login_required
def event_edit(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    if not perms.is_organiser_of(request.user, event):
        raise PermissionDenied
    return _event_form(request, event)


def _event_form(request: HttpRequest, event: Tournament | None) -> HttpResponse:
    # Organisers type the event's local times: read and show them in the event's time zone.
    zone_name = request.POST.get("time_zone") or (event.time_zone if event else "UTC")
    try:
        zone = zoneinfo.ZoneInfo(zone_name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    with timezone.override(zone):
        return _event_form_in_zone(request, event)


def _event_form_in_zone(request: HttpRequest, event: Tournament | None) -> HttpResponse:
    form = EventForm(request.POST or None, instance=event, game=request.GET.get("game"))
    if request.method == "POST" and form.is_valid():
        data = {name: form.cleaned_data[name] for name in form.Meta.fields}
        if form.cleaned_data.get("stages") is not None:
            data["stages"] = form.cleaned_data["stages"]
        try:
            if event is None:
                event = services.event_create(actor=request.user, **data)
            else:
                event = services.event_update(actor=request.user, tournament=event, **data)
        except Forbidden as exc:
            raise PermissionDenied(exc.message) from None
        except ServiceError as exc:
            field = exc.field if exc.field in form.fields else None
            if exc.field and exc.field.startswith("stages"):
                field = "stages"  # stages[1].entry.top: the path is in the message
            form.add_error(field, exc.message)
        else:
            messages.success(request, _("Event saved."))
            return redirect("event_dashboard", slug=event.slug)
    context = {"form": form, "event": event, "game_switch": game_switch_data()}
    return render(request, "tournaments/event_form.html", context)


@login_required
def my_events(request: HttpRequest) -> HttpResponse:
    registrations = (
        Registration.objects.filter(player=request.user)
        .select_related("tournament")
        .order_by("-tournament__starts_at")
    )
    context = {
        "registrations": registrations,
        "organised": request.user.organised_events.order_by("-starts_at"),
        "judging": request.user.judged_events.order_by("-starts_at"),
    }
    return render(request, "tournaments/my_events.html", context)
