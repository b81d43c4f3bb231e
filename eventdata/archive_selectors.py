"""Read a whole event into the archive format of `eventdata.archive` (one document).

Every concrete field of each model is kept (a field added to a model later is archived without
a change here); relations become the archive's own keys (see eventdata/archive.py), people
become usernames. Only reads: the writer is `eventdata.archive_services`.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Iterable
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models
from django.utils import timezone

from decks.models import Card, DeckCheck, DeckCheckResult, Decklist, DecklistVersion
from engine.games import MatchRules, get_game
from eventdata import archive
from matches.models import (
    ClockEvent,
    JudgeCall,
    Lineup,
    Match,
    Penalty,
    Report,
    ResultVersion,
    Round,
    Ruling,
    StandingsSnapshot,
    TeamMatch,
)
from matches.placings import entrant_key, event_placings
from matches.services import results_source_version
from overlays.models import FeatureMatch
from tournaments.models import AuditEntry, Stage, Team, TeamMember, Tournament
from tournaments.selectors import stage_rows

Refs = dict[str, Callable[[Any], Any]]


def plain(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    return value


def is_user_field(field: models.Field[Any, Any]) -> bool:
    return bool(field.is_relation and field.related_model is get_user_model())


def archived_fields(model: type[models.Model], skip: Iterable[str] = ()) -> list[Any]:
    """The concrete fields an archive keeps for a model: all but the id and `skip`."""
    skipped = set(skip)
    return [
        f
        for f in model._meta.concrete_fields
        if not f.primary_key and f.name not in skipped and not f.auto_created
    ]


class Users:
    """Usernames for user ids, read once; remembers who the archive needs in `users`."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}
        self.used: set[int] = set()

    def load(self, ids: Iterable[int | None]) -> None:
        wanted = {i for i in ids if i is not None and i not in self.names}
        if wanted:
            for pk, username in (
                get_user_model().objects.filter(pk__in=wanted).values_list("pk", "username")
            ):
                self.names[pk] = username

    def __call__(self, user_id: int | None) -> str | None:
        if user_id is None:
            return None
        self.used.add(user_id)
        return self.names.get(user_id)


@functools.cache
def _plan(model: type[models.Model], skip: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    """Per archived field of a model: (name, attname, "user" | "relation" | "value")."""
    out = []
    for field in archived_fields(model, skip):
        kind = "user" if is_user_field(field) else "relation" if field.is_relation else "value"
        out.append((field.name, field.attname, kind))
    return tuple(out)


def _row(obj: models.Model, users: Users, refs: Refs, skip: Iterable[str] = ()) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, attname, kind in _plan(type(obj), tuple(skip)):
        raw = getattr(obj, attname)
        if name in refs:
            out[name] = refs[name](raw)
        elif kind == "user":
            out[name] = users(raw)
        elif kind == "value":
            out[name] = plain(raw)
        # else: a relation the archive does not know: not portable
    return out


def _preload_users(users: Users, objects: Iterable[models.Model]) -> None:
    ids: list[int | None] = []
    for obj in objects:
        for field in obj._meta.concrete_fields:
            if is_user_field(field):
                ids.append(getattr(obj, field.attname))
    users.load(ids)


def _result_row(row: dict[str, Any], rules: MatchRules) -> dict[str, Any]:
    """A match's or a report's row as archive format 1 keeps it: the per-game details that
    the event API names otherwise (BoBA's trophies) as `battles`, `[[a, b], ...]`, beside
    `game_details`, in the columns' old order."""
    out: dict[str, Any] = {}
    for key, value in row.items():
        if key == "game_details":
            own = rules.api_key == "game_details" or value is None
            out["battles"] = None if own else rules.to_api(value)
            out["game_details"] = value if own else None
        else:
            out[key] = value
    return out


def event_archive(event: Tournament) -> dict[str, Any]:
    """The whole event as one archive document (see eventdata/archive.py)."""
    users = Users()
    rules = get_game(event.game).match_rules()
    registrations = list(event.registrations.order_by("created_at", "id"))
    reg_key = {r.pk: f"R{n}" for n, r in enumerate(registrations, 1)}
    rounds = list(Round.objects.filter(tournament=event).order_by("number"))
    round_number = {r.pk: r.number for r in rounds}
    matches = list(Match.objects.filter(round__tournament=event).order_by("round_id", "id"))
    match_key: dict[int, str] = {}
    per_round: dict[int, int] = {}
    for m in matches:
        number = round_number[m.round_id]
        per_round[number] = per_round.get(number, 0) + 1
        match_key[m.pk] = f"M{number}.{per_round[number]}"
    calls = list(JudgeCall.objects.filter(tournament=event).order_by("opened_at", "id"))
    call_key = {c.pk: f"C{n}" for n, c in enumerate(calls, 1)}
    decklists = list(
        Decklist.objects.filter(registration__tournament=event).order_by("registration_id")
    )
    versions = list(
        DecklistVersion.objects.filter(decklist__registration__tournament=event).order_by(
            "decklist_id", "number"
        )
    )
    decklist_reg = {d.pk: d.registration_id for d in decklists}
    version_number = {v.pk: v.number for v in versions}
    checks = list(DeckCheck.objects.filter(tournament=event).order_by("created_at", "id"))
    check_results = list(
        DeckCheckResult.objects.filter(deck_check__tournament=event).order_by("deck_check_id", "id")
    )
    reports = list(Report.objects.filter(match__round__tournament=event).order_by("match_id", "id"))
    result_versions = list(
        ResultVersion.objects.filter(match__round__tournament=event).order_by("match_id", "number")
    )
    snapshots = list(
        StandingsSnapshot.objects.filter(round__tournament=event).order_by("round__number")
    )
    rulings = list(Ruling.objects.filter(call__tournament=event).order_by("created_at", "id"))
    penalties = list(Penalty.objects.filter(tournament=event).order_by("created_at", "id"))
    clock_events = list(
        ClockEvent.objects.filter(match__round__tournament=event).order_by("match_id", "seq")
    )
    features = list(FeatureMatch.objects.filter(tournament=event).order_by("round__number", "slot"))
    audit = list(AuditEntry.objects.filter(tournament=event).order_by("created_at", "id"))
    teams = list(Team.objects.filter(tournament=event).order_by("id"))
    team_key = {t.pk: f"T{n}" for n, t in enumerate(teams, 1)}
    members_of: dict[int, list[int]] = {}
    for team_id, registration_id in (
        TeamMember.objects.filter(team__tournament=event)
        .order_by("id")
        .values_list("team_id", "registration_id")
    ):
        members_of.setdefault(team_id, []).append(registration_id)
    team_matches = list(
        TeamMatch.objects.filter(round__tournament=event).order_by("round__number", "id")
    )
    tm_key: dict[int, str] = {}
    per_team_round: dict[int, int] = {}
    for tm in team_matches:
        number = round_number[tm.round_id]
        per_team_round[number] = per_team_round.get(number, 0) + 1
        tm_key[tm.pk] = f"TM{number}.{per_team_round[number]}"
    lineups = list(Lineup.objects.filter(team_match__round__tournament=event).order_by("id"))

    _preload_users(
        users,
        [
            event,
            *registrations,
            *rounds,
            *versions,
            *checks,
            *check_results,
            *result_versions,
            *calls,
            *rulings,
            *penalties,
            *clock_events,
            *features,
            *audit,
            *teams,
            *lineups,
        ],
    )
    organisers = list(event.organisers.order_by("username").values_list("pk", flat=True))
    judges = list(event.judges.order_by("username").values_list("pk", flat=True))
    users.load([*organisers, *judges])

    def reg(pk: int | None) -> str | None:
        return reg_key.get(pk) if pk is not None else None

    def rnd(pk: int) -> int:
        return round_number[pk]

    def mtc(pk: int) -> str:
        return match_key[pk]

    def team(pk: int | None) -> str | None:
        return team_key.get(pk) if pk is not None else None

    def team_match(pk: int | None) -> str | None:
        return tm_key.get(pk) if pk is not None else None

    # A team event's stages, placings and line-ups name teams (event-structures: Teams).
    entrant = team if event.is_team_event else reg

    event_row = _row(event, users, {}, skip=("id",))
    if event.lottery_drawn_at is None and "lottery_seed" in event_row:
        event_row["lottery_seed"] = ""  # secret until the draw (docs/players.md)
    event_row["organisers"] = [users(pk) for pk in organisers]
    event_row["judges"] = [users(pk) for pk in judges]

    versions_of: dict[int, list[dict[str, Any]]] = {}
    for v in versions:
        versions_of.setdefault(v.decklist_id, []).append(_row(v, users, {}, skip=("decklist",)))
    card_ids: set[str] = set()
    for v in versions:
        _collect_card_ids(v.data, card_ids)

    results_of: dict[int, list[dict[str, Any]]] = {}
    for res in check_results:
        results_of.setdefault(res.deck_check_id, []).append(
            _row(
                res,
                users,
                {
                    "registration": reg,
                    "version": lambda pk: version_number.get(pk) if pk else None,
                },
                skip=("deck_check",),
            )
        )

    def snapshot_row(s: StandingsSnapshot) -> dict[str, Any]:
        number = round_number[s.round_id]
        rows = []
        for row in s.rows:
            row = dict(row)
            row["registration"] = reg(row.get("registration"))
            if isinstance(row.get("opponents"), list):
                row["opponents"] = [
                    {**o, "registration": reg(o.get("registration"))} for o in row["opponents"]
                ]
            rows.append(row)
        # current: what a read would compute now (same results, same tiebreakers)
        current = s.source_version == results_source_version(event, number) and (
            s.tiebreakers == event.tiebreaker_fingerprint
        )
        return {
            "round": number,
            "rows": rows,
            "current": current,
            "computed_at": plain(s.computed_at),
        }

    doc: dict[str, Any] = {
        "format": archive.FORMAT,
        "version": archive.VERSION,
        "exported_at": timezone.now().isoformat(),
        "event": event_row,
        "registrations": [
            {"key": reg_key[r.pk], **_row(r, users, {}, skip=("tournament",))}
            for r in registrations
        ],
        "decklists": [
            {
                "registration": reg_key[decklist_reg[d.pk]],
                **_row(d, users, {}, skip=("registration",)),
                "versions": versions_of.get(d.pk, []),
            }
            for d in decklists
        ],
        "rounds": [_row(r, users, {}, skip=("tournament",)) for r in rounds],
        "stages": [stage_row(s, users, entrant) for s in stage_rows(event)],
        "teams": [
            {
                "key": team_key[t.pk],
                **_row(t, users, {"head_coach": reg}, skip=("tournament",)),
                "members": [reg(pk) for pk in members_of.get(t.pk, [])],
            }
            for t in teams
        ],
        "team_matches": [
            {
                "key": tm_key[tm.pk],
                **_row(tm, users, {"round": rnd, "team_a": team, "team_b": team}),
            }
            for tm in team_matches
        ],
        "lineups": [
            {
                **_row(lu, users, {"team_match": team_match, "team": team}),
                "players": [reg(int(pk)) for pk in lu.players or ()],
            }
            for lu in lineups
        ],
        "matches": [
            {
                "key": match_key[m.pk],
                **_result_row(
                    _row(m, users, {"round": rnd, "a": reg, "b": reg, "team_match": team_match}),
                    rules,
                ),
            }
            for m in matches
        ],
        "reports": [
            _result_row(_row(r, users, {"match": mtc, "registration": reg}), rules) for r in reports
        ],
        "result_versions": [_row(v, users, {"match": mtc}) for v in result_versions],
        "standings": [snapshot_row(s) for s in snapshots],
        "calls": [
            {"key": call_key[c.pk], **_row(c, users, {"match": mtc}, skip=("tournament",))}
            for c in calls
        ],
        "rulings": [_row(r, users, {"call": lambda pk: call_key[pk]}) for r in rulings],
        "penalties": [
            _row(p, users, {"match": mtc, "registration": reg}, skip=("tournament",))
            for p in penalties
        ],
        "clock_events": [_row(e, users, {"match": mtc}) for e in clock_events],
        "feature_matches": [
            _row(f, users, {"match": mtc}, skip=("tournament", "round")) for f in features
        ],
        "deck_checks": [
            {
                "key": f"D{n}",
                **_row(d, users, {}, skip=("tournament",)),
                "results": results_of.get(d.pk, []),
            }
            for n, d in enumerate(checks, 1)
        ],
        "audit": [_row(a, users, {"registration": reg}, skip=("tournament",)) for a in audit],
        "placings": placings_section(event, entrant),
    }
    people = get_user_model().objects.filter(pk__in=users.used).order_by("username")
    doc["users"] = [
        {
            "username": u.username,
            "player_id": u.player_id,
            "display_name": u.display_name,
            "first_name": u.first_name,
            "last_name": u.last_name,
            "email": u.email,
        }
        for u in people
    ]
    cards = Card.objects.filter(game=event.game, external_id__in=card_ids).order_by(
        "external_id", "pk"
    )
    card_refs: Refs = {}
    catalog_field = _field_or_none(Card, "catalog")
    if catalog_field is not None:  # cards belong to a catalog: named by its slug
        slugs = dict(catalog_field.related_model.objects.values_list("pk", "slug"))
        card_refs["catalog"] = slugs.get
        chosen = getattr(event, "card_catalog", None) if _has_event_catalog() else None
        event_row["card_catalog"] = slugs.get(chosen.catalog_id) if chosen else None
    doc["cards"] = [_row(c, users, card_refs, skip=("updated_at",)) for c in cards]
    return doc


def stage_row(
    stage: Stage, users: Users, reg: Callable[[int | None], str | None]
) -> dict[str, Any]:
    """*Addition*: one of the event's stages (event-structures: Stages), every field, its
    ``players`` by registration key, a team event's by team key (``reg`` names them; an event
    without stage rows: its legacy stages)."""
    row = _row(stage, users, {}, skip=("tournament",))
    if row.get("players") is not None:
        row["players"] = [reg(int(pk)) for pk in row["players"]]
    return row


def placings_section(event: Tournament, reg: Callable[[int | None], str | None]) -> dict[str, Any]:
    """*Addition*: the event's placings as the API gives them (event-structures: Placings),
    players by registration key (a team event's teams by team key: ``reg`` names them),
    without names. Derived data: an import reads the results
    and computes them again."""
    placings = event_placings(event)
    key = entrant_key(event)
    rows = []
    for row in placings.rows:
        entrant = reg(row.entrant)
        rows.append(
            {
                "place": row.place,
                key: entrant,
                "stage": row.stage,
                "eliminated_in": row.eliminated_in,
            }
        )
    return {"final": placings.final, "rows": rows}


def _field_or_none(model: type[models.Model], name: str) -> Any:
    try:
        return model._meta.get_field(name)
    except Exception:  # FieldDoesNotExist
        return None


def _has_event_catalog() -> bool:
    try:
        apps.get_model("decks", "EventCatalog")
    except LookupError:
        return False
    return True


def _collect_card_ids(data: Any, out: set[str]) -> None:
    """Card ids in a decklist version's JSON form (entries carry `id`)."""
    if isinstance(data, dict):
        card = data.get("id")
        if isinstance(card, str) and "count" in data:
            out.add(card)
        for value in data.values():
            _collect_card_ids(value, out)
    elif isinstance(data, list):
        for value in data:
            _collect_card_ids(value, out)
