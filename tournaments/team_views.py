"""Team pages (docs/teams.md): the event's teams and the form to form one (a captain naming
themselves among the members, or an organiser building teams), and a team's own page (roster,
Head Coach, editing before the event runs). Both call the services the API calls; a team's
line-ups per round are the matches app's page (``team_lineups``)."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.player_ids import normalise_player_id
from config.errors import Forbidden, ServiceError
from tournaments import permissions as perms
from tournaments import selectors, services
from tournaments.forms import TeamForm
from tournaments.models import Registration, RegistrationStatus, Team, TeamMember, Tournament


def _choices(event: Tournament, team: Team | None = None) -> list[tuple[int, str]]:
    """Registered players without a team (and the team's own members)."""
    taken = TeamMember.objects.filter(team__tournament=event)
    if team is not None:
        taken = taken.exclude(team=team)
    registrations = (
        Registration.objects.filter(tournament=event, status=RegistrationStatus.REGISTERED)
        .exclude(pk__in=taken.values("registration_id"))
        .select_related("player")
    )
    return sorted(((r.pk, r.name) for r in registrations), key=lambda c: c[1].casefold())


def _by_player_ids(event: Tournament, text: str) -> list[int]:
    """Registrations of the event named by player ids (spaces or commas between them)."""
    ids = [normalise_player_id(part) for part in re.split(r"[\s,;]+", text) if part]
    found = dict(
        Registration.objects.filter(tournament=event, player__player_id__in=ids).values_list(
            "player__player_id", "pk"
        )
    )
    missing = [i for i in ids if i not in found]
    if missing:
        raise ServiceError(
            _("player_ids: no registration of this event has the player id %(id)s.")
            % {"id": missing[0]},
            field="player_ids",
        )
    return [found[i] for i in ids]


def _form_members(event: Tournament, form: TeamForm) -> list[int]:
    members = list(form.cleaned_data.get("members") or [])
    for pk in _by_player_ids(event, form.cleaned_data.get("player_ids") or ""):
        if pk not in members:
            members.append(pk)
    return members


def _save(request: HttpRequest, event: Tournament, form: TeamForm, team: Team | None) -> Any:
    """The service's answer, or the form with the refusal beside its field."""
    try:
        members = _form_members(event, form)
        head_coach = form.cleaned_data.get("head_coach")
        if team is None:
            return services.team_create(
                actor=request.user,
                tournament=event,
                name=form.cleaned_data["name"],
                members=members,
                head_coach=head_coach,
            )
        return services.team_update(
            actor=request.user,
            team=team,
            name=form.cleaned_data["name"],
            members=members,
            head_coach=head_coach,
        )
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None
    except ServiceError as exc:
        field = exc.field if exc.field in form.fields else None
        form.add_error(field, exc.message)
        return None


def event_teams(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's teams; the form to form one while teams are formed."""
    event = selectors.visible_event(request, slug)
    if event.team is None:
        raise Http404("This event is not played by teams.")
    rules = event.team_rules_value
    assert rules is not None
    organiser = perms.is_organiser_of(request.user, event)
    own = selectors.registration_for(user=request.user, tournament=event)
    forming = event.status in services.TEAM_FORMING_STATUSES
    may_form = forming and (
        organiser or (own is not None and own.status == RegistrationStatus.REGISTERED)
    )
    form = None
    if may_form:
        form = TeamForm(
            request.POST or None,
            choices=_choices(event),
            head_coach=rules.team.head_coach,
            initial={"members": [own.pk] if own is not None and not organiser else []},
        )
        if request.method == "POST":
            if not request.user.is_authenticated:
                return redirect(f"{reverse('login')}?next={request.path}")
            if form.is_valid():
                team = _save(request, event, form, None)
                if team is not None:
                    messages.success(request, _("Team %(name)s formed.") % {"name": team.name})
                    return redirect("team_page", slug=event.slug, pk=team.pk)
    elif request.method == "POST":
        raise PermissionDenied
    status = 400 if form is not None and form.errors else 200
    return render(
        request,
        "tournaments/teams.html",
        {
            "event": event,
            "rules": rules,
            "teams": selectors.event_teams(event).select_related("head_coach__player"),
            "form": form,
            "organiser": organiser,
            "forming": forming,
            "own_team": selectors.team_of(own),
        },
        status=status,
    )


def team_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A team: its roster and Head Coach; its members and the organisers edit it before the
    event runs."""
    event = selectors.visible_event(request, slug)
    team = selectors.team_visible(request.user, pk)
    if team.tournament_id != event.pk:
        raise Http404("No such team.")
    rules = event.team_rules_value
    assert rules is not None
    team = selectors.team_with_members(team.pk)
    organiser = perms.is_organiser_of(request.user, event)
    member = services.is_team_member(request.user, team)
    may_edit = (organiser or member) and event.status in services.TEAM_FORMING_STATUSES
    form = None
    if may_edit:
        form = TeamForm(
            request.POST or None,
            choices=_choices(event, team),
            head_coach=rules.team.head_coach,
            initial={
                "name": team.name,
                "members": [m.registration_id for m in team.members.all()],
                "head_coach": team.head_coach_id,
            },
        )
        saved = request.method == "POST" and form.is_valid() and _save(request, event, form, team)
        if saved:
            messages.success(request, _("Team saved."))
            return redirect("team_page", slug=event.slug, pk=team.pk)
    elif request.method == "POST":
        raise PermissionDenied
    return render(
        request,
        "tournaments/team.html",
        {
            "event": event,
            "team": team,
            "rules": rules,
            "form": form,
            "member": member,
            "organiser": organiser,
        },
        status=400 if form is not None and form.errors else 200,
    )


@login_required
def team_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = selectors.visible_event(request, slug)
    team = selectors.team_visible(request.user, pk)
    if team.tournament_id != event.pk or request.method != "POST":
        raise Http404("No such team.")
    try:
        services.team_delete(actor=request.user, team=team)
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("team_page", slug=event.slug, pk=team.pk)
    messages.success(request, _("Team dissolved."))
    return redirect("event_teams", slug=event.slug)
