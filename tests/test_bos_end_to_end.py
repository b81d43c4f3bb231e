"""A whole BOS event through the REST API, as an organiser, its players and a judge run it:
the event made on the game's defaults (best of 3, the recommended clock), players registering
and submitting BOS lists, three Swiss rounds reported game by game (bids, ether, who chose
first, reserve swaps), standings on BOS's tiebreakers, a judge ruling with a BOS game record,
and a best-of-3 top 4 to a champion.

Checked against the rules, not the site's own numbers: ether is what BOS: Going First gives,
no game is drawn (BOS: Decay), standings equal the pure core's over the history this test
recorded, and every result change is in the audit trail with its game details.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from decks.catalog import catalog_for
from decks.services import demo_catalog_load
from engine.games import get_game
from matches.models import ResultVersion
from tests.engine.bos.factory import attack, record, start, summon
from tests.factories import OrganiserFactory, UserFactory
from tests.scenarios import client_for
from tournaments.models import AuditEntry, Registration, Tournament
from tournaments.standings import MatchRecord, Player, Scoring, compute_standings

pytestmark = pytest.mark.django_db

GAME = "bos"
PLAYERS = 10


def _game_details(rng: random.Random, games_to_win: int) -> tuple[list[int], list[dict[str, Any]]]:
    """A best-of-3 BOS match game by game, with distinct bids (a tie is bid again)."""
    won = {"a": 0, "b": 0}
    details: list[dict[str, Any]] = []
    while max(won.values()) < games_to_win:
        bids = rng.sample(range(0, 9), 2)
        chooser = "a" if bids[0] > bids[1] else "b"
        winner = rng.choice("ab")
        won[winner] += 1
        details.append(
            {
                "winner": winner,
                "bids": bids,
                "chose_first": chooser,
                "first": rng.choice("ab"),
            }
        )
    return [won["a"], won["b"], 0], details


def _expected_ether(bids: list[int]) -> list[int]:
    """BOS: Going First: the lower bidder receives ether equal to their bid."""
    low = min(bids)
    return [low if bid == low else 0 for bid in bids]


def _match_record(match: dict[str, Any]) -> MatchRecord:
    if match["b"] is None:
        return MatchRecord(a=str(match["a"]))
    games = tuple(match["result"]["games"])
    result = "a" if games[0] > games[1] else "b"
    return MatchRecord(a=str(match["a"]), b=str(match["b"]), result=result, games=games)


def _make_event(organiser: Any) -> Tournament:
    staff = client_for(organiser)
    created = staff.post(
        "/api/events/",
        {
            "name": "BOS Saturday",
            "game": GAME,
            "starts_at": "2030-01-01T10:00",
            "time_zone": "UTC",
            "round_minutes": 50,
            "planned_rounds": 3,
            "top_cut_size": 4,
            "clock_mode": "per_game",
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    body = created.json()
    plugin = get_game(GAME)
    assert (body["mode"], body["format_key"], body["match_structure"]) == (
        plugin.default_mode,
        plugin.default_format,
        "bo3",
    )
    slug = body["slug"]
    opened = staff.post(
        f"/api/events/{slug}/transition/", {"to": "registration_open"}, format="json"
    )
    assert opened.status_code == 200, opened.content
    return Tournament.objects.get(slug=slug)


def test_a_bos_event_from_registration_to_champion() -> None:
    rng = random.Random(20261123)
    demo_catalog_load(game=GAME)
    rules = get_game(GAME).deck_rules()
    catalog = catalog_for(GAME)
    fmt = rules.resolve_format("competitive")

    organiser = OrganiserFactory()
    judge = UserFactory()
    event = _make_event(organiser)
    event.judges.add(judge)
    staff = client_for(organiser)
    slug = event.slug

    client_of: dict[int, APIClient] = {}
    for n in range(PLAYERS):
        player = UserFactory()
        client = client_for(player)
        joined = client.post(f"/api/events/{slug}/register/", {}, format="json")
        assert joined.status_code == 201, joined.content
        reg_id = joined.json()["id"]
        text = rules.export(rules.sample(catalog, fmt, n + 1), catalog)
        submitted = client.post(
            f"/api/registrations/{reg_id}/decklist/", {"text": text}, format="json"
        )
        assert submitted.status_code in (200, 201), submitted.content
        assert submitted.json()["legal"] is True, submitted.json()
        client_of[reg_id] = client

    for to in ("registration_closed", "running"):
        moved = staff.post(f"/api/events/{slug}/transition/", {"to": to}, format="json")
        assert moved.status_code == 200, moved.content
    checked = staff.post(
        f"/api/events/{slug}/check-in/",
        {"registrations": list(client_of), "checked_in": True},
        format="json",
    )
    assert checked.status_code == 200, checked.content

    tiebreakers = get_game(GAME).tiebreakers
    assert "battle_diff" not in tiebreakers
    players = [Player(id=str(pk)) for pk in sorted(client_of)]
    history: list[list[MatchRecord]] = []
    for number in (1, 2, 3):
        created = staff.post(f"/api/events/{slug}/rounds/", {}, format="json")
        assert created.status_code == 201, created.content
        published = staff.post(f"/api/events/{slug}/rounds/{number}/publish/", {}, format="json")
        for m in published.json()["matches"]:
            if m["b"] is None:
                continue
            games, details = _game_details(rng, 2)
            body = {"games": games, "game_details": details}
            first = client_of[m["a"]].post(f"/api/matches/{m['id']}/report/", body, format="json")
            assert first.status_code == 200, first.content
            assert first.json()["status"] == "reported"
            second = client_of[m["b"]].post(f"/api/matches/{m['id']}/confirm/", {})
            assert second.status_code == 200 and second.json()["status"] == "final"
            stored = second.json()["result"]["game_details"]
            assert [g["winner"] for g in stored] == [g["winner"] for g in details]
            assert [g["ether"] for g in stored] == [_expected_ether(g["bids"]) for g in details]
            assert [g["chose_first"] for g in stored] == [g["chose_first"] for g in details]

        round_json = APIClient().get(f"/api/events/{slug}/rounds/{number}/").json()
        assert round_json["status"] == "finished"
        history.append([_match_record(m) for m in round_json["matches"]])
        expected = compute_standings(players, history, Scoring(), tiebreakers)
        site = APIClient().get(f"/api/events/{slug}/standings/").json()
        assert [(r["registration"], r["rank"], r["points"]) for r in site["rows"]] == [
            (int(row.player_id), row.rank, row.points) for row in expected
        ]
        for row, mine in zip(site["rows"], expected, strict=True):
            assert set(row["tiebreakers"]) == set(tiebreakers)
            for name, value in mine.tiebreakers:
                assert row["tiebreakers"][name] == pytest.approx(value, abs=1e-6)

    # A judge rules on a round-3 match with a BOS game record: the BOS engine replays it.
    target = next(m for m in round_json["matches"] if m["b"] is not None)
    call = client_of[target["a"]].post(
        f"/api/matches/{target['id']}/calls/", {"question": "Could they attack me?"}
    )
    assert call.status_code == 201, call.content
    judge_client = client_for(judge)
    claimed = judge_client.post(f"/api/calls/{call.json()['id']}/claim/", {}, format="json")
    assert claimed.status_code == 200, claimed.content
    illegal = record([start("A"), summon("A", 1, "sprite"), attack("A", 1, {"player": "B"})])
    ruled = judge_client.post(
        f"/api/calls/{call.json()['id']}/ruling/",
        {
            "text": "B had not started a first turn.",
            "citations": ["BOS: Player Attack"],
            "record": illegal,
        },
        format="json",
    )
    assert ruled.status_code == 201, ruled.content
    replay = ruled.json()["replay"]
    assert replay["legal"] is False and replay["error"]["rule"] == "BOS: Player Attack"

    # Top 4, best of 3, no drawn games, to a champion.
    final_rows = APIClient().get(f"/api/events/{slug}/standings/").json()["rows"]
    top = [r["registration"] for r in final_rows][:4]
    cut = staff.post(f"/api/events/{slug}/top-cut/", {}, format="json")
    assert cut.status_code == 201, cut.content
    assert [(m["a"], m["b"]) for m in cut.json()["matches"]] == [(top[0], top[3]), (top[1], top[2])]
    number = cut.json()["number"]
    while True:
        staff.post(f"/api/events/{slug}/rounds/{number}/publish/", {}, format="json")
        current = APIClient().get(f"/api/events/{slug}/rounds/{number}/").json()
        for m in current["matches"]:
            games, details = _game_details(rng, 2)
            body = {"games": games, "game_details": details}
            client_of[m["a"]].post(f"/api/matches/{m['id']}/report/", body, format="json")
            done = client_of[m["b"]].post(f"/api/matches/{m['id']}/confirm/", {})
            assert done.json()["status"] == "final", done.content
        if len(current["matches"]) == 1:
            winner = m["a"] if games[0] > games[1] else m["b"]
            break
        nxt = staff.post(f"/api/events/{slug}/rounds/", {}, format="json")
        assert nxt.status_code == 201, nxt.content
        number = nxt.json()["number"]
    event.refresh_from_db()
    assert event.status == "finished"
    assert APIClient().get(f"/api/events/{slug}/top-cut/").json()["champion"] == winner

    # Every result change is audited with its game details.
    versions = ResultVersion.objects.filter(match__round__tournament=event).exclude(change="bye")
    assert versions.exists()
    assert all(v.after.get("game_details") for v in versions if v.after.get("games"))
    audited = AuditEntry.objects.filter(tournament=event, action__startswith="match.")
    assert audited.count() >= versions.count()
    assert Registration.objects.filter(tournament=event).count() == PLAYERS
