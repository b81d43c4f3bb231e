"""Teams of a team event (docs/teams.md): formed, edited and dissolved before the event runs,
and the format each member's deck is checked against."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.validators import check_name
from config.errors import Conflict, Forbidden, ServiceError
from config.locks import for_update
from tournaments import permissions, teams
from tournaments.audit import audit
from tournaments.models import Registration, RegistrationStatus, Team, TeamMember, Tournament
from tournaments.services.locks import event_locked
from tournaments.status import EventStatus

TEAM_FORMING_STATUSES = (
    EventStatus.DRAFT,
    EventStatus.REGISTRATION_OPEN,
    EventStatus.REGISTRATION_CLOSED,
)


def _team_rules(tournament: Tournament) -> teams.TeamRules:
    rules = tournament.team_rules_value
    if rules is None:
        raise ServiceError(_("team: this event is not played by teams."), field="team")
    return rules


def _require_teams_forming(tournament: Tournament) -> None:
    if tournament.status not in TEAM_FORMING_STATUSES:
        raise Conflict(
            _("status: teams are formed before the event runs."),
            field="status",
            code="not_forming",
        )


def _ids(value: Any, field: str) -> list[int]:
    if (
        not isinstance(value, list | tuple)
        or len(value) > teams.MAX_ROSTER
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 < v < 2**63 for v in value)
    ):
        raise ServiceError(
            _("%(field)s: a list of registration ids.") % {"field": field}, field=field
        )
    return list(value)


def _team_value(team: Team, members: Sequence[int], head_coach: int | None) -> teams.Team:
    return teams.Team(
        id=str(team.pk) if team.pk else "new",
        name=team.name,
        members=tuple(str(m) for m in members),
        head_coach=str(head_coach) if head_coach is not None else None,
    )


def _check_roster(
    tournament: Tournament,
    rules: teams.TeamRules,
    team: Team,
    members: list[int],
    head_coach: int | None,
) -> None:
    """The roster against the event (the contract's 400 naming `members`): registrations of
    this event, registered, in no other team, `players` to `roster_max` of them, the Head
    Coach one of them."""
    found = {
        r.pk: r
        for r in Registration.objects.filter(pk__in=members).only("pk", "tournament_id", "status")
    }
    for member in members:
        registration = found.get(member)
        if registration is None or registration.tournament_id != tournament.pk:
            raise ServiceError(
                _("members: %(id)d is not a registration of this event.") % {"id": member},
                field="members",
            )
        if registration.status != RegistrationStatus.REGISTERED:
            raise ServiceError(
                _("members: %(id)d is not registered (waitlisted or withdrawn).") % {"id": member},
                field="members",
            )
    taken = (
        TeamMember.objects.filter(registration_id__in=members)
        .exclude(team_id=team.pk)
        .select_related("team")
        .order_by("registration_id")
        .first()
    )
    if taken is not None:
        raise ServiceError(
            _("members: %(id)d is already in team %(team)s.")
            % {"id": taken.registration_id, "team": taken.team.name},
            field="members",
        )
    try:
        teams.validate_team(_team_value(team, members, head_coach), rules.team)
    except teams.TeamError as exc:
        raise ServiceError(str(exc), field=exc.field) from None


def _may_form_team(actor: Any, tournament: Tournament, members: Sequence[int]) -> None:
    """Organisers, or a registered player of the event naming themselves among the members
    (the captain)."""
    if permissions.is_organiser_of(actor, tournament):
        return
    if not permissions.is_authenticated(actor):
        raise Forbidden(_("Sign in to form a team."))
    own = Registration.objects.filter(
        tournament=tournament, player=actor, status=RegistrationStatus.REGISTERED
    ).values_list("pk", flat=True)
    if not set(own) & set(members):
        raise Forbidden(_("Name yourself among the members, or ask an organiser."))


def _save_roster(team: Team, members: list[int]) -> None:
    TeamMember.objects.filter(team=team).exclude(registration_id__in=members).delete()
    present = set(TeamMember.objects.filter(team=team).values_list("registration_id", flat=True))
    try:
        with transaction.atomic():
            TeamMember.objects.bulk_create(
                [TeamMember(team=team, registration_id=m) for m in members if m not in present]
            )
    except IntegrityError:
        # Another team took one of them at the same moment (the unique constraint).
        raise ServiceError(
            _("members: one of them has just joined another team."), field="members"
        ) from None


def _team_name(tournament: Tournament, name: object, *, team_pk: int | None) -> str:
    """A team's name as typed, on one line: 1 to 80 characters of visible text, no other team
    of the event (but ``team_pk``'s own) named alike (a 400 naming ``name``)."""
    cleaned = " ".join(str(name or "").split())
    check_name("name", cleaned)
    if not cleaned or len(cleaned) > 80:
        raise ServiceError(_("name: a team name of 1 to 80 characters."), field="name")
    if tournament.teams.filter(name__iexact=cleaned).exclude(pk=team_pk).exists():
        raise ServiceError(_("name: a team of this event already has this name."), field="name")
    return cleaned


def team_create(
    *,
    actor: Any,
    tournament: Tournament,
    name: str,
    members: Any,
    head_coach: int | None = None,
) -> Team:
    """Form a team (event-structures: Teams): organisers, or a registered player naming
    themselves among the members (the captain). Before the event runs; the roster checked
    against the event's team configuration (400 naming `members` or `head_coach`)."""
    with transaction.atomic():
        tournament = event_locked(tournament)
        member_ids = _ids(members, "members")
        _may_form_team(actor, tournament, member_ids)
        rules = _team_rules(tournament)
        _require_teams_forming(tournament)
        name = _team_name(tournament, name, team_pk=None)
        team = Team(tournament=tournament, name=name, head_coach_id=head_coach, created_by=None)
        _check_roster(tournament, rules, team, member_ids, head_coach)
        team.created_by = actor if permissions.is_authenticated(actor) else None
        team.save()
        _save_roster(team, member_ids)
        audit(
            tournament=tournament,
            actor=actor,
            action="team.created",
            target=team,
            name=name,
            members=member_ids,
            head_coach=head_coach,
        )
        return team


def _locked_team(team: Team) -> tuple[Tournament, Team]:
    tournament = event_locked(team.tournament)
    return tournament, for_update(Team.objects).get(pk=team.pk)


def is_team_member(actor: Any, team: Team) -> bool:
    return (
        permissions.is_authenticated(actor)
        and TeamMember.objects.filter(team=team, registration__player=actor).exists()
    )


def team_update(
    *,
    actor: Any,
    team: Team,
    name: str | None = None,
    members: Any = None,
    head_coach: int | None = None,
) -> Team:
    """Edit a team before the event runs: its organisers or a member (the captain) change its
    name, roster or Head Coach; the roster is checked as on creation."""
    with transaction.atomic():
        tournament, team = _locked_team(team)
        if not (permissions.is_organiser_of(actor, tournament) or is_team_member(actor, team)):
            raise Forbidden(_("Only the team's members and the organisers may change it."))
        rules = _team_rules(tournament)
        _require_teams_forming(tournament)
        before = {
            "name": team.name,
            "members": sorted(team.members.values_list("registration_id", flat=True)),
            "head_coach": team.head_coach_id,
        }
        if name is not None:
            team.name = _team_name(tournament, name, team_pk=team.pk)
        member_ids = _ids(members, "members") if members is not None else before["members"]
        coach = head_coach if head_coach is not None else team.head_coach_id
        if coach not in member_ids:
            coach = None if not rules.team.head_coach else coach
        _check_roster(tournament, rules, team, member_ids, coach)
        team.head_coach_id = coach
        team.save()
        _save_roster(team, member_ids)
        audit(
            tournament=tournament,
            actor=actor,
            action="team.updated",
            target=team,
            before=before,
            after={"name": team.name, "members": sorted(member_ids), "head_coach": coach},
        )
        return team


def team_delete(*, actor: Any, team: Team) -> None:
    """Organisers dissolve a team before the event runs."""
    with transaction.atomic():
        tournament, team = _locked_team(team)
        permissions.require_organiser(actor, tournament)
        _require_teams_forming(tournament)
        audit(tournament=tournament, actor=actor, action="team.deleted", name=team.name)
        team.delete()


def team_role_format(registration: Registration) -> str:
    """The format a registration's deck is checked against: its role's in a team event (the
    Head Coach's may differ, tournaments.teams.RoleFormats), the event's otherwise."""
    tournament = registration.tournament
    rules = tournament.team_rules_value if tournament.team is not None else None
    if rules is None:
        return tournament.format_key
    coach = Team.objects.filter(tournament=tournament, head_coach=registration).exists()
    return rules.formats.format_for("head_coach" if coach else "player")
