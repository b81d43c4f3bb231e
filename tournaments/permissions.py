"""Who may do what to an event. Services call these; views never decide on their own."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.db.models import Exists, OuterRef
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from config.errors import Forbidden
from tournaments import extensions
from tournaments.models import Registration, Tournament


def is_authenticated(user: Any) -> bool:
    return user is not None and bool(getattr(user, "is_authenticated", False))


def can_create_events(user: Any) -> bool:
    return is_authenticated(user) and (user.is_organiser or user.is_superuser)


# Within one request a person's role at an event is asked several times (the view, then
# the service, then the response): each answer is remembered until the request ends.
_roles_this_request: ContextVar[dict[tuple[int, int], tuple[bool, bool]] | None] = ContextVar(
    "roles_this_request", default=None
)

# The same for a person's roles in an organisation: (user id, organisation id) -> roles.
_organisation_roles_this_request: ContextVar[dict[tuple[int, int], frozenset[str]] | None] = (
    ContextVar("organisation_roles_this_request", default=None)
)


@contextmanager
def roles_remembered() -> Iterator[None]:
    """What RolesPerRequestMiddleware does for one request, for a request answered without
    the middleware (config.fast_path's event page)."""
    token = _roles_this_request.set({})
    organisation_token = _organisation_roles_this_request.set({})
    try:
        yield
    finally:
        _organisation_roles_this_request.reset(organisation_token)
        _roles_this_request.reset(token)


class RolesPerRequestMiddleware:
    """Remembers a person's roles at an event for the length of one request only (a change
    of staff applies from the next request)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with roles_remembered():
            return self.get_response(request)


def _roles(user: Any, tournament: Tournament) -> tuple[bool, bool]:
    """(organiser, judge) of the event, asked in one query: a judge's staff check would
    otherwise ask twice."""
    memo = _roles_this_request.get()
    key = (user.pk, tournament.pk)
    if memo is not None and key in memo:
        return memo[key]
    organisers = Tournament.organisers.through.objects.filter(
        tournament_id=OuterRef("pk"), user_id=user.pk
    )
    judges = Tournament.judges.through.objects.filter(tournament_id=OuterRef("pk"), user_id=user.pk)
    # One row or none: a pk filter needs no ORDER BY (first() would build one).
    rows = list(
        Tournament.objects.filter(pk=tournament.pk)
        .annotate(organiser=Exists(organisers), judge=Exists(judges))
        .values_list("organiser", "judge")
    )
    answer = (bool(rows[0][0]), bool(rows[0][1])) if rows else (False, False)
    answer = _with_organisation_roles(user, tournament, answer)
    if memo is not None:
        memo[key] = answer
    return answer


def _organisation_role_names(user: Any, tournament: Tournament) -> frozenset[str]:
    """The person's roles in the organisation the event belongs to (none without one)."""
    provider = extensions.organisation_roles()
    organisation_id = getattr(tournament, "organisation_id", None)
    if provider is None or organisation_id is None:
        return frozenset()
    memo = _organisation_roles_this_request.get()
    key = (user.pk, organisation_id)
    if memo is not None and key in memo:
        return memo[key]
    roles = provider.roles(user, organisation_id)
    if memo is not None:
        memo[key] = roles
    return roles


def _with_organisation_roles(
    user: Any, tournament: Tournament, answer: tuple[bool, bool]
) -> tuple[bool, bool]:
    """An organisation's organisers organise its events and its judges judge them."""
    if answer[0] and answer[1]:
        return answer
    roles = _organisation_role_names(user, tournament)
    return (answer[0] or "organiser" in roles, answer[1] or "judge" in roles)


def with_roles_of(user: Any, events: Any) -> Any:
    """`events` (a queryset of Tournament) with the person's roles read in the same query, as
    `reader_organiser` and `reader_judge`: `remember_roles` then spares the request the
    query `_roles` would make."""
    if not is_authenticated(user):
        return events
    return with_roles_of_account(user.pk, events)


def with_roles_of_account(user_id: int, events: Any) -> Any:
    """`with_roles_of` for the signed-in account ``user_id``."""
    organisers = Tournament.organisers.through.objects.filter(
        tournament_id=OuterRef("pk"), user_id=user_id
    )
    judges = Tournament.judges.through.objects.filter(tournament_id=OuterRef("pk"), user_id=user_id)
    return events.annotate(reader_organiser=Exists(organisers), reader_judge=Exists(judges))


def remember_roles(user: Any, tournament: Tournament) -> None:
    """The roles `with_roles_of` read with the event, remembered for this request."""
    memo = _roles_this_request.get()
    if memo is not None and is_authenticated(user) and hasattr(tournament, "reader_organiser"):
        memo[(user.pk, tournament.pk)] = _with_organisation_roles(
            user,
            tournament,
            (bool(tournament.reader_organiser), bool(tournament.reader_judge)),
        )


def is_organiser_of(user: Any, tournament: Tournament) -> bool:
    if not is_authenticated(user):
        return False
    if user.is_superuser:
        return True
    return _roles(user, tournament)[0]


def is_judge_of(user: Any, tournament: Tournament) -> bool:
    return is_authenticated(user) and _roles(user, tournament)[1]


def is_scorekeeper_of(user: Any, tournament: Tournament) -> bool:
    """A scorekeeper of the organisation the event belongs to."""
    return is_authenticated(user) and "scorekeeper" in _organisation_role_names(user, tournament)


def is_staff_of(user: Any, tournament: Tournament) -> bool:
    """Organisers, judges and the organisation's scorekeepers: the people who may see every
    player's details and enter results (the scorekeeper desk)."""
    return (
        is_organiser_of(user, tournament)
        or is_judge_of(user, tournament)
        or is_scorekeeper_of(user, tournament)
    )


def can_run_check_in(user: Any, tournament: Tournament) -> bool:
    """Organisers, and the event's judges when the organisers let them."""
    if is_organiser_of(user, tournament):
        return True
    return tournament.judges_may_check_in and is_judge_of(user, tournament)


def require_organiser(user: Any, tournament: Tournament) -> None:
    if not is_organiser_of(user, tournament):
        raise Forbidden(_("Only this event's organisers may do this."))


def require_staff(user: Any, tournament: Tournament) -> None:
    if not is_staff_of(user, tournament):
        raise Forbidden(_("Only this event's organisers and judges may do this."))


def is_own_registration(user: Any, registration: Registration) -> bool:
    return is_authenticated(user) and registration.player_id == user.pk


def can_view_registration(user: Any, registration: Registration) -> bool:
    return is_own_registration(user, registration) or is_staff_of(user, registration.tournament)
