"""BOS match results through the site (POST /api/matches/{id}/report/ with `game_details`):
checked by the game's MatchRules (BOS: Going First, BOS: Best of 3 Match, BOS: Reserves),
stored on the report and the match, compared between reports, kept in every result version
and audit entry; BoBA's results are unchanged."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from matches import services
from matches.models import Match, MatchStatus, Report, ResultChange, ResultVersion
from tests.matches.bos_scenes import DETAILS, BosMatch, bos_match, bos_running, game, report
from tests.scenarios import client_for, pair_and_publish_through_api, player_client, running_event
from tournaments.models import AuditEntry, Registration

pytestmark = pytest.mark.django_db


def test_bos_best_of_3_report_and_confirm_with_details_are_final_with_derived_ether(
    bos_published: BosMatch,
) -> None:
    event, _, m = bos_published
    a, b = player_client(m, "a"), player_client(m, "b")
    first = report(a, m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
    assert first.status_code == 200, first.content
    assert first.json()["status"] == "reported"
    stored = Report.objects.get(match_id=m["id"]).game_details
    assert [g["ether"] for g in stored] == [[4, 0], [0, 0], [0, 0]]
    assert [g["chose_first"] for g in stored] == ["b", "a", "b"]
    confirmed = b.post(f"/api/matches/{m['id']}/confirm/", {}, format="json")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "final"
    result = confirmed.json()["result"]
    assert result["games"] == [2, 1, 0] and result["game_details"] == stored
    # The match JSON in the round API carries the details too (an addition to the contract).
    round_json = APIClient().get(f"/api/events/{event.slug}/rounds/1/").json()
    assert round_json["matches"][0]["result"]["game_details"] == stored
    assert "battles" not in round_json["matches"][0]["result"]


def test_bos_two_reports_with_the_same_details_are_final(bos_published: BosMatch) -> None:
    _, _, m = bos_published
    a, b = player_client(m, "a"), player_client(m, "b")
    report(a, m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
    second = report(b, m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
    assert second.json()["status"] == "final"
    assert Match.objects.get(pk=m["id"]).game_details[2]["first"] == "a"


def test_bos_two_reports_with_different_details_are_disputed(bos_published: BosMatch) -> None:
    _, _, m = bos_published
    a, b = player_client(m, "a"), player_client(m, "b")
    report(a, m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
    other = [game("a", (4, 8)), *DETAILS[1:]]  # the same games, another bid in game 1
    disputed = report(b, m["id"], {"games": [2, 1, 0], "game_details": other})
    assert disputed.json()["status"] == "disputed"
    match = Match.objects.get(pk=m["id"])
    assert match.game_details is None and match.games is None
    assert match.calls.get().kind == "dispute"


def test_bos_details_one_side_left_out_are_not_a_dispute(bos_published: BosMatch) -> None:
    _, _, m = bos_published
    a, b = player_client(m, "a"), player_client(m, "b")
    report(a, m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
    second = report(b, m["id"], {"games": [2, 1, 0]})
    assert second.json()["status"] == "final"
    assert second.json()["result"]["game_details"][0]["bids"] == [4, 7]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (
            {"games": [2, 1, 0], "game_details": [game("a", (3, 3)), *DETAILS[1:]]},
            "game_details[0].bids",
        ),
        (
            {
                "games": [2, 1, 0],
                "game_details": [game("a", (4, 7), chose_first="a"), *DETAILS[1:]],
            },
            "game_details[0].chose_first",
        ),
        (
            {"games": [2, 1, 0], "game_details": [game("a", (4, 7), ether=[0, 4]), *DETAILS[1:]]},
            "game_details[0].ether",
        ),
        ({"games": [2, 0, 0], "game_details": DETAILS}, "game_details"),
        ({"games": [2, 1, 0], "game_details": {"winner": "a"}}, "game_details"),
        (
            {"games": [2, 1, 0], "game_details": [game("a"), game("b"), game("c")]},
            "game_details[2].winner",
        ),
        ({"games": [1, 1, 1], "game_details": DETAILS[:2]}, "games"),  # BOS: Decay, games first
    ],
)
def test_bos_impossible_details_are_400_naming_the_field(
    body: dict[str, Any], field: str, bos_published: BosMatch
) -> None:
    _, _, m = bos_published
    response = report(player_client(m, "a"), m["id"], body)
    assert response.status_code == 400, response.content
    assert response.json()["field"] == field and field in response.json()
    assert Match.objects.get(pk=m["id"]).status == MatchStatus.PENDING
    assert not Report.objects.filter(match_id=m["id"]).exists()


def swap(out: str, into: str, count: int = 1) -> dict[str, Any]:
    return {"out": out, "in": into, "count": count}


def test_bos_reserves_each_player_reports_own_legal_swaps_and_the_match_has_both(
    bos_published_with_lists: BosMatch,
) -> None:
    _, _, m = bos_published_with_lists
    a, b = player_client(m, "a"), player_client(m, "b")
    mine_a = [game("a"), game("b", swaps={"a": [swap("Kindle", "Scorch Rain")]}), game("a")]
    first = report(a, m["id"], {"games": [2, 1, 0], "game_details": mine_a})
    assert first.status_code == 200, first.content
    mine_b = [game("a"), game("b", swaps={"b": [swap("Spark Pup", "Brand Knight", 2)]}), game("a")]
    second = report(b, m["id"], {"games": [2, 1, 0], "game_details": mine_b})
    assert second.status_code == 200, second.content
    assert second.json()["status"] == "final"
    match = Match.objects.get(pk=m["id"])
    assert match.game_details[1]["swaps"] == {
        "a": [swap("Kindle", "Scorch Rain")],
        "b": [swap("Spark Pup", "Brand Knight", 2)],
    }
    assert "swaps" not in match.game_details[0]


def test_bos_reserves_the_opponent_confirming_keeps_the_reporters_swaps(
    bos_published_with_lists: BosMatch,
) -> None:
    _, _, m = bos_published_with_lists
    mine_b = [game("a"), game("b", swaps={"b": [swap("Spark Pup", "Brand Knight", 2)]}), game("a")]
    report(player_client(m, "b"), m["id"], {"games": [2, 1, 0], "game_details": mine_b})
    confirmed = player_client(m, "a").post(f"/api/matches/{m['id']}/confirm/", {}, format="json")
    assert confirmed.json()["status"] == "final"
    swaps = Match.objects.get(pk=m["id"]).game_details[1]["swaps"]
    assert swaps == {"a": [], "b": [swap("Spark Pup", "Brand Knight", 2)]}


def test_bos_reserve_swaps_are_shown_to_their_player_and_staff_until_lists_are_published(
    bos_published_with_lists: BosMatch,
) -> None:
    from django.utils import timezone

    event, organiser, m = bos_published_with_lists
    mine_b = [game("a"), game("b", swaps={"b": [swap("Spark Pup", "Brand Knight", 2)]}), game("a")]
    report(player_client(m, "b"), m["id"], {"games": [2, 1, 0], "game_details": mine_b})
    player_client(m, "a").post(f"/api/matches/{m['id']}/confirm/", {}, format="json")
    url = f"/api/matches/{m['id']}/"

    def game_2(client: APIClient) -> dict[str, Any]:
        return client.get(url).json()["result"]["game_details"][1]

    assert "swaps" not in game_2(APIClient())  # the public
    assert "swaps" not in game_2(player_client(m, "a"))  # the opponent
    assert game_2(player_client(m, "b"))["swaps"]["b"][0]["in"] == "Brand Knight"
    assert game_2(client_for(organiser))["swaps"]["b"][0]["count"] == 2
    public_round = APIClient().get(f"/api/events/{event.slug}/rounds/1/").json()
    assert "swaps" not in public_round["matches"][0]["result"]["game_details"][1]
    # The opponent's versions hide them too; the bids stay visible to all.
    versions = player_client(m, "a").get(f"{url}versions/").json()
    assert "swaps" not in versions[-1]["after"]["game_details"][1]
    assert versions[-1]["after"]["game_details"][1]["bids"] == [3, 1]
    event.decklists_published_at = timezone.now()
    event.save(update_fields=["decklists_published_at"])
    assert game_2(APIClient())["swaps"]["b"][0]["out"] == "Spark Pup"


def test_bos_reserves_a_player_cannot_report_the_opponents_swaps(
    bos_published_with_lists: BosMatch,
) -> None:
    # The opponent's list is private: an answer about their swaps would tell what it holds.
    _, _, m = bos_published_with_lists
    details = [game("a"), game("b", swaps={"b": [swap("Spark Pup", "Brand Knight")]}), game("a")]
    response = report(player_client(m, "a"), m["id"], {"games": [2, 1, 0], "game_details": details})
    assert response.status_code == 400
    assert response.json()["field"] == "game_details[1].swaps.b"
    assert "your own reserve swaps" in response.json()["detail"]


def test_bos_reserves_an_illegal_swap_is_400_naming_the_swap_with_the_rule(
    bos_published_with_lists: BosMatch,
) -> None:
    _, _, m = bos_published_with_lists
    # A spell out, a summon in: 11 summons and 9 spells (BOS: Starting Info).
    details = [game("a"), game("b", swaps={"a": [swap("Heat Wave", "Brand Knight")]}), game("a")]
    response = report(player_client(m, "a"), m["id"], {"games": [2, 1, 0], "game_details": details})
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "game_details[1].swaps.a[0]"
    assert "BOS: Starting Info" in body["detail"] and "BOS: Reserves" in body["detail"]
    # A card that is not in the reserves.
    details[1] = game("b", swaps={"a": [swap("Spark Pup", "Heat Wave")]})
    response = report(player_client(m, "a"), m["id"], {"games": [2, 1, 0], "game_details": details})
    assert (
        response.status_code == 400 and response.json()["field"] == "game_details[1].swaps.a[0].in"
    )
    assert not Report.objects.filter(match_id=m["id"]).exists()


def test_bos_reserves_staff_enter_both_players_swaps(bos_published_with_lists: BosMatch) -> None:
    _, organiser, m = bos_published_with_lists
    both = {"a": [swap("Kindle", "Scorch Rain")], "b": [swap("Smoke Imp", "Brand Knight")]}
    details = [game("a"), game("b", swaps=both), game("a")]
    entered = report(client_for(organiser), m["id"], {"games": [2, 1, 0], "game_details": details})
    assert entered.status_code == 200, entered.content
    assert entered.json()["result"]["game_details"][1]["swaps"] == both


def test_bos_reserves_swaps_without_a_registered_list_are_400() -> None:
    _, _, m = bos_match(decklists=False)
    details = [game("a"), game("b", swaps={"a": [swap("Spark Pup", "Brand Knight")]}), game("a")]
    response = report(player_client(m, "a"), m["id"], {"games": [2, 1, 0], "game_details": details})
    assert response.status_code == 400
    assert response.json()["field"] == "game_details[1].swaps.a"
    assert "no registered decklist" in response.json()["detail"]


def test_bos_staff_entry_and_correction_keep_details_in_versions_and_audit(
    bos_published: BosMatch,
) -> None:
    event, organiser, m = bos_published
    staff = client_for(organiser)
    entered = report(staff, m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
    assert entered.status_code == 200 and entered.json()["status"] == "final"
    corrected_details = [game("b", (1, 2)), game("b", (5, 2), end="time")]
    refused = report(staff, m["id"], {"games": [0, 2, 0], "game_details": corrected_details})
    assert refused.status_code == 400 and refused.json()["field"] == "reason"
    corrected = report(
        staff,
        m["id"],
        {"games": [0, 2, 0], "game_details": corrected_details, "reason": "slip misread"},
    )
    assert corrected.status_code == 200, corrected.content
    versions = list(ResultVersion.objects.filter(match_id=m["id"]).order_by("number"))
    assert [v.change for v in versions] == [ResultChange.ENTERED, ResultChange.CORRECTED]
    assert versions[1].before["game_details"][0]["bids"] == [4, 7]
    assert versions[1].after["game_details"][1]["end"] == "time"
    entry = AuditEntry.objects.get(tournament=event, action="match.corrected")
    assert entry.data["after"]["game_details"][0]["chose_first"] == "b"
    api_versions = staff.get(f"/api/matches/{m['id']}/versions/").json()
    assert api_versions[-1]["after"]["game_details"][1]["ether"] == [0, 2]


def test_bos_staff_result_without_details_keeps_them_while_the_games_stand(
    bos_published: BosMatch,
) -> None:
    _, organiser, m = bos_published
    a = player_client(m, "a")
    report(a, m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
    staff = client_for(organiser)
    entered = report(staff, m["id"], {"games": [2, 1, 0]})
    assert entered.json()["result"]["game_details"] == Match.objects.get(pk=m["id"]).game_details
    assert entered.json()["result"]["game_details"] is not None
    changed = report(staff, m["id"], {"games": [1, 2, 0], "reason": "wrong winner"})
    assert "game_details" not in changed.json()["result"]  # details of other games dropped


def test_bos_correction_preview_checks_the_details(bos_published: BosMatch) -> None:
    _, organiser, m = bos_published
    staff = client_for(organiser)
    report(staff, m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
    bad = staff.post(
        f"/api/matches/{m['id']}/correction-preview/",
        {"games": [2, 1, 0], "game_details": [game("a", (1, 1)), *DETAILS[1:]]},
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["field"] == "game_details[0].bids"


def test_bos_judge_ruling_result_carries_details(bos_published: BosMatch) -> None:
    _, organiser, m = bos_published
    match = Match.objects.get(pk=m["id"])
    call, _ = services.call_open(actor=match.a.player, match=match, question="Bids?")
    judge = client_for(organiser)
    judge.post(f"/api/calls/{call.pk}/claim/", {})
    ruling = judge.post(
        f"/api/calls/{call.pk}/ruling/",
        {"text": "Bids as on the slip", "result": {"games": [2, 1, 0], "game_details": DETAILS}},
        format="json",
    )
    assert ruling.status_code == 201, ruling.content
    match.refresh_from_db()
    assert match.status == MatchStatus.FINAL and match.game_details[0]["ether"] == [4, 0]
    assert ruling.json()["result"]["game_details"][0]["bids"] == [4, 7]


def test_bos_match_result_record_for_the_match_clock_records_a_loss_on_time(
    bos_published: BosMatch,
) -> None:
    _, _, m = bos_published
    match = Match.objects.get(pk=m["id"])
    details = [game("a"), game("a", end="time")]
    recorded = services.match_result_record(
        actor=match.a.player, match=match, game_details=details, on_time=True
    )
    assert recorded.status == MatchStatus.FINAL and recorded.games == (2, 0, 0)
    assert recorded.game_details[1]["end"] == "time"
    version = ResultVersion.objects.get(match=match)
    assert version.change == ResultChange.TIME and version.after["game_details"][1]["end"] == "time"
    assert version.reason


def test_bos_match_result_record_as_staff_needs_staff(bos_published: BosMatch) -> None:
    from config.errors import Forbidden

    _, organiser, m = bos_published
    match = Match.objects.get(pk=m["id"])
    with pytest.raises(Forbidden):
        services.match_result_record(actor=match.a.player, match=match, game_details=DETAILS[:2])
    done = services.match_result_record(actor=organiser, match=match, game_details=DETAILS)
    assert done.games == (2, 1, 0)
    assert ResultVersion.objects.get(match=match).change == ResultChange.ENTERED


def test_bos_standings_show_omw_gw_ogw_and_no_battle_diff() -> None:
    event, organiser, _ = bos_running(4, planned_rounds=3)
    for m in pair_and_publish_through_api(event, organiser)["matches"]:
        a, b = player_client(m, "a"), player_client(m, "b")
        report(a, m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
        b.post(f"/api/matches/{m['id']}/confirm/", {}, format="json")
    standings = APIClient().get(f"/api/events/{event.slug}/standings/").json()
    assert standings["round"] == 1
    rows = standings["rows"]
    assert all(set(r["tiebreakers"]) == {"omw", "gw", "ogw"} for r in rows)
    # Game wins come from the games: a winner of 2-1 has 2/3 of its games.
    winner = next(r for r in rows if r["points"] == 3)
    assert abs(winner["tiebreakers"]["gw"] - 2 / 3) < 1e-6


def test_boba_refuses_game_details_and_keeps_battles_as_before() -> None:
    event, organiser, _ = running_event(2)
    m = pair_and_publish_through_api(event, organiser)["matches"][0]
    a = player_client(m, "a")
    refused = report(a, m["id"], {"games": [1, 0, 0], "game_details": [game("a")]})
    assert refused.status_code == 400 and refused.json()["field"] == "game_details"
    ok = report(a, m["id"], {"games": [1, 0, 0], "battles": [[4, 2]]})
    assert ok.status_code == 200
    b = player_client(m, "b")
    final = b.post(f"/api/matches/{m['id']}/confirm/", {}, format="json").json()
    assert final["result"] == {"games": [1, 0, 0], "battles": [[4, 2]]}
    version = ResultVersion.objects.filter(match_id=m["id"]).last()
    assert "game_details" not in version.after


# --- the report page on the phone -------------------------------------------------------------


def test_bos_report_page_asks_each_game_with_labelled_fields(bos_published: BosMatch) -> None:
    from tests.factories import logged_in

    _, _, m = bos_published
    player = Registration.objects.get(pk=m["a"]).player
    page = logged_in(player).get(f"/matches/{m['id']}/report/")
    assert page.status_code == 200
    html = page.content.decode()
    for name in ("g1_winner", "g1_bids_me", "g1_bids_opp", "g3_chose_first", "g2_first"):
        assert f'name="{name}"' in html
    assert 'name="g2_swaps_me"' in html and 'name="g1_swaps_me"' not in html  # games 2+
    assert '<label for="id_g1_bids_me">' in html and 'id="id_g1_bids_me"' in html
    assert (
        "Ether bid" in html
        and "Reserve swaps before this game (me)" in html
        and 'name="g2_swaps_opp"' not in html
    )


def test_bos_report_page_posts_details_from_my_side(bos_published_with_lists: BosMatch) -> None:
    from tests.factories import logged_in

    _, _, m = bos_published_with_lists
    player = Registration.objects.get(pk=m["b"]).player  # b: "me" is b
    form = {
        "won": "1",
        "lost": "2",
        "g1_winner": "opp",
        "g1_bids_me": "7",
        "g1_bids_opp": "4",
        "g1_chose_first": "me",
        "g2_winner": "me",
        "g2_bids_me": "0",
        "g2_bids_opp": "2",
        "g2_swaps_me": "2 Spark Pup > Brand Knight",
        "g3_winner": "opp",
        "g3_bids_me": "5",
        "g3_bids_opp": "0",
        "g3_first": "opp",
    }
    response = logged_in(player).post(f"/matches/{m['id']}/report/", form)
    assert response.status_code == 302
    stored = Report.objects.get(match_id=m["id"]).game_details
    assert stored[0] == {
        "winner": "a",
        "bids": [4, 7],
        "chose_first": "b",
        "ether": [4, 0],
        "end": "played",
    }
    assert stored[1]["swaps"] == {"a": [], "b": [swap("Spark Pup", "Brand Knight", 2)]}
    assert stored[2]["first"] == "a"
    # The form shows my report back from my side.
    html = logged_in(player).get(f"/matches/{m['id']}/report/").content.decode()
    assert 'id="id_g1_bids_me" name="g1_bids_me" min="0" max="99" value="7"' in html


def test_bos_report_page_refuses_bad_details_and_saves_nothing(bos_published: BosMatch) -> None:
    from tests.factories import logged_in

    _, _, m = bos_published
    player = Registration.objects.get(pk=m["a"]).player
    form = {"won": "2", "lost": "0", "g1_winner": "me", "g1_bids_me": "3", "g1_bids_opp": "3"}
    response = logged_in(player).post(f"/matches/{m['id']}/report/", form, follow=True)
    assert response.status_code == 400
    html = response.content.decode()
    # In words (tests/matches/test_bos_report_form.py); the API keeps the field path.
    assert "Game 1, Ether bid: equal bids decide nothing" in html
    assert "game_details[0]" not in html
    assert not Report.objects.filter(match_id=m["id"]).exists()


def test_boba_report_page_asks_trophies_through_the_game_detail_fields() -> None:
    from tests.factories import logged_in

    event, organiser, _ = running_event(2)
    m = pair_and_publish_through_api(event, organiser)["matches"][0]
    player = Registration.objects.get(pk=m["a"]).player
    html = logged_in(player).get(f"/matches/{m['id']}/report/").content.decode()
    assert 'name="g1_winner"' not in html and 'name="g1_trophies_me"' in html
    assert 'name="trophies_me_1"' not in html  # no BoBA-only block beside the game's fields


def test_bos_match_card_shows_each_game_to_the_confirming_opponent_and_when_final(
    bos_published: BosMatch,
) -> None:
    from tests.factories import logged_in

    _, _, m = bos_published
    a_reg, b_reg = Registration.objects.get(pk=m["a"]), Registration.objects.get(pk=m["b"])
    report(player_client(m, "a"), m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
    html = logged_in(b_reg.player).get(f"/matches/{m['id']}/report/").content.decode()
    assert "Game 1: " + a_reg.name + " won." in html
    assert (
        f"Bids {a_reg.name} 4, you 7: you chose who went first, {a_reg.name} received 4 ether."
        in html
    )
    player_client(m, "b").post(f"/api/matches/{m['id']}/confirm/", {}, format="json")
    html = logged_in(a_reg.player).get(f"/matches/{m['id']}/report/").content.decode()
    assert "Game 3: you won." in html and "You went first." in html


def test_bos_staff_match_page_shows_each_game(bos_published: BosMatch) -> None:
    from tests.factories import logged_in

    _, organiser, m = bos_published
    report(client_for(organiser), m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
    html = logged_in(organiser).get(f"/matches/{m['id']}/staff/").content.decode()
    a_name = Registration.objects.get(pk=m["a"]).name
    assert f"Game 1: {a_name} won." in html and "Game 3:" in html


def test_bos_results_csv_has_the_details_as_json(bos_published: BosMatch) -> None:
    import csv
    import io
    import json

    from matches import exports

    event, organiser, m = bos_published
    report(client_for(organiser), m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
    rows = list(csv.DictReader(io.StringIO(exports.results_csv(event))))
    assert list(rows[0])[-1] == "game_details"
    detailed = next(r for r in rows if r["b_registration"])
    assert json.loads(detailed["game_details"])[0]["ether"] == [4, 0]


def test_bos_report_and_match_pages_pass_the_accessibility_audit(
    bos_published_with_lists: BosMatch,
) -> None:
    from tests.factories import logged_in
    from tests.support import audit

    _, organiser, m = bos_published_with_lists
    a_player = Registration.objects.get(pk=m["a"]).player
    b_player = Registration.objects.get(pk=m["b"]).player
    url = f"/matches/{m['id']}/report/"
    problems = audit(logged_in(a_player), url)  # the empty form
    mine_b = [game("a"), game("b", swaps={"b": [swap("Spark Pup", "Brand Knight", 2)]}), game("a")]
    report(player_client(m, "b"), m["id"], {"games": [2, 1, 0], "game_details": mine_b})
    problems += audit(logged_in(a_player), url)  # confirm, with the opponent's games
    problems += audit(logged_in(b_player), url)  # waiting, the form filled from my report
    problems += audit(logged_in(organiser), f"/matches/{m['id']}/staff/")
    assert problems == []


# --- the staff match page -----------------------------------------------------------------------


def _staff_form(**values: str) -> dict[str, str]:
    return {"games_a": "2", "games_b": "1", "games_drawn": "0", **values}


def test_bos_staff_page_enters_each_game_with_both_players_swaps(
    bos_published_with_lists: BosMatch,
) -> None:
    from tests.factories import logged_in

    _, organiser, m = bos_published_with_lists
    client = logged_in(organiser)
    url = f"/matches/{m['id']}/staff/"
    html = client.get(url).content.decode()
    assert 'name="g2_swaps_me"' in html and 'name="g2_swaps_opp"' in html  # a's and b's
    form = _staff_form(
        g1_winner="me",
        g1_bids_me="4",
        g1_bids_opp="7",
        g2_winner="opp",
        g2_bids_me="2",
        g2_bids_opp="0",
        g2_swaps_me="Kindle > Scorch Rain",
        g2_swaps_opp="2 Spark Pup > Brand Knight",
        g3_winner="me",
        g3_bids_me="0",
        g3_bids_opp="5",
    )
    assert client.post(url, form).status_code == 302
    match = Match.objects.get(pk=m["id"])
    assert match.status == MatchStatus.FINAL and match.game_details[0]["ether"] == [4, 0]
    assert match.game_details[1]["swaps"] == {
        "a": [swap("Kindle", "Scorch Rain")],
        "b": [swap("Spark Pup", "Brand Knight", 2)],
    }
    # The form comes back filled in: swaps as lines, bids, winners.
    html = client.get(url).content.decode()
    assert "2 Spark Pup &gt; Brand Knight</textarea>" in html
    assert 'name="g3_bids_opp" min="0" max="99" value="5"' in html


def test_bos_staff_page_corrects_details_through_the_preview(bos_published: BosMatch) -> None:
    from tests.factories import logged_in

    _, organiser, m = bos_published
    report(client_for(organiser), m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
    client = logged_in(organiser)
    url = f"/matches/{m['id']}/staff/"
    # A new bid in game 1, the games unchanged: a correction, previewed, then applied.
    form = _staff_form(
        step="preview",
        reason="bid misread",
        g1_winner="me",
        g1_bids_me="4",
        g1_bids_opp="9",
        g2_winner="opp",
        g2_bids_me="2",
        g2_bids_opp="0",
        g3_winner="me",
        g3_bids_me="0",
        g3_bids_opp="5",
        g3_first="me",
    )
    preview = client.post(url, form)
    assert preview.status_code == 200
    html = preview.content.decode()
    assert 'name="game_details_json"' in html and "[4,9]" in html.replace("&quot;", '"')
    assert Match.objects.get(pk=m["id"]).game_details[0]["bids"] == [4, 7]
    import re

    hidden = re.search(r'name="game_details_json" value="([^"]*)"', html)
    assert hidden is not None
    from html import unescape

    applied = client.post(
        url,
        {
            **_staff_form(step="apply", reason="bid misread"),
            "game_details_json": unescape(hidden.group(1)),
        },
    )
    assert applied.status_code == 302
    match = Match.objects.get(pk=m["id"])
    assert match.game_details[0]["bids"] == [4, 9]
    version = ResultVersion.objects.filter(match=match).order_by("-number").first()
    assert version.change == ResultChange.CORRECTED
    assert version.before["game_details"][0]["bids"] == [4, 7]


def test_bos_staff_page_games_change_with_untouched_details_drops_them(
    bos_published: BosMatch,
) -> None:
    from tests.factories import logged_in

    _, organiser, m = bos_published
    report(client_for(organiser), m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
    client = logged_in(organiser)
    url = f"/matches/{m['id']}/staff/"
    # The page's filled-in details sent back untouched with other games.
    filled = _staff_form(
        step="apply",
        games_a="1",
        games_b="2",
        reason="winner swapped",
        g1_winner="me",
        g1_bids_me="4",
        g1_bids_opp="7",
        g1_chose_first="opp",
        g2_winner="opp",
        g2_bids_me="2",
        g2_bids_opp="0",
        g2_chose_first="me",
        g3_winner="me",
        g3_bids_me="0",
        g3_bids_opp="5",
        g3_chose_first="opp",
        g3_first="me",
    )
    filled.pop("game_details_json", None)
    filled["step"] = "enter"
    assert client.post(url, {**filled, "step": "preview"}).status_code == 200
    applied = client.post(url, {**filled, "step": "apply"})
    assert applied.status_code == 302
    match = Match.objects.get(pk=m["id"])
    assert match.games == (1, 2, 0) and match.game_details is None


def test_bos_report_page_records_a_game_lost_on_time(bos_published: BosMatch) -> None:
    from tests.factories import logged_in

    _, _, m = bos_published
    player = Registration.objects.get(pk=m["a"]).player
    html = logged_in(player).get(f"/matches/{m['id']}/report/").content.decode()
    assert '<select id="id_g1_end" name="g1_end"' in html and 'value="time"' in html
    form = {
        "won": "1",
        "lost": "0",
        "g1_winner": "me",
        "g1_bids_me": "1",
        "g1_bids_opp": "2",
        "g1_end": "time",
        "g2_end": "played",
        "g3_end": "played",
    }
    assert logged_in(player).post(f"/matches/{m['id']}/report/", form).status_code == 302
    assert Report.objects.get(match_id=m["id"]).game_details == [
        {"winner": "a", "bids": [1, 2], "chose_first": "b", "ether": [1, 0], "end": "time"}
    ]


def test_bos_dispute_shows_each_reports_games_on_the_judges_call_page(
    bos_published: BosMatch,
) -> None:
    """In a dispute the judge sees, game by game, where the two reports differ (here the bids
    of game 2), without opening the API."""
    from django.test import Client

    from matches.models import JudgeCall

    event, organiser, m = bos_published
    a, b = player_client(m, "a"), player_client(m, "b")
    report(a, m["id"], {"games": [2, 1, 0], "game_details": DETAILS})
    theirs = [DETAILS[0], game("b", (6, 0)), DETAILS[2]]
    disputed = report(b, m["id"], {"games": [2, 1, 0], "game_details": theirs})
    assert disputed.json()["status"] == "disputed"
    call = JudgeCall.objects.get(match_id=m["id"])
    page = Client()
    page.force_login(organiser)
    html = page.get(f"/judge/calls/{call.pk}/").content.decode()
    assert html.count('class="game-details"') == 2
    a_name, b_name = (
        Registration.objects.get(pk=m["a"]).name,
        Registration.objects.get(pk=m["b"]).name,
    )
    # Game 2 as each side reported it: bids 2-0 against 6-0.
    assert f"Bids {a_name} 2, {b_name} 0" in html
    assert f"Bids {a_name} 6, {b_name} 0" in html


@pytest.mark.parametrize("games", [[1, 1, 1], [2, 0, 1], [0, 0, 1]])
def test_bos_decay_no_drawn_game_even_without_details(
    games: list[int], bos_published: BosMatch
) -> None:
    """BOS: Decay: every game has a winner, so a drawn game is refused with or without the
    per-game details; BoBA's drawn games stay allowed."""
    _, _, m = bos_published
    refused = report(player_client(m, "a"), m["id"], {"games": games})
    assert refused.status_code == 400 and refused.json()["field"] == "games"
    assert "BOS: Decay" in refused.json()["detail"]
    assert Match.objects.get(pk=m["id"]).status == MatchStatus.PENDING


def test_bos_a_level_swiss_match_at_time_is_still_a_drawn_match(bos_published: BosMatch) -> None:
    _, _, m = bos_published
    reported = report(player_client(m, "a"), m["id"], {"games": [1, 1, 0]})
    assert reported.status_code == 200, reported.content
