"""The machinery of an archive import (`eventdata.archive_services.archive_import`): the
report of what it did (`ImportReport`), the archive's times kept as given, each value checked
as the site's own forms check it, and `ArchiveWriter`, which the importer of the sections
builds on: it sets an object's archived fields, creates or updates it, counts it, and checks a
result as a report on the site is checked.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from config.errors import ServiceError
from engine.errors import json_problem
from engine.games import BEST_OF_ONE, GameDetailsError, ResultContext, get_game
from eventdata.archive import ArchiveError
from eventdata.archive_selectors import archived_fields, is_user_field
from matches.models import (
    TeamMatch,
)
from matches.services import checked_result, stage_structure
from tournaments.models import Registration, Team, Tournament


@dataclass
class ImportReport:
    """What an import did (or, in a dry run, would do), per section."""

    slug: str
    dry_run: bool
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def count(self, section: str, outcome: str) -> None:
        per = self.counts.setdefault(section, {"created": 0, "updated": 0, "unchanged": 0})
        per[outcome] = per.get(outcome, 0) + 1

    @property
    def changed(self) -> bool:
        return any(c["created"] or c["updated"] for c in self.counts.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.slug,
            "dry_run": self.dry_run,
            "changed": self.changed,
            "sections": self.counts,
            "notes": self.notes,
        }


@contextlib.contextmanager
def times_as_given(*model_list: type[models.Model]) -> Iterator[set[tuple[Any, str]]]:
    """Keep the archive's times: auto_now / auto_now_add are switched off while importing.

    They are attributes of the field objects (process-wide), so imports run from the
    command line or a task, never inside a web request.
    """
    saved: list[tuple[Any, bool, bool]] = []
    switched: set[tuple[Any, str]] = set()
    for model in model_list:
        for f in model._meta.concrete_fields:
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
                saved.append((f, f.auto_now, f.auto_now_add))
                switched.add((model, f.name))
                f.auto_now = f.auto_now_add = False
    try:
        yield switched
    finally:
        for f, now, now_add in saved:
            f.auto_now, f.auto_now_add = now, now_add


# Nesting deeper than this in a JSON value is refused: no form or API of the site writes it.
MAX_JSON_DEPTH = 32
JSON_PROBLEMS = {
    "nul": "contains a NUL character (\\u0000)",
    "too_deep": f"is nested more than {MAX_JSON_DEPTH} levels deep",
}


def checked_value(f: Any, obj: models.Model, raw: Any, where: str) -> Any:
    """The archive's value for one field, checked as the site's own forms would check it:
    its type, choices (games, statuses, policies), ranges, lengths and validators (names,
    slugs, time zones); ArchiveError naming the field for anything else."""
    problem = json_problem(raw, MAX_JSON_DEPTH)
    if problem is not None:
        raise ArchiveError(f"'{f.name}' {JSON_PROBLEMS[problem[0]]}", where)
    try:
        new = f.to_python(raw)
        if new not in f.empty_values:
            f.validate(new, obj)
            f.run_validators(new)
    except ValidationError as exc:
        raise ArchiveError(f"'{f.name}': {'; '.join(exc.messages)}", where) from None
    except (ArithmeticError, TypeError, ValueError):
        raise ArchiveError(f"'{f.name}': {raw!r} is not a valid value", where) from None
    return new


def model_rules(obj: models.Model, where: str) -> None:
    """The model's own rules across fields (an event's game, mode, format and its parameters,
    match structure, clock), as the site's forms apply them."""
    try:
        obj.clean()
    except ValidationError as exc:
        if hasattr(exc, "error_dict"):
            name, errors = next(iter(exc.message_dict.items()))
            raise ArchiveError(f"'{name}': {'; '.join(errors)}", where) from None
        raise ArchiveError("; ".join(exc.messages), where) from None
    except (KeyError, LookupError, ValueError) as exc:
        raise ArchiveError(str(exc), where) from None


class ArchiveWriter:
    """What every section of an import does: set an object's archived fields (checked as the
    site's forms check them), create or update it by its natural key, count what it did in
    the report, and check a result as a report on the site is checked."""

    def __init__(
        self, doc: Mapping[str, Any], report: ImportReport, auto_times: set[tuple[Any, str]]
    ) -> None:
        self.doc = doc
        self.report = report
        self.auto_times = auto_times
        self.users: dict[str, Any] = {}
        self.regs: dict[str, Registration] = {}
        self.rounds: dict[int, Any] = {}
        self.matches: dict[str, Any] = {}
        self.match_rounds: dict[str, Any] = {}
        self.calls: dict[str, Any] = {}
        self.versions: dict[tuple[str, int], Any] = {}
        self.teams: dict[str, Team] = {}
        self.team_matches: dict[str, TeamMatch] = {}
        self.event: Tournament | None = None

    # -- helpers ----------------------------------------------------------------------------

    def user(self, username: str | None) -> Any:
        return self.users[username] if username is not None else None

    def apply(
        self,
        obj: models.Model,
        item: Mapping[str, Any],
        where: str,
        refs: Mapping[str, Any],
        skip: tuple[str, ...] = (),
    ) -> bool:
        """Set obj's archived fields from item; True when something changed."""
        changed = False
        for f in archived_fields(type(obj), skip):
            if f.name in refs:
                value = refs[f.name]
                current = getattr(obj, f.attname)
                new = value.pk if isinstance(value, models.Model) else value
                if current != new:
                    setattr(obj, f.attname, new)
                    changed = True
                continue
            if f.name not in item:
                continue
            if is_user_field(f):
                user = self.user(item[f.name])
                new = user.pk if user is not None else None
                if getattr(obj, f.attname) != new:
                    setattr(obj, f.attname, new)
                    changed = True
                continue
            if f.is_relation:
                continue
            new = checked_value(f, obj, item[f.name], where)
            if isinstance(new, dt.datetime) and new.tzinfo is None:
                new = new.replace(tzinfo=dt.UTC)
            if new is None and not f.null:
                raise ArchiveError(f"'{f.name}' may not be null", where)
            if f.value_from_object(obj) != new:
                setattr(obj, f.attname, new)
                changed = True
        return changed

    def upsert(
        self,
        section: str,
        existing: models.Model | None,
        model: type[models.Model],
        item: Mapping[str, Any],
        where: str,
        refs: Mapping[str, Any],
        skip: tuple[str, ...] = (),
        bulk: list[Any] | None = None,
    ) -> Any:
        """Create or update one object; with `bulk`, a new one is only appended to it (the
        caller writes them with `_flush`, and they get their ids then)."""
        obj = existing if existing is not None else model()
        changed = self.apply(obj, item, where, refs, skip)
        model_rules(obj, where)
        if existing is None:
            for f in model._meta.concrete_fields:
                # A time the archive leaves out (a card's updated_at): now, as Django would.
                if (model, f.name) in self.auto_times and getattr(obj, f.attname) is None:
                    setattr(obj, f.attname, timezone.now())
            if bulk is not None:
                bulk.append(obj)
            else:
                obj.save(force_insert=True)
            self.report.count(section, "created")
        elif changed:
            obj.save()
            self.report.count(section, "updated")
        else:
            self.report.count(section, "unchanged")
        return obj

    @staticmethod
    def _flush(model: type[models.Model], objects: list[Any]) -> None:
        """Insert the new objects of a section in batches (ids are set on them)."""
        model.objects.bulk_create(objects, batch_size=500)

    def check_result(
        self,
        round_: Any,
        item: Mapping[str, Any],
        where: str,
        *,
        required: bool = False,
        decider: bool | None = None,
    ) -> dict[str, Any]:
        """A match's (or a report's) games and battles, checked as a report on the site is:
        possible in the event's match structure and game (a bye is the pairing's, not a
        result, and is not checked). Returns the item with its `battles` (archive format 1's
        name for BoBA's trophies) as the game's per-game details."""
        out = dict(item)
        battles = out.pop("battles", None)
        games = [item.get("games_a"), item.get("games_b"), item.get("games_drawn") or 0]
        if not required and games[0] is None and games[1] is None:
            return out
        assert self.event is not None
        try:
            checked = checked_result(
                self.event,
                round_,
                games,
                decider=item.get("is_decider") is True if decider is None else decider,
            )
        except ServiceError as exc:
            raise ArchiveError(f"'games_a': {exc.message}", where) from None
        if battles is None:
            return out
        rules = get_game(self.event.game).match_rules()
        if rules.api_key != "battles":
            raise ArchiveError("'battles': this game does not record battles", where)
        structure = stage_structure(self.event, round_.stage_number) or BEST_OF_ONE
        try:
            details = rules.clean_details(
                rules.from_api(battles), ResultContext(checked, structure)
            )
        except GameDetailsError as exc:
            raise ArchiveError(f"'battles': {exc.message}", where) from None
        out["game_details"] = details.to_json()
        return out
