"""What the judge desk asks of a game's plugin besides the replay: the rule sections a ruling
cites, the card rulings (BOS has none published) and the penalty catalogue (one for every
game, BOS publishing no penalty guide)."""

from __future__ import annotations

import pytest
from django.template.loader import get_template
from django.test import Client

from engine import penalties
from engine.games import GAMES, get_game
from matches import services
from matches.models import MatchStatus
from tests.factories import UserFactory
from tests.scenarios import client_for, running_event

pytestmark = pytest.mark.django_db


def test_bos_rule_sections_are_the_guides_headings_and_cite_as_rulings_do() -> None:
    sections = get_game("bos").rule_sections()
    codes = [code for code, _ in sections]
    assert codes[:3] == ["BOS: General Rules", "BOS: Starting Info", "BOS: Cards"]
    assert {"BOS: Main Phase", "BOS: Decay", "BOS: Reserves", "BOS: Time Control"} <= set(codes)
    for code in codes:
        assert services.CITATION_PATTERN.match(code), code
    assert get_game("bos").section_title(" BOS:  Player Attack ") == "Player Attack"
    assert get_game("boba").section_title("CR 4.2.2") is not None
    assert get_game("bos").section_title("CR 4.2.2") is None


def test_bos_rule_sections_name_every_rule_the_bos_engine_cites() -> None:
    from engine.bos import state

    cited = {v for k, v in vars(state).items() if k.startswith("R_")}
    assert cited <= {code for code, _ in get_game("bos").rule_sections()}


def test_every_game_has_an_adjudicator_and_the_site_has_its_template() -> None:
    for game in GAMES.values():
        adjudicator = game.adjudicator()
        assert adjudicator is not None
        assert not hasattr(adjudicator, "template")
        get_template(f"matches/adjudicate/{game.key}.html")
        replayer = game.replayer()
        assert replayer is not None and replayer.engine_version.startswith("battledesk-")


def test_bos_has_no_published_rulings_the_page_and_api_say_so(client: Client) -> None:
    page = client.get("/rules/rulings/", {"game": "bos"})
    assert page.status_code == 200
    assert "BOS has no published rulings on card texts." in page.content.decode()
    assert page.context["page"].paginator.count == 0
    api = client.get("/api/rules/rulings/", {"game": "bos"})
    assert api.status_code == 200 and api.json()["count"] == 0
    # the default stays BoBA's rulings
    assert client.get("/api/rules/rulings/").json()["count"] == get_game("boba").rulings().count()  # type: ignore[union-attr]


def test_an_unknown_game_on_the_rulings_page_is_a_400_naming_game(client: Client) -> None:
    page = client.get("/rules/rulings/", {"game": "chess"})
    assert page.status_code == 400
    api = client.get("/api/rules/rulings/", {"game": "chess"})
    assert api.status_code == 400 and api.json()["field"] == "game"


def test_a_bos_event_uses_the_same_penalty_catalogue() -> None:
    event, organiser, _ = running_event(
        4, game="bos", mode="competitive", format_key="competitive", match_structure="bo3"
    )
    judge = UserFactory()
    event.judges.add(judge)
    round_ = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=round_)
    match = round_.matches.filter(b__isnull=False)[0]
    response = client_for(judge).post(
        f"/api/matches/{match.pk}/penalties/",
        {"registration": match.a_id, "infraction": "outside_assistance"},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["penalty"] == penalties.infraction("outside_assistance").default
    assert body["applied_to_result"] is True
    match.refresh_from_db()
    # a match loss in a best of 3: the opponent wins 2-0
    assert match.status == MatchStatus.FINAL and match.games == (0, 2, 0)
