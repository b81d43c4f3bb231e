"""The decklist text format and its JSON form: tolerant reading, clear issues, export."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.boba.deckbuilding import (
    Catalog,
    DeckEntry,
    Decklist,
    Section,
    decklist_from_dict,
    decklist_to_dict,
    export_decklist,
    get_format,
    parse_decklist,
    sample_decklist,
)
from engine.boba.deckbuilding.decklist import MAX_COUNT, MAX_INPUT_BYTES, MAX_LINES


def labels(decklist: Decklist, catalog: Catalog) -> list[tuple[str, str, int]]:
    return [(e.section.value, catalog[e.card_id].label, e.count) for e in decklist.entries]


def codes(decklist: Decklist) -> list[tuple[int | None, str]]:
    return [(i.line, i.code) for i in decklist.issues]


def test_tolerant_of_case_spacing_counts_comments_and_headers(real: Catalog) -> None:
    text = """
    // my list
    HEROES:
    1x action (fire 110)
      1   ACTION   ( ICE , 110 )   // a comment after a card
    Action Steel 105
    # a comment line

    ## Playbook (30)
    loan sharked x1
    Loan Sharked-HTD
    [Bonus Plays]
    Copycat
    Hot Dogs:
    8 Hot Dog
    2X brat wurst
    """
    decklist = parse_decklist(text, real)
    assert decklist.issues == ()
    assert labels(decklist, real) == [
        ("heroes", "Action (Fire 110)", 1),
        ("heroes", "Action (Ice 110)", 1),
        ("heroes", "Action (Steel 105)", 1),
        ("playbook", "Loan Sharked", 1),
        ("playbook", "Loan Sharked - htd", 1),
        ("bonus_plays", "Copycat", 1),
        ("hot_dogs", "Hot Dog", 8),
        ("hot_dogs", "Brat Wurst", 2),
    ]


def test_names_that_start_with_a_number(real: Catalog) -> None:
    decklist = parse_decklist("10 Per Play\n1 2 Plays\n1x 1-4-1 Play\n1/6 For 15\n", real)
    assert decklist.issues == ()
    assert labels(decklist, real) == [
        ("playbook", "10 Per Play", 1),
        ("playbook", "2 Plays", 1),
        ("playbook", "1-4-1 Play", 1),
        ("playbook", "1/6 For 15", 1),
    ]


def test_lines_by_set_and_card_number(real: Catalog) -> None:
    decklist = parse_decklist(
        "Alpha Edition #BF-128\n"
        "1 Mr. October (Super 185) [Griffey Edition #RJA-1]\n"
        "1 [alpha edition # 76]\n",
        real,
    )
    assert [(real[e.card_id].card_number, e.exact) for e in decklist.entries] == [
        ("BF-128", True),
        ("RJA-1", True),
        ("76", True),
    ]
    assert decklist.issues == ()


def test_two_printings_of_one_variation_are_two_entries(real: Catalog) -> None:
    decklist = parse_decklist("Alpha Edition #BF-128\nAlpha Edition #76\n", real)
    assert [real[e.card_id].card_number for e in decklist.entries] == ["BF-128", "76"]


@pytest.mark.parametrize(
    ("line", "code", "words"),
    [
        ("Bojax", "ambiguous", ["23 cards", "Bojax (Fire 100)"]),
        ("[Griffey Edition #RJA-1]", "ambiguous", ["Mr. October", "JAW-JAW"]),
        ("Action (Fire 999)", "unknown_variant", ["Action (Fire 110)"]),
        ("Bo Jaks (Fire 100)", "unknown_card", ["Bo Jaks"]),
        ("[Beta Edition #12]", "unknown_set", ["Alpha Edition"]),
        ("[Alpha Edition #ZZ-1]", "unknown_card", ["ZZ-1"]),
        ("Loan Sharked [Alpha Edition #76]", "name_mismatch", ["Action (Fire 110)"]),
    ],
)
def test_problems_are_named_with_the_line(
    real: Catalog, line: str, code: str, words: list[str]
) -> None:
    decklist = parse_decklist(f"Heroes\n{line}\n", real)
    assert decklist.entries == ()
    (issue,) = decklist.issues
    assert (issue.line, issue.code, issue.severity) == (2, code, "error")
    for word in words:
        assert word in issue.message


def test_unknown_names_get_did_you_mean(real: Catalog) -> None:
    (issue,) = parse_decklist("1 Lone Sharked\n", real).issues
    assert issue.code == "unknown_card"
    assert "Loan Sharked" in issue.suggestions
    (issue,) = parse_decklist("1 bojaks\n", real).issues
    assert issue.suggestions[0] == "Bojax"


@pytest.mark.parametrize(
    "count",
    ["0", "-1", "1000000000", "9" * 250, str(MAX_COUNT + 1)],
    ids=["0", "-1", "1e9", "250-digits", "max+1"],
)
def test_bad_counts(real: Catalog, count: str) -> None:
    decklist = parse_decklist(f"Hot Dogs\n{count} Hot Dog\n", real)
    assert decklist.entries == ()
    (issue,) = decklist.issues
    assert (issue.line, issue.code) == (2, "bad_count")
    assert str(MAX_COUNT) in issue.message


def test_duplicate_lines_add_up_with_a_warning(real: Catalog) -> None:
    decklist = parse_decklist(
        "Hot Dogs\n4 Hot Dog\n6 hot dog\nHeroes\nAction (Fire 110)\n1 ACTION (fire 110)\n", real
    )
    assert labels(decklist, real) == [
        ("hot_dogs", "Hot Dog", 10),
        ("heroes", "Action (Fire 110)", 2),
    ]
    assert [(i.line, i.code, i.severity) for i in decklist.issues] == [
        (3, "duplicate_line", "warning"),
        (6, "duplicate_line", "warning"),
    ]
    assert "first at line 2" in decklist.issues[0].message


def test_missing_sections_place_cards_by_kind(real: Catalog) -> None:
    decklist = parse_decklist("Action (Fire 110)\nLoan Sharked\nCopycat\n10 Hot Dog\n", real)
    assert decklist.issues == ()
    assert [e.section for e in decklist.entries] == [
        Section.HEROES,
        Section.PLAYBOOK,
        Section.BONUS_PLAYS,
        Section.HOT_DOGS,
    ]


def test_a_card_under_the_wrong_heading_is_moved_with_a_warning(real: Catalog) -> None:
    decklist = parse_decklist("Playbook\nAction (Fire 110)\nCopycat\n", real)
    assert [e.section for e in decklist.entries] == [Section.HEROES, Section.BONUS_PLAYS]
    assert [(i.code, i.severity) for i in decklist.issues] == [("wrong_section", "warning")] * 2


def test_section_context_settles_a_name_shared_by_kinds(demo: Catalog) -> None:
    # In the demo catalog no name is shared; the context filter still applies without harm.
    decklist = parse_decklist("Hot Dogs\n10 Chili Champ\n", demo)
    assert labels(decklist, demo) == [("hot_dogs", "Chili Champ", 10)]


def test_invalid_utf8_bytes(real: Catalog) -> None:
    data = b"Heroes\n1 Action (Fire 110)\n" + b"1 Caf\xe9 \xff\nHot Dogs\n10 Hot Dog\n"
    decklist = parse_decklist(data, real)
    assert labels(decklist, real) == [
        ("heroes", "Action (Fire 110)", 1),
        ("hot_dogs", "Hot Dog", 10),
    ]
    assert [(i.line, i.code, i.severity) for i in decklist.issues] == [
        (3, "not_utf8", "warning"),
        (3, "unknown_card", "error"),
    ]


def test_bytes_with_bom_and_crlf(real: Catalog) -> None:
    decklist = parse_decklist(b"\xef\xbb\xbfHeroes\r\n1 Action (Fire 110)\r\n", real)
    assert decklist.issues == () and len(decklist.entries) == 1


def test_a_5_mb_paste_is_refused_cheaply(real: Catalog) -> None:
    for data in ("1 Hot Dog\n" * 500_000, b"x" * 5_000_000):
        decklist = parse_decklist(data, real)
        assert decklist.entries == ()
        (issue,) = decklist.issues
        assert issue.code == "too_large" and f"{MAX_INPUT_BYTES:,}" in issue.message


def test_too_many_lines_and_long_lines(real: Catalog) -> None:
    (issue,) = parse_decklist("\n" * (MAX_LINES + 5), real).issues
    assert issue.code == "too_large"
    (issue,) = parse_decklist("1 " + "a" * 1000 + "\n", real).issues
    assert (issue.line, issue.code) == (1, "line_too_long")


def test_many_unknown_lines_stay_bounded(real: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    searched: list[str] = []
    suggest = Catalog.suggest

    def counted(self: Catalog, name: str, **kwargs: Any) -> tuple[str, ...]:
        searched.append(name)
        return suggest(self, name, **kwargs)

    monkeypatch.setattr(Catalog, "suggest", counted)
    decklist = parse_decklist("".join(f"1 Nonsense Card {i}\n" for i in range(1500)), real)
    assert len(searched) == 20  # the costly fuzzy search stops after 20 unknown names
    assert sum(bool(i.suggestions) for i in decklist.issues) <= 20
    assert len(decklist.issues) <= 201
    assert decklist.issues[-1].code == "too_many_issues"


def test_not_text(real: Catalog) -> None:
    (issue,) = parse_decklist(12345, real).issues  # type: ignore[arg-type]
    assert issue.code == "bad_input"


def test_export_is_sectioned_counted_and_sorted(real: Catalog) -> None:
    decklist = parse_decklist(
        "10 Hot Dog\nLoan Sharked\nBojax (Fire 100)\nAction (Ice 110)\nAlpha Edition #BF-128\n",
        real,
    )
    text = export_decklist(decklist, real, title="Test deck")
    assert text.splitlines()[:5] == [
        "# Test deck",
        "",
        "Heroes (3)",
        "1 Action (Fire 110) [Alpha Edition #BF-128]",
        "1 Action (Ice 110)",
    ]
    assert "1 Bojax (Fire 100)\n\nPlaybook" in text
    assert "Playbook (1)\n1 Loan Sharked\n" in text
    assert text.endswith("Hot Dogs (10)\n10 Hot Dog\n")
    assert parse_decklist(text, real).counts() == decklist.counts()


def test_export_round_trip_of_a_full_real_list(real: Catalog) -> None:
    decklist = sample_decklist(real, get_format("playmaker"), seed=7)
    again = parse_decklist(export_decklist(decklist, real), real)
    assert again.issues == ()
    assert again.counts() == decklist.counts()


def test_json_form_round_trip(real: Catalog) -> None:
    decklist = parse_decklist(
        "Action (Fire 110)\nAlpha Edition #BLBF-128\nLoan Sharked - htd\nCopycat\n10 Hot Dog\n",
        real,
    )
    data = json.loads(json.dumps(decklist_to_dict(decklist, real)))
    by_id = {item["id"]: item for item in data["heroes"]}
    assert by_id["76"] == {
        "count": 1,
        "id": "76",
        "name": "Action",
        "weapon": "Fire",
        "power": 110,
    }
    assert by_id["1595"]["card_number"] == "BLBF-128"
    again = decklist_from_dict(data, real)
    assert again.counts() == decklist.counts()
    assert {e.card_id: e.exact for e in again.entries} == {
        e.card_id: e.exact for e in decklist.entries
    }


def test_json_form_by_name_number_and_text(real: Catalog) -> None:
    decklist = decklist_from_dict(
        {
            "heroes": [
                {"name": "action", "weapon": "fire", "power": 110},
                {"set": "Alpha Edition", "card_number": 77, "count": 1},
                "1 Action (Steel 105)",
            ],
            "plays": [{"name": "Loan Sharked"}, "10 Per Play"],
            "hot_dogs": [{"name": "Hot Dog", "count": 10}],
        },
        real,
    )
    assert decklist.issues == ()
    assert labels(decklist, real) == [
        ("heroes", "Action (Fire 110)", 1),
        ("heroes", "Action (Ice 110)", 1),
        ("heroes", "Action (Steel 105)", 1),
        ("playbook", "Loan Sharked", 1),
        ("playbook", "10 Per Play", 1),
        ("hot_dogs", "Hot Dog", 10),
    ]


@pytest.mark.parametrize(
    ("data", "path", "code"),
    [
        ([], "$", "bad_input"),
        ({"sideboard": []}, "sideboard", "bad_input"),
        ({"heroes": "Action"}, "heroes", "bad_input"),
        ({"heroes": [42]}, "heroes[0]", "bad_input"),
        ({"heroes": [{"count": 1}]}, "heroes[0]", "bad_input"),
        (
            {"heroes": [{"name": "Action", "weapon": "Laser", "power": 1}]},
            "heroes[0].weapon",
            "bad_input",
        ),
        ({"heroes": [{"name": "Action", "power": "high"}]}, "heroes[0].power", "bad_input"),
        ({"heroes": [{"name": ["x"]}]}, "heroes[0].name", "bad_input"),
        ({"hot_dogs": [{"name": "Hot Dog", "count": 0}]}, "hot_dogs[0]", "bad_count"),
        ({"hot_dogs": [{"name": "Hot Dog", "count": "10"}]}, "hot_dogs[0].count", "bad_count"),
        ({"hot_dogs": [{"name": "Hot Dog", "count": 10**9}]}, "hot_dogs[0]", "bad_count"),
        ({"heroes": [{"id": "no-such-id"}]}, "heroes[0]", "unknown_card"),
        ({"plays": [{"name": "Lone Sharked"}]}, "playbook[0]", "unknown_card"),
        ({"plays": ["Lone Sharked"]}, "playbook[0]", "unknown_card"),
    ],
)
def test_json_form_problems_carry_a_path(real: Catalog, data: object, path: str, code: str) -> None:
    decklist = decklist_from_dict(data, real)
    assert decklist.entries == ()
    (issue,) = decklist.issues
    assert (issue.path, issue.code) == (path, code)


def test_export_skips_ids_missing_from_the_catalog(real: Catalog) -> None:
    decklist = Decklist((DeckEntry(Section.HEROES, "gone", 1), DeckEntry(Section.HEROES, "76", 1)))
    assert export_decklist(decklist, real) == "Heroes (1)\n1 Action (Fire 110)\n"
