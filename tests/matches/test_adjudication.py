"""The judges' adjudication page (matches/adjudication_views.py): replay a game record for a
call, step through it, build it action by action, ask what if, and rule with it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils.html import escape

from decks.models import Card
from engine.frozen import thaw
from matches import services
from matches.models import JudgeCall, Ruling
from tests.factories import UserFactory, logged_in
from tests.scenarios import adjudication_url, open_call_scene, running_event

pytestmark = pytest.mark.django_db
GOLDEN = Path(__file__).resolve().parent.parent / "engine" / "boba" / "golden"


def golden(name: str) -> str:
    return (GOLDEN / f"{name}.json").read_text()


@pytest.fixture
def scene() -> dict[str, Any]:
    return open_call_scene()


def test_the_page_is_for_the_events_judges_only(scene: dict[str, Any]) -> None:
    call = scene["call"]
    ok = logged_in(scene["judge"]).get(adjudication_url(call))
    assert ok.status_code == 200
    assert "Can he sub twice?" in ok.content.decode()
    assert logged_in(scene["match"].a.player).get(adjudication_url(call)).status_code == 403
    other = open_call_scene()
    assert logged_in(other["judge"]).get(adjudication_url(call)).status_code == 404
    assert logged_in(UserFactory()).get(adjudication_url(call)).status_code == 404
    assert Client().get(adjudication_url(call)).status_code == 302  # to the login page


def test_an_illegal_second_substitution_is_highlighted_with_its_rule(
    scene: dict[str, Any],
) -> None:
    response = logged_in(scene["judge"]).post(
        adjudication_url(scene["call"]),
        {"op": "replay", "record": golden("playmaker_illegal_second_substitution")},
    )
    assert response.status_code == 200
    html = response.content.decode()
    # the engine cites the Playmaker sequence of play (CR 4.3.2), as its golden replay says
    expected = json.loads(
        (GOLDEN / "playmaker_illegal_second_substitution.replay.json").read_text()
    )
    rule = expected["error"]["rule"]
    assert f'<mark class="adj-rule">{rule}</mark>' in html
    assert "<code>substitution_already_used</code>" in html
    assert "Illegal action 1" in html
    analysis = response.context["analysis"]
    assert analysis["error"].action == 1 and analysis["last_step"] == 1
    # the position up to it: A's first substitution made, A bench 1 now in battle 1
    panel = analysis["panels"][-1]["board"]
    assert panel["zones"][0]["sides"]["A"]["id"] == "AB1"
    assert 'class="adj-illegal-action"' in html
    # the player's words beside the rule
    assert html.count("Can he sub twice?") >= 2


def test_a_legal_record_shows_seven_zones_and_the_result(scene: dict[str, Any]) -> None:
    response = logged_in(scene["judge"]).post(
        adjudication_url(scene["call"]),
        {"op": "replay", "record": golden("playmaker_full_game_all_seven")},
    )
    assert response.status_code == 200
    analysis = response.context["analysis"]
    assert analysis["error"] is None
    assert thaw(analysis["result"]) == {
        "winner": "A",
        "decided_after_battle": 5,
        "sudden_death": [],
    }
    last = analysis["panels"][-1]
    assert last["current"] and len(last["board"]["zones"]) == 7
    html = response.content.decode()
    assert "Result: A wins, decided after battle 5." in html
    assert html.count('data-step="') == analysis["last_step"] + 1
    assert 'type="range"' in html and "js/adjudicate.js" in html
    # modifiers name their source and amount
    mods = [m for z in last["board"]["zones"] for s in z["sides"].values() for m in s["modifiers"]]
    assert mods and all({"source", "amount", "name"} <= set(m) for m in mods)


def test_a_step_can_be_chosen_without_javascript(scene: dict[str, Any]) -> None:
    response = logged_in(scene["judge"]).post(
        adjudication_url(scene["call"]),
        {"op": "show", "step": "2", "record": golden("playmaker_full_game_all_seven")},
    )
    current = [p for p in response.context["analysis"]["panels"] if p["current"]]
    assert [p["step"] for p in current] == [2]
    goto = logged_in(scene["judge"]).post(
        adjudication_url(scene["call"]),
        {"goto": "5", "record": golden("playmaker_full_game_all_seven")},
    )
    assert goto.context["analysis"]["step"] == 5


def test_an_uploaded_file_is_replayed(scene: dict[str, Any]) -> None:
    upload = SimpleUploadedFile(
        "game.json", golden("playmaker_illegal_second_substitution").encode(), "application/json"
    )
    response = logged_in(scene["judge"]).post(
        adjudication_url(scene["call"]), {"op": "replay", "record": "", "record_file": upload}
    )
    assert '<mark class="adj-rule">CR 4.3.2</mark>' in response.content.decode()


def test_a_substitution_without_hot_dogs_cites_cr_4_2_2(scene: dict[str, Any]) -> None:
    response = logged_in(scene["judge"]).post(
        adjudication_url(scene["call"]),
        {"op": "replay", "record": golden("substitution_not_enough_hot_dogs")},
    )
    html = response.content.decode()
    assert '<mark class="adj-rule">CR 4.2.2</mark>' in html
    assert 'class="adj-illegal-action"' in html


def test_a_malformed_record_names_the_field(scene: dict[str, Any]) -> None:
    response = logged_in(scene["judge"]).post(
        adjudication_url(scene["call"]),
        {"op": "replay", "record": golden("malformed_short_lineup")},
    )
    html = response.content.decode()
    assert "Malformed record" in html
    assert response.context["analysis"]["malformed"].field == "setup.A.battles"
    assert '<code class="adj-field">setup.A.battles</code>' in html
    bad = logged_in(scene["judge"]).post(
        adjudication_url(scene["call"]), {"op": "replay", "record": "{nope"}
    )
    assert bad.status_code == 400 and "is not valid JSON" in bad.content.decode()


def test_a_record_over_the_limit_is_refused(scene: dict[str, Any]) -> None:
    big = " " * (services.MAX_RECORD_BYTES + 1)
    response = logged_in(scene["judge"]).post(
        adjudication_url(scene["call"]), {"op": "replay", "record": big}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "<strong>record</strong>" in html and "at most" in html
    upload = SimpleUploadedFile("big.json", big.encode(), "application/json")
    refused = logged_in(scene["judge"]).post(
        adjudication_url(scene["call"]), {"op": "replay", "record_file": upload}
    )
    assert refused.status_code == 400 and "larger than" in refused.content.decode()


def test_the_builder_offers_only_legal_actions_and_appends_them(scene: dict[str, Any]) -> None:
    data = json.loads(golden("playmaker_illegal_second_substitution"))
    data["actions"] = data["actions"][:1]  # A has substituted; B decides now
    client = logged_in(scene["judge"])
    response = client.post(
        adjudication_url(scene["call"]), {"op": "replay", "record": json.dumps(data)}
    )
    options = response.context["analysis"]["options"]
    assert {o["player"] for o in options} == {"B"}
    assert not any(o["player"] == "A" and o["do"] == "substitute" for o in options)
    assert [o["do"] for o in options] == [
        "pass",
        "substitute",
        "substitute",
        "substitute",
        "substitute",
    ]
    html = response.content.decode()
    assert "A substitutes" not in html.split('id="next-heading"')[1].split("</section>")[0]
    # B substitutes BB2 and draws BD1: the action is appended to the record
    key = next(o["key"] for o in options if o["action"].get("card") == "BB2")
    after = client.post(
        adjudication_url(scene["call"]),
        {"op": "append", "record": json.dumps(data), "action_key": key, "action_card": "BD1"},
    )
    assert after.status_code == 200, after.context["errors"]
    record = json.loads(after.context["record_text"])
    assert record["actions"][-1] == {
        "player": "B",
        "do": "substitute",
        "card": "BB2",
        "draw": "BD1",
    }
    assert after.context["analysis"]["error"] is None
    # now the play phase: A has honors and may pass (no plays in hand)
    assert [o["label"] for o in after.context["analysis"]["options"]] == ["A passes"]


def test_an_action_key_that_is_not_offered_is_refused(scene: dict[str, Any]) -> None:
    response = logged_in(scene["judge"]).post(
        adjudication_url(scene["call"]),
        {"op": "append", "record": golden("rookie_drawn_game"), "action_key": "0"},
    )
    assert response.status_code == 400


def test_a_setup_starts_a_record_from_the_catalog(
    scene: dict[str, Any],
) -> None:
    heroes = [
        Card.objects.create(
            game="boba",
            external_id=f"x:{i}",
            kind="hero",
            name=f"Hero {i}",
            power=100 + i,
            weapon="Fire",
            parallel="Base",
        )
        for i in range(21)
    ]
    post: dict[str, str] = {"op": "setup", "mode": "substitution", "honors": "B"}
    n = 0
    for p in "AB":
        for i in range(1, 8):
            post[f"{p}_battle_{i}"] = heroes[n].external_id
            n += 1
        for i in range(1, 5):
            post[f"{p}_bench_{i}"] = heroes[n].external_id if n < 21 else "Hero 0"
            n += 1
        post[f"{p}_hot_dogs"] = "10"
    client = logged_in(scene["judge"])
    response = client.post(adjudication_url(scene["call"]), post)
    assert response.status_code == 200, response.context["errors"]
    record = json.loads(response.context["record_text"])
    assert record["mode"] == "substitution" and record["honors"] == "B"
    assert len(record["setup"]["A"]["battles"]) == 7 and len(record["setup"]["B"]["bench"]) == 4
    # each player's copy is its own card; B naming the card A holds is B's copy
    assert record["setup"]["A"]["battles"][0] == "A:x:0"
    assert record["setup"]["B"]["bench"][3] == "B:x:0"
    assert record["cards"]["A:x:1"] == {
        "kind": "hero",
        "name": "Hero 1",
        "variant": "Base",
        "power": 101,
        "weapon": "Fire",
        "ref": "x:1",
    }
    options = response.context["analysis"]["options"]
    assert {o["player"] for o in options} == {"B"}
    missing = client.post(adjudication_url(scene["call"]), {**post, "A_battle_3": "no such card"})
    assert missing.status_code == 400
    assert "setup.A.battles[2]" in missing.content.decode()
    search = client.post(adjudication_url(scene["call"]), {"op": "search", "q": "Hero 1"})
    assert "x:12" in search.content.decode()


def test_what_if_replacing_an_action_changes_the_outcome(scene: dict[str, Any]) -> None:
    client = logged_in(scene["judge"])
    record = golden("substitution_honors_after_draw")
    pick = client.post(
        adjudication_url(scene["call"]), {"op": "whatif_pick", "record": record, "wi_index": "0"}
    )
    options = pick.context["wi_options"]
    assert options[0]["label"] == "A passes"
    key = next(o["key"] for o in options if o["action"].get("card") == "AB2")
    response = client.post(
        adjudication_url(scene["call"]),
        {"op": "whatif", "record": record, "wi_index": "0", "wi_key": key, "wi_card": ""},
    )
    assert response.status_code == 200, response.context["errors"]
    before = response.context["analysis"]["battles"]
    after = response.context["whatif"]["battles"]
    assert before[0]["winner"] == "B" and after[0]["winner"] == "A"
    assert "What if action 0 were" in response.content.decode()
    changed = json.loads(response.context["whatif"]["record_text"])
    assert changed["actions"][0] == {"player": "A", "do": "substitute", "card": "AB2", "draw": None}


def test_the_ruling_form_stores_the_record_and_its_replay(scene: dict[str, Any]) -> None:
    call = scene["call"]
    client = logged_in(scene["judge"])
    url = f"/judge/calls/{call.pk}/adjudicate/ruling/"
    bad = client.post(url, {"text": "", "record": golden("playmaker_illegal_second_substitution")})
    assert bad.status_code == 400 and "<strong>text</strong>" in bad.content.decode()
    bad_cite = client.post(url, {"text": "No.", "citations": "whatever"})
    assert bad_cite.status_code == 400 and "citations[0]" in bad_cite.content.decode()
    response = client.post(
        url,
        {
            "text": "A may substitute once per battle.",
            "citations": "CR 4.2.2, CR 4.3.2",
            "decision": "other",
            "record": golden("playmaker_illegal_second_substitution"),
        },
    )
    assert response.status_code == 302
    assert response["Location"].endswith(f"/judge/calls/{call.pk}/")
    ruling = Ruling.objects.get(call=call)
    assert ruling.citations == ["CR 4.2.2", "CR 4.3.2"] and ruling.decision == "other"
    assert ruling.record["actions"][1]["card"] == "AB2"
    assert ruling.replay["error"]["rule"] == "CR 4.3.2" and ruling.replay["legal"] is False
    from engine.boba import ENGINE_VERSION

    assert ruling.engine_version == ENGINE_VERSION
    # the page opens on the ruled record next time
    page = client.get(adjudication_url(call) + "?step=1")
    assert page.context["analysis"]["step"] == 1


def test_only_staff_may_rule_here(scene: dict[str, Any]) -> None:
    url = f"/judge/calls/{scene['call'].pk}/adjudicate/ruling/"
    response = logged_in(scene["match"].a.player).post(url, {"text": "I win"})
    assert response.status_code == 403
    assert not Ruling.objects.exists()


def test_the_players_decklists_are_offered_first(scene: dict[str, Any]) -> None:
    from decks import services as deck_services
    from decks.catalog import catalog_for
    from engine.games import get_game

    deck_services.demo_catalog_load(game="boba")
    rules = get_game("boba").deck_rules()
    catalog = catalog_for("boba")
    text = rules.export(rules.sample(catalog, rules.resolve_format("playmaker"), 3), catalog)
    reg = scene["match"].a
    version = deck_services.decklist_submit(
        actor=scene["event"].organisers.first(), registration=reg, source=text
    )
    response = logged_in(scene["judge"]).get(adjudication_url(scene["call"]))
    offered = response.context["deck_options"]
    heroes = [o for o in offered if o["kind"] == "hero"]
    assert heroes and all(reg.name in o["label"] for o in offered)
    assert {h["id"] for h in version.data["heroes"]} == {o["ref"] for o in heroes}
    html = response.content.decode()
    datalist = html.split('<datalist id="adj-heroes">')[1].split("</datalist>")[0]
    assert datalist.startswith(f'<option value="{heroes[0]["ref"]}">')


def test_the_page_passes_the_accessibility_audit(scene: dict[str, Any]) -> None:
    from tests.support import PageAudit

    for record in ("playmaker_illegal_second_substitution", "substitution_honors_after_draw"):
        response = logged_in(scene["judge"]).post(
            adjudication_url(scene["call"]),
            {"op": "whatif_pick", "record": golden(record), "wi_index": "0"},
        )
        parser = PageAudit()
        parser.feed(response.content.decode())
        assert parser.report() == []


def test_the_adjudication_ruling_can_change_the_result() -> None:
    """The judge rules from the adjudication page itself, result included."""
    from matches import services as match_services
    from matches.models import CallStatus, MatchStatus
    from tests.factories import UserFactory, logged_in

    event, organiser, _ = running_event(2)
    judge = UserFactory()
    event.judges.add(judge)
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    match_services.round_publish(actor=organiser, round_=round_)
    match = round_.matches.select_related("a__player", "round").get()
    call, _ = match_services.call_open(actor=match.a.player, match=match, question="?")
    response = logged_in(judge).post(
        f"/judge/calls/{call.pk}/adjudicate/ruling/",
        {
            "text": "B won",
            "citations": "CR 4.2.2",
            "games_a": "0",
            "games_b": "1",
            "games_drawn": "0",
            "record": "",
        },
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.FINAL and match.games == (0, 1, 0)
    assert JudgeCall.objects.get(pk=call.pk).status == CallStatus.RESOLVED


def test_an_action_entered_offline_is_found_by_the_action_the_judge_saw(
    scene: dict[str, Any],
) -> None:
    """The page's script replays an action entered offline with the action the judge chose
    (`expect_action_key`): the option with that action is added even when the keys now stand
    for other actions; one that is not legal at this point is refused naming `action`."""
    data = json.loads(golden("playmaker_illegal_second_substitution"))
    data["actions"] = data["actions"][:1]  # A has substituted; B decides now
    client = logged_in(scene["judge"])
    page = client.post(
        adjudication_url(scene["call"]), {"op": "replay", "record": json.dumps(data)}
    )
    options = page.context["analysis"]["options"]
    wanted = next(o for o in options if o["action"].get("card") == "BB2")
    assert wanted["key"] != "0"
    html = page.content.decode()
    assert f'data-adj-expect="{escape(wanted["action_json"])}"' in html
    after = client.post(
        adjudication_url(scene["call"]),
        {
            "op": "append",
            "record": json.dumps(data),
            "action_key": "0",
            "expect_action_key": wanted["action_json"],
            "action_card": "BD1",
        },
    )
    assert after.status_code == 200, after.context["errors"]
    added = json.loads(after.context["record_text"])["actions"][-1]
    assert added == {"player": "B", "do": "substitute", "card": "BB2", "draw": "BD1"}
    stale = client.post(
        adjudication_url(scene["call"]),
        {
            "op": "append",
            "record": json.dumps(data),
            "action_key": "0",
            "expect_action_key": json.dumps({"player": "A", "do": "pass"}),
        },
    )
    assert stale.status_code == 400
    assert [e.field for e in stale.context["errors"]] == ["action"]
    assert json.loads(stale.context["record_text"]) == data


def test_the_page_says_its_verdict_and_carries_the_in_page_builder_hooks(
    scene: dict[str, Any],
) -> None:
    client = logged_in(scene["judge"])
    response = client.post(
        adjudication_url(scene["call"]),
        {"op": "replay", "record": golden("playmaker_illegal_second_substitution")},
    )
    html = response.content.decode()
    rule = response.context["analysis"]["error"].rule
    assert f"Verdict: illegal at action 1 ({rule})." in html
    match = scene["match"]
    assert f'data-adj-draft="match-{match.pk}"' in html
    assert "data-adj-board-now" in html and "data-adj-offline" in html
    legal = client.post(
        adjudication_url(scene["call"]), {"op": "replay", "record": golden("rookie_drawn_game")}
    )
    assert "Verdict: legal; the game is over after" in legal.content.decode()
