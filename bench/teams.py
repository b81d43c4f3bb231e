"""Benchmark: a 64-team APEX Madness round (128 boards, 256 players) paired and its boards written.

    .venv/bin/python bench/teams.py [--teams 64] [--seed 2026]

A running APEX Madness event (teams of 4, a Head Coach each, boards best of 3) of ``--teams``
teams. Round 1 is paired through ``matches.services.round_pair`` (Swiss over the teams), every
line-up is set through ``services.lineup_set`` and the round published through
``services.round_publish`` (which pairs the 4 boards of each team match from the line-ups:
64 teams make 32 team matches, 128 boards, 256 players); its results are entered by staff
through ``services.match_report``, board by board (the team matches follow, ties pair the
decider). Round 2 is then paired over the team standings and published the same way. The
figure, for each round: pairing (``round_pair``) plus publishing (``round_publish``: the
boards written, the pairings notices queued on the broker as a server queues them, not
delivered in this process), the line-ups left out; goal < 1 s. The process is warmed first
as a serving one is (URLs loaded, the event's formats imported).

The event lives in its own database (default postgres://postgres@127.0.0.1:5432/bench_teams, or
BENCH_DATABASE_URL; created and migrated when missing; its name must contain "bench"). Every
run deletes the previous run's event and players and builds them again, in bulk. Seeded.
Without a reachable PostgreSQL it prints why and exits 0. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import harness  # bench/harness.py; importing it puts the repository on sys.path
from harness import fmt, yes

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench_teams"
SECRET_KEY = "bench-teams-not-a-secret-0123456789abcdefghijklmnopqrstuvwxyz0123456"
USER_PREFIX = "bench-teams-"
BOARDS = 4
GOAL_S = 1.0


@dataclass
class Bench(harness.BaseBench):
    teams: list[Any] = field(default_factory=list)
    rosters: dict[int, list[int]] = field(default_factory=dict)  # team id -> registration ids


def delete_previous() -> float:
    from matches.models import Lineup, Match, Report, ResultVersion, TeamMatch
    from tournaments.models import Team, Tournament

    started = time.perf_counter()
    events = Tournament.objects.filter(slug__startswith=USER_PREFIX)
    Report.objects.filter(match__round__tournament__in=events).delete()
    ResultVersion.objects.filter(match__round__tournament__in=events).delete()
    Match.objects.filter(round__tournament__in=events).delete()
    Lineup.objects.filter(team_match__round__tournament__in=events).delete()
    TeamMatch.objects.filter(round__tournament__in=events).delete()
    Team.objects.filter(tournament__in=events).delete()
    return time.perf_counter() - started + harness.delete_previous(USER_PREFIX)


def build_event(b: Bench) -> None:
    from django.utils import timezone

    from tournaments.models import Team, TeamMember, Tournament
    from tournaments.status import EventStatus

    n = b.args.teams
    deleted = delete_previous()
    started = time.perf_counter()
    b.organiser, users, _ = harness.new_people(USER_PREFIX, n * BOARDS, organiser_number=n * BOARDS)
    b.event = Tournament.objects.create(
        name=f"Bench APEX Madness {n}",
        slug=f"{USER_PREFIX}{n}",
        game="boba",
        mode="rookie",
        format_key="apex_madness",
        match_structure="bo3",
        starts_at=timezone.now(),
        status=EventStatus.RUNNING.value,
        require_legal_decklist=False,
        top_cut_size=0,
        pairing_seed=f"bench{b.args.seed}",
        team={"players": BOARDS, "roster_max": 6, "head_coach": True},
        team_rules={"preset": "apex_madness"},
        created_by=b.organiser,
    )
    b.event.organisers.add(b.organiser)
    registrations = harness.register(b.event, users)
    b.teams = Team.objects.bulk_create(
        [Team(tournament=b.event, name=f"Team {i + 1:02d}") for i in range(n)]
    )
    members = []
    for i, team in enumerate(b.teams):
        roster = registrations[i * BOARDS : (i + 1) * BOARDS]
        b.rosters[team.pk] = [r.pk for r in roster]
        team.head_coach_id = roster[-1].pk
        members += [TeamMember(team=team, registration=r) for r in roster]
    Team.objects.bulk_update(b.teams, ["head_coach"])
    TeamMember.objects.bulk_create(members)
    harness.print_built(b.event.slug, f"{n} teams, {n * BOARDS:,} players", started, deleted)


@contextmanager
def tasks_queued() -> Iterator[None]:
    """The tasks sent meanwhile (the pairings notices) are queued on the in-memory broker, as
    a server queues them on Redis for the Celery worker, instead of run in this process: the
    figure is the publishing, not the worker's delivery of 256 notices. Nobody consumes that
    broker: the notices of this run are never delivered (e-mails go nowhere here anyway)."""
    from config.celery import app as celery_app

    # Namespaced settings (CELERY_...): that is the key to set (harness.start).
    celery_app.conf.update(CELERY_TASK_ALWAYS_EAGER=False)
    if celery_app.conf.task_always_eager:
        raise RuntimeError("could not queue the Celery tasks")
    try:
        yield
    finally:
        celery_app.conf.update(CELERY_TASK_ALWAYS_EAGER=True)


def warm_up(b: Bench) -> None:
    """What a serving process has done before its first round: the URLs loaded (notices link
    to pages) and the event's formats imported, so round 1's figure is not the imports'."""
    from django.urls import get_resolver

    get_resolver().reverse_dict  # noqa: B018 (loading the URLconf is the point)
    assert b.event.team_rules_value is not None


def play(b: Bench, number: int) -> None:
    from matches import services
    from matches.models import Match, MatchStatus, RoundStatus, TeamMatch

    started = time.perf_counter()
    round_ = services.round_pair(actor=b.organiser, tournament=b.event)
    paired = time.perf_counter() - started
    if round_.status != RoundStatus.PAIRED:
        raise RuntimeError(f"round {number} not paired: {round_.pairing_error}")
    team_matches = list(TeamMatch.objects.filter(round=round_, team_b__isnull=False))
    for tm in team_matches:
        for team in (tm.team_a_id, tm.team_b_id):
            assert team is not None
            services.lineup_set(
                actor=b.organiser, team_match=tm, team=team, players=b.rosters[team]
            )
    started = time.perf_counter()
    with tasks_queued():
        services.round_publish(actor=b.organiser, round_=round_)
    published = time.perf_counter() - started
    boards = Match.objects.filter(round=round_, team_match__isnull=False).count()
    total = paired + published
    print(
        f"round {number}: {len(team_matches)} team matches, {boards} boards: paired in "
        f"{fmt(paired)} + published (boards written) in {fmt(published)} = {fmt(total)} "
        f"(goal < {GOAL_S:g} s: {yes(total < GOAL_S)})",
        flush=True,
    )
    b.summary.append(
        (
            f"round {number} paired + boards written",
            fmt(total),
            f"< {GOAL_S:g} s",
            yes(total < GOAL_S),
        )
    )
    started = time.perf_counter()
    while True:
        pending = list(
            Match.objects.filter(round=round_)
            .exclude(status=MatchStatus.FINAL)
            .select_related("round")
        )
        if not pending:
            break
        for match in pending:
            games = [2, 0, 0] if b.rng.random() < 0.5 else [1, 2, 0]
            if match.is_decider:
                games = [1, 0, 0] if games[0] == 2 else [0, 1, 0]
            services.match_report(actor=b.organiser, match=match, games=games)
    round_.refresh_from_db()
    print(
        f"  results entered through the services in {fmt(time.perf_counter() - started)}; "
        f"round {round_.status}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teams", type=int, default=64)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    setup = harness.start("bench/teams.py", DEFAULT_DATABASE_URL, SECRET_KEY)
    if setup is None:
        return 0
    b = Bench(args, random.Random(args.seed))
    build_event(b)
    harness.analyze()
    warm_up(b)
    for number in (1, 2):
        play(b, number)
    harness.print_summary(f"{args.teams} teams", setup.at, b.summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
