"""Reads shared by the organisation pages, the calendar, the feeds and the API."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.player_ids import normalise_player_id
from config.errors import ServiceError
from engine.games import GAMES
from organisations.models import Membership, Organisation, Suspension
from organisations.services import active_suspension, suspension_text
from tournaments.models import RegistrationStatus, Tournament
from tournaments.status import PUBLIC, EventStatus

# An event stays "upcoming" for a day after it starts (a one-day event is still today's).
UPCOMING_GRACE = timedelta(days=1)
UNDER_WAY = (EventStatus.RUNNING.value, EventStatus.TOP_CUT.value)


def organisation_or_404(slug: str) -> Organisation:
    organisation = Organisation.objects.filter(slug=slug).first()
    if organisation is None:
        raise Http404("No such organisation.")
    return organisation


def public_events() -> QuerySet[Tournament]:
    return Tournament.objects.filter(status__in=[s.value for s in PUBLIC]).select_related(
        "organisation"
    )


def _upcoming_q() -> Q:
    return Q(status__in=UNDER_WAY) | (
        Q(starts_at__gte=timezone.now() - UPCOMING_GRACE) & ~Q(status=EventStatus.FINISHED.value)
    )


def upcoming_events() -> QuerySet[Tournament]:
    """The public events still to come (or under way), soonest first."""
    return public_events().filter(_upcoming_q()).order_by("starts_at", "id")


def past_events() -> QuerySet[Tournament]:
    """The public events that are over, latest first."""
    return public_events().exclude(_upcoming_q()).order_by("-starts_at", "-id")


@dataclass(frozen=True)
class CalendarFilters:
    game: str = ""
    format: str = ""
    organisation: str = ""
    city: str = ""


def calendar_filters(params: Any) -> CalendarFilters:
    """The calendar's filters from a query string; an unknown game or organisation is a 400
    naming the parameter."""
    game = str(params.get("game", "") or "").strip()
    if game and game not in GAMES:
        raise ServiceError(_("No such game."), field="game")
    organisation = str(params.get("organisation", "") or "").strip()
    if organisation and not Organisation.objects.filter(slug=organisation).exists():
        raise ServiceError(_("No such organisation."), field="organisation")
    fmt = str(params.get("format_key", "") or "").strip()[:40]
    city = str(params.get("city", "") or "").strip()[:100]
    return CalendarFilters(game=game, format=fmt, organisation=organisation, city=city)


def calendar_events(filters: CalendarFilters) -> QuerySet[Tournament]:
    """The public calendar: upcoming events, filtered."""
    events = upcoming_events()
    if filters.game:
        events = events.filter(game=filters.game)
    if filters.format:
        events = events.filter(format_key=filters.format)
    if filters.organisation:
        events = events.filter(organisation__slug=filters.organisation)
    if filters.city:
        events = events.filter(city__iexact=filters.city)
    return events


def calendar_cities() -> list[str]:
    """The cities of upcoming events (the calendar's city choices)."""
    rows = upcoming_events().exclude(city="").values_list("city", flat=True).distinct()
    return sorted({str(c) for c in rows}, key=str.casefold)


def organisation_events(organisation: Organisation) -> tuple[Any, Any]:
    """(upcoming, past) public events of the organisation."""
    return (
        upcoming_events().filter(organisation=organisation),
        past_events().filter(organisation=organisation),
    )


def my_events(user: Any) -> QuerySet[Tournament]:
    """The events a person plays in (registered or on the waitlist) or helps run, public or
    their own drafts: their private feed."""
    active = [RegistrationStatus.REGISTERED, RegistrationStatus.WAITLISTED]
    playing = Q(registrations__player=user, registrations__status__in=active)
    staff = Q(organisers=user) | Q(judges=user)
    return (
        Tournament.objects.filter(playing | staff)
        .select_related("organisation")
        .distinct()
        .order_by("starts_at", "id")
    )


def members(organisation: Organisation) -> QuerySet[Membership]:
    return Membership.objects.filter(organisation=organisation).select_related("user")


def suspensions(organisation: Organisation) -> QuerySet[Suspension]:
    return Suspension.objects.filter(organisation=organisation).select_related("player")


def own_suspension_text(user: Any, organisation: Organisation) -> str:
    """What the organisation page tells a suspended player ("" when not suspended)."""
    if not getattr(user, "is_authenticated", False):
        return ""
    suspension = active_suspension(organisation.pk, user.pk)
    return suspension_text(suspension) if suspension is not None else ""


# The organisation page lists at most this many of its card catalogs (the API pages them all).
PAGE_CATALOGS = 50


def card_catalogs(organisation: Organisation) -> list[Any]:
    """The organisation's card catalogs (decks.Catalog, read through its relation: the decks
    app sits above this one), by game and name."""
    return list(organisation.card_catalogs.order_by("game", "name", "pk")[:PAGE_CATALOGS])


def person_by_code(text: str) -> Any:
    """The account a page's field names: a player id (as people type it) or a username."""
    text = (text or "").strip()[:150]
    if not text:
        return None
    users = get_user_model().objects.filter(is_active=True)
    return (
        users.filter(player_id=normalise_player_id(text)).first()
        or users.filter(username__iexact=text).first()
    )
