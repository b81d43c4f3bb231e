"""The registration lottery's pure draw (tournaments/lottery.py) and its re-run CLI: the
same entries and seed always give the same order, every entry is drawn exactly once, the
winners are the first `places`, and bad input names its field."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments import lottery

REPO = Path(__file__).resolve().parents[2]

entry_ids = st.lists(st.integers(min_value=0, max_value=10**9), unique=True, max_size=60).map(
    sorted
)
seeds = st.text(
    alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=64
)


@given(entry_ids, seeds, st.integers(min_value=0, max_value=80))
def test_a_draw_orders_every_entry_once_and_the_first_places_win(
    entries: list[int], seed: str, places: int
) -> None:
    result = lottery.draw(entries, seed, places)
    assert sorted(result.order) == entries
    assert result.winners == result.order[: min(places, len(entries))]
    assert result.winners + result.waitlist == result.order
    assert len(result.winners) == min(places, len(entries))


@given(entry_ids, seeds, st.integers(min_value=0, max_value=80))
def test_a_draw_is_the_same_every_time_and_follows_the_published_rule(
    entries: list[int], seed: str, places: int
) -> None:
    first = lottery.draw(entries, seed, places)
    assert lottery.draw(list(entries), seed, places) == first
    # The documented rule, re-implemented from its description.
    keys = {e: hashlib.sha256(f"{seed}:{e}".encode()).hexdigest() for e in entries}
    assert list(first.order) == sorted(entries, key=lambda e: (keys[e], e))


@given(entry_ids, seeds, st.integers(min_value=0, max_value=80), st.integers(0, 80))
def test_more_places_only_move_the_line_between_winners_and_waitlist(
    entries: list[int], seed: str, places: int, more: int
) -> None:
    small = lottery.draw(entries, seed, places)
    large = lottery.draw(entries, seed, places + more)
    assert small.order == large.order
    assert set(small.winners) <= set(large.winners)


def test_a_different_seed_gives_a_different_order_for_many_entries() -> None:
    entries = list(range(1, 101))
    assert lottery.draw(entries, "a", 10).order != lottery.draw(entries, "b", 10).order


def test_the_commitment_is_the_seeds_sha256() -> None:
    assert lottery.commitment("abc") == hashlib.sha256(b"abc").hexdigest()
    seed = lottery.new_seed()
    assert len(seed) == 32 and lottery.check_seed(seed) == seed


@pytest.mark.parametrize(
    ("entries", "seed", "places", "field"),
    [
        ([2, 1], "s", 1, "entries[1]"),
        ([1, 1], "s", 1, "entries[1]"),
        ([1, -2], "s", 1, "entries[1]"),
        ([1, True], "s", 1, "entries[1]"),
        ("1,2", "s", 1, "entries"),
        ([1, 2], "", 1, "seed"),
        ([1, 2], "é", 1, "seed"),
        ([1, 2], "s" * 129, 1, "seed"),
        ([1, 2], "s", -1, "places"),
        ([1, 2], "s", 1.5, "places"),
    ],
)
def test_bad_input_names_its_field(
    entries: object, seed: object, places: object, field: str
) -> None:
    with pytest.raises(lottery.LotteryError) as error:
        lottery.draw(entries, seed, places)  # type: ignore[arg-type]
    assert error.value.field == field


def test_rerun_checks_the_published_commitment() -> None:
    data = {"entries": [1, 2, 3], "seed": "s", "places": 1, "commitment": "0" * 64}
    with pytest.raises(lottery.LotteryError) as error:
        lottery.rerun(data)
    assert error.value.field == "commitment"
    data["commitment"] = lottery.commitment("s")
    assert lottery.rerun(data)["winners"] == list(lottery.draw([1, 2, 3], "s", 1).winners)


def test_the_cli_reruns_a_draw_from_a_json_file(tmp_path: Path) -> None:
    path = tmp_path / "draw.json"
    path.write_text(json.dumps({"entries": [3, 5, 8, 13], "seed": "xyz", "places": 2}))
    done = subprocess.run(
        [sys.executable, "-m", "tournaments.lottery", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    expected = lottery.draw([3, 5, 8, 13], "xyz", 2)
    assert out["winners"] == list(expected.winners)
    assert out["waitlist"] == list(expected.waitlist)
    assert out["commitment"] == lottery.commitment("xyz")


def test_the_cli_refuses_bad_input_naming_the_field(tmp_path: Path) -> None:
    path = tmp_path / "draw.json"
    path.write_text(json.dumps({"entries": [5, 3], "seed": "xyz", "places": 2}))
    done = subprocess.run(
        [sys.executable, "-m", "tournaments.lottery", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 2
    assert json.loads(done.stderr)["field"] == "entries[1]"
