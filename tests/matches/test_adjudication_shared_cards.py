"""Issue 18, finding 3: the judge's record builder when both players' lists share a card.

Each player's copy is its own card of the record (its own id, the catalog card kept as `ref`),
for BoBA (lists of real cards from ../shared/data/boba, imported as an organiser would) and
for BOS (the record started from both registered lists)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from decks import services as deck_services
from decks.models import Card
from matches import services
from tests.factories import UserFactory
from tests.matches.real_cards import SHARED_HEROES, import_real_cards, real_overlapping_lists
from tests.scenarios import running_event

pytestmark = pytest.mark.django_db


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _call_scene(**fields: Any) -> dict[str, Any]:
    event, organiser, _ = running_event(4, **fields)
    judge = UserFactory()
    event.judges.add(judge)
    round_ = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_)
    match = round_.matches.filter(b__isnull=False).select_related("a__player", "b__player")[0]
    call, _ = services.call_open(actor=match.a.player, match=match, question="Same hero?")
    return {"event": event, "organiser": organiser, "judge": judge, "match": match, "call": call}


def _hero_ids(data: dict[str, Any]) -> list[str]:
    return [str(h["id"]) for h in data["heroes"]]


def test_boba_setup_from_two_real_lists_sharing_heroes_gives_each_player_their_own_cards(
    shared_data: Path,
) -> None:
    scene = _call_scene()
    heroes, plays, text_a, text_b = real_overlapping_lists(shared_data)
    import_real_cards(shared_data, heroes, plays)
    match = scene["match"]
    version_a = deck_services.decklist_submit(
        actor=scene["organiser"], registration=match.a, source=text_a
    )
    version_b = deck_services.decklist_submit(
        actor=scene["organiser"], registration=match.b, source=text_b
    )
    ids_a, ids_b = _hero_ids(version_a.data), _hero_ids(version_b.data)
    shared = set(ids_a) & set(ids_b)
    assert len(ids_a) == len(ids_b) == 11 and len(shared) == SHARED_HEROES
    hand = [str(p["id"]) for p in version_a.data["playbook"]][:4]
    # B's lineup starts with the heroes A has too, in A's order: battle 1 is the same card
    order_b = [i for i in ids_a if i in shared] + [i for i in ids_b if i not in shared]
    post: dict[str, str] = {"op": "setup", "mode": "playmaker", "honors": "A"}
    for p, ids in (("A", ids_a), ("B", order_b)):
        for i in range(7):
            post[f"{p}_battle_{i + 1}"] = ids[i]
        for i in range(4):
            post[f"{p}_bench_{i + 1}"] = ids[7 + i]
        for i, play in enumerate(hand, 1):
            post[f"{p}_hand_{i}"] = play
    client = _client(scene["judge"])
    response = client.post(f"/judge/calls/{scene['call'].pk}/adjudicate/", post)
    assert response.status_code == 200, [str(e) for e in response.context["errors"]]
    record = json.loads(response.context["record_text"])
    battles_a, battles_b = record["setup"]["A"]["battles"], record["setup"]["B"]["battles"]
    assert battles_a[0] == f"A:{ids_a[0]}" and battles_b[0] == f"B:{ids_a[0]}"
    assert not set(record["setup"]["A"]["hand"]) & set(record["setup"]["B"]["hand"])
    # each copy still names the catalog card: the same name, power, weapon and catalog id
    card = Card.objects.get(external_id=ids_a[0])
    for side in "AB":
        assert record["cards"][f"{side}:{ids_a[0]}"] == {
            "kind": "hero",
            "name": card.name,
            "variant": card.parallel or "",
            "power": card.power,
            "weapon": card.weapon,
            "ref": card.external_id,
        }
    analysis = response.context["analysis"]
    assert analysis.get("malformed") is None and analysis["error"] is None
    assert {o["player"] for o in analysis["options"]} == {"A"}
    # the replay API takes the record as it is (version 1, the `ref` an extension)
    api = client.post("/api/replay/boba/", json.dumps(record), content_type="application/json")
    assert api.status_code == 200 and api.json()["legal"] is True


def test_boba_actions_name_the_acting_players_copy_of_a_catalog_card(
    shared_data: Path,
) -> None:
    """A hero B draws after substituting is B's copy even when A holds that catalog card;
    "A:<catalog id>" names A's copy explicitly."""
    scene = _call_scene()
    heroes, plays, _text_a, _text_b = real_overlapping_lists(shared_data)
    import_real_cards(shared_data, heroes, plays)
    ids = [
        str(Card.objects.filter(name=h["Name"]).order_by("id").first().external_id)  # type: ignore[union-attr]
        for h in heroes
    ]
    post: dict[str, str] = {"op": "setup", "mode": "substitution", "honors": "A"}
    for p in "AB":
        for i in range(7):
            post[f"{p}_battle_{i + 1}"] = ids[i]
        for i in range(4):
            post[f"{p}_bench_{i + 1}"] = ids[7 + i]
    url = f"/judge/calls/{scene['call'].pk}/adjudicate/"
    client = _client(scene["judge"])
    started = client.post(url, post)
    assert started.status_code == 200, [str(e) for e in started.context["errors"]]
    record = json.loads(started.context["record_text"])
    sub = next(
        o
        for o in started.context["analysis"]["options"]
        if o["do"] == "substitute" and o["action"]["card"] == f"A:{ids[7]}"
    )
    after = client.post(
        url,
        {
            "op": "append",
            "record": json.dumps(record),
            "action_key": sub["key"],
            "action_card": ids[11],
        },
    )
    assert after.status_code == 200, [str(e) for e in after.context["errors"]]
    record = json.loads(after.context["record_text"])
    assert record["actions"][-1]["draw"] == f"A:{ids[11]}"
    assert after.context["analysis"]["error"] is None
    b_sub = next(
        o
        for o in after.context["analysis"]["options"]
        if o["do"] == "substitute" and o["action"]["card"] == f"B:{ids[7]}"
    )
    again = client.post(
        url,
        {
            "op": "append",
            "record": json.dumps(record),
            "action_key": b_sub["key"],
            "action_card": ids[11],
        },
    )
    assert again.status_code == 200, [str(e) for e in again.context["errors"]]
    record = json.loads(again.context["record_text"])
    assert record["actions"][-1]["draw"] == f"B:{ids[11]}"
    assert again.context["analysis"]["error"] is None


def _bos_lists(scene: dict[str, Any]) -> None:
    """Both players register the demo list (red); B plays Kiln Mystic instead of Ash Warden.
    Both lists hold Coal Golem, whose summoning condition names Ash Warden."""
    from engine.bos.demo_catalog import SAMPLE_DECKLIST

    deck_services.demo_catalog_load(game="bos")
    match = scene["match"]
    deck_services.decklist_submit(
        actor=scene["organiser"], registration=match.a, source=SAMPLE_DECKLIST
    )
    deck_services.decklist_submit(
        actor=scene["organiser"],
        registration=match.b,
        source=SAMPLE_DECKLIST.replace("1 Ash Warden", "1 Kiln Mystic"),
    )


def test_bos_record_from_two_lists_sharing_cards_keeps_each_players_summoning_condition() -> None:
    scene = _call_scene(game="bos", mode="competitive", format_key="competitive")
    _bos_lists(scene)
    url = f"/judge/calls/{scene['call'].pk}/adjudicate/"
    client = _client(scene["judge"])
    response = client.post(url, {"op": "skeleton", "first": "A", "A_ether": "0", "B_ether": "1"})
    assert response.status_code == 200, [str(e) for e in response.context["errors"]]
    record = json.loads(response.context["record_text"])
    cards, decks = record["cards"], record["decks"]
    for p in "AB":
        ids = [*decks[p]["wizards"], decks[p]["boss"], *decks[p]["castle"], *decks[p]["spellbook"]]
        assert all(i.startswith(f"{p}:") and i in cards for i in ids)
    golem_a = next(c for c in decks["A"]["castle"] if cards[c]["name"] == "Coal Golem")
    golem_b = next(c for c in decks["B"]["castle"] if cards[c]["name"] == "Coal Golem")
    assert golem_a != golem_b and cards[golem_a]["ref"] == cards[golem_b]["ref"]
    warden = next(w for w in decks["A"]["wizards"] if cards[w]["name"] == "Ash Warden")
    assert cards[golem_a]["summoning_condition"] == {"wizard": warden}
    # A conducts Coal Golem with a red wizard who is not Ash Warden: illegal (BOS: Summoning
    # Phase); with Ash Warden: legal. B, without Ash Warden, has it by colour.
    other = next(i for i, w in enumerate(decks["A"]["wizards"]) if w != warden)
    for column, legal in ((other, False), (decks["A"]["wizards"].index(warden), True)):
        record["actions"] = [
            {"type": "start_turn", "player": "A"},
            {"type": "summon", "player": "A", "wizard": column, "card": golem_a},
        ]
        replayed = client.post(url, {"op": "replay", "record": json.dumps(record)})
        analysis = replayed.context["analysis"]
        assert analysis.get("malformed") is None
        assert (analysis["error"] is None) is legal, analysis["error"]
    assert cards[golem_b]["summoning_condition"] == {"colour": "red"}
