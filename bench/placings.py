"""Benchmark: final placings of an 8,192-player championship (issue 21: < 1 s).

    .venv/bin/python bench/placings.py [--flights 4] [--flight-size 2048] [--runs 20]
                                       [--seed 2026]

The event (not timed): day 1 in ``--flights`` flights of ``--flight-size`` players with random
standings (points over 9 rounds, two tiebreakers), a carried day 2 for everyone on 18 points or
more, then a top 8. Each stage's outcome is the plain values the site would pass; then
``tournaments.placings.compute_placings`` runs ``--runs`` times and the median and the worst
are printed. The figure is printed, not asserted. Not part of the test suite.

    .venv/bin/python bench/placings.py --postgres [--players 8192] [--swiss-rounds 9]

``--postgres`` times the site's path instead (``matches.placings``) on PostgreSQL
(``BENCH_DATABASE_URL``, default ``postgres://postgres@127.0.0.1:5432/placings_bench``; the
name must contain "bench": the script deletes its previous event there): an event of
``--players`` walk-ins written in bulk (not timed: random Swiss pairings and results, 2% drops,
its stored standings, a top 8 played to a champion, its stage rows as the services write them,
the Swiss stage's players included), then, ``--runs`` times,
the placings read and computed without the cache (``stage_outcomes`` + ``compute_placings``:
the standings snapshot's rows read and decoded, the bracket's matches, the pure core), the
version the cache is keyed by, and the contract's JSON with every name.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.placings import Elimination, StageOutcome, compute_placings
from tournaments.stages import FinalRow

GOAL_S = 1.0
DAY_TWO_POINTS = 18


def standings(ids: list[int], rng: random.Random, rounds: int) -> tuple[FinalRow, ...]:
    """Random standings rows, ranked as the standings core ranks them."""
    raw = [
        (
            3 * rng.randint(0, rounds),
            round(rng.uniform(0.33, 1), 4),
            round(rng.uniform(0.33, 1), 4),
            i,
        )
        for i in ids
    ]
    raw.sort(key=lambda r: (-r[0], -r[1], -r[2], r[3]))
    rows: list[FinalRow] = []
    for k, (points, omw, gw, pid) in enumerate(raw):
        same = rows and (rows[-1].points, rows[-1].tiebreakers) == (
            points,
            (("omw", omw), ("gw", gw)),
        )
        rank = rows[-1].rank if same else k + 1
        rows.append(FinalRow(pid, rank, points, (("omw", omw), ("gw", gw)), rng.random() < 0.02))
    return tuple(rows)


def build(flights: int, size: int, seed: int) -> list[StageOutcome]:
    rng = random.Random(seed)
    stages: list[StageOutcome] = []
    for f in range(flights):
        ids = list(range(f * size + 1, (f + 1) * size + 1))
        stages.append(StageOutcome(f + 1, "swiss", "finished", standing=standings(ids, rng, 9)))
    qualified = [
        r.registration
        for s in stages
        for r in s.standing
        if r.points >= DAY_TWO_POINTS and not r.dropped
    ]
    day_two = flights + 1
    day_two_rows = standings(qualified, rng, 14)
    stages.append(
        StageOutcome(
            day_two,
            "swiss",
            "finished",
            sources=tuple(range(1, flights + 1)),
            standing=day_two_rows,
        )
    )
    seeds = tuple(r.registration for r in day_two_rows if not r.dropped)[:8]
    gone = [Elimination(seeds[k], 1, "Quarterfinals") for k in (4, 5, 6, 7)]
    gone += [Elimination(seeds[k], 2, "Semifinals") for k in (2, 3)]
    gone.append(Elimination(seeds[1], 3, "Final"))
    stages.append(
        StageOutcome(
            day_two + 1,
            "single_elimination",
            "finished",
            sources=(day_two,),
            seeds=seeds,
            eliminated=tuple(gone),
            champion=seeds[0],
        )
    )
    return stages


BENCH_DATABASE = "postgres://postgres@127.0.0.1:5432/placings_bench"
SLUG = "placings-bench"


def build_event(players: int, swiss_rounds: int, seed: int) -> object:
    """A finished legacy event (Swiss, then a top 8) written in bulk; its standings stored."""
    from django.utils import timezone

    from matches.models import Match, MatchStatus, Round, RoundStage, RoundStatus
    from matches.services import standings_snapshot
    from tournaments.models import Registration, Stage, Tournament
    from tournaments.stages import legacy_stages

    rng = random.Random(seed)
    old = Tournament.objects.filter(slug=SLUG).first()
    if old is not None:
        Round.objects.filter(tournament=old).delete()
        old.delete()
    now = timezone.now()
    event = Tournament.objects.create(
        name="Placings Bench",
        slug=SLUG,
        game="boba",
        mode="playmaker",
        format_key="playmaker",
        match_structure="bo1",
        starts_at=now,
        time_zone="UTC",
        status="finished",
        planned_rounds=swiss_rounds,
        top_cut_size=8,
    )
    regs = Registration.objects.bulk_create(
        [
            Registration(tournament=event, walk_in_name=f"Bench Player {i}", status="registered")
            for i in range(players)
        ],
        batch_size=2000,
    )
    ids = [r.pk for r in regs]
    dropped: set[int] = set()

    def result(m: Match) -> Match:
        won = rng.random() < 0.5
        m.status, m.games_a, m.games_b, m.games_drawn = MatchStatus.FINAL, int(won), 1 - won, 0
        m.result_version = 1
        return m

    for number in range(1, swiss_rounds + 1):
        round_ = Round.objects.create(
            tournament=event,
            number=number,
            stage=RoundStage.SWISS,
            stage_number=1,
            name=f"Round {number}",
            status=RoundStatus.FINISHED,
            finished_at=now,
        )
        active = [pk for pk in ids if pk not in dropped]
        rng.shuffle(active)
        matches = [
            result(Match(round=round_, table=k + 1, a_id=active[2 * k], b_id=active[2 * k + 1]))
            for k in range(len(active) // 2)
        ]
        if len(active) % 2:
            bye = Match(round=round_, a_id=active[-1], status=MatchStatus.FINAL)
            bye.games_a, bye.games_b, bye.games_drawn, bye.result_version = 1, 0, 0, 1
            matches.append(bye)
        Match.objects.bulk_create(matches, batch_size=2000)
        dropped |= {pk for pk in active if rng.random() < 0.02}
    Registration.objects.filter(pk__in=dropped).update(dropped_at=now)
    started = time.perf_counter()
    snapshot = standings_snapshot(event)
    print(f"standings of {players} players stored in {time.perf_counter() - started:.1f} s")
    seeds = [row["registration"] for row in snapshot.rows if not row["dropped"]][:8]
    names = ("Quarterfinals", "Semifinals", "Final")
    alive = [(seeds[s - 1], s) for s in (1, 8, 4, 5, 2, 7, 3, 6)]
    for k, name in enumerate(names):
        round_ = Round.objects.create(
            tournament=event,
            number=swiss_rounds + 1 + k,
            stage=RoundStage.TOP_CUT,
            stage_number=2,
            name=name,
            status=RoundStatus.FINISHED,
            finished_at=now,
        )
        played, winners = [], []
        for t in range(len(alive) // 2):
            (a, sa), (b, sb) = alive[2 * t], alive[2 * t + 1]
            m = result(Match(round=round_, table=t + 1, a_id=a, b_id=b, seed_a=sa, seed_b=sb))
            played.append(m)
            winners.append((a, sa) if m.games_a else (b, sb))
        Match.objects.bulk_create(played)
        alive = winners
    rules = legacy_stages(8)
    Stage.objects.bulk_create(
        [
            Stage.from_rule(event, rules[0]),
            Stage.from_rule(event, rules[1]),
        ]
    )
    # The stage rows as the services leave them: the Swiss stage's players fixed when the
    # event started (start_first_stages: every registered player, seed order), the top 8's
    # seeds when it started; placings then read no match to learn who played the Swiss.
    Stage.objects.filter(tournament=event, number=1).update(players=ids)
    Stage.objects.filter(tournament=event, number=2).update(players=seeds, started_at=now)
    Stage.objects.filter(tournament=event).update(started_at=now, finished_at=now)
    return event


def postgres(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import harness

    if harness.start("placings.py", BENCH_DATABASE, "placings-bench-secret") is None:
        return
    from matches.placings import placings_json, placings_version, stage_outcomes

    started = time.perf_counter()
    event = build_event(args.players, args.swiss_rounds, args.seed)
    print(f"event built in {time.perf_counter() - started:.1f} s")
    harness.analyze()
    computed: list[float] = []
    versions: list[float] = []
    named: list[float] = []
    for _ in range(args.runs):
        start = time.perf_counter()
        placings = compute_placings(stage_outcomes(event))  # type: ignore[arg-type]
        computed.append(time.perf_counter() - start)
        start = time.perf_counter()
        placings_version(event)  # type: ignore[arg-type]
        versions.append(time.perf_counter() - start)
        start = time.perf_counter()
        body = placings_json(event, placings=placings)  # type: ignore[arg-type]
        named.append(time.perf_counter() - start)
    assert placings.final and len(body["rows"]) == args.players
    print(
        f"site placings of {len(placings.rows)} players (Swiss of {args.swiss_rounds} rounds, "
        f"top 8) on PostgreSQL: computed median {statistics.median(computed) * 1000:.0f} ms, "
        f"worst {max(computed) * 1000:.0f} ms (goal < {GOAL_S * 1000:.0f} ms); the cache's "
        f"version {statistics.median(versions) * 1000:.1f} ms; JSON with names "
        f"{statistics.median(named) * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flights", type=int, default=4)
    parser.add_argument("--flight-size", type=int, default=2048)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--postgres", action="store_true", help="time the site's path")
    parser.add_argument("--players", type=int, default=8192)
    parser.add_argument("--swiss-rounds", type=int, default=9)
    args = parser.parse_args()
    if args.postgres:
        postgres(args)
        return
    stages = build(args.flights, args.flight_size, args.seed)
    times: list[float] = []
    for _ in range(args.runs):
        start = time.perf_counter()
        placings = compute_placings(stages)
        times.append(time.perf_counter() - start)
    players = len(placings.rows)
    day_two = len(stages[-2].standing)
    print(
        f"placings of {players} players ({args.flights} flights, {day_two} in day 2, top 8): "
        f"median {statistics.median(times) * 1000:.1f} ms, worst {max(times) * 1000:.1f} ms "
        f"(goal < {GOAL_S * 1000:.0f} ms)"
    )


if __name__ == "__main__":
    main()
