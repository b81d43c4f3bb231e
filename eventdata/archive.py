"""The event archive format: one versioned JSON document holding a whole event.

Pure: no Django. The readers that build an archive from the database live in
`eventdata.archive_selectors`, the writer that restores one in `eventdata.archive_services`;
this module says what an archive is (`parse` checks a document and raises `ArchiveError`, naming
the place, for anything else), how it is written (`dumps`) and what two archives of the same
event have in common (`comparable`).

Inside an archive nothing is named by a database id: people by username (with their player id
in `users`), cards by (game, external id), registrations by a key `R<n>` (their order of
creation), rounds by number, matches by `M<round>.<n>`, judge calls by `C<n>`, deck checks by
`D<n>`. So exporting an event, importing it elsewhere and exporting it again gives the same
document (except `exported_at`). The audit trail is kept as it was written: its `target` and
`data` name the exporting installation's ids.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from typing import Any

from engine.errors import json_problem

FORMAT = "battledesk-event-archive"
VERSION = 1
MAX_BYTES = 512 * 1024 * 1024

# Sections in the order an import writes them; each is a list of objects.
SECTIONS: tuple[str, ...] = (
    "users",
    "cards",
    "registrations",
    "decklists",
    "rounds",
    "teams",
    "team_matches",
    "lineups",
    "stages",
    "matches",
    "reports",
    "result_versions",
    "standings",
    "calls",
    "rulings",
    "penalties",
    "clock_events",
    "feature_matches",
    "deck_checks",
    "audit",
)
# Sections added after version 1 was first written: an older archive without them reads as
# having none (every other section is required).
ADDED_SECTIONS: tuple[str, ...] = (
    "clock_events",
    "stages",
    "teams",
    "team_matches",
    "lineups",
    "feature_matches",
)
# A feature match's slot (overlays.models.MAX_SLOT: the overlay URLs' 1 to 8).
FEATURE_SLOTS = 8

# Header fields that differ between two exports of the same event.
VOLATILE = ("exported_at", "source")


class ArchiveError(Exception):
    """The file is not an archive this version can restore; `where` names the place."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.message = message
        self.where = where


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ArchiveError("expected an object", where)
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ArchiveError("expected a list", where)
    return value


def _str(item: Mapping[str, Any], key: str, where: str, *, optional: bool = False) -> Any:
    value = item.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value:
        raise ArchiveError(f"'{key}' must be a non-empty string", where)
    return value


def _int(item: Mapping[str, Any], key: str, where: str) -> int:
    value = item.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ArchiveError(f"'{key}' must be a whole number", where)
    return value


def _known(value: Any, known: set[Any]) -> bool:
    return isinstance(value, str | int) and value in known


def _ref(
    item: Mapping[str, Any], key: str, known: set[Any], where: str, *, optional: bool = False
) -> None:
    value = item.get(key)
    if value is None and optional:
        return
    if not _known(value, known):
        raise ArchiveError(f"'{key}' names nothing in this archive: {value!r}", where)


def _unique(seen: set[Any], value: Any, where: str) -> None:
    if value in seen:
        raise ArchiveError(f"duplicate {value!r}", where)
    seen.add(value)


_NUL_ESCAPE = "\\u0000"
_SLUG = re.compile(r"[-a-zA-Z0-9_]+")


def loads(data: str | bytes) -> Any:
    """Read the JSON text of an archive (no checks beyond JSON itself)."""
    if len(data) > MAX_BYTES:
        raise ArchiveError(f"larger than {MAX_BYTES // (1024 * 1024)} MB")
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise ArchiveError(f"not JSON ({exc})") from None


def parse(data: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """Check an archive (JSON text or the decoded document) and return the document.

    Checks the header, that every section is a list of objects with the fields an import
    relies on, that keys are unique and that every reference names something in the archive.
    Raises ArchiveError for anything else; never another exception.
    """
    doc = loads(data) if isinstance(data, str | bytes) else data
    # A NUL can only come from the JSON escape: the text is searched first, the document
    # walked only to name the place (PostgreSQL refuses NUL even in a lookup).
    if not isinstance(data, str | bytes) or _NUL_ESCAPE in (
        data if isinstance(data, str) else data.decode("utf-8", "replace")
    ):
        problem = json_problem(doc, max_depth=sys.maxsize)
        if problem is not None:
            raise ArchiveError("contains a NUL character (\\u0000)", problem[1] or "archive")
    doc = _object(doc, "archive")
    if doc.get("format") != FORMAT:
        raise ArchiveError(f"'format' is not {FORMAT!r}: not a Battledesk event archive", "format")
    version = doc.get("version")
    if version != VERSION:
        raise ArchiveError(
            f"version {version!r} cannot be read by this installation (it reads {VERSION})",
            "version",
        )
    for name in ADDED_SECTIONS:
        doc.setdefault(name, [])
    doc.setdefault("placings", None)
    for name in SECTIONS:
        for i, item in enumerate(_list(doc.get(name), name)):
            _object(item, f"{name}[{i}]")
    event = _object(doc.get("event"), "event")
    if not _SLUG.fullmatch(_str(event, "slug", "event")):
        raise ArchiveError("'slug' may hold only letters, digits, hyphens and underscores", "event")
    _str(event, "name", "event")

    users: set[str] = set()
    for i, u in enumerate(doc["users"]):
        where = f"users[{i}]"
        _unique(users, _str(u, "username", where), where)
        _str(u, "player_id", where, optional=True)
    for key in ("created_by", "head_judge"):
        _ref(event, key, users, "event", optional=True)
    for key in ("organisers", "judges"):
        for j, name in enumerate(_list(event.get(key, []), f"event.{key}")):
            if not _known(name, users):
                raise ArchiveError(f"names nothing in this archive: {name!r}", f"event.{key}[{j}]")

    cards: set[tuple[str, Any, str]] = set()
    for i, c in enumerate(doc["cards"]):
        where = f"cards[{i}]"
        game, external_id = _str(c, "game", where), _str(c, "external_id", where)
        catalog = _str(c, "catalog", where, optional=True)
        _unique(cards, (game, catalog, external_id), where)

    regs: set[str] = set()
    for i, r in enumerate(doc["registrations"]):
        where = f"registrations[{i}]"
        _unique(regs, _str(r, "key", where), where)
        _ref(r, "player", users, where, optional=True)
        if r.get("player") is None:
            _str(r, "walk_in_name", where)
        _str(r, "created_at", where)

    versions: set[tuple[str, int]] = set()
    decklist_regs: set[str] = set()
    for i, d in enumerate(doc["decklists"]):
        where = f"decklists[{i}]"
        _ref(d, "registration", regs, where)
        _unique(decklist_regs, d["registration"], where)
        for j, v in enumerate(_list(d.get("versions"), f"{where}.versions")):
            vwhere = f"{where}.versions[{j}]"
            _object(v, vwhere)
            _unique(versions, (d["registration"], _int(v, "number", vwhere)), vwhere)
            _ref(v, "submitted_by", users, vwhere, optional=True)

    rounds: set[int] = set()
    for i, r in enumerate(doc["rounds"]):
        where = f"rounds[{i}]"
        _unique(rounds, _int(r, "number", where), where)
        _str(r, "stage", where)
        _str(r, "status", where)

    teams = _check_teams(doc, regs, users, rounds)
    # A team event's stages and placings name teams, an individual event's registrations.
    entrants = teams if teams else regs

    stage_numbers: set[int] = set()
    for i, st in enumerate(doc["stages"]):
        where = f"stages[{i}]"
        _unique(stage_numbers, _int(st, "number", where), where)
        _str(st, "kind", where)
        players = st.get("players")
        if players is not None:
            for j, _key in enumerate(_list(players, f"{where}.players")):
                if not _known(players[j], entrants):
                    raise ArchiveError(
                        f"names nothing in this archive: {players[j]!r}", f"{where}.players[{j}]"
                    )

    team_matches = {tm["key"] for tm in doc["team_matches"]}
    matches: set[str] = set()
    seats: set[tuple[int, str, bool]] = set()
    for i, m in enumerate(doc["matches"]):
        where = f"matches[{i}]"
        _unique(matches, _str(m, "key", where), where)
        _ref(m, "round", rounds, where)
        _ref(m, "a", regs, where)
        _ref(m, "b", regs, where, optional=True)
        _ref(m, "team_match", team_matches, where, optional=True)
        # A Head Coach who played a board plays the deciding game too (docs/teams.md).
        _unique(seats, (m["round"], m["a"], m.get("is_decider") is True), where)

    def each(section: str, refs: Mapping[str, tuple[set[Any], bool]]) -> None:
        for i, item in enumerate(doc[section]):
            where = f"{section}[{i}]"
            for key, (known, optional) in refs.items():
                _ref(item, key, known, where, optional=optional)

    each("reports", {"match": (matches, False), "registration": (regs, False)})
    each("result_versions", {"match": (matches, False), "actor": (users, True)})
    for i, v in enumerate(doc["result_versions"]):
        _int(v, "number", f"result_versions[{i}]")
    each("standings", {"round": (rounds, False)})
    for i, s in enumerate(doc["standings"]):
        for j, row in enumerate(_list(s.get("rows"), f"standings[{i}].rows")):
            rwhere = f"standings[{i}].rows[{j}]"
            _ref(_object(row, rwhere), "registration", regs, rwhere, optional=True)
    calls: set[str] = set()
    for i, c in enumerate(doc["calls"]):
        where = f"calls[{i}]"
        _unique(calls, _str(c, "key", where), where)
        _str(c, "opened_at", where)
    each("calls", {"match": (matches, False), "opened_by": (users, True), "holder": (users, True)})
    each("rulings", {"call": (calls, False), "judge": (users, True)})
    each(
        "penalties",
        {"match": (matches, False), "registration": (regs, False), "judge": (users, True)},
    )
    each("clock_events", {"match": (matches, False), "actor": (users, True)})
    for i, e in enumerate(doc["clock_events"]):
        _int(e, "seq", f"clock_events[{i}]")
        _str(e, "kind", f"clock_events[{i}]")
    each("feature_matches", {"match": (matches, False), "marked_by": (users, True)})
    round_of = {m["key"]: m["round"] for m in doc["matches"]}
    featured: set[Any] = set()
    for i, f in enumerate(doc["feature_matches"]):
        where = f"feature_matches[{i}]"
        slot = _int(f, "slot", where)
        if not 1 <= slot <= FEATURE_SLOTS:
            raise ArchiveError(f"'slot' is 1 to {FEATURE_SLOTS}", where)
        _unique(featured, f["match"], where)
        _unique(featured, (round_of[f["match"]], slot), where)  # one match per slot and round
    checks: set[str] = set()
    for i, d in enumerate(doc["deck_checks"]):
        where = f"deck_checks[{i}]"
        _unique(checks, _str(d, "key", where), where)
        _ref(d, "created_by", users, where, optional=True)
        for j, res in enumerate(_list(d.get("results"), f"{where}.results")):
            rwhere = f"{where}.results[{j}]"
            _object(res, rwhere)
            _ref(res, "registration", regs, rwhere)
            _ref(res, "checked_by", users, rwhere, optional=True)
            number = res.get("version")
            if number is not None and not (
                isinstance(number, int) and (res["registration"], number) in versions
            ):
                raise ArchiveError("'version' names no decklist version of this player", rwhere)
    _check_placings(doc["placings"], regs, teams)
    each("audit", {"registration": (regs, True), "actor": (users, True)})
    for i, a in enumerate(doc["audit"]):
        _str(a, "action", f"audit[{i}]")
        _str(a, "created_at", f"audit[{i}]")
    return doc


def _check_teams(
    doc: Mapping[str, Any], regs: set[str], users: set[str], rounds: set[int]
) -> set[str]:
    """*Addition*: a team event's ``teams`` (``key`` ``T<n>``, ``members`` and ``head_coach``
    by registration key), ``team_matches`` (``key`` ``TM<round>.<n>``, ``team_a`` and
    ``team_b`` by team key) and ``lineups`` (``team_match``, ``team``, ``players`` by
    registration key). Absent from an archive written before them (or of an individual event):
    none. Returns the team keys."""
    teams: set[str] = set()
    names: set[str] = set()
    members: set[str] = set()
    for i, t in enumerate(doc["teams"]):
        where = f"teams[{i}]"
        _unique(teams, _str(t, "key", where), where)
        _unique(names, _str(t, "name", where), where)
        _ref(t, "head_coach", regs, where, optional=True)
        _ref(t, "created_by", users, where, optional=True)
        for j, member in enumerate(_list(t.get("members", []), f"{where}.members")):
            if not _known(member, regs):
                raise ArchiveError(
                    f"names nothing in this archive: {member!r}", f"{where}.members[{j}]"
                )
            _unique(members, member, f"{where}.members[{j}]")
    team_matches: set[str] = set()
    sides: set[tuple[int, str]] = set()
    for i, tm in enumerate(doc["team_matches"]):
        where = f"team_matches[{i}]"
        _unique(team_matches, _str(tm, "key", where), where)
        _ref(tm, "round", rounds, where)
        _ref(tm, "team_a", teams, where)
        _ref(tm, "team_b", teams, where, optional=True)
        _unique(sides, (tm["round"], tm["team_a"]), where)
    fielded: set[tuple[str, str]] = set()
    for i, lu in enumerate(doc["lineups"]):
        where = f"lineups[{i}]"
        _ref(lu, "team_match", team_matches, where)
        _ref(lu, "team", teams, where)
        _ref(lu, "set_by", users, where, optional=True)
        _unique(fielded, (lu["team_match"], lu["team"]), where)
        for j, player in enumerate(_list(lu.get("players", []), f"{where}.players")):
            if not _known(player, regs):
                raise ArchiveError(
                    f"names nothing in this archive: {player!r}", f"{where}.players[{j}]"
                )
    return teams


def _check_placings(placings: Any, regs: set[str], teams: set[str] | None = None) -> None:
    """*Addition*: ``placings`` (absent from an archive written before them: None), the
    event's placings when exported. Derived from the results, so an import does not write
    them; only their shape and references are checked."""
    if placings is None:
        return
    placings = _object(placings, "placings")
    if not isinstance(placings.get("final"), bool):
        raise ArchiveError("'final' must be true or false", "placings")
    for i, row in enumerate(_list(placings.get("rows"), "placings.rows")):
        where = f"placings.rows[{i}]"
        _object(row, where)
        if _int(row, "place", where) != i + 1:
            raise ArchiveError("places run 1, 2, 3, ... in order", where)
        if "team" in row:
            if teams:  # an archive written before teams were archived names no team keys
                _ref(row, "team", teams, where)
        else:
            _ref(row, "registration", regs, where)


def dumps(doc: Mapping[str, Any]) -> str:
    """The archive as JSON text: keys sorted, so equal archives are equal text."""
    return json.dumps(doc, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def comparable(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The archive without what differs between two exports of the same event."""
    return {k: v for k, v in doc.items() if k not in VOLATILE}
