"""Team pages of the rounds (docs/teams.md): a team's line-ups and results round by round (the
line-up form while a round is paired and unpublished), and the team matches shown above a
team round's pairings, each with its boards, for a phone."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.errors import Forbidden, ServiceError
from matches import services
from matches.models import Round, RoundStatus, TeamMatch
from matches.serializers import team_matches_data
from matches.views.tiebreaker_explanation import tiebreaker_columns, tiebreaker_value
from tournaments import permissions as perms
from tournaments import selectors as event_selectors
from tournaments.models import Team, TeamMember


class LineupForm(forms.Form):
    """One select per board: the team's roster, in board order."""

    def __init__(self, *args: Any, roster: list[tuple[int, str]], boards: int, **kwargs: Any):
        super().__init__(*args, **kwargs)
        for n in range(1, boards + 1):
            self.fields[f"board_{n}"] = forms.TypedChoiceField(
                label=gettext_lazy("Board %(n)d") % {"n": n},
                choices=[("", _("Choose a player")), *roster],
                coerce=int,
            )

    def players(self) -> list[int]:
        return [self.cleaned_data[name] for name in self.fields]


def _may_set(user: Any, team: Team) -> bool:
    if perms.is_organiser_of(user, team.tournament):
        return True
    return (
        perms.is_authenticated(user)
        and TeamMember.objects.filter(team=team, registration__player=user).exists()
    )


def team_lineups(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The team's team matches, latest round first: the line-up form while its round is
    paired (members and organisers), the boards and results once published."""
    event = event_selectors.visible_event(request, slug)
    team = event_selectors.team_visible(request.user, pk)
    if team.tournament_id != event.pk or event.team is None:
        raise Http404("No such team.")
    team = event_selectors.team_with_members(team.pk)
    rules = event.team_rules_value
    assert rules is not None
    may_set = _may_set(request.user, team)
    staff = perms.is_staff_of(request.user, event)
    roster = [(m.registration_id, m.registration.name) for m in team.members.all()]
    rounds = Round.objects.filter(tournament=event).order_by("-number")
    if not staff and not may_set:
        rounds = rounds.filter(status__in=[RoundStatus.PUBLISHED, RoundStatus.FINISHED])
    entries = []
    posted = request.POST.get("team_match") if request.method == "POST" else None
    for round_ in rounds:
        if round_.status == RoundStatus.PAIRING:
            continue
        tm = TeamMatch.objects.filter(Q(team_a=team) | Q(team_b=team), round=round_).first()
        if tm is None:
            continue
        data = next(d for d in team_matches_data(round_) if d["id"] == tm.pk)
        form = None
        if round_.status == RoundStatus.PAIRED and may_set and tm.team_b_id is not None:
            current = tm.lineups.filter(team=team).first()
            initial = (
                {f"board_{n}": p for n, p in enumerate(current.players, start=1)} if current else {}
            )
            bound = posted == str(tm.pk)
            form = LineupForm(
                request.POST if bound else None,
                roster=roster,
                boards=rules.team.players,
                initial=initial,
                prefix=f"tm{tm.pk}",
            )
            if bound and form.is_valid():
                try:
                    services.lineup_set(
                        actor=request.user, team_match=tm, team=team.pk, players=form.players()
                    )
                except Forbidden as exc:
                    raise PermissionDenied(exc.message) from None
                except ServiceError as exc:
                    form.add_error(None, exc.message)
                else:
                    messages.success(
                        request, _("Line-up for round %(n)d saved.") % {"n": round_.number}
                    )
                    return redirect("team_lineups", slug=event.slug, pk=team.pk)
        side = "a" if tm.team_a_id == team.pk else "b"
        entries.append({"round": round_, "tm": data, "side": side, "form": form})
    return render(
        request,
        "matches/team_lineups.html",
        {"event": event, "team": team, "entries": entries, "rules": rules},
    )


def team_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """A team event's standings (team-match points 3 / 1 / 0, the event's tiebreakers over
    teams, board records) after the latest finished round of one Swiss or round-robin stage
    (``?stage=N``; left out: the stage of the latest finished such round)."""
    event = event_selectors.visible_event(request, slug)
    if event.team is None:
        raise Http404("This event is not played by teams.")
    raw = request.GET.get("stage") or ""
    if raw and (not raw.isdigit() or not 0 < int(raw) < 1000):
        raise Http404("No such stage.")
    asked = int(raw) if raw else None
    row = services.team_standings_stage(event, asked)
    if asked is not None and (row is None or row.is_elimination):
        raise Http404("No standings for this stage.")
    last, lines = services.team_stage_standings(event, row) if row is not None else (0, [])
    columns = tiebreaker_columns(event.tiebreakers)
    rows = [
        {
            **line,
            "tb": [
                (k, label, tiebreaker_value(k, line["tiebreakers"].get(k))) for k, label in columns
            ],
        }
        for line in (lines if last else [])
    ]
    stages = [
        {"number": s.number, "name": s.name}
        for s in event_selectors.stage_rows(event)
        if not s.is_elimination
        and Round.objects.filter(
            tournament=event, stage_number=s.number, status=RoundStatus.FINISHED
        ).exists()
    ]
    return render(
        request,
        "matches/team_standings.html",
        {
            "event": event,
            "rows": rows,
            "columns": columns,
            "round_number": last,
            "stages": stages if len(stages) > 1 else [],
            "stage_number": row.number if row is not None else None,
            # the cut calculator of teams, while a Swiss stage with a cut after it is played
            "show_cut_calculator": bool(rows) and bool(services.cut_calculator(event)["rows"]),
        },
    )
