"""python manage.py validate_deck --game bos --format competitive FILE [--json]: the same exit
codes (0 legal, 1 not legal, 2 unreadable) and JSON report shape as for the default game."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from decks.services import demo_catalog_load, import_cards
from engine.games import get_game
from tests.support import fresh_manage

pytestmark = pytest.mark.django_db

GAME = "bos"
HEADER = "name,type,color,vim_cost,strength,summoning_condition,ability,set,card_number"


def _sample() -> str:
    rules = get_game(GAME).deck_rules()
    from decks.catalog import catalog_for

    catalog = catalog_for(GAME)
    return rules.export(rules.sample(catalog, rules.resolve_format("competitive"), 0), catalog)


def _demo_csv() -> str:
    """The BOS demo cards as an import CSV (the documented header)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=HEADER.split(","), extrasaction="ignore")
    writer.writeheader()
    for card in get_game(GAME).deck_rules().demo_cards():
        row = card.to_dict()
        writer.writerow({k: "" if row.get(k) is None else row[k] for k in HEADER.split(",")})
    return out.getvalue()


def _illegal(text: str) -> str:
    """One wizard short: BOS: Starting Info (3 different wizards, 24 cards)."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    return "\n".join(lines[:first] + lines[first + 1 :]) + "\n"


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("validate_deck", *args, stdout=out)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue()
    return 0, out.getvalue()


@pytest.fixture
def bos_cards(db):  # type: ignore[no-untyped-def]
    demo_catalog_load(game=GAME)


def test_a_legal_bos_list_exits_0(tmp_path: Path, bos_cards: None) -> None:
    path = tmp_path / "deck.txt"
    path.write_text(_sample())
    code, out = run("--game", GAME, "--format", "competitive", str(path))
    assert code == 0 and "Legal for competitive" in out


def test_the_format_defaults_to_the_games_own(tmp_path: Path, bos_cards: None) -> None:
    path = tmp_path / "deck.txt"
    path.write_text(_sample())
    code, out = run("--game", GAME, "--json", str(path))
    assert code == 0 and json.loads(out)["format"] == "competitive"


def test_an_illegal_bos_list_exits_1_with_the_json_report_and_citations(
    tmp_path: Path, bos_cards: None
) -> None:
    path = tmp_path / "deck.txt"
    path.write_text(_illegal(_sample()))
    code, out = run("--game", GAME, "--format", "competitive", "--json", str(path))
    report = json.loads(out)
    assert code == 1 and report["legal"] is False
    assert set(report) >= {"legal", "format", "violations", "warnings"}
    assert set(report["violations"][0]) >= {"rule", "citation", "message", "cards"}
    assert {v["rule"] for v in report["violations"]} >= {"wizard_count", "deck_size"}
    assert all(v["citation"].startswith("BOS: ") for v in report["violations"])


def test_bos_reserves_too_many_reserves_are_cited(tmp_path: Path, bos_cards: None) -> None:
    text = _sample().replace("3 Brand Knight", "3 Brand Knight\n3 Blaze Pact\n2 Kindle")
    path = tmp_path / "deck.txt"
    path.write_text(text)
    code, out = run("--game", GAME, "--json", str(path))
    report = json.loads(out)
    assert code == 1
    assert any(
        v["rule"] == "reserves_size" and v["citation"] == "BOS: Reserves"
        for v in report["violations"]
    )
    code, out = run("--game", GAME, str(path))
    assert code == 1 and "BOS: Reserves" in out


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--game", GAME, "--format", "playmaker"), "format"),
        (("--game", "chess"), "--game"),
    ],
)
def test_an_unknown_format_or_game_exits_2(
    tmp_path: Path, bos_cards: None, args: tuple[str, ...], needle: str
) -> None:
    path = tmp_path / "deck.txt"
    path.write_text(_sample())
    with pytest.raises(CommandError) as excinfo:
        call_command("validate_deck", *args, str(path))
    assert excinfo.value.returncode == 2 and needle in str(excinfo.value)


def test_an_unreadable_bos_list_exits_1_naming_the_line(tmp_path: Path, bos_cards: None) -> None:
    path = tmp_path / "deck.txt"
    path.write_text("Wizards (1)\n1 Nobody Of Note\n")
    code, out = run("--game", GAME, "--json", str(path))
    report = json.loads(out)
    assert code == 1 and report["legal"] is False
    assert report["violations"][0]["rule"] == "decklist_unreadable"
    assert report["violations"][0]["line"] == 2


def test_real_manage_py_bos_import_and_validate(tmp_path: Path, migrated_sqlite: Path) -> None:
    """As an organiser runs it: a fresh process, its own database, the imported BOS cards."""
    database = tmp_path / "db.sqlite3"
    manage = fresh_manage(database)

    shutil.copyfile(migrated_sqlite, database)  # as `manage.py migrate` leaves it
    cards = tmp_path / "bos.csv"
    cards.write_text(_demo_csv())
    imported = manage("import_cards", GAME, str(cards))
    assert imported.returncode == 0, imported.stderr
    assert "rejected 0" in imported.stdout
    from engine.bos.demo_catalog import SAMPLE_DECKLIST

    legal = tmp_path / "legal.txt"
    legal.write_text(SAMPLE_DECKLIST)
    ok = manage("validate_deck", "--game", GAME, "--format", "competitive", str(legal))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    illegal = tmp_path / "illegal.txt"
    illegal.write_text(_illegal(SAMPLE_DECKLIST))
    bad = manage("validate_deck", "--game", GAME, "--format", "competitive", "--json", str(illegal))
    assert bad.returncode == 1 and json.loads(bad.stdout)["legal"] is False
    unknown = manage("validate_deck", "--game", GAME, "--format", "rookie", str(legal))
    assert unknown.returncode == 2 and "format" in unknown.stderr
    assert manage("validate_deck", "--game", GAME, str(tmp_path / "no.txt")).returncode == 2


def test_import_csv_of_the_demo_cards_matches_the_demo_catalog(bos_cards: None) -> None:
    counts, rejections = import_cards(game=GAME, files=[("bos.csv", _demo_csv().encode())])
    assert rejections == [] and counts["created"] == len(get_game(GAME).deck_rules().demo_cards())
