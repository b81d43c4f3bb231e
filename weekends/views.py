"""The weekend's pages: the schedule (public), the badge check-in desk, the staff desk across
the weekend, and the dashboard section an event of a weekend shows its organisers. Thin: they
call the same services and selectors as the API."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from config.errors import Forbidden, ServiceError
from config.pages import attempt
from organisations.selectors import person_by_code
from tournaments import permissions as perms
from tournaments.models import Tournament
from tournaments.selectors import event_visible
from weekends import selectors, services
from weekends.models import WeekendEvent, WeekendEventKind


def weekend_schedule(request: HttpRequest, slug: str) -> HttpResponse:
    weekend = selectors.weekend_by_slug(slug)
    organiser = selectors.may_see_deck_conflicts(request.user, weekend)
    context: dict[str, Any] = {
        "weekend": weekend,
        "entries": selectors.weekend_entries(request.user, weekend),
        "deck_conflicts": selectors.deck_conflicts(weekend) if organiser else [],
        "is_organiser": organiser,
        "is_staff": bool(selectors.staffed_entries(request.user, weekend)),
        "organisers": list(weekend.organisers.order_by("pk")) if organiser else [],
    }
    return render(request, "weekends/schedule.html", context)


@login_required
def weekend_desk(request: HttpRequest, slug: str) -> HttpResponse:
    weekend = selectors.weekend_by_slug(slug)
    desk = selectors.desk(request.user, weekend)
    if not desk and not services.is_organiser_of_weekend(request.user, weekend):
        raise PermissionDenied
    return render(
        request,
        "weekends/desk.html",
        {"weekend": weekend, "desk": desk, "limit": selectors.DESK_LIMIT},
    )


@login_required
def weekend_check_in(request: HttpRequest, slug: str) -> HttpResponse:
    weekend = selectors.weekend_by_slug(slug)
    result = None
    status = 200
    if request.method == "POST":
        try:
            result = services.weekend_check_in(
                actor=request.user, weekend=weekend, code=request.POST.get("code", "")
            )
        except Forbidden as exc:
            raise PermissionDenied(exc.message) from None
        except ServiceError as exc:
            messages.error(request, exc.message)
            status = 400
        else:
            done = sum(1 for item in result.events if item.outcome == "checked_in")
            messages.success(
                request,
                ngettext(
                    "%(name)s: checked in to %(n)d event.",
                    "%(name)s: checked in to %(n)d events.",
                    done,
                )
                % {"name": result.player.public_name if result.player else "", "n": done},
            )
    elif not selectors.staffed_entries(request.user, weekend) and not (
        services.is_organiser_of_weekend(request.user, weekend)
    ):
        raise PermissionDenied
    return render(
        request, "weekends/check_in.html", {"weekend": weekend, "result": result}, status=status
    )


@login_required
@require_POST
def side_event_new(request: HttpRequest, slug: str) -> HttpResponse:
    """The dashboard's "new side event like this one" button (the template is the event)."""
    template = event_visible(user=request.user, slug=slug)
    if template is None or not perms.is_organiser_of(request.user, template):
        raise PermissionDenied
    back = reverse("event_dashboard", args=[slug])
    name = request.POST.get("name", "").strip()
    starts_at = parse_datetime(request.POST.get("starts_at", "").strip() or "")
    kind = request.POST.get("kind", WeekendEventKind.LCQ)
    if not name:
        messages.error(request, _("name: give the new event a name."))
        return redirect(back)
    if starts_at is None:
        messages.error(request, _("starts_at: a date and time, like 2026-05-02T14:30."))
        return redirect(back)
    if timezone.is_naive(starts_at):
        starts_at = timezone.make_aware(starts_at, _zone(template))
    try:
        entry = services.side_event_from_template(
            actor=request.user, template=template, name=name, starts_at=starts_at, kind=kind
        )
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(back)
    messages.success(request, _("%(name)s is ready, in draft.") % {"name": entry.tournament.name})
    return redirect("event_dashboard", slug=entry.tournament.slug)


@login_required
@require_POST
def weekend_organiser_add(request: HttpRequest, slug: str) -> HttpResponse:
    """The schedule's "add an organiser" form (the weekend's organisers): by player id or
    username; the same service as POST /api/weekends/{slug}/organisers/."""
    weekend = selectors.weekend_by_slug(slug)
    person = person_by_code(request.POST.get("person", ""))
    if person is None:
        if not services.is_organiser_of_weekend(request.user, weekend):
            raise PermissionDenied
        messages.error(request, _("person: nobody has this player id or username."))
    else:
        attempt(
            request,
            lambda: services.weekend_add_organiser(
                actor=request.user, weekend=weekend, user=person
            ),
            _("%(name)s organises the weekend now.") % {"name": person.public_name},
        )
    return redirect(reverse("weekend_schedule", args=[weekend.slug]) + "#weekend-organisers")


@login_required
@require_POST
def weekend_organiser_remove(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    weekend = selectors.weekend_by_slug(slug)
    person = get_object_or_404(weekend.organisers.all(), pk=user_id)
    attempt(
        request,
        lambda: services.weekend_remove_organiser(actor=request.user, weekend=weekend, user=person),
        _("%(name)s no longer organises the weekend.") % {"name": person.public_name},
    )
    return redirect(reverse("weekend_schedule", args=[weekend.slug]) + "#weekend-organisers")


def _zone(event: Tournament) -> Any:
    import zoneinfo

    return zoneinfo.ZoneInfo(event.time_zone)


def dashboard_section(request: HttpRequest, event: Tournament) -> str:
    """The weekend's part of an event's dashboard and round control, for its organisers: the
    decks entered twice in the weekend involving this event (one entry per deck), and the
    "new side event like this one" form. Empty for an event in no weekend."""
    entry = WeekendEvent.objects.filter(tournament=event).select_related("weekend").first()
    if entry is None or not perms.is_organiser_of(request.user, event):
        return ""
    conflicts = selectors.deck_conflicts(entry.weekend, event=event)
    start = timezone.localtime(timezone.now(), _zone(event)).replace(second=0, microsecond=0)
    return render_to_string(
        "weekends/_dashboard_section.html",
        {
            "event": event,
            "weekend": entry.weekend,
            "deck_conflicts": conflicts,
            "default_name": _("%(name)s LCQ") % {"name": event.name},
            "default_start": start.strftime("%Y-%m-%dT%H:%M"),
            "kinds": [
                (WeekendEventKind.LCQ, WeekendEventKind.LCQ.label),
                (WeekendEventKind.SIDE, WeekendEventKind.SIDE.label),
            ],
        },
        request=request,
    )
