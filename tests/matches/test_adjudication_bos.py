"""The judge desk for a BOS event: the adjudication page (record form, replay turn by turn,
the action builder) and a ruling with a BOS record, replayed by BOS's engine."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from engine.bos import ENGINE_VERSION as BOS_ENGINE
from matches import services
from matches.models import Ruling
from tests.engine.bos.factory import end, record, start, summon
from tests.factories import UserFactory
from tests.scenarios import running_event

pytestmark = pytest.mark.django_db


def _scene() -> dict[str, Any]:
    event, organiser, _ = running_event(
        4, game="bos", mode="competitive", format_key="competitive", match_structure="bo3"
    )
    judge = UserFactory()
    event.judges.add(judge)
    round_ = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_)
    match = round_.matches.filter(b__isnull=False).select_related("a__player", "b__player")[0]
    call, _ = services.call_open(actor=match.a.player, match=match, question="Can he attack me?")
    return {"event": event, "organiser": organiser, "judge": judge, "match": match, "call": call}


@pytest.fixture
def scene() -> dict[str, Any]:
    return _scene()


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _url(scene: dict[str, Any]) -> str:
    return f"/judge/calls/{scene['call'].pk}/adjudicate/"


def _post(scene: dict[str, Any], data: dict[str, Any]) -> Any:
    return _client(scene["judge"]).post(_url(scene), data)


# B has not started a first turn: A's summon cannot attack B (BOS: Player Attack).
ILLEGAL = record(
    [
        start("A"),
        summon("A", 0, "essence"),
        {
            "type": "attack",
            "player": "A",
            "attacker": 0,
            "target": {"player": "B"},
            "blocker": None,
        },
    ]
)


def test_bos_page_is_the_bos_form_for_the_events_judges_only(scene: dict[str, Any]) -> None:
    ok = _client(scene["judge"]).get(_url(scene))
    assert ok.status_code == 200
    assert "matches/adjudicate/bos.html" in [t.name for t in ok.templates]
    html = ok.content.decode()
    assert "bos-game-record/1" in html and "Can he attack me?" in html
    assert _client(scene["match"].a.player).get(_url(scene)).status_code == 403
    assert _client(UserFactory()).get(_url(scene)).status_code == 404


def test_bos_player_attack_before_the_first_turn_is_highlighted_with_its_rule(
    scene: dict[str, Any],
) -> None:
    response = _post(scene, {"op": "replay", "record": json.dumps(ILLEGAL)})
    assert response.status_code == 200
    html = response.content.decode()
    assert '<mark class="adj-rule">BOS: Player Attack</mark> Player Attack' in html
    assert "<code>opponent_not_started</code>" in html and "Illegal action 2" in html
    assert 'class="adj-illegal-action"' in html
    analysis = response.context["analysis"]
    assert analysis["error"].action == 2 and analysis["last_step"] == 2
    # the position before the illegal attack: A's summon in column 0, the wizard face-down
    board = analysis["panels"][-1]["board"]
    column = board["players"]["A"]["columns"][0]
    assert column["summon"]["id"] == "essence" and column["wizard_state"] == "face_down"
    assert board["players"]["A"]["vim"] == 2 and board["players"]["B"]["life"] == 30
    assert html.count('data-step="') == 3


def test_bos_replay_shows_life_vim_and_the_winner_turn_by_turn(scene: dict[str, Any]) -> None:
    data = record(
        [
            start("A"),
            end("A"),
            start("B"),
            {"type": "judge", "player": "B", "note": "Concedes", "adjust": {"B": {"life": 0}}},
        ]
    )
    response = _post(scene, {"op": "replay", "record": json.dumps(data)})
    analysis = response.context["analysis"]
    assert analysis["result"] == {"winner": "A", "reason": "life", "turn": 2}
    assert [t["player"] for t in analysis["turns"]] == ["A", "B"]
    assert "Result: A wins on turn 2" in response.content.decode()
    assert "builder" not in analysis  # the game is over: nothing to add


def test_bos_malformed_record_names_the_field(scene: dict[str, Any]) -> None:
    data = record([])
    data["decks"]["A"]["wizards"] = ["sage"]
    response = _post(scene, {"op": "replay", "record": json.dumps(data)})
    assert response.context["analysis"]["malformed"].field == "decks.A.wizards"
    assert '<code class="adj-field">decks.A.wizards</code>' in response.content.decode()


def test_bos_quick_buttons_and_the_action_form_append_actions(scene: dict[str, Any]) -> None:
    data = record([])
    first = _post(scene, {"op": "replay", "record": json.dumps(data)})
    assert first.context["analysis"]["builder"]["quick"] == ("start_turn",)
    assert 'name="quick" value="start_turn"' in first.content.decode()
    started = _post(scene, {"quick": "start_turn", "record": json.dumps(data)})
    assert started.status_code == 200, started.context["errors"]
    data = json.loads(started.context["record_text"])
    assert data["actions"] == [{"type": "start_turn", "player": "A"}]
    summoned = _post(
        scene,
        {
            "op": "append",
            "record": json.dumps(data),
            "act_type": "summon",
            "act_wizard": "1",
            "act_card": "sprite",
        },
    )
    data = json.loads(summoned.context["record_text"])
    assert data["actions"][-1] == {"type": "summon", "player": "A", "wizard": 1, "card": "sprite"}
    assert summoned.context["analysis"]["error"] is None
    # an action the rules do not expect now is refused, naming the field, the record kept
    refused = _post(scene, {"quick": "start_turn", "record": json.dumps(data)})
    assert refused.status_code == 400
    assert [e.field for e in refused.context["errors"]] == ["act_type"]
    assert json.loads(refused.context["record_text"]) == data


def _register_sample_lists(scene: dict[str, Any]) -> None:
    """The demo catalog's sample lists 0 (A) and 1 (B); A's reserves hold 3 Brand Knight,
    3 Scorch Rain and 1 Spark Pup."""
    from decks import services as deck_services
    from decks.catalog import catalog_for
    from engine.games import get_game

    deck_services.demo_catalog_load(game="bos")
    rules = get_game("bos").deck_rules()
    catalog = catalog_for("bos")
    fmt = rules.resolve_format("competitive")
    match = scene["match"]
    for seed, reg in enumerate((match.a, match.b)):
        text = rules.export(rules.sample(catalog, fmt, seed), catalog)
        deck_services.decklist_submit(actor=scene["organiser"], registration=reg, source=text)


def test_bos_record_starts_from_the_registered_lists(scene: dict[str, Any]) -> None:
    _register_sample_lists(scene)
    match = scene["match"]
    response = _post(scene, {"op": "skeleton", "first": "B", "A_ether": "3", "B_ether": "0"})
    assert response.status_code == 200, response.context["errors"]
    data = json.loads(response.context["record_text"])
    assert data["first"] == "B" and data["initial"]["ether"] == {"A": 3, "B": 0}
    assert data["players"] == {"A": match.a.name, "B": match.b.name}
    for p in "AB":
        deck = data["decks"][p]
        assert len(deck["wizards"]) == 3 and len(deck["castle"]) == 10
        assert len(deck["spellbook"]) == 10 and data["cards"][deck["boss"]]["type"] == "boss"
    analysis = response.context["analysis"]
    assert analysis.get("malformed") is None and analysis["error"] is None
    assert analysis["builder"]["player"] == "B"


def _names(data: dict[str, Any], ids: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for card_id in ids:
        out[data["cards"][card_id]["name"]] = out.get(data["cards"][card_id]["name"], 0) + 1
    return out


def test_bos_reserves_record_starts_with_the_swaps_in_effect(scene: dict[str, Any]) -> None:
    """BOS: Reserves: the record's main deck is the registered one after the swaps written in
    (cumulative), prefilled from what the match recorded."""
    _register_sample_lists(scene)
    match = scene["match"]
    match.game_details = [
        {"winner": "b", "bids": [1, 0], "ether": [0, 1], "chose_first": "a"},
        {
            "winner": "a",
            "bids": [0, 2],
            "ether": [0, 0],
            "chose_first": "b",
            "swaps": {"a": [{"out": "Spark Pup", "in": "Brand Knight", "count": 2}], "b": []},
        },
    ]
    match.save(update_fields=["game_details"])
    page = _client(scene["judge"]).get(_url(scene))
    assert page.status_code == 200
    assert page.context["values"]["A_swaps"] == "2x Spark Pup > Brand Knight"
    assert page.context["values"]["B_swaps"] == ""
    assert 'name="A_swaps"' in page.content.decode()

    response = _post(
        scene,
        {
            "op": "skeleton",
            "first": "A",
            "A_ether": "0",
            "B_ether": "2",
            "A_swaps": "2x Spark Pup > Brand Knight\nKindle > Scorch Rain",
            "B_swaps": "",
        },
    )
    assert response.status_code == 200, response.context["errors"]
    data = json.loads(response.context["record_text"])
    castle = _names(data, data["decks"]["A"]["castle"])
    spellbook = _names(data, data["decks"]["A"]["spellbook"])
    assert castle.get("Spark Pup") is None and castle["Brand Knight"] == 2
    assert spellbook["Kindle"] == 1 and spellbook["Scorch Rain"] == 1
    assert len(data["decks"]["A"]["castle"]) == 10 and len(data["decks"]["A"]["spellbook"]) == 10
    assert data["cards"][data["decks"]["A"]["castle"][0]]["type"] == "summon"
    assert response.context["analysis"]["error"] is None


def test_bos_reserves_swap_the_list_cannot_make_is_refused_naming_the_field(
    scene: dict[str, Any],
) -> None:
    _register_sample_lists(scene)
    response = _post(
        scene,
        {
            "op": "skeleton",
            "first": "A",
            "A_ether": "0",
            "B_ether": "0",
            "B_swaps": "Spark Pup > Brand Knight",
        },
    )
    assert response.status_code == 400
    [error] = response.context["errors"]
    assert error.field == "B_swaps"
    assert "Brand Knight" in str(error) and "BOS: Reserves" in str(error)
    assert scene["match"].b.name in str(error)


def test_bos_skeleton_without_lists_says_so(scene: dict[str, Any]) -> None:
    response = _post(scene, {"op": "skeleton", "first": "A"})
    assert response.status_code == 400
    assert [e.field for e in response.context["errors"]] == ["decks.A"]


def test_bos_ruling_stores_the_record_with_bos_replay_and_engine_version(
    scene: dict[str, Any],
) -> None:
    url = f"/judge/calls/{scene['call'].pk}/adjudicate/ruling/"
    response = _client(scene["judge"]).post(
        url,
        {
            "text": "B had not started a turn: no player attack.",
            "citations": "BOS: Player Attack",
            "record": json.dumps(ILLEGAL),
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    ruling = Ruling.objects.get(call=scene["call"])
    assert ruling.engine_version == BOS_ENGINE
    assert ruling.replay["format"] == "bos-replay/1"
    assert ruling.replay["error"]["rule"] == "BOS: Player Attack"
    # the call page summarises it with the section's title
    page = _client(scene["judge"]).get(f"/judge/calls/{scene['call'].pk}/")
    html = page.content.decode()
    assert "BOS: Player Attack</span> Player Attack" in html


def test_bos_ruling_with_a_malformed_record_is_refused_naming_the_field(
    scene: dict[str, Any],
) -> None:
    data = record([])
    del data["decks"]["B"]["boss"]
    with pytest.raises(services.RecordInvalid) as exc:
        services.call_ruling(
            actor=scene["judge"], call=scene["call"], text="No.", record=data, citations=[]
        )
    assert exc.value.field == "record.decks.B.boss"
    assert not Ruling.objects.exists()


def test_bos_call_page_lists_the_bos_rule_sections(scene: dict[str, Any]) -> None:
    html = _client(scene["judge"]).get(f"/judge/calls/{scene['call'].pk}/").content.decode()
    assert 'value="BOS: Main Phase"' in html and 'value="BOS: Decay"' in html
    assert 'value="CR 4.2.2"' not in html


def test_bos_page_passes_the_accessibility_audit(scene: dict[str, Any]) -> None:
    from tests.support import PageAudit

    for data in (ILLEGAL, record([start("A")])):
        response = _post(scene, {"op": "replay", "record": json.dumps(data)})
        parser = PageAudit()
        parser.feed(response.content.decode())
        assert parser.report() == []


def test_bos_ruling_through_the_api_replays_with_bos_and_audits(scene: dict[str, Any]) -> None:
    from tests.scenarios import client_for
    from tournaments.models import AuditEntry

    call = scene["call"]
    client = client_for(scene["judge"])
    bad = client.post(
        f"/api/calls/{call.pk}/ruling/",
        {"text": "No.", "citations": ["BOS: Nowhere!"], "record": ILLEGAL},
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["field"] == "citations[0]"
    response = client.post(
        f"/api/calls/{call.pk}/ruling/",
        {"text": "No player attack yet.", "citations": ["BOS: Player Attack"], "record": ILLEGAL},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["engine_version"] == BOS_ENGINE
    assert body["replay"]["error"]["code"] == "opponent_not_started"
    entry = AuditEntry.objects.get(tournament=scene["event"], action="call.ruling")
    assert entry.data["citations"] == ["BOS: Player Attack"]
