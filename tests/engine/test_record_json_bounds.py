"""engine.errors.json_problem and its quick form for decoded record text (issue 18, security 4):
a NUL character anywhere or nesting deeper than the bound is found, with the path to it, and
the quick check on a record's text agrees with the full walk."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine.errors import json_problem, record_json_problem

TEXT = st.text(alphabet=st.sampled_from(["a", "b", "\x00", "é", "\\", '"', "u"]), max_size=6)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | TEXT,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(TEXT, children, max_size=3),
    max_leaves=30,
)


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any("\x00" in k or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


@given(JSON, st.integers(min_value=1, max_value=6))
def test_json_problem_finds_nul_and_nesting_past_the_bound(value: Any, bound: int) -> None:
    problem = json_problem(value, bound)
    assert (problem is None) == (not _has_nul(value) and _depth(value) <= bound)
    if problem is not None:
        assert problem[0] in ("nul", "too_deep")


@given(JSON, st.integers(min_value=1, max_value=6), st.booleans())
def test_the_quick_check_on_record_text_agrees_with_the_walk(
    value: Any, bound: int, ascii_only: bool
) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    decoded = json.loads(text)
    assert record_json_problem(text, decoded, bound) == json_problem(decoded, bound)
    assert record_json_problem(text.encode(), decoded, bound) == json_problem(decoded, bound)


def test_the_path_names_where_the_problem_is() -> None:
    record = {"players": {"A": "Ann", "B": "Bo\x00b"}, "cards": {}}
    assert json_problem(record) == ("nul", "players.B")
    deep: Any = 1
    for _ in range(40):
        deep = [deep]
    code, path = json_problem({"actions": [{"choices": deep}]}, 32) or ("", "")
    assert code == "too_deep" and path.startswith("actions[0].choices[0]")
