"""One error family for the engine and the pure cores (engine/errors.py).

Each input error derives from BattledeskError, names its ``field``, carries its ``message`` and
answers ``as_dict()``; each keeps the constructor, the ``str`` and the ``ValueError`` base it
always had (callers catch ValueError).
"""

from __future__ import annotations

import pytest

from engine.boba.deckbuilding.formats import FormatError
from engine.boba.effects import EffectError
from engine.boba.errors import IllegalActionError, Need, RecordError
from engine.errors import BattledeskError
from engine.penalties import PenaltyError, infraction
from tournaments.cutcalc import CutCalcError
from tournaments.results import ResultError
from tournaments.standings import StateError
from tournaments.timer import TimerError
from tournaments.topcut import BracketError

FIELD_ERRORS: tuple[type[BattledeskError], ...] = (
    RecordError,
    EffectError,
    FormatError,
    PenaltyError,
    StateError,
    BracketError,
    CutCalcError,
    ResultError,
    TimerError,
)


@pytest.mark.parametrize("cls", FIELD_ERRORS, ids=lambda c: c.__name__)
def test_each_input_error_derives_from_the_family_and_names_its_field(
    cls: type[BattledeskError],
) -> None:
    err = cls("rounds[2][0].games", "must be two numbers")
    assert isinstance(err, BattledeskError)
    assert isinstance(err, ValueError)  # as before: callers catch ValueError
    assert err.field == "rounds[2][0].games"
    assert err.message == "must be two numbers"
    d = err.as_dict()
    assert d["field"] == "rounds[2][0].games"
    assert d["message"] == "must be two numbers"
    assert isinstance(d["code"], str) and d["code"]
    with pytest.raises(BattledeskError):
        raise err


@pytest.mark.parametrize(
    "cls", [c for c in FIELD_ERRORS if c is not PenaltyError], ids=lambda c: c.__name__
)
def test_str_is_field_then_message_as_before(cls: type[BattledeskError]) -> None:
    assert str(cls("setup.A.battles", "needs 7 heroes")) == "setup.A.battles: needs 7 heroes"


def test_penalty_error_str_stays_the_message_alone() -> None:
    with pytest.raises(PenaltyError) as caught:
        infraction("no_such_infraction")
    assert caught.value.field == "infraction"
    assert str(caught.value) == caught.value.message
    assert "no_such_infraction" in caught.value.message


def test_record_error_keeps_its_code() -> None:
    err = RecordError("actions[4].card", "unknown card id")
    assert err.code == "malformed_record"
    assert err.as_dict() == {
        "code": "malformed_record",
        "field": "actions[4].card",
        "message": "unknown card id",
    }


def test_illegal_action_is_a_verdict_of_the_family_without_a_field() -> None:
    need = Need("random", "coin")
    err = IllegalActionError("missing_random", "CR 2.2.1", "The play needs a coin.", need)
    assert isinstance(err, BattledeskError)
    assert not isinstance(err, ValueError)  # never caught as bad input by accident
    assert (err.code, err.rule, err.message, err.needs) == (
        "missing_random",
        "CR 2.2.1",
        "The play needs a coin.",
        need,
    )
    assert err.field is None
    assert str(err) == "The play needs a coin."
    assert err.as_dict() == {
        "code": "missing_random",
        "field": None,
        "message": "The play needs a coin.",
        "rule": "CR 2.2.1",
    }


def test_the_base_error_without_a_field() -> None:
    err = BattledeskError(None, "something is wrong")
    assert str(err) == "something is wrong"
    assert err.as_dict() == {
        "code": "invalid_input",
        "field": None,
        "message": "something is wrong",
    }
    assert not isinstance(err, ValueError)
