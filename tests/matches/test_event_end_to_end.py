"""A whole event through the REST API: 64 players, six Swiss rounds reported by both players
(drops, a late entry, a correction of an earlier round), then a top 8 to a champion.

Checked against the rules, not against the site's own numbers: no rematches, the bye to the
lowest-ranked player without one (rules README decision 11), standings equal to the pure core's
over the history this test recorded itself, and every result change in the audit trail.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.models import ResultVersion
from tests.factories import UserFactory
from tests.scenarios import client_for, running_event
from tournaments.models import AuditEntry, Registration
from tournaments.standings import MatchRecord, Player, Scoring, compute_standings, rank_summary

pytestmark = pytest.mark.django_db

# The event is best of 1: a bye is worth 1-0 in games (rules README decision 11).
BEST_OF_ONE_SCORING = Scoring(bye_games=(1, 0))

TIEBREAKERS = ("omw", "gw", "ogw", "battle_diff")


def _games(rng: random.Random) -> tuple[list[int], list[list[int]]]:
    """A best-of-one BoBA result with trophies: a win either way, now and then a draw."""
    roll = rng.random()
    if roll < 0.06:
        return [0, 0, 1], [[3, 3]]
    if roll < 0.53:
        return [1, 0, 0], [[4, rng.randint(0, 3)]]
    return [0, 1, 0], [[rng.randint(0, 3), 4]]


def _record(match: dict[str, Any]) -> MatchRecord:
    if match["b"] is None:
        return MatchRecord(a=str(match["a"]))
    games = tuple(match["result"]["games"])
    battles = match["result"].get("battles")
    trophies = (sum(g[0] for g in battles), sum(g[1] for g in battles)) if battles else None
    result = "a" if games[0] > games[1] else "b" if games[1] > games[0] else "draw"
    return MatchRecord(
        a=str(match["a"]), b=str(match["b"]), result=result, games=games, battles=trophies
    )


def test_sixty_four_players_six_rounds_and_a_top_eight() -> None:
    rng = random.Random(20261122)
    event, organiser, regs = running_event(64, planned_rounds=6, top_cut_size=8)
    staff = client_for(organiser)
    client_of = {r.pk: client_for(r.player) for r in regs}
    slug = event.slug
    history: list[list[MatchRecord]] = []
    met: set[frozenset[int]] = set()
    byes: set[int] = set()
    dropped: set[int] = set()
    late: dict[int, int] = {}
    corrected = False

    for number in range(1, 7):
        if number == 2:  # two players drop after round 1; 62 left
            for reg in regs[10:12]:
                response = client_of[reg.pk].post(f"/api/registrations/{reg.pk}/drop/", {})
                assert response.status_code == 200, response.content
                dropped.add(reg.pk)
        if number == 3:  # a walk-in joins late: 63, so somebody gets the bye
            walk_in = staff.post(f"/api/events/{slug}/walk-ins/", {"name": "Late Larry"})
            assert walk_in.status_code == 201, walk_in.content
            newcomer = Registration.objects.get(pk=walk_in.json()["id"])
            newcomer.player = UserFactory()
            newcomer.save()
            client_of[newcomer.pk] = client_for(newcomer.player)
            late[newcomer.pk] = 3
        players = [
            Player(
                id=str(pk),
                dropped=pk in dropped,
                late_entry_round=late.get(pk, 1),
                late_entry_losses=pk in late,
            )
            for pk in sorted(client_of)
        ]
        rank_before = rank_summary(players, history, BEST_OF_ONE_SCORING, TIEBREAKERS)

        created = staff.post(f"/api/events/{slug}/rounds/", {}, format="json")
        assert created.status_code == 201, created.content
        assert created.json()["number"] == number
        published = staff.post(f"/api/events/{slug}/rounds/{number}/publish/", {}, format="json")
        matches = published.json()["matches"]

        active = {int(p.id) for p in players if not p.dropped and p.late_entry_round <= number}
        seated = [m["a"] for m in matches] + [m["b"] for m in matches if m["b"] is not None]
        assert sorted(seated) == sorted(active)  # everyone active once, nobody dropped
        for m in matches:
            if m["b"] is None:
                # Decision 11: the lowest-ranked active player without a bye.
                candidates = [
                    int(pid)
                    for _rank, pid, _pts, had in rank_before
                    if int(pid) in active and not had
                ]
                lowest_rank = next(r for r, pid, *_ in rank_before if int(pid) == candidates[-1])
                tied_lowest = {int(pid) for r, pid, *_ in rank_before if r == lowest_rank}
                assert m["a"] in tied_lowest, (number, m, candidates[-3:])
                assert m["a"] not in byes
                byes.add(m["a"])
                continue
            pair = frozenset((m["a"], m["b"]))
            assert pair not in met, f"rematch in round {number}"
            met.add(pair)
            games, battles = _games(rng)
            body = {"games": games, "battles": battles}
            reporter, other = (m["a"], m["b"]) if rng.random() < 0.5 else (m["b"], m["a"])
            first = client_of[reporter].post(f"/api/matches/{m['id']}/report/", body, format="json")
            assert first.status_code == 200, first.content
            assert first.json()["status"] == "reported"
            if rng.random() < 0.5:
                second = client_of[other].post(f"/api/matches/{m['id']}/confirm/", {})
            else:
                second = client_of[other].post(
                    f"/api/matches/{m['id']}/report/", body, format="json"
                )
            assert second.status_code == 200 and second.json()["status"] == "final"

        if number == 5 and not corrected:  # a 2-0 typo found rounds later: round 2 corrected
            round_two = APIClient().get(f"/api/events/{slug}/rounds/2/").json()
            target = next(
                m
                for m in round_two["matches"]
                if m["b"] is not None and m["result"]["games"][2] == 0
            )
            flipped = {
                "games": [target["result"]["games"][1], target["result"]["games"][0], 0],
                "battles": [[b, a] for a, b in target["result"]["battles"]],
                "reason": "the slip was read the wrong way round",
            }
            fixed = staff.post(f"/api/matches/{target['id']}/report/", flipped, format="json")
            assert fixed.status_code == 200, fixed.content
            corrected = True

        rounds_json = [
            APIClient().get(f"/api/events/{slug}/rounds/{n}/").json() for n in range(1, number + 1)
        ]
        assert all(r["status"] == "finished" for r in rounds_json)
        history = [[_record(m) for m in r["matches"]] for r in rounds_json]

        expected = compute_standings(players, history, BEST_OF_ONE_SCORING, TIEBREAKERS)
        site = APIClient().get(f"/api/events/{slug}/standings/").json()
        assert site["round"] == number
        assert [(r["registration"], r["rank"], r["points"]) for r in site["rows"]] == [
            (int(row.player_id), row.rank, row.points) for row in expected
        ]
        for row, mine in zip(site["rows"], expected, strict=True):
            for name, value in mine.tiebreakers:
                if name in row["tiebreakers"]:
                    assert row["tiebreakers"][name] == pytest.approx(value, abs=1e-6)
            assert row["dropped"] == mine.dropped

    assert len(byes) == 4  # rounds 3-6 had an odd field

    # Top 8 from the frozen final standings, seeded 1 v 8, 4 v 5, 2 v 7, 3 v 6.
    final_rows = APIClient().get(f"/api/events/{slug}/standings/").json()["rows"]
    eligible = [r["registration"] for r in final_rows if not r["dropped"]][:8]
    cut = staff.post(f"/api/events/{slug}/top-cut/", {}, format="json")
    assert cut.status_code == 201, cut.content
    bracket = cut.json()
    assert [(m["a"], m["b"]) for m in bracket["matches"]] == [
        (eligible[0], eligible[7]),
        (eligible[3], eligible[4]),
        (eligible[1], eligible[6]),
        (eligible[2], eligible[5]),
    ]
    number = bracket["number"]
    while True:
        staff.post(f"/api/events/{slug}/rounds/{number}/publish/", {}, format="json")
        current = APIClient().get(f"/api/events/{slug}/rounds/{number}/").json()
        for m in current["matches"]:
            games = [1, 0, 0] if rng.random() < 0.6 else [0, 1, 0]
            client_of[m["a"]].post(
                f"/api/matches/{m['id']}/report/", {"games": games}, format="json"
            )
            done = client_of[m["b"]].post(f"/api/matches/{m['id']}/confirm/", {})
            assert done.json()["status"] == "final"
        if len(current["matches"]) == 1:
            winner = m["a"] if games[0] else m["b"]
            break
        nxt = staff.post(f"/api/events/{slug}/rounds/", {}, format="json")
        assert nxt.status_code == 201, nxt.content
        number = nxt.json()["number"]

    event.refresh_from_db()
    assert event.status == "finished"
    assert APIClient().get(f"/api/events/{slug}/top-cut/").json()["champion"] == winner

    # Every result change is in the audit trail, with who, before, after and the reason.
    changes = ResultVersion.objects.filter(match__round__tournament=event).exclude(change="bye")
    audited = AuditEntry.objects.filter(tournament=event, action__startswith="match.")
    assert audited.count() == changes.count()
    correction = audited.get(action="match.corrected")
    assert correction.actor == organiser
    assert correction.data["reason"] == "the slip was read the wrong way round"
    assert correction.data["before"]["games"] != correction.data["after"]["games"]
    trail = staff.get(f"/api/events/{slug}/audit/?limit=1000").json()
    assert any(e["action"] == "match.corrected" for e in trail["results"])
