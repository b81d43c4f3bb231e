"""Pages: an organisation's page, the public calendar, and the iCalendar feeds."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from config.errors import ServiceError
from engine.games import GAMES
from organisations import selectors, services
from organisations.ical import events_ics, ics_response
from organisations.models import CalendarToken, Organisation

PAGE_SIZE = 25
FEED_SIZE = 500  # the newest events a feed carries


def _base_url(request: HttpRequest) -> str:
    return request.build_absolute_uri("/").rstrip("/")


def organisation_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The organisation, its upcoming events (soonest first) and its past ones (paginated)."""
    organisation = selectors.organisation_or_404(slug)
    upcoming, past = selectors.organisation_events(organisation)
    past_page = Paginator(past, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "organisations/organisation.html",
        {
            "organisation": organisation,
            "upcoming": list(upcoming[:100]),
            "past": past_page,
            "suspension": selectors.own_suspension_text(request.user, organisation),
            "may_manage": services.may_organise(request.user, organisation),
            "catalogs": selectors.card_catalogs(organisation),
        },
    )


def organisation_ics(request: HttpRequest, slug: str) -> HttpResponse:
    organisation = selectors.organisation_or_404(slug)
    events = selectors.public_events().filter(organisation=organisation).order_by("-starts_at")
    body = events_ics(events[:FEED_SIZE], organisation.name, base_url=_base_url(request))
    return ics_response(body, f"{organisation.slug}.ics")


def my_events_ics(request: HttpRequest, token: str) -> HttpResponse:
    """The private feed: whoever holds the token's address reads the person's events."""
    row = CalendarToken.objects.filter(token=token).select_related("user").first()
    if row is None or not row.user.is_active:
        raise Http404("No such calendar.")
    events = selectors.my_events(row.user)[:FEED_SIZE]
    return ics_response(
        events_ics(events, "My events", base_url=_base_url(request)), "my-events.ics"
    )


def calendar_page(request: HttpRequest) -> HttpResponse:
    """Upcoming events, filterable by game, format, organisation and city (a plain GET form:
    the filters are in the address, so a filtered calendar can be shared)."""
    status = 200
    error = ""
    try:
        filters = selectors.calendar_filters(request.GET)
    except ServiceError as exc:
        filters, error, status = selectors.CalendarFilters(), f"{exc.field}: {exc.message}", 400
    events = Paginator(selectors.calendar_events(filters), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "organisations/calendar.html",
        {
            "events": events,
            "filters": filters,
            "error": error,
            "games": [(g.key, g.name) for g in GAMES.values()],
            "organisations": Organisation.objects.order_by("name").values_list("slug", "name"),
            "cities": selectors.calendar_cities(),
            "query": query.urlencode(),
            "my_feed": _my_feed_url(request),
        },
        status=status,
    )


def _my_feed_url(request: HttpRequest) -> str:
    if not request.user.is_authenticated:
        return ""
    token = CalendarToken.objects.filter(user_id=request.user.pk).values_list("token", flat=True)
    found = token.first()
    if found is None:
        return ""
    return request.build_absolute_uri(reverse("organisations:my_events_ics", args=[found]))


@login_required
@require_POST
def my_feed(request: HttpRequest) -> HttpResponse:
    """Makes (or, asked to, replaces) the person's private feed address."""
    services.calendar_token(user=request.user, rotate=request.POST.get("rotate") == "1")
    return redirect(reverse("organisations:calendar") + "#my-feed")
