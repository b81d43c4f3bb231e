"""Read a roster CSV (bulk player import): one player a row, every problem named.

Pure: no Django. Columns (a header row, any order, case-insensitive): `name`, `email`,
`player_id` and, optionally, `decklist` (the list as a player would paste it). Aliases are
accepted (`e-mail`, `player id`, `deck`, ...) so a roster exported from another system reads
as it is. Each problem names its row (the file's line, the header being row 1), its column
and the reason; the reader never raises on bad input. Everything is bounded: the file's size,
the number of rows and each cell's length.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from engine.games import N_

MAX_ROSTER_BYTES = 2 * 1024 * 1024
MAX_ROSTER_ROWS = 2_048
MAX_CELL = {"name": 80, "email": 254, "player_id": 20, "decklist": 20_000}
# The reader's own cap on a cell (csv.field_size_limit); a longer cell is that row's problem.
CSV_CELL_LIMIT = 131_072

COLUMNS = ("name", "email", "player_id", "decklist")
ALIASES = {
    "name": "name",
    "player": "name",
    "player name": "name",
    "full name": "name",
    "display name": "name",
    "email": "email",
    "e-mail": "email",
    "e-mail address": "email",
    "email address": "email",
    "mail": "email",
    "player_id": "player_id",
    "player id": "player_id",
    "player-id": "player_id",
    "id": "player_id",
    "decklist": "decklist",
    "deck list": "decklist",
    "deck": "decklist",
    "list": "decklist",
}


@dataclass(frozen=True, slots=True)
class RowProblem:
    """Why a row (or the file, row 0 / the header, row 1) cannot be imported as it is.

    `reason` is an English message id (marked with N_) formatted with `params`: the site
    translates it (`gettext(reason) % params`); see `translated`."""

    row: int
    column: str
    reason: str
    params: tuple[tuple[str, object], ...] = ()

    def translated(self, translate: Callable[[str], str]) -> RowProblem:
        text = translate(self.reason)
        return RowProblem(self.row, self.column, text % dict(self.params) if self.params else text)

    def to_dict(self) -> dict[str, object]:
        return {"row": self.row, "column": self.column, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class RosterRow:
    """One player as the file gives them; blank cells are empty strings."""

    row: int
    name: str = ""
    email: str = ""
    player_id: str = ""
    decklist: str = ""
    problems: tuple[RowProblem, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class Roster:
    rows: tuple[RosterRow, ...]
    # Problems of the file as a whole (too large, no header, too many rows).
    problems: tuple[RowProblem, ...] = ()


def header_column(raw: str) -> str | None:
    """The column a header cell names, or None for a column the import does not read."""
    key = " ".join(raw.replace("_", " ").strip().lower().lstrip("\ufeff").split())
    return ALIASES.get(key) or ALIASES.get(key.replace(" ", "_"))


def read_roster(data: str | bytes) -> Roster:
    """The rows of a roster CSV, each with its problems; the file's own problems apart."""
    size = len(data.encode("utf-8") if isinstance(data, str) else data)
    if size > MAX_ROSTER_BYTES:
        limit = MAX_ROSTER_BYTES // 1024
        return Roster((), (_problem(0, "file", N_("the file is over %(limit)s KB"), limit=limit),))
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            return Roster(
                (), (_problem(0, "file", N_("not UTF-8 text (byte %(byte)s)"), byte=exc.start),)
            )
    else:
        text = data.lstrip("\ufeff")
    if "\x00" in text:
        return Roster((), (_problem(0, "file", N_("the file holds NUL characters")),))
    lines = _records(text)
    header = next(lines, None)
    if header is None or isinstance(header, RowProblem) or not any(c.strip() for c in header):
        return Roster((), (_problem(1, "header", N_("a header row is required")),))
    columns = [header_column(cell) for cell in header]
    missing = [c for c in ("name",) if c not in columns]
    if missing and not ({"email", "player_id"} & set(columns)):
        return Roster(
            (),
            (_problem(1, "header", N_("the header row needs a name, email or player_id column")),),
        )
    repeated = sorted({c for c in columns if c is not None and columns.count(c) > 1})
    if repeated:
        return Roster(
            (),
            (_problem(1, "header", N_("the column %(name)s is given twice"), name=repeated[0]),),
        )
    rows: list[RosterRow] = []
    for number, record in enumerate(lines, start=2):
        if len(rows) >= MAX_ROSTER_ROWS:
            return Roster(
                tuple(rows),
                (
                    _problem(
                        number,
                        "file",
                        N_("more than %(limit)s players; split the file"),
                        limit=MAX_ROSTER_ROWS,
                    ),
                ),
            )
        if isinstance(record, RowProblem):
            rows.append(RosterRow(number, problems=(replace(record, row=number),)))
            continue
        if not any(cell.strip() for cell in record):
            continue
        rows.append(_row(number, columns, record))
    return Roster(tuple(rows))


def _problem(row: int, column: str, reason: str, **params: object) -> RowProblem:
    return RowProblem(row, column, reason, tuple(params.items()))


def _records(text: str) -> Iterator[list[str] | RowProblem]:
    """Each CSV record, or why it could not be read (then reading goes on)."""
    reader = csv.reader(io.StringIO(text, newline=""))
    while True:
        try:
            yield next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            if "field larger than field limit" in str(error):
                yield _problem(
                    0, "row", N_("a cell is longer than %(limit)s characters"), limit=CSV_CELL_LIMIT
                )
            else:
                yield _problem(0, "row", N_("unreadable CSV row: %(error)s"), error=str(error))


def _row(number: int, columns: list[str | None], cells: list[str]) -> RosterRow:
    problems: list[RowProblem] = []
    if len(cells) > len(columns):
        problems.append(_problem(number, "row", N_("more cells than header columns")))
    values = {c: "" for c in COLUMNS}
    for column, cell in zip(columns, cells, strict=False):
        if column is None:
            continue
        value = cell if column == "decklist" else " ".join(cell.split())
        if len(value) > MAX_CELL[column]:
            problems.append(
                _problem(
                    number, column, N_("longer than %(limit)s characters"), limit=MAX_CELL[column]
                )
            )
            value = ""
        values[column] = value
    if not problems and not (values["name"] or values["email"] or values["player_id"]):
        problems.append(_problem(number, "name", N_("give a name, an e-mail or a player id")))
    return RosterRow(
        number,
        name=values["name"],
        email=values["email"],
        player_id=values["player_id"],
        decklist=values["decklist"].strip(),
        problems=tuple(problems),
    )
