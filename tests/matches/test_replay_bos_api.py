"""`POST /api/replay/<game>/` for BOS: exactly the JSON of `python -m engine.bos replay --json`,
200 legal or not, 400 for a malformed record naming error.field; an unknown game is a 404."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.engine.bos.factory import end, record, start, summon
from tests.factories import UserFactory
from tests.scenarios import client_for

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
URL = "/api/replay/bos/"

LEGAL = record([start("A"), summon("A", 0, "essence"), end("A"), start("B")])
ILLEGAL = record([start("A"), summon("A", 1, "essence")])  # essence needs the sage (column 0)
MALFORMED = record([start("A")])
MALFORMED["cards"]["essence"]["summoning_condition"] = {}


def _cli(tmp_path: Path, body: bytes) -> tuple[int, Any]:
    path = tmp_path / "record.json"
    path.write_bytes(body)
    done = subprocess.run(
        [sys.executable, "-m", "engine.bos", "replay", str(path), "--json"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    return done.returncode, json.loads(done.stdout)


@pytest.mark.parametrize(
    ("data", "exit_status", "http_status"),
    [(LEGAL, 0, 200), (ILLEGAL, 1, 200), (MALFORMED, 2, 400)],
    ids=["legal", "illegal", "malformed"],
)
def test_bos_replay_api_answers_with_the_clis_json(
    tmp_path: Path, data: dict[str, Any], exit_status: int, http_status: int
) -> None:
    body = json.dumps(data).encode()
    code, cli = _cli(tmp_path, body)
    assert code == exit_status
    response = client_for(UserFactory()).post(URL, body, content_type="application/json")
    assert response.status_code == http_status
    got = response.json()
    assert got == cli
    assert list(got) == list(cli)  # the same keys in the same order
    assert json.dumps(got, indent=2) == json.dumps(cli, indent=2)


def test_bos_replay_api_names_the_malformed_field() -> None:
    response = client_for(UserFactory()).post(URL, MALFORMED, content_type="application/json")
    assert response.status_code == 400
    body = response.json()
    assert body["format"] == "bos-replay/1" and body["legal"] is False
    assert body["error"]["field"] == "cards.essence.summoning_condition"
    assert body["error"]["action"] is None


def test_bos_replay_api_reports_the_illegal_action_with_its_rule() -> None:
    response = client_for(UserFactory()).post(URL, ILLEGAL, content_type="application/json")
    assert response.status_code == 200
    error = response.json()["error"]
    assert error["action"] == 1 and error["rule"] == "BOS: Summoning Phase"
    assert error["code"] == "condition_not_met"


def test_bos_replay_api_refuses_text_that_is_not_json_as_malformed(tmp_path: Path) -> None:
    code, cli = _cli(tmp_path, b"{nope")
    response = client_for(UserFactory()).post(URL, b"{nope", content_type="application/json")
    assert code == 2 and response.status_code == 400
    assert response.json() == cli and cli["error"]["field"] == "record"


def test_replay_api_for_an_unknown_game_is_a_404() -> None:
    response = client_for(UserFactory()).post(
        "/api/replay/chess/", LEGAL, content_type="application/json"
    )
    assert response.status_code == 404


def test_replay_api_needs_a_login() -> None:
    from rest_framework.test import APIClient

    response = APIClient().post(URL, LEGAL, format="json")
    assert response.status_code in (401, 403)
