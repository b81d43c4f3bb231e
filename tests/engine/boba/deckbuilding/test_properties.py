"""Property tests: export then parse gives back the same list; junk never raises."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.boba.deckbuilding import (
    Catalog,
    DeckEntry,
    Decklist,
    decklist_from_dict,
    decklist_to_dict,
    demo_catalog,
    export_decklist,
    parse_csv,
    parse_decklist,
    validate_decklist,
)
from engine.boba.deckbuilding.decklist import MAX_COUNT, SECTION_OF_KIND

DEMO = demo_catalog()
DEMO_CARDS = sorted(DEMO.cards(), key=lambda c: c.id)
FRAGMENTS = [
    "Heroes",
    "Playbook",
    "Bonus Plays",
    "Hot Dogs",
    "## ",
    "[",
    "]",
    "(",
    ")",
    "#",
    "//",
    ":",
    "x",
    "X",
    "\u00d7",
    "2x ",
    "-1 ",
    "0 ",
    "1000000000 ",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\x00",
    "\ufeff",
    "Fire",
    "Ice 110",
    "Hot Dog",
    "Rocket Slim",
    "Demo Opening Day",
    "#PL-1",
    "- htd",
    "é",
    "\u2019",
    *[c.name for c in DEMO_CARDS[:40]],
]
SETTINGS = settings(max_examples=150)


def entries_strategy(catalog: Catalog) -> st.SearchStrategy[Decklist]:
    """Lists of distinct catalog cards, each in its kind's section, with any valid count; a
    non-canonical printing is always named exactly (by name it would mean the canonical one)."""
    ids = sorted(c.id for c in catalog.cards())
    entry = st.tuples(st.sampled_from(ids), st.integers(1, MAX_COUNT), st.booleans())

    def build(items: list[tuple[str, int, bool]]) -> Decklist:
        return Decklist(
            tuple(
                DeckEntry(
                    SECTION_OF_KIND[catalog[card_id].kind],
                    card_id,
                    count,
                    exact=exact or not catalog.is_canonical(card_id),
                )
                for card_id, count, exact in items
            )
        )

    return st.lists(entry, max_size=60, unique_by=lambda t: t[0]).map(build)


@SETTINGS
@given(entries_strategy(DEMO))
def test_export_then_parse_gives_back_the_same_list(decklist: Decklist) -> None:
    text = export_decklist(decklist, DEMO)
    again = parse_decklist(text, DEMO)
    assert again.errors == ()
    assert again.counts() == decklist.counts()
    assert export_decklist(again, DEMO) == text


@SETTINGS
@given(entries_strategy(DEMO))
def test_json_form_round_trip(decklist: Decklist) -> None:
    again = decklist_from_dict(decklist_to_dict(decklist, DEMO), DEMO)
    assert again.errors == ()
    assert again.counts() == decklist.counts()


@settings(max_examples=60)
@given(st.data())
def test_real_lists_round_trip(real: Catalog, data: st.DataObject) -> None:
    decklist = data.draw(entries_strategy(real), label="decklist")
    again = parse_decklist(export_decklist(decklist, real), real)
    assert again.errors == ()
    assert again.counts() == decklist.counts()


junk_text = st.one_of(
    st.text(max_size=2000),
    st.lists(st.sampled_from(FRAGMENTS), max_size=200).map("".join),
    st.lists(
        st.tuples(
            st.sampled_from(["", "1 ", "2x ", "-3 ", "0 ", "x4 ", "99999999999999 "]),
            st.sampled_from(FRAGMENTS),
            st.sampled_from(["", " x2", " (Fire 110)", " [Demo Overtime #7]"]),
        ),
        max_size=120,
    ).map(lambda rows: "\n".join(a + b + c for a, b, c in rows)),
)


@SETTINGS
@given(junk_text)
def test_junk_text_never_raises(text: str) -> None:
    decklist = parse_decklist(text, DEMO)
    lines = len(text.splitlines())
    for issue in decklist.issues:
        assert issue.line is None or 1 <= issue.line <= lines
        assert issue.message
    for entry in decklist.entries:
        assert entry.count >= 1
    report = validate_decklist(decklist, DEMO, "playmaker")
    assert report.legal == (not report.violations)
    assert isinstance(report.to_dict()["violations"], list)


@SETTINGS
@given(st.binary(max_size=3000))
def test_junk_bytes_never_raise(data: bytes) -> None:
    validate_decklist(data, DEMO, "rookie").to_dict()
    parse_csv(data)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=30,
)
json_decklists = st.dictionaries(
    st.sampled_from(["heroes", "playbook", "plays", "bonus_plays", "hot_dogs", "other"]),
    st.lists(
        st.one_of(
            json_values,
            st.fixed_dictionaries(
                {},
                optional={
                    "name": st.sampled_from([c.name for c in DEMO_CARDS[:30]])
                    | st.text(max_size=10),
                    "count": st.integers(-5, 2000) | st.text(max_size=3),
                    "weapon": st.sampled_from(["Fire", "ice", "Laser"]),
                    "power": st.integers(0, 300),
                    "set": st.sampled_from(["Demo Overtime", "Nope"]),
                    "card_number": st.sampled_from(["1", "PL-1", "HD-2"]) | st.integers(0, 50),
                    "id": st.sampled_from([c.id for c in DEMO_CARDS[:30]]) | st.text(max_size=5),
                },
            ),
        ),
        max_size=20,
    ),
    max_size=6,
)


@SETTINGS
@given(st.one_of(json_values, json_decklists))
def test_junk_json_never_raises(data: Any) -> None:
    decklist = decklist_from_dict(data, DEMO)
    validate_decklist(decklist, DEMO, "playmaker").to_dict()


@SETTINGS
@given(st.text(max_size=2000))
def test_junk_csv_never_raises(text: str) -> None:
    entries, rejections = parse_csv("name,kind,set,card_number,weapon,power,cost,dbs\n" + text)
    assert all(r.row >= 2 for r in rejections)
    assert len({e.id for e in entries}) == len(entries)
