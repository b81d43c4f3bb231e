"""config.stand_ins.written writes a reader's own value exactly as `{{ value }}` writes it in a
template: the stored pages (the event page, the pairings page, "my match") put it in place of
a stand-in, so any difference would show on the page."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.template import engines
from django.test import override_settings
from django.utils.safestring import mark_safe

from config.stand_ins import written

VALUES: list[Any] = [
    "Ann <b>& 'Bo' \"Cy\"",
    "plain",
    "",
    mark_safe("<i>already safe</i>"),
    0,
    7,
    -42,
    1234567,
    7 * 10**18 + 123,
    True,
    2.5,
    datetime.date(2026, 11, 27),
]


def _template_writes(value: Any) -> str:
    return str(engines["django"].from_string("{{ value }}").render({"value": value}))


@pytest.mark.parametrize("grouped", [False, True])
@pytest.mark.parametrize("value", VALUES, ids=[repr(v) for v in VALUES])
def test_a_value_is_written_as_the_template_writes_it(value: Any, grouped: bool) -> None:
    with override_settings(USE_THOUSAND_SEPARATOR=grouped):
        assert written(value) == _template_writes(value)
