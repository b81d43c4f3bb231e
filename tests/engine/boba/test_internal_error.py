"""An engine bug is an internal error (exit status 3), never a rules verdict (spec: Replay).

A handler made to raise KeyError / TypeError while a play resolves: the replay stops there
with code ``internal_error``, keeps the record and the positions before the failing action,
the CLI exits 3 with a message asking to report it, and the site's replay API answers 200 with
the CLI's JSON (never a 500).
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

import pytest

from engine.boba import ENGINE_VERSION, resolve
from engine.boba import state as state_module
from engine.boba.__main__ import main
from engine.boba.replay import describe, replay, replay_text, what_if
from engine.errors import EXIT_INTERNAL

GOLDEN = Path(__file__).resolve().parent / "golden"
FULL_GAME = GOLDEN / "playmaker_full_game_all_seven.json"
FIRST_RUN = 2  # the index of the golden game's first `run` action


def _first_run() -> int:
    actions = json.loads(FULL_GAME.read_text())["actions"]
    return next(i for i, a in enumerate(actions) if a["do"] == "run")


@pytest.fixture(params=[KeyError("effect"), TypeError("bad operand"), IndexError("list")])
def broken_handler(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Exception:
    """Every play's resolution fails with the parametrised engine bug."""
    exc: Exception = request.param

    def fail(*_args: Any, **_kwargs: Any) -> NoReturn:
        raise exc

    monkeypatch.setattr(state_module, "run_play", fail)
    return exc


def test_an_engine_bug_is_an_internal_error_not_a_verdict(broken_handler: Exception) -> None:
    assert _first_run() == FIRST_RUN
    r = replay_text(FULL_GAME.read_bytes(), keep_states=True)
    assert r.exit_status == EXIT_INTERNAL == 3
    out = r.to_json()
    assert out["legal"] is False and out["result"] is None
    err = out["error"]
    assert err["code"] == "internal_error"
    assert err["action"] == FIRST_RUN
    assert err["rule"] is None
    assert err["engine_version"] == ENGINE_VERSION
    assert err["exception"].startswith(type(broken_handler).__name__)
    assert "report" in err["message"] and str(FIRST_RUN) in err["message"]
    # the spec's error fields are all there, none renamed
    assert set(err) >= {"action", "code", "rule", "message"}
    # the record is kept, with the positions before the failing action
    assert r.record is not None and len(r.record.actions) > FIRST_RUN
    assert len(r.states) == FIRST_RUN
    assert r.state is r.states[-1]
    assert r.failure is broken_handler


def test_internal_error_without_kept_states_rebuilds_the_position(
    broken_handler: Exception,
) -> None:
    r = replay_text(FULL_GAME.read_bytes(), keep_states=False)
    assert r.exit_status == 3
    assert r.state is not None
    assert r.state.snapshot() == replay(r.record, upto=FIRST_RUN).state.snapshot()  # type: ignore[union-attr, arg-type]


def test_describe_asks_to_report_it(broken_handler: Exception) -> None:
    text = describe(replay_text(FULL_GAME.read_bytes()))
    last = text.splitlines()[-1]
    assert last.startswith(f"Internal error at action {FIRST_RUN}:")
    assert "bug in the engine" in last and "please report it" in last
    assert ENGINE_VERSION in last
    assert "illegal" not in last.lower()


def test_what_if_reports_the_bug_too(broken_handler: Exception) -> None:
    rec = replay(json.loads(FULL_GAME.read_text())).record
    assert rec is not None
    r = what_if(rec, 0, rec.actions[0])
    assert r.exit_status == 3 and r.error is not None and r.error.code == "internal_error"


def test_the_bug_is_logged_with_its_traceback(
    broken_handler: Exception, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="engine.boba.replay"):
        replay_text(FULL_GAME.read_bytes())
    logged = [rec for rec in caplog.records if rec.name == "engine.boba.replay"]
    assert len(logged) == 1
    assert logged[0].exc_info is not None and logged[0].exc_info[1] is broken_handler


def test_cli_exits_3_with_the_json(
    broken_handler: Exception, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(FULL_GAME), "--json"]) == 3
    out = json.loads(capsys.readouterr().out)
    assert out["legal"] is False
    assert out["error"]["code"] == "internal_error" and out["error"]["action"] == FIRST_RUN


def test_cli_exits_3_with_the_readable_account(
    broken_handler: Exception, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(FULL_GAME)]) == 3
    assert "please report it" in capsys.readouterr().out


def test_a_rules_verdict_is_still_exit_1() -> None:
    r = replay_text((GOLDEN / "playmaker_illegal_second_substitution.json").read_bytes())
    assert r.exit_status == 1
    assert r.error is not None and r.error.code != "internal_error"
    assert "engine_version" not in r.to_json()["error"]


def test_a_step_handler_raising_keyerror_is_an_internal_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bug in a registered step handler (the registry's entry) surfaces as exit 3."""

    def boom(*_args: Any) -> bool:
        raise KeyError("target")

    for name, word in list(resolve.STEP_WORDS.items()):
        monkeypatch.setitem(resolve.STEP_WORDS, name, replace(word, handler=boom))
    monkeypatch.setattr(resolve, "_PARSED", {})  # parsed steps hold their word
    assert main(["replay", str(FULL_GAME), "--json"]) == 3
    err = json.loads(capsys.readouterr().out)["error"]
    assert err["code"] == "internal_error" and err["exception"] == "KeyError: 'target'"
    assert err["action"] == FIRST_RUN
