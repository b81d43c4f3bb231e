"""Issue 18, security 4: game records and game details pasted on the judge and staff pages
(and sent to the replay API) that are nested far too deep or hold a NUL character (which
PostgreSQL stores neither in text nor in jsonb) are refused naming the field: a 4xx or a form
error, never a 500, never a half-saved change. Both games."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.errors import MAX_RECORD_DEPTH, RecordError, decode_record_json
from matches import services
from matches.models import Match, Ruling
from tests.engine.bos.factory import record as bos_record
from tests.engine.bos.factory import start
from tests.factories import UserFactory, logged_in
from tests.scenarios import client_for, running_event

pytestmark = pytest.mark.django_db
GOLDEN = Path(__file__).resolve().parent.parent / "engine" / "boba" / "golden"
NUL = "Bob\u0000"  # a NUL character inside a player's name


def _boba_record() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / "rookie_drawn_game.json").read_text())
    return data


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def _deep_boba_record() -> dict[str, Any]:
    """A custom play whose effect is nested just past the bound (still under Python's
    recursion limit, so the JSON decodes)."""
    data = _boba_record()
    data["cards"]["deep"] = {"kind": "play", "name": "Deep", "cost": 0, "effect": _nested(40)}
    return data


def _nul_boba_record() -> dict[str, Any]:
    data = _boba_record()
    data["players"]["B"] = NUL
    return data


HUGE_NESTING = "[" * 100_000 + "]" * 100_000  # the decoder itself gives up (RecursionError)


def _scene(**fields: Any) -> dict[str, Any]:
    event, organiser, _ = running_event(4, **fields)
    judge = UserFactory()
    event.judges.add(judge)
    round_ = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_)
    match = round_.matches.filter(b__isnull=False).select_related("a__player", "b__player")[0]
    call, _ = services.call_open(actor=match.a.player, match=match, question="Is this legal?")
    return {"event": event, "organiser": organiser, "judge": judge, "match": match, "call": call}


def _fields(response: Any) -> list[str]:
    return [e.field for e in response.context["errors"]]


# --- the decoder -----------------------------------------------------------------------------


def test_decode_record_json_refuses_nul_and_deep_nesting_naming_the_field() -> None:
    with pytest.raises(RecordError) as nul:
        decode_record_json(json.dumps(_nul_boba_record()), 1 << 20)
    assert nul.value.field == "players.B" and "NUL" in nul.value.message
    with pytest.raises(RecordError) as deep:
        decode_record_json(json.dumps(_deep_boba_record()), 1 << 20)
    assert deep.value.field is not None and deep.value.field.startswith("cards.deep.effect")
    assert f"more than {MAX_RECORD_DEPTH} levels" in deep.value.message
    with pytest.raises(RecordError) as huge:
        decode_record_json(HUGE_NESTING, 1 << 20)
    assert huge.value.field == "record"
    with pytest.raises(RecordError) as key:
        decode_record_json('{"players": {"A\\u0000": "x"}}', 1 << 20)
    assert key.value.field == "players"
    assert decode_record_json(json.dumps(_boba_record()), 1 << 20) == _boba_record()


# --- the replay API, both games ----------------------------------------------------------------


@pytest.mark.parametrize("game", ["boba", "bos"])
def test_replay_api_refuses_nul_and_deep_nesting_with_a_400_naming_the_field(game: str) -> None:
    client = client_for(UserFactory())
    base = _boba_record() if game == "boba" else bos_record([start("A")])
    nul = {**base, "players": {**base["players"], "B": NUL}}
    deep = {**base, "extra": _nested(40)}
    for body, field in ((nul, "players.B"), (deep, "extra"), (HUGE_NESTING, "record")):
        text = body if isinstance(body, str) else json.dumps(body)
        response = client.post(f"/api/replay/{game}/", text, content_type="application/json")
        assert response.status_code == 400, (field, response.content[:300])
        assert response.json()["error"]["field"].startswith(field)


# --- the BoBA adjudication page and its ruling ----------------------------------------------------


def test_boba_adjudication_page_refuses_a_record_with_nul_or_deep_nesting() -> None:
    scene = _scene()
    client = logged_in(scene["judge"])
    url = f"/judge/calls/{scene['call'].pk}/adjudicate/"
    for data, field in (
        (json.dumps(_nul_boba_record()), "record.players.B"),
        (json.dumps(_deep_boba_record()), "record.cards.deep.effect"),
        (HUGE_NESTING, "record"),
    ):
        response = client.post(url, {"op": "replay", "record": data})
        assert response.status_code == 400
        assert _fields(response)[0].startswith(field), _fields(response)
        assert response.context["analysis"] is None
        ruling = client.post(f"{url}ruling/", {"text": "No.", "citations": "", "record": data})
        assert ruling.status_code == 400
        assert response.context["errors"][0].field.startswith(field)
    assert not Ruling.objects.exists()


def test_boba_builder_refuses_run_choices_nested_too_deep_or_with_nul() -> None:
    from engine.boba.adjudication import ADJUDICATOR
    from engine.games import AdjudicationInput, AdjudicationInputError

    def page(choices: str) -> Any:
        return ADJUDICATOR.page_type(
            AdjudicationInput(
                post={"action_choices": choices},
                query={},
                record_text="",
                players={"A": "Ann", "B": "Bob"},
                decks={},
                mode="playmaker",
                cards=None,  # type: ignore[arg-type]
                decode=json.loads,
                gettext=str,
                errors=(),
                recorded_details={},
            )
        )

    option = {"do": "run", "action": {"player": "A", "do": "run", "card": "p1"}}
    ok = page('{"pay": 2}').action_from_form({}, option, "action_")  # type: ignore[attr-defined]
    assert ok["choices"] == {"pay": 2}
    for choices in ("[" * 5000 + "]" * 5000, json.dumps(_nested(40)), '"x\\u0000"', "x\x00"):
        with pytest.raises(AdjudicationInputError) as exc:
            page(choices).action_from_form({}, option, "action_")  # type: ignore[attr-defined]
        assert exc.value.field == "action_choices"


def test_call_page_ruling_refuses_a_record_with_nul_or_deep_nesting() -> None:
    scene = _scene()
    client = logged_in(scene["judge"])
    services.call_claim(actor=scene["judge"], call=scene["call"])
    url = f"/judge/calls/{scene['call'].pk}/ruling/"
    for data, field in (
        (json.dumps(_nul_boba_record()), "record.players.B"),
        (HUGE_NESTING, "record"),
    ):
        response = client.post(url, {"text": "The game stands.", "record": data})
        assert response.status_code == 400, response.content[:500]
        assert field in response.content.decode()
    assert not Ruling.objects.exists()


# --- the BOS adjudication page ------------------------------------------------------------------


def test_bos_adjudication_page_refuses_nul_and_deep_nesting_in_records_and_effects() -> None:
    scene = _scene(game="bos", mode="competitive", format_key="competitive")
    client = logged_in(scene["judge"])
    url = f"/judge/calls/{scene['call'].pk}/adjudicate/"
    base = bos_record([start("A")])
    nul = {**base, "players": {**base["players"], "B": NUL}}
    response = client.post(url, {"op": "replay", "record": json.dumps(nul)})
    assert response.status_code == 400 and _fields(response) == ["record.players.B"]
    response = client.post(url, {"op": "replay", "record": HUGE_NESTING})
    assert response.status_code == 400 and _fields(response) == ["record"]
    for effects in ("[" * 5000 + "]" * 5000, json.dumps([_nested(40)]), '[{"kind": "x\\u0000"}]'):
        appended = client.post(
            url,
            {
                "op": "append",
                "record": json.dumps(base),
                "act_type": "abilities",
                "act_effects": effects,
            },
        )
        assert appended.status_code == 400
        assert _fields(appended) == ["act_effects"]
        assert json.loads(appended.context["record_text"]) == base


# --- the staff page's game details (BOS) -----------------------------------------------------------


def _bos_match() -> tuple[Any, Match]:
    from tests.factories import bos_event, register_decklist

    event = bos_event(status="running")
    scene_event, organiser, _ = event, None, None
    from tests.factories import OrganiserFactory, RegistrationFactory

    organiser = OrganiserFactory()
    scene_event.organisers.add(organiser)
    for _i in range(2):
        register_decklist(RegistrationFactory(tournament=scene_event, player=UserFactory()))
    round_ = services.round_pair(actor=organiser, tournament=scene_event)
    services.round_publish(actor=organiser, round_=round_)
    return organiser, round_.matches.filter(b__isnull=False).get()


GAMES = {
    "games_a": "2",
    "games_b": "1",
    "games_drawn": "0",
    "g1_winner": "me",
    "g1_bids_me": "4",
    "g1_bids_opp": "7",
    "g2_winner": "opp",
    "g2_bids_me": "2",
    "g2_bids_opp": "0",
    "g3_winner": "me",
    "g3_bids_me": "0",
    "g3_bids_opp": "5",
}


def test_staff_page_refuses_game_details_with_nul_or_deep_nesting() -> None:
    organiser, match = _bos_match()
    client = logged_in(organiser)
    url = f"/matches/{match.pk}/staff/"
    good = [
        {"winner": "a", "bids": [4, 7], "ether": [4, 0], "chose_first": "b"},
        {"winner": "b", "bids": [2, 0], "ether": [0, 2], "chose_first": "a"},
        {"winner": "a", "bids": [0, 5], "ether": [0, 0], "chose_first": "b"},
    ]
    nul_details = json.loads(json.dumps(good))
    nul_details[1]["swaps"] = {"a": [{"out": "Spark\u0000Pup", "in": "Brand Knight"}], "b": []}
    for raw in (
        json.dumps(nul_details),
        json.dumps([*good[:2], {**good[2], "x": _nested(40)}]),
        HUGE_NESTING[:100_000],
        "[" * 50_000 + "]" * 50_000,
    ):
        response = client.post(
            url,
            {
                "games_a": "2",
                "games_b": "1",
                "games_drawn": "0",
                "step": "apply",
                "reason": "typo",
                "game_details_json": raw,
            },
            follow=True,
        )
        assert response.status_code == 200
        text = " ".join(str(m) for m in response.context["messages"])
        assert "Game details" in text or "game details" in text, text
    # a NUL byte typed in a per-game input never reaches the page (config.middleware)
    response = client.post(url, {**GAMES, "g2_swaps_me": "Spark\u0000Pup > Brand Knight"})
    assert response.status_code == 400 and "g2_swaps_me" in response.content.decode()
    match.refresh_from_db()
    assert match.games is None and match.game_details is None


def test_bos_details_refuse_a_swapped_card_name_with_a_nul_character() -> None:
    from engine.bos.match import DetailsError, clean_game_details

    details = [
        {"winner": "a", "bids": [4, 7], "ether": [4, 0], "chose_first": "b"},
        {
            "winner": "a",
            "bids": [2, 0],
            "ether": [0, 0],
            "chose_first": "a",
            "swaps": {"a": [{"out": "Spark\u0000Pup", "in": "Brand Knight"}], "b": []},
        },
    ]
    with pytest.raises(DetailsError) as exc:
        clean_game_details(details, games=(2, 0, 0), games_to_win=2)
    assert exc.value.field == "game_details[1].swaps.a[0].out"
