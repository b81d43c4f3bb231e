"""The site's replay API on an engine bug: 200 with the CLI's JSON (internal_error), never 500."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, NoReturn

import pytest

from engine.boba import state as state_module
from engine.boba.__main__ import main
from tests.factories import UserFactory
from tests.scenarios import client_for

pytestmark = pytest.mark.django_db
FULL_GAME = (
    Path(__file__).resolve().parent.parent
    / "engine"
    / "boba"
    / "golden"
    / "playmaker_full_game_all_seven.json"
)


def test_replay_api_answers_an_engine_bug_with_the_clis_json(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    def fail(*_args: Any, **_kwargs: Any) -> NoReturn:
        raise KeyError("effect")

    monkeypatch.setattr(state_module, "run_play", fail)
    assert main(["replay", str(FULL_GAME), "--json"]) == 3
    cli = json.loads(capsys.readouterr().out)
    with caplog.at_level(logging.ERROR):
        response = client_for(UserFactory()).post(
            "/api/replay/boba/", FULL_GAME.read_bytes(), content_type="application/json"
        )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body == cli
    assert body["legal"] is False and body["error"]["code"] == "internal_error"
    assert any(
        r.name == "engine.boba.replay" and r.exc_info is not None for r in caplog.records
    ), "the exception is logged with its traceback"


def test_the_adjudication_page_shows_an_engine_bug_as_no_verdict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.factories import logged_in
    from tests.scenarios import adjudication_url, open_call_scene

    def fail(*_args: Any, **_kwargs: Any) -> NoReturn:
        raise KeyError("effect")

    monkeypatch.setattr(state_module, "run_play", fail)
    scene = open_call_scene()
    response = logged_in(scene["judge"]).post(
        adjudication_url(scene["call"]), {"op": "replay", "record": FULL_GAME.read_text()}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Engine failure at action 2: not a verdict on the record" in html
    assert "<code>internal_error</code>" in html
    assert "Illegal action" not in html
    assert '<mark class="adj-rule">None</mark>' not in html
