"""Acceptance-style audit of the event API against ../shared/spec/event-api.md and the rules
README (decisions 4-6, 11-14), through the REST API only, as an outside tool would use it.

Expected numbers are worked out by hand in the comments, never taken from the site itself.
The audit's two findings (games played beyond the match structure; rounded standings numbers)
are fixed, and their tests pin the fixes.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tests.scenarios import client_for, running_event
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

ROUND_KEYS = {"number", "stage", "status", "ends_at", "matches"}
MATCH_KEYS = {"id", "table", "a", "b", "status", "result", "reason"}
BOBA_TIEBREAKERS = ["omw", "gw", "ogw", "battle_diff"]


# --- helpers ---------------------------------------------------------------------------------


def _post(client: APIClient, url: str, body: dict[str, Any] | None = None) -> Any:
    return client.post(url, body or {}, format="json")


def _pair(staff: APIClient, slug: str) -> dict[str, Any]:
    response = _post(staff, f"/api/events/{slug}/rounds/")
    assert response.status_code == 201, response.content
    return response.json()


def _publish(staff: APIClient, slug: str, number: int) -> dict[str, Any]:
    response = _post(staff, f"/api/events/{slug}/rounds/{number}/publish/")
    assert response.status_code == 200, response.content
    return response.json()


def _round(client: APIClient, slug: str, number: int) -> dict[str, Any]:
    response = client.get(f"/api/events/{slug}/rounds/{number}/")
    assert response.status_code == 200, response.content
    return response.json()


def _player(registration_id: int) -> APIClient:
    return client_for(Registration.objects.get(pk=registration_id).player)


def _seat(matches: list[dict[str, Any]], pid: int) -> dict[str, Any]:
    return next(m for m in matches if pid in (m["a"], m["b"]))


def _force(staff: APIClient, slug: str, number: int, pairs: list[tuple[int, int | None]]) -> None:
    """Make the paired (unpublished) round hold exactly ``pairs`` (the bye last, as (x, None))
    with the organisers' swap tool, so that the hand-worked history below is the one played."""
    url = f"/api/events/{slug}/rounds/{number}/swap/"
    for x, y in pairs:
        matches = _round(staff, slug, number)["matches"]
        mx = _seat(matches, x)
        if y is None:
            if mx["b"] is not None:
                holder = next(m for m in matches if m["b"] is None)["a"]
                assert _post(staff, url, {"first": x, "second": holder}).status_code == 200
            continue
        opponent = mx["b"] if mx["a"] == x else mx["a"]
        if opponent == y:
            continue
        if opponent is None:  # x holds the bye: x takes the seat of y's opponent
            my = _seat(matches, y)
            z = my["b"] if my["a"] == y else my["a"]
            assert _post(staff, url, {"first": x, "second": z}).status_code == 200
        else:
            assert _post(staff, url, {"first": opponent, "second": y}).status_code == 200
    matches = _round(staff, slug, number)["matches"]
    got = {frozenset((m["a"], m["b"])) if m["b"] else frozenset((m["a"],)) for m in matches}
    want = {frozenset((x, y)) if y else frozenset((x,)) for x, y in pairs}
    assert got == want


def _enter(
    staff: APIClient,
    matches: list[dict[str, Any]],
    x: int,
    games_x: list[int],
    battles_x: list[list[int]] | None = None,
    reason: str = "result slip",
) -> dict[str, Any]:
    """Staff enter x's match result given from x's side; the API wants it in a/b terms."""
    m = _seat(matches, x)
    games, battles = games_x, battles_x
    if m["a"] != x:
        games = [games_x[1], games_x[0], games_x[2]]
        battles = [[tb, ta] for ta, tb in battles_x] if battles_x is not None else None
    body: dict[str, Any] = {"games": games, "reason": reason}
    if battles is not None:
        body["battles"] = battles
    response = _post(staff, f"/api/matches/{m['id']}/report/", body)
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "final"
    return response.json()


def _published_match(players: int = 2, **fields: Any) -> tuple[Any, Any, dict[str, Any]]:
    event, organiser, _ = running_event(players, **fields)
    staff = client_for(organiser)
    number = _pair(staff, event.slug)["number"]
    match = next(m for m in _publish(staff, event.slug, number)["matches"] if m["b"] is not None)
    return event, organiser, match


# --- rounds: shapes --------------------------------------------------------------------------


def test_pairing_answers_201_with_the_documented_round_and_a_bye() -> None:
    event, organiser, regs = running_event(5)
    staff = client_for(organiser)
    response = _post(staff, f"/api/events/{event.slug}/rounds/")
    assert response.status_code == 201, response.content
    body = response.json()
    assert set(body) >= ROUND_KEYS
    assert body["number"] == 1 and body["stage"] == "swiss" and body["status"] == "paired"
    assert len(body["matches"]) == 3
    seated = []
    for m in body["matches"]:
        assert set(m) >= MATCH_KEYS, m
        seated += [m["a"]] + ([m["b"]] if m["b"] is not None else [])
        if m["b"] is None:
            # the bye: no opponent, no table, final at once, a 1-0 win in best of 1, said so
            assert m["table"] is None
            assert m["status"] == "final"
            assert m["result"] == {"games": [1, 0, 0]}
            assert "bye" in m["reason"].lower()
        else:
            assert isinstance(m["table"], int)
            assert m["status"] == "pending" and m["result"] is None
            assert isinstance(m["reason"], str)
    assert sorted(seated) == sorted(r.pk for r in regs)
    assert sorted(m["table"] for m in body["matches"] if m["b"]) == [1, 2]


def test_round_list_shows_published_rounds_only_to_players_and_the_public() -> None:
    event, organiser, regs = running_event(4)
    staff = client_for(organiser)
    slug = event.slug
    _pair(staff, slug)
    player, public = client_for(regs[0].player), APIClient()
    staff_list = staff.get(f"/api/events/{slug}/rounds/").json()
    # event-api's fields, plus event-structures' stage_number and name (added, not renamed).
    assert staff_list == [
        {"number": 1, "stage": "swiss", "stage_number": 1, "name": "Round 1", "status": "paired"}
    ]
    assert player.get(f"/api/events/{slug}/rounds/").json() == []
    assert public.get(f"/api/events/{slug}/rounds/").json() == []
    for client in (player, public):
        assert client.get(f"/api/events/{slug}/rounds/1/").status_code == 404
    match_id = staff_list and _round(staff, slug, 1)["matches"][0]["id"]
    assert player.get(f"/api/matches/{match_id}/").status_code == 404
    assert public.get(f"/api/matches/{match_id}/").status_code == 404

    published = _post(staff, f"/api/events/{slug}/rounds/1/publish/")
    assert published.status_code == 200
    assert set(published.json()) >= ROUND_KEYS and published.json()["status"] == "published"
    assert published.json()["ends_at"] is not None
    for client in (player, public):
        assert client.get(f"/api/events/{slug}/rounds/").json() == [
            {
                "number": 1,
                "stage": "swiss",
                "stage_number": 1,
                "name": "Round 1",
                "status": "published",
            }
        ]
        detail = client.get(f"/api/events/{slug}/rounds/1/")
        assert detail.status_code == 200 and set(detail.json()) >= ROUND_KEYS


# --- rounds: status codes ------------------------------------------------------------------


def test_pairing_while_a_round_is_unfinished_is_409_and_changes_nothing() -> None:
    event, organiser, _ = running_event(4)
    staff = client_for(organiser)
    _pair(staff, event.slug)
    assert _post(staff, f"/api/events/{event.slug}/rounds/").status_code == 409  # paired
    _publish(staff, event.slug, 1)
    assert _post(staff, f"/api/events/{event.slug}/rounds/").status_code == 409  # published
    assert [r["number"] for r in staff.get(f"/api/events/{event.slug}/rounds/").json()] == [1]


@pytest.mark.parametrize("status", ["registration_open", "registration_closed", "finished"])
def test_pairing_an_event_that_is_not_running_is_409(status: str) -> None:
    event, organiser, _ = running_event(4, status=status)
    staff = client_for(organiser)
    assert _post(staff, f"/api/events/{event.slug}/rounds/").status_code == 409
    assert staff.get(f"/api/events/{event.slug}/rounds/").json() == []


def test_only_organisers_pair_and_publish() -> None:
    event, organiser, regs = running_event(4)
    judge = UserFactory()
    event.judges.add(judge)
    slug = event.slug
    refused = (403, 404)
    for client in (client_for(regs[0].player), client_for(judge), client_for(UserFactory())):
        assert _post(client, f"/api/events/{slug}/rounds/").status_code in refused
    assert _post(APIClient(), f"/api/events/{slug}/rounds/").status_code in (401, 403, 404)
    assert client_for(organiser).get(f"/api/events/{slug}/rounds/").json() == []
    _pair(client_for(organiser), slug)
    for client in (client_for(regs[0].player), client_for(judge), APIClient()):
        assert _post(client, f"/api/events/{slug}/rounds/1/publish/").status_code in refused
    assert _round(client_for(organiser), slug, 1)["status"] == "paired"


# --- results ---------------------------------------------------------------------------------


def test_report_confirm_and_the_same_report_twice() -> None:
    event, organiser, m = _published_match()
    a, b = _player(m["a"]), _player(m["b"])
    url = f"/api/matches/{m['id']}/"
    first = _post(a, url + "report/", {"games": [1, 0, 0], "battles": [[4, 1]]})
    assert first.status_code == 200, first.content
    assert set(first.json()) >= MATCH_KEYS
    assert first.json()["id"] == m["id"] and first.json()["status"] == "reported"
    assert first.json()["result"] is None  # not final yet
    versions = len(a.get(url + "versions/").json())
    again = _post(a, url + "report/", {"games": [1, 0, 0], "battles": [[4, 1]]})
    assert again.status_code == 200 and again.json()["status"] == "reported"
    assert len(a.get(url + "versions/").json()) == versions  # nothing changed
    confirmed = _post(b, url + "confirm/")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "final"
    assert confirmed.json()["result"]["games"] == [1, 0, 0]
    # the round finishes by itself with its last final result
    assert _round(APIClient(), event.slug, 1)["status"] == "finished"
    # the same report after the end still changes nothing
    late = _post(b, url + "report/", {"games": [1, 0, 0]})
    assert late.status_code == 200 and late.json()["status"] == "final"
    assert len(a.get(url + "versions/").json()) == versions + 1


def test_the_opponent_reporting_the_same_result_makes_it_final() -> None:
    _event, _organiser, m = _published_match()
    url = f"/api/matches/{m['id']}/report/"
    assert _post(_player(m["b"]), url, {"games": [0, 1, 0]}).json()["status"] == "reported"
    final = _post(_player(m["a"]), url, {"games": [0, 1, 0]})
    assert final.status_code == 200 and final.json()["status"] == "final"
    assert final.json()["result"]["games"] == [0, 1, 0]


def test_a_different_report_disputes_and_staff_settle_at_once() -> None:
    _event, organiser, m = _published_match()
    url = f"/api/matches/{m['id']}/report/"
    _post(_player(m["a"]), url, {"games": [1, 0, 0]})
    disputed = _post(_player(m["b"]), url, {"games": [0, 1, 0]})
    assert disputed.status_code == 200 and disputed.json()["status"] == "disputed"
    assert disputed.json()["result"] is None
    settled = _post(client_for(organiser), url, {"games": [0, 1, 0], "reason": "judge call"})
    assert settled.status_code == 200 and settled.json()["status"] == "final"
    assert settled.json()["result"]["games"] == [0, 1, 0]


def test_judges_enter_results_final_at_once() -> None:
    event, _organiser, m = _published_match()
    judge = UserFactory()
    event.judges.add(judge)
    response = _post(
        client_for(judge), f"/api/matches/{m['id']}/report/", {"games": [1, 0, 0], "reason": "x"}
    )
    assert response.status_code == 200 and response.json()["status"] == "final"


def test_staff_reason_reading_first_entry_without_reason_is_accepted() -> None:
    """Spec: "Staff reports are final at once, at any time, even rounds later, and say why
    ("reason")". The code reads "say why" as required only when a *final* result is changed
    (a correction): a first staff entry without a reason is a 200. Kept as the code's reading;
    see the report (it is a judgement call, not proven wrong)."""
    _event, organiser, m = _published_match()
    response = _post(client_for(organiser), f"/api/matches/{m['id']}/report/", {"games": [1, 0, 0]})
    assert response.status_code == 200 and response.json()["status"] == "final"


def test_a_correction_needs_a_reason_even_rounds_later_and_never_touches_a_published_round() -> (
    None
):
    event, organiser, regs = running_event(4)
    staff = client_for(organiser)
    slug = event.slug
    _pair(staff, slug)
    r1 = _publish(staff, slug, 1)["matches"]
    for m in r1:
        _enter(staff, r1, m["a"], [1, 0, 0])
    _pair(staff, slug)
    r2 = _publish(staff, slug, 2)["matches"]
    target = r1[0]
    url = f"/api/matches/{target['id']}/report/"

    refused = _post(staff, url, {"games": [0, 1, 0]})
    assert refused.status_code == 400 and refused.json()["field"] == "reason"
    blank = _post(staff, url, {"games": [0, 1, 0], "reason": "   "})
    assert blank.status_code == 400 and blank.json()["field"] == "reason"
    assert _round(staff, slug, 1)["matches"][0]["result"] == {"games": [1, 0, 0]}

    fixed = _post(staff, url, {"games": [0, 1, 0], "reason": "slip read the wrong way round"})
    assert fixed.status_code == 200 and fixed.json()["status"] == "final"
    assert fixed.json()["result"]["games"] == [0, 1, 0]
    # decision 14: the published round 2 keeps its pairings
    assert [(m["a"], m["b"], m["table"]) for m in _round(staff, slug, 2)["matches"]] == [
        (m["a"], m["b"], m["table"]) for m in r2
    ]
    # ... and the standings after round 1 change: b of the corrected match now has the win
    rows = APIClient().get(f"/api/events/{slug}/standings/?round=1").json()["rows"]
    points = {r["registration"]: r["points"] for r in rows}
    assert points[target["b"]] == 3 and points[target["a"]] == 0


@pytest.mark.parametrize(
    ("structure", "body", "field"),
    [
        ("bo1", {"games": [2, 0, 0]}, "games"),  # two wins in a best of one
        ("bo1", {"games": [0, 2, 0]}, "games"),
        ("bo1", {"games": [1, 1, 0]}, "games"),  # two games in a best of one
        ("bo1", {"games": [-1, 0, 0]}, "games"),
        ("bo1", {"games": [0, 0, -1]}, "games"),
        ("bo1", {"games": [1, 0, 0], "battles": [[5, 3]]}, "battles[0]"),  # 8 trophies
        ("bo1", {"games": [1, 0, 0], "battles": [[4, 4]]}, "battles[0]"),
        ("bo1", {"games": [1, 0, 0], "battles": [[4, -1]]}, "battles[0]"),
        ("bo3", {"games": [3, 0, 0]}, "games"),
        ("bo3", {"games": [0, 3, 1]}, "games"),
        ("bo3", {"games": [2, 2, 0]}, "games"),
        ("bo3", {"games": [2, 1, 0], "battles": [[4, 0], [0, 4], [8, 0]]}, "battles[2]"),
    ],
)
def test_impossible_results_are_400_naming_the_field(
    structure: str, body: dict[str, Any], field: str
) -> None:
    event, organiser, m = _published_match(match_structure=structure)
    for client in (_player(m["a"]), client_for(organiser)):
        response = _post(client, f"/api/matches/{m['id']}/report/", {**body, "reason": "x"})
        assert response.status_code == 400, response.content
        assert response.json().get("field", field) == field and field in response.json()
    assert _round(client_for(organiser), event.slug, 1)["matches"][0]["status"] == "pending"


def test_a_best_of_three_takes_a_two_one_result() -> None:
    _event, organiser, m = _published_match(match_structure="bo3")
    body = {"games": [2, 1, 0], "battles": [[4, 2], [3, 4], [4, 0]], "reason": "slip"}
    response = _post(client_for(organiser), f"/api/matches/{m['id']}/report/", body)
    assert response.status_code == 200, response.content
    assert response.json()["result"]["games"] == [2, 1, 0]


@pytest.mark.parametrize(
    ("structure", "games"),
    [("bo1", [1, 0, 1]), ("bo1", [0, 1, 1]), ("bo3", [2, 1, 3]), ("bo3", [1, 1, 2])],
)
def test_more_games_played_than_the_structure_allows_is_400(
    structure: str, games: list[int]
) -> None:
    _event, organiser, m = _published_match(match_structure=structure)
    response = _post(_player(m["a"]), f"/api/matches/{m['id']}/report/", {"games": games})
    assert response.status_code == 400, response.content
    assert response.json().get("field") == "games"


# --- standings, worked by hand -----------------------------------------------------------


def _row_view(row: dict[str, Any]) -> tuple[Any, ...]:
    tb = row["tiebreakers"]
    return (
        row["rank"],
        row["points"],
        row["record"],
        row["dropped"],
        round(tb["omw"], 6),
        round(tb["gw"], 6),
        round(tb["ogw"], 6),
        tb["battle_diff"],
    )


def test_standings_of_a_small_event_worked_by_hand() -> None:
    """Five players A-E, best of one, BoBA tiebreakers omw, gw, ogw, battle_diff.

    Round 1: A beats B 1-0 (trophies 4-2); C and D draw their game (3-3); E has the bye.
    Round 2: E beats A 1-0 (4-1); B beats C 1-0 (4-0); D has the bye.
    MW% = points / (3 x rounds); GW% = game points / (3 x games), a win 3, a draw 1, the bye
    1-0 (best of one: decision 11); both floored at 0.33; OMW/OGW the mean over opponents (byes are nobody), 0.33 with none.
    """
    event, organiser, regs = running_event(5)
    staff = client_for(organiser)
    slug = event.slug
    A, B, C, D, E = (r.pk for r in regs)

    _pair(staff, slug)
    _force(staff, slug, 1, [(A, B), (C, D), (E, None)])
    r1 = _publish(staff, slug, 1)["matches"]
    _enter(staff, r1, A, [1, 0, 0], [[4, 2]])
    _enter(staff, r1, C, [0, 0, 1], [[3, 3]])
    assert _round(staff, slug, 1)["status"] == "finished"

    # After round 1:
    # A: 3 pts 1-0-0, MW 3/3=1, GW 3/3=1, OMW = B's MW 0 -> 0.33, OGW = B's GW 0 -> 0.33, +2
    # E: 3 pts 1-0-0 (bye), GW 3/3=1, no opponent: OMW = OGW = 0.33, trophies 0
    #    A and E tie on omw, gw, ogw; battle_diff 2 > 0 puts A first.
    # C, D: 1 pt 0-0-1, MW 1/3, GW 1/3; each the other's only opponent: OMW = OGW = 1/3; 0.
    #    Full tie: both rank 3.
    # B: 0 pts 0-1-0, GW 0 -> 0.33, OMW = A's 1.0, OGW = A's 1.0, -2: rank 5.
    third = round(1 / 3, 6)
    after_one = {
        A: (1, 3, "1-0-0", False, 0.33, 1.0, 0.33, 2),
        E: (2, 3, "1-0-0", False, 0.33, 1.0, 0.33, 0),
        C: (3, 1, "0-0-1", False, third, third, third, 0),
        D: (3, 1, "0-0-1", False, third, third, third, 0),
        B: (5, 0, "0-1-0", False, 1.0, 0.33, 1.0, -2),
    }
    body = APIClient().get(f"/api/events/{slug}/standings/").json()
    assert body["round"] == 1
    assert [r["rank"] for r in body["rows"]] == [1, 2, 3, 3, 5]  # rank order, shared rank
    assert {r["registration"]: _row_view(r) for r in body["rows"]} == after_one
    assert all(list(r["tiebreakers"]) == BOBA_TIEBREAKERS for r in body["rows"])
    assert {r["registration"]: r["name"] for r in body["rows"]} == {
        r.pk: r.player.public_name for r in regs
    }

    _pair(staff, slug)
    _force(staff, slug, 2, [(A, E), (B, C), (D, None)])
    r2 = _publish(staff, slug, 2)["matches"]
    _enter(staff, r2, E, [1, 0, 0], [[4, 1]])
    _enter(staff, r2, B, [1, 0, 0], [[4, 0]])
    assert _round(staff, slug, 2)["status"] == "finished"

    # After round 2 (MW%, GW% floored):
    #   A 3 pts: MW 3/6=.5, GW 3/6=.5       B 3 pts: MW .5, GW .5
    #   C 1 pt:  MW 1/6 -> .33, GW 1/6 -> .33
    #   D 4 pts: MW 4/6=.666667, GW (1 + 3)/(3x2) = .666667 (draw, bye 1-0)
    #   E 6 pts: MW 1, GW (3 + 3)/(3x2) = 1
    # OMW / OGW:
    #   E: opp A            -> .5 / .5
    #   D: opp C            -> .33 / .33
    #   A: opps B, E        -> (.5+1)/2 = .75 / (.5+1)/2 = .75
    #   B: opps A, C        -> (.5+.33)/2 = .415 / (.5+.33)/2 = .415
    #   C: opps D, B        -> (.666667+.5)/2 = .583333 / (.666667+.5)/2 = .583333
    # battle_diff: A 4-2 + 1-4 = -1; B 2-4 + 4-0 = +2; C 3-3 + 0-4 = -4; D 3-3 = 0; E 4-1 = +3
    # Ranks: E 6 pts, D 4, A and B on 3 (omw .75 > .415), C 1.
    after_two = {
        E: (1, 6, "2-0-0", False, 0.5, 1.0, 0.5, 3),
        D: (2, 4, "1-0-1", False, 0.33, round(2 / 3, 6), 0.33, 0),
        A: (3, 3, "1-1-0", False, 0.75, 0.5, 0.75, -1),
        B: (4, 3, "1-1-0", False, 0.415, 0.5, 0.415, 2),
        C: (5, 1, "0-1-1", False, round(7 / 12, 6), 0.33, round(7 / 12, 6), -4),
    }
    body = APIClient().get(f"/api/events/{slug}/standings/").json()
    assert body["round"] == 2
    assert [r["registration"] for r in body["rows"]] == [E, D, A, B, C]
    assert {r["registration"]: _row_view(r) for r in body["rows"]} == after_two
    # ?round=1 is still the standings after round 1
    again = APIClient().get(f"/api/events/{slug}/standings/?round=1").json()
    assert again["round"] == 1
    assert {r["registration"]: _row_view(r) for r in again["rows"]} == after_one
    # a player sees the same
    mine = client_for(regs[0].player).get(f"/api/events/{slug}/standings/?round=2").json()
    assert {r["registration"]: _row_view(r) for r in mine["rows"]} == after_two


# --- the bye (decision 11) ------------------------------------------------------------------


def _round_one_with_trophies(staff: APIClient, slug: str) -> list[tuple[int, int]]:
    """Pair and play round 1 (no bye): in match k, a wins 1-0 with trophies 4-k.

    Winners: battle_diff 4, 3, 2, 1; losers -4, -3, -2, -1. Everything else is equal inside
    each score group (winners: OMW .33, GW 1, OGW .33; losers: OMW 1, GW .33, OGW 1), so the
    battle differential orders the players. Returns (winner, loser) per match."""
    _pair(staff, slug)
    matches = _publish(staff, slug, 1)["matches"]
    assert all(m["b"] is not None for m in matches)
    out = []
    for k, m in enumerate(sorted(matches, key=lambda m: m["table"])):
        _enter(staff, matches, m["a"], [1, 0, 0], [[4, k]])
        out.append((m["a"], m["b"]))
    return out


def test_the_bye_goes_to_the_lowest_ranked_even_when_a_higher_bye_saves_a_pair_down() -> None:
    """Eight players; after round 1 three winners drop. Active: W3 (3 pts) and the four losers
    (0 pts), L0 lowest (battle_diff -4). The bye to L0 forces W3 to be paired down to 0 pts;
    the bye to W3 would pair the four losers among themselves with no pair-down at all.
    Decision 11: the lowest-ranked player without a bye gets it, before any pair-down."""
    event, organiser, _ = running_event(8)
    staff = client_for(organiser)
    slug = event.slug
    played = _round_one_with_trophies(staff, slug)
    for winner, _loser in played[:3]:
        assert _post(staff, f"/api/registrations/{winner}/drop/").status_code == 200
    w3 = played[3][0]
    l0 = played[0][1]
    matches = _pair(staff, slug)["matches"]
    bye = [m for m in matches if m["b"] is None]
    assert len(bye) == 1 and bye[0]["a"] == l0, (bye, l0)
    assert "bye" in bye[0]["reason"] and "lowest ranked" in bye[0]["reason"]
    w3_match = _seat(matches, w3)
    assert played[3][1] not in (w3_match["a"], w3_match["b"])  # no rematch
    # dropped players stay in the standings (decision 14)
    rows = APIClient().get(f"/api/events/{slug}/standings/").json()["rows"]
    assert sorted(r["registration"] for r in rows if r["dropped"]) == sorted(
        w for w, _ in played[:3]
    )


def test_the_bye_moves_up_only_when_the_lowest_bye_forces_a_rematch() -> None:
    """Four players. Round 1: table 1 W0 beats L0 4-0 (L0: battle_diff -4, the lowest),
    table 2 W1 beats L1 4-1 (L1: -3). W0 drops: active W1 (3 pts), L0, L1 (0 pts). The bye to
    L0 would leave W1 v L1, a rematch; so (decision 11, "only if every such choice forces a
    rematch may it go to a higher-ranked player") it goes to L1, and W1 meets L0."""
    event, organiser, _ = running_event(4)
    staff = client_for(organiser)
    slug = event.slug
    played = _round_one_with_trophies(staff, slug)
    (w0, l0), (w1, l1) = played
    assert _post(staff, f"/api/registrations/{w0}/drop/").status_code == 200
    matches = _pair(staff, slug)["matches"]
    bye = next(m for m in matches if m["b"] is None)
    assert bye["a"] == l1 and "bye" in bye["reason"]
    real = next(m for m in matches if m["b"] is not None)
    assert {real["a"], real["b"]} == {w1, l0}


# --- top cut ---------------------------------------------------------------------------------


def test_top_cut_seeds_one_v_eight_and_plays_to_a_champion() -> None:
    event, organiser, regs = running_event(8, planned_rounds=1, top_cut_size=8)
    staff = client_for(organiser)
    slug = event.slug
    player = client_for(regs[0].player)

    _pair(staff, slug)
    r1 = _publish(staff, slug, 1)["matches"]
    # before the Swiss round is finished: 409
    assert _post(staff, f"/api/events/{slug}/top-cut/").status_code == 409
    ordered = sorted(r1, key=lambda m: m["table"])
    for k, m in enumerate(ordered):
        _enter(staff, r1, m["a"], [1, 0, 0], [[4, k]])
    # Seeds by hand (see _round_one_with_trophies): winners by battle_diff 4, 3, 2, 1, then
    # losers -1, -2, -3, -4: seed 1..4 = winners of tables 1..4, seed 5..8 = losers of 4..1.
    seeds = [m["a"] for m in ordered] + [m["b"] for m in reversed(ordered)]
    rows = APIClient().get(f"/api/events/{slug}/standings/").json()["rows"]
    assert [(r["rank"], r["registration"]) for r in rows] == list(enumerate(seeds, start=1))

    assert _post(player, f"/api/events/{slug}/top-cut/").status_code in (403, 404)
    cut = _post(staff, f"/api/events/{slug}/top-cut/")
    assert cut.status_code == 201, cut.content
    bracket = cut.json()
    assert set(bracket) >= ROUND_KEYS and bracket["stage"] == "top_cut"
    assert bracket["number"] == 2

    def s(n: int) -> int:
        return seeds[n - 1]

    assert [(m["a"], m["b"]) for m in bracket["matches"]] == [
        (s(1), s(8)),
        (s(4), s(5)),
        (s(2), s(7)),
        (s(3), s(6)),
    ]
    assert [m["table"] for m in bracket["matches"]] == [1, 2, 3, 4]
    assert all(m["status"] == "pending" and m["result"] is None for m in bracket["matches"])
    qf = _publish(staff, slug, 2)["matches"]
    assert staff.get(f"/api/events/{slug}/rounds/").json()[-1] == {
        "number": 2,
        "stage": "top_cut",
        "stage_number": 2,
        "name": "Quarterfinals",
        "status": "published",
    }
    # no draws in the bracket, from players or staff (decision 6)
    for client, body in (
        (_player(qf[0]["a"]), {"games": [0, 0, 1]}),
        (staff, {"games": [0, 0, 1], "reason": "x"}),
        (staff, {"games": [0, 0, 0], "reason": "x"}),
    ):
        response = _post(client, f"/api/matches/{qf[0]['id']}/report/", body)
        assert response.status_code == 400 and response.json()["field"] == "games"
    # QF: 8 beats 1, 4 beats 5, 2 beats 7, 6 beats 3
    _enter(staff, qf, s(8), [1, 0, 0])
    _enter(staff, qf, s(4), [1, 0, 0])
    _enter(staff, qf, s(2), [1, 0, 0])
    _enter(staff, qf, s(6), [1, 0, 0])
    assert _round(staff, slug, 2)["status"] == "finished"

    semis = _pair(staff, slug)
    assert semis["stage"] == "top_cut" and semis["number"] == 3
    # winners of tables 1 and 2 meet, then of 3 and 4; the better seed is a
    assert [(m["a"], m["b"]) for m in semis["matches"]] == [(s(4), s(8)), (s(2), s(6))]
    sf = _publish(staff, slug, 3)["matches"]
    assert _post(staff, f"/api/events/{slug}/rounds/").status_code == 409  # unfinished
    _enter(staff, sf, s(8), [1, 0, 0])
    _enter(staff, sf, s(2), [1, 0, 0])

    final = _pair(staff, slug)
    assert [(m["a"], m["b"]) for m in final["matches"]] == [(s(2), s(8))]
    fm = _publish(staff, slug, 4)["matches"]
    _enter(staff, fm, s(8), [1, 0, 0])
    assert _round(APIClient(), slug, 4)["status"] == "finished"
    assert APIClient().get(f"/api/events/{slug}/").json()["status"] == "finished"
    assert _post(staff, f"/api/events/{slug}/rounds/").status_code == 409


def test_a_best_of_three_bracket_match_cannot_end_drawn() -> None:
    event, organiser, _ = running_event(4, planned_rounds=1, top_cut_size=2, match_structure="bo3")
    staff = client_for(organiser)
    _pair(staff, event.slug)
    r1 = _publish(staff, event.slug, 1)["matches"]
    for m in r1:
        _enter(staff, r1, m["a"], [2, 0, 0])
    cut = _post(staff, f"/api/events/{event.slug}/top-cut/")
    assert cut.status_code == 201
    final = _publish(staff, event.slug, 2)["matches"]
    assert len(final) == 1
    url = f"/api/matches/{final[0]['id']}/report/"
    for games in ([1, 1, 1], [1, 1, 0], [0, 0, 3]):
        response = _post(_player(final[0]["a"]), url, {"games": games})
        assert response.status_code == 400 and response.json()["field"] == "games"
    done = _post(staff, url, {"games": [2, 1, 0], "reason": "slip"})
    assert done.status_code == 200 and done.json()["status"] == "final"
    assert APIClient().get(f"/api/events/{event.slug}/").json()["status"] == "finished"


# --- audit -------------------------------------------------------------------------------


def test_the_audit_trail_lists_reports_confirmations_and_corrections() -> None:
    event, organiser, regs = running_event(4)
    judge = UserFactory()
    event.judges.add(judge)
    staff = client_for(organiser)
    slug = event.slug
    _pair(staff, slug)
    m1, m2 = _publish(staff, slug, 1)["matches"]
    a1, b1 = _player(m1["a"]), _player(m1["b"])
    _post(a1, f"/api/matches/{m1['id']}/report/", {"games": [1, 0, 0]})
    _post(b1, f"/api/matches/{m1['id']}/confirm/")
    _post(_player(m2["a"]), f"/api/matches/{m2['id']}/report/", {"games": [1, 0, 0]})
    _post(_player(m2["b"]), f"/api/matches/{m2['id']}/report/", {"games": [0, 1, 0]})
    _post(
        client_for(judge),
        f"/api/matches/{m2['id']}/report/",
        {"games": [0, 1, 0], "reason": "ruled"},
    )
    _post(staff, f"/api/matches/{m1['id']}/report/", {"games": [0, 1, 0], "reason": "slip wrong"})

    for client in (APIClient(), client_for(regs[0].player)):
        assert client.get(f"/api/events/{slug}/audit/").status_code in (401, 403, 404)
    assert client_for(judge).get(f"/api/events/{slug}/audit/").status_code == 200
    body = staff.get(f"/api/events/{slug}/audit/?limit=1000").json()
    entries = body["results"] if isinstance(body, dict) else body
    by_action: dict[str, list[dict[str, Any]]] = {}
    for e in entries:
        by_action.setdefault(e["action"], []).append(e)
    user_of = {r.pk: r.player.public_name for r in regs}

    reported = [e for e in by_action["match.reported"] if e["target"] == f"match:{m1['id']}"]
    assert reported[0]["actor"] == user_of[m1["a"]] and reported[0]["created_at"]
    assert reported[0]["data"]["before"] == {"status": "pending"}
    assert reported[0]["data"]["after"]["games"] == [1, 0, 0]
    (confirmed,) = by_action["match.confirmed"]
    assert confirmed["actor"] == user_of[m1["b"]]
    assert confirmed["data"]["after"] == {"games": [1, 0, 0], "status": "final"}
    (disputed,) = by_action["match.disputed"]
    assert (
        disputed["actor"] == user_of[m2["b"]] and disputed["data"]["after"]["status"] == "disputed"
    )
    (entered,) = by_action["match.entered"]
    assert entered["actor"] == judge.public_name and entered["data"]["reason"] == "ruled"
    assert entered["data"]["after"]["games"] == [0, 1, 0]
    (corrected,) = by_action["match.corrected"]
    assert corrected["actor"] == organiser.public_name and corrected["created_at"]
    assert corrected["data"]["reason"] == "slip wrong"
    assert corrected["data"]["before"]["games"] == [1, 0, 0]
    assert corrected["data"]["after"]["games"] == [0, 1, 0]


# --- pair-downs (decision 12) ----------------------------------------------------------------


def test_a_chain_of_short_pair_downs_beats_one_long_one() -> None:
    """Eight players, round 1 forced: P beats A, B beats S, Q draws X, R draws Y; A, B, X, Y
    drop. Active: P 3 pts, Q 1, R 1, S 0, nobody has met. Chain: P v Q|R (3 -> 1) and R|Q v S
    (1 -> 0), two short pair-downs; one long one would be P v S (3 -> 0) with Q v R. Decision
    12: the chain (as 9 v 6 then 6 v 3 beats 9 v 3)."""
    event, organiser, regs = running_event(8)
    staff = client_for(organiser)
    slug = event.slug
    P, A, B, S, Q, X, R, Y = (r.pk for r in regs)
    _pair(staff, slug)
    _force(staff, slug, 1, [(P, A), (B, S), (Q, X), (R, Y)])
    r1 = _publish(staff, slug, 1)["matches"]
    _enter(staff, r1, P, [1, 0, 0], [[4, 1]])
    _enter(staff, r1, B, [1, 0, 0], [[4, 1]])
    _enter(staff, r1, Q, [0, 0, 1], [[3, 3]])
    _enter(staff, r1, R, [0, 0, 1], [[3, 3]])
    for pk in (A, B, X, Y):
        assert _post(staff, f"/api/registrations/{pk}/drop/").status_code == 200
    matches = _pair(staff, slug)["matches"]
    pairs = {frozenset((m["a"], m["b"])) for m in matches}
    assert pairs in (
        {frozenset((P, Q)), frozenset((R, S))},
        {frozenset((P, R)), frozenset((Q, S))},
    ), matches
    assert sorted(m["reason"] for m in matches) == [
        "paired down from 1 to 0 pts",
        "paired down from 3 to 1 pts",
    ]


# --- standings numbers are the core's ----------------------------------------------------


def test_standings_numbers_are_the_cores_numbers() -> None:
    """Four players, two rounds, no bye. R1: X beats Y (1-0), Z draws W. R2: X draws Z, W
    beats Y. MW%: Y 0/6 -> 0.33 (floor), Z 2/6 = 1/3. X's OMW = (0.33 + 1/3) / 2 =
    0.331666..., exactly what tournaments.standings computes."""
    event, organiser, regs = running_event(4)
    staff = client_for(organiser)
    slug = event.slug
    X, Y, Z, W = (r.pk for r in regs)
    _pair(staff, slug)
    _force(staff, slug, 1, [(X, Y), (Z, W)])
    r1 = _publish(staff, slug, 1)["matches"]
    _enter(staff, r1, X, [1, 0, 0])
    _enter(staff, r1, Z, [0, 0, 1])
    _pair(staff, slug)
    _force(staff, slug, 2, [(X, Z), (W, Y)])
    r2 = _publish(staff, slug, 2)["matches"]
    _enter(staff, r2, X, [0, 0, 1])
    _enter(staff, r2, W, [1, 0, 0])
    rows = APIClient().get(f"/api/events/{slug}/standings/").json()["rows"]
    x = next(r for r in rows if r["registration"] == X)
    assert x["points"] == 4 and x["record"] == "1-0-1"
    assert x["tiebreakers"]["omw"] == pytest.approx((0.33 + 1 / 3) / 2)


# --- the schema describes the contract -----------------------------------------------------


def test_the_openapi_schema_describes_the_event_api() -> None:
    response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    import json

    paths = json.loads(response.content)["paths"]
    for path in (
        "/api/events/{slug}/rounds/",
        "/api/events/{slug}/rounds/{number}/",
        "/api/events/{slug}/rounds/{number}/publish/",
        "/api/matches/{id}/report/",
        "/api/matches/{id}/confirm/",
        "/api/events/{slug}/standings/",
        "/api/events/{slug}/top-cut/",
        "/api/events/{slug}/audit/",
    ):
        assert path in paths, (path, sorted(paths))
