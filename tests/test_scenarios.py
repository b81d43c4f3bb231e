"""The named scenarios (tests/scenarios.py) are the states their names promise."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from matches.models import MatchStatus, Round, RoundStatus
from tests import scenarios
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_a_published_round_has_its_judge_and_pending_matches_by_table(
    published_round: scenarios.PublishedRound,
) -> None:
    assert published_round.round.status == RoundStatus.PUBLISHED
    assert published_round.event.judges.filter(pk=published_round.judge.pk).exists()
    assert len(published_round.matches) == 2
    assert [m.table for m in published_round.matches] == sorted(
        m.table for m in published_round.matches
    )
    assert {m.status for m in published_round.matches} == {MatchStatus.PENDING}


def test_a_finished_swiss_has_every_planned_round_finished(
    finished_swiss: scenarios.FinishedSwiss,
) -> None:
    assert finished_swiss.event.planned_rounds == len(finished_swiss.rounds) == 3
    for round_ in finished_swiss.rounds:
        round_.refresh_from_db()
        assert round_.status == RoundStatus.FINISHED
        assert not round_.matches.exclude(status=MatchStatus.FINAL).exists()


def test_a_running_top_cut_has_its_bracket_round_published_after_the_swiss(
    running_top_cut: scenarios.RunningTopCut,
) -> None:
    assert running_top_cut.cut.status == RoundStatus.PUBLISHED
    assert running_top_cut.cut.number == len(running_top_cut.swiss) + 1
    assert len(running_top_cut.matches) == running_top_cut.event.top_cut_size // 2


@pytest.mark.parametrize("turn", [1, 2])
def test_a_shared_world_is_the_same_for_every_test_and_each_tests_changes_are_undone(
    turn: int,
    shared_published_round: scenarios.PublishedRound,
    published_round_once: scenarios.PublishedRound,
    shared_finished_swiss: scenarios.FinishedSwiss,
    finished_swiss_once: scenarios.FinishedSwiss,
    shared_running_top_cut: scenarios.RunningTopCut,
    running_top_cut_once: scenarios.RunningTopCut,
) -> None:
    """Both turns change each world in the database and in memory: whichever runs second
    fails if the first's changes outlived it."""
    pairs = [
        (shared_published_round.event, published_round_once.event, 1),
        (shared_finished_swiss.event, finished_swiss_once.event, 3),
        (shared_running_top_cut.event, running_top_cut_once.event, 2),
    ]
    for own, built, rounds in pairs:
        assert own.pk == built.pk and own is not built  # the same rows, the test's own instance
        assert own.name == built.name == Tournament.objects.get(pk=own.pk).name
        assert Round.objects.filter(tournament=own).count() == rounds
        own.name = f"Changed in turn {turn}"
        own.save(update_fields=["name"])
        Round.objects.filter(tournament=own).delete()
    assert shared_published_round.matches[0].round is not published_round_once.matches[0].round


def test_the_demo_is_only_in_the_modules_that_read_it() -> None:
    """On SQLite a module that reads the demo puts its database in place and the clean one
    back after it (tests/conftest.py: _demo_in_database); here, in another module, it is gone
    whichever modules ran before in this process."""
    from eventdata.demo import DEMO_EVENT_SLUG

    assert not Tournament.objects.filter(slug=DEMO_EVENT_SLUG).exists()


def test_no_test_module_imports_another_test_module_or_a_conftest() -> None:
    """Shared helpers live in tests/support.py, tests/scenarios.py or a helper module beside the
    tests; fixtures in a conftest. A test module importing another runs the other's module code
    (and its pytestmark) in the importer, and ties the two together."""
    tests = Path(__file__).resolve().parent
    found = []
    for path in sorted(tests.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and node.level == 0
                else []
            )
            for module in modules:
                last = module.rsplit(".", 1)[-1]
                if module.startswith("tests.") and (last.startswith("test_") or last == "conftest"):
                    found.append(f"{path.relative_to(tests.parent)}:{node.lineno}: {module}")
    assert found == []
