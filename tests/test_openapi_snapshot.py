"""The REST API's contract is the committed OpenAPI schema, docs/openapi.yaml: a change to any
operation, body or parameter shows up here as a diff, so it is made on purpose (a refactor that
changes the schema by accident fails). Update the snapshot deliberately with `make schema`
(docs/api.md, "The schema")."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiYamlRenderer

SNAPSHOT = Path(__file__).resolve().parent.parent / "docs" / "openapi.yaml"
UPDATE = "make schema  (python manage.py spectacular --file docs/openapi.yaml)"


def rendered_schema() -> str:
    """The schema as `manage.py spectacular` writes it (the same generator and renderer)."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return OpenApiYamlRenderer().render(schema, renderer_context={}).decode()


# An integer field's bounds come from the database the schema is rendered on (Django asks
# connection.ops: SQLite's integers are 64-bit, PostgreSQL's 32-bit unless big), so the
# comparison reads them as one token: the snapshot is the same contract on either database.
_DATABASE_RANGE = re.compile(
    r"^(\s*)(maximum|minimum): (-?9223372036854775808|9223372036854775807|-?2147483648|32767|-32768|"
    r"2147483647)$",
    re.MULTILINE,
)
_INT64 = re.compile(r"^\s*format: int64\n", re.MULTILINE)  # said of the same 64-bit bounds


def without_database_ranges(schema: str) -> str:
    return _INT64.sub("", _DATABASE_RANGE.sub(r"\1\2: <the database's integer range>", schema))


def test_the_openapi_schema_matches_the_committed_snapshot() -> None:
    assert SNAPSHOT.is_file(), f"{SNAPSHOT} is missing: write it with {UPDATE}"
    committed = without_database_ranges(SNAPSHOT.read_text())
    current = without_database_ranges(rendered_schema())
    if current == committed:
        return
    diff = "".join(
        difflib.unified_diff(
            committed.splitlines(keepends=True),
            current.splitlines(keepends=True),
            fromfile="docs/openapi.yaml (committed)",
            tofile="the schema the code renders now",
            n=3,
        )
    )
    raise AssertionError(
        "The OpenAPI schema changed: a public contract. If the change is deliberate, update the "
        f"snapshot with\n    {UPDATE}\nand commit it with the change.\n\n{diff}"
    )
