"""decks.charts: pure SVG builders (no database)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from decks import charts

SVG = "{http://www.w3.org/2000/svg}"


def parse(markup: str) -> ET.Element:
    """Every chart must be well-formed XML (a broken escape would fail here)."""
    return ET.fromstring(markup)


def labelled_by(root: ET.Element) -> tuple[str, str]:
    ids = root.attrib["aria-labelledby"].split()
    title = root.find(f"{SVG}title")
    desc = root.find(f"{SVG}desc")
    assert title is not None and desc is not None
    assert ids == [title.attrib["id"], desc.attrib["id"]]
    return title.text or "", desc.text or ""


def test_bar_chart_is_an_accessible_image_with_its_title_and_description() -> None:
    markup = charts.bar_chart(
        chart_id="power", title="Heroes per Power", desc="60 Heroes", bars=[("60", 2), ("65", 1)]
    )
    root = parse(markup)
    assert root.attrib["role"] == "img"
    assert labelled_by(root) == ("Heroes per Power", "60 Heroes")
    assert len(root.findall(f"{SVG}rect")) == 2


def test_bar_chart_marks_the_cap_and_flags_bars_above_it() -> None:
    markup = charts.bar_chart(
        chart_id="p",
        title="t",
        desc="d",
        bars=[("100", 6), ("110", 7), ("120", 2)],
        cap=6,
        cap_label="max 6 per Power",
    )
    root = parse(markup)
    cap = [el for el in root.iter(f"{SVG}line") if el.attrib.get("class") == "cap-line"]
    assert len(cap) == 1 and cap[0].attrib["data-cap"] == "6"
    assert "max 6 per Power" in markup
    over = [el for el in root.iter(f"{SVG}rect") if el.attrib.get("data-over-cap") == "true"]
    assert len(over) == 1  # 7 is over, 6 (at the cap) is not
    assert ">7!<" in markup and ">6<" in markup


def test_cap_line_sits_at_the_cap_height_not_at_the_tallest_bar() -> None:
    root = parse(charts.bar_chart(chart_id="c", title="t", desc="d", bars=[("1", 2)], cap=10))
    cap = next(el for el in root.iter(f"{SVG}line") if el.attrib.get("class") == "cap-line")
    bar = next(iter(root.iter(f"{SVG}rect")))
    assert float(cap.attrib["y1"]) < float(bar.attrib["y"])  # the cap is above the short bar


def test_no_cap_means_no_cap_line() -> None:
    markup = charts.bar_chart(chart_id="c", title="t", desc="d", bars=[("1", 3)])
    assert "cap-line" not in markup


@pytest.mark.parametrize(
    "build",
    [
        lambda: charts.bar_chart(chart_id="e", title="t", desc="d", bars=[], empty_text="Nothing"),
        lambda: charts.hbar_chart(chart_id="e", title="t", desc="d", bars=[], empty_text="Nothing"),
    ],
)
def test_empty_data_gives_a_labelled_placeholder_not_an_error(build) -> None:  # type: ignore[no-untyped-def]
    markup = build()
    root = parse(markup)
    assert root.attrib["role"] == "img"
    assert "Nothing" in markup and "<rect" not in markup


def test_every_label_is_escaped() -> None:
    hostile = '<script>alert("x")</script> & "quotes"'
    markup = charts.bar_chart(
        chart_id='id"><script>',
        title=hostile,
        desc=hostile,
        bars=[(hostile, 1)],
        cap=1,
        cap_label=hostile,
        x_label=hostile,
    )
    markup += charts.hbar_chart(chart_id="h", title=hostile, desc=hostile, bars=[(hostile, 2)])
    markup += charts.meter(
        chart_id="m", title=hostile, desc=hostile, value=1, cap=2, value_label=hostile
    )
    markup += charts.data_table(caption=hostile, headers=(hostile, hostile), rows=[(hostile, 1)])
    assert "<script>" not in markup
    assert "&lt;script&gt;" in markup and "&amp;" in markup and "&quot;" in markup


def test_horizontal_bars_scale_to_the_largest_count() -> None:
    root = parse(
        charts.hbar_chart(chart_id="w", title="t", desc="d", bars=[("Fire", 10), ("Ice", 5)])
    )
    widths = [float(r.attrib["width"]) for r in root.iter(f"{SVG}rect")]
    assert widths[0] == pytest.approx(2 * widths[1])
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Fire" in texts and "Ice" in texts


@pytest.mark.parametrize(("value", "over"), [(928, False), (1000, False), (1040, True)])
def test_meter_shows_the_total_against_its_cap(value: int, over: bool) -> None:
    markup = charts.meter(chart_id="dbs", title="DBS", desc="d", value=value, cap=1000)
    root = parse(markup)
    assert labelled_by(root)[0] == "DBS"
    cap = next(el for el in root.iter(f"{SVG}line") if el.attrib.get("class") == "cap-line")
    assert cap.attrib["data-cap"] == "1000"
    fill = next(el for el in root.iter(f"{SVG}rect") if el.attrib.get("class") == "meter-fill")
    assert (fill.attrib["fill"] == charts.OVER) is over
    assert (" !" in markup) is over


def test_meter_without_a_cap_has_no_cap_marker() -> None:
    markup = charts.meter(chart_id="m", title="t", desc="d", value=300, cap=None)
    parse(markup)
    assert "cap-line" not in markup and ">300<" in markup


def test_data_table_lists_every_row_hidden_for_sighted_readers_only() -> None:
    table = charts.data_table(
        caption="Heroes", headers=("Power", "Heroes"), rows=[(60, 2), (65, 1)]
    )
    root = ET.fromstring(table)
    assert root.attrib["class"] == "visually-hidden"
    assert [th.text for th in root.iter("th")] == ["Power", "Heroes", "60", "65"]
    assert re.findall(r"<td>(\d+)</td>", table) == ["2", "1"]


@pytest.mark.parametrize("highest", [1, 2, 3, 6, 7, 11, 49, 51, 999])
def test_axis_maximum_is_round_and_never_below_the_data(highest: int) -> None:
    top = charts._nice_max(highest)
    assert top >= highest
    assert str(top).lstrip("125").strip("0") == ""
