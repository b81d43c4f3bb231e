"""The organisation's management page (/orgs/{slug}/manage/): owners manage members and
roles; owners and organisers suspend players and lift suspensions. Thin: the API's services
write (organisations.services), the API's selectors read."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import Forbidden, ServiceError
from config.pages import attempt, int_or_none
from engine.games import GAMES
from organisations import selectors, services
from organisations.models import Organisation, Role, Suspension

SUSPENSIONS_PER_PAGE = 25


def _organisation(request: HttpRequest, slug: str) -> Organisation:
    """The organisation, for its owners and organisers (anyone else: 403)."""
    organisation = selectors.organisation_or_404(slug)
    if not services.may_organise(request.user, organisation):
        raise PermissionDenied(_("Only this organisation's owners and organisers may do this."))
    return organisation


def _back(organisation: Organisation, anchor: str) -> HttpResponse:
    return redirect(reverse("organisations:manage", args=[organisation.slug]) + anchor)


def _page(
    request: HttpRequest,
    organisation: Organisation,
    *,
    suspend_form: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    suspensions = Paginator(selectors.suspensions(organisation), SUSPENSIONS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    now = timezone.now()
    return render(
        request,
        "organisations/manage.html",
        {
            "organisation": organisation,
            "is_owner": services.is_owner(request.user, organisation),
            "members": list(selectors.members(organisation)),
            "roles": Role.choices,
            "suspensions": suspensions,
            "now": now,
            "suspend": suspend_form or {},
            "time_zone": settings.TIME_ZONE,
            "catalogs": selectors.card_catalogs(organisation),
            "games": [(g.key, g.name) for g in GAMES.values()],
        },
        status=status,
    )


@login_required
def organisation_manage(request: HttpRequest, slug: str) -> HttpResponse:
    return _page(request, _organisation(request, slug))


@login_required
@require_POST
def member_add(request: HttpRequest, slug: str) -> HttpResponse:
    """Owners add a person (by player id or username) with a role, or change their role."""
    organisation = _organisation(request, slug)
    person = selectors.person_by_code(request.POST.get("person", ""))
    if person is None:
        messages.error(request, _("person: nobody has this player id or username."))
        return _back(organisation, "#members")
    role = request.POST.get("role", "")
    attempt(
        request,
        lambda: services.member_set(
            actor=request.user, organisation=organisation, user=person, role=role
        ),
        _("%(name)s is now %(role)s.")
        % {"name": person.public_name, "role": dict(Role.choices).get(role, role)},
    )
    return _back(organisation, "#members")


@login_required
@require_POST
def member_change(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    """Owners change a member's role or remove them (``remove``); a member may leave."""
    organisation = selectors.organisation_or_404(slug)
    if services.role_of(request.user, organisation) is None and not services.is_owner(
        request.user, organisation
    ):
        raise PermissionDenied
    person = services.user_by_id(user_id, "user")
    if request.POST.get("remove"):
        left = attempt(
            request,
            lambda: services.member_remove(
                actor=request.user, organisation=organisation, user=person
            ),
            _("%(name)s is no longer a member.") % {"name": person.public_name},
        )
        if left and person.pk == request.user.pk:
            return redirect("organisations:organisation", slug=organisation.slug)
        return _back(organisation, "#members")
    role = request.POST.get("role", "")
    attempt(
        request,
        lambda: services.member_set(
            actor=request.user, organisation=organisation, user=person, role=role
        ),
        _("%(name)s is now %(role)s.")
        % {"name": person.public_name, "role": dict(Role.choices).get(role, role)},
    )
    return _back(organisation, "#members")


def _when(text: str, field: str) -> Any:
    """A date and time typed in the organisation's site's zone; blank is None."""
    text = (text or "").strip()
    if not text:
        return None
    value = parse_datetime(text)
    if value is None:
        raise ServiceError(_("A date and time, like 2026-05-02T14:30."), field=field)
    if timezone.is_naive(value):
        value = timezone.make_aware(value, zoneinfo.ZoneInfo(settings.TIME_ZONE))
    return value


@login_required
@require_POST
def suspension_add(request: HttpRequest, slug: str) -> HttpResponse:
    """Suspend a player. When the suspension cancels registrations, the page says which and
    asks to confirm (the form comes back filled, with a confirmation box)."""
    organisation = _organisation(request, slug)
    form = {
        "person": request.POST.get("person", "")[:150],
        "starts_at": request.POST.get("starts_at", "")[:40],
        "until": request.POST.get("until", "")[:40],
        "reason": request.POST.get("reason", "")[:2000],
    }
    try:
        player = selectors.person_by_code(form["person"])
        if player is None:
            raise ServiceError(_("Nobody has this player id or username."), field="person")
        until = _when(form["until"], "until")
        if until is None:
            raise ServiceError(_("Give the day the suspension ends."), field="until")
        done = services.suspend(
            actor=request.user,
            organisation=organisation,
            player=player,
            until=until,
            reason=form["reason"],
            starts_at=_when(form["starts_at"], "starts_at"),
            confirm=request.POST.get("confirm") == "1",
        )
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None
    except ServiceError as exc:
        form["error"] = exc.message
        form["field"] = exc.field or ""
        form["confirming"] = exc.code == "confirmation_required"
        return _page(request, organisation, suspend_form=form, status=400)
    text = _("%(name)s is suspended.") % {"name": player.public_name}
    if done.removed:
        text += " " + _("Registrations cancelled: %(events)s.") % {
            "events": ", ".join(r.tournament.name for r in done.removed)
        }
    messages.success(request, text)
    return _back(organisation, "#suspensions")


@login_required
@require_POST
def suspension_lift(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    organisation = _organisation(request, slug)
    row = get_object_or_404(Suspension, pk=int_or_none(pk, 0), organisation=organisation)
    attempt(
        request,
        lambda: services.suspension_lift(actor=request.user, suspension=row),
        _("The suspension is lifted."),
    )
    return _back(organisation, "#suspensions")
