from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.support import fresh_manage

pytestmark = pytest.mark.django_db


def run_command(*args: str) -> tuple[int, str]:
    from io import StringIO

    out = StringIO()
    try:
        call_command("validate_deck", *args, stdout=out)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue()
    return 0, out.getvalue()


def test_legal_list_exits_0(tmp_path: Path, legal_list: str) -> None:
    path = tmp_path / "deck.txt"
    path.write_text(legal_list)
    code, out = run_command("--format", "playmaker", str(path))
    assert code == 0 and "Legal" in out


def test_illegal_list_exits_1_with_json_report(tmp_path: Path, illegal_list: str) -> None:
    path = tmp_path / "deck.txt"
    path.write_text(illegal_list)
    code, out = run_command("--format", "playmaker", "--json", str(path))
    report = json.loads(out)
    assert code == 1 and report["legal"] is False
    assert set(report["violations"][0]) >= {"rule", "citation", "message", "cards"}


def test_unknown_format_is_an_error(tmp_path: Path, legal_list: str) -> None:
    from django.core.management.base import CommandError

    path = tmp_path / "deck.txt"
    path.write_text(legal_list)
    with pytest.raises(CommandError):
        call_command("validate_deck", "--format", "nonsense", str(path))


def test_real_manage_py_exit_codes(tmp_path: Path, migrated_sqlite: Path) -> None:
    """The command as an organiser runs it: a fresh process, its own database."""
    database = tmp_path / "db.sqlite3"
    manage = fresh_manage(database)

    deck = tmp_path / "deck.txt"
    deck.write_text("Heroes\n1 Solo (Fire 100)\n")
    # Before `migrate`: say what to run, no traceback (exit 2: nothing was checked).
    for command in (("validate_deck", str(deck)), ("import_cards", "boba", str(deck))):
        early = manage(*command)
        assert early.returncode == 2, (command, early.stderr)
        assert "make migrate" in early.stderr and "Traceback" not in early.stderr
    shutil.copyfile(migrated_sqlite, database)  # as `manage.py migrate` leaves it
    csv = tmp_path / "cards.csv"
    csv.write_text("name,set,card_number,weapon,power\nSolo,S,1,Fire,100\n")
    assert manage("import_cards", "boba", str(csv)).returncode == 0
    result = manage("validate_deck", "--format", "rookie", "--json", str(deck))
    assert result.returncode == 1, result.stderr
    assert json.loads(result.stdout)["legal"] is False
    # Input it cannot read is exit 2, never 1 ("read it, and it is not legal"): a CommandError
    # with returncode 2, which manage.py turns into the process's exit code (one real process
    # shows it; test_input_it_cannot_read_is_exit_2 checks each such input in-process).
    missing = manage("validate_deck", str(tmp_path / "nowhere.txt"))
    assert missing.returncode == 2 and "no such file" in missing.stderr


@pytest.mark.parametrize(
    ("name", "text", "extra"),
    [
        ("nowhere.txt", None, ()),
        ("deck.json", "{not json", ()),
        ("deck.txt", "Heroes\n1 Solo (Fire 100)\n", ("--format", "nonsense")),
    ],
)
def test_input_it_cannot_read_is_exit_2(
    tmp_path: Path, name: str, text: str | None, extra: tuple[str, ...]
) -> None:
    from django.core.management.base import CommandError

    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    with pytest.raises(CommandError) as excinfo:
        call_command("validate_deck", *extra, str(path))
    assert excinfo.value.returncode == 2


def test_validate_deck_reads_the_catalog_it_is_given(tmp_path: Path, legal_list: str) -> None:
    from django.core.management.base import CommandError

    path = tmp_path / "deck.txt"
    path.write_text(legal_list)
    code, out = run_command("--format", "playmaker", "--catalog", "boba-demo", str(path))
    assert code == 0 and "Legal" in out
    with pytest.raises(CommandError) as excinfo:
        call_command("validate_deck", "--catalog", "no-such-list", str(path))
    assert excinfo.value.returncode == 2 and "catalog" in str(excinfo.value)
