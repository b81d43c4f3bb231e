"""The organiser's live round panel: the latest round at a glance, read for the dashboard and
the API alike (GET /api/events/{slug}/rounds/current/panel/).

What it shows: the round timer, how many tables are still playing, tables reported by one side
only (with what that side reported, so staff can accept it with one tap), open judge calls and
disputes, tables past their time (their extension included) to walk to, and tables with an
extension. A fixed number of queries however many tables the round has; every list is bounded
(PANEL_LIST_LIMIT) with its full count beside it.

Polling is cheap: the panel is one shared copy per event (config.shared_copies, following every
audited change of the event, so a result or a call shows at once), made again at most every
PANEL_STEP_SECONDS otherwise (time passing moves tables into overtime). Each copy carries a
digest of what it says; a poll that sends it back (If-None-Match) gets a 304 without the panel
being read or rendered.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import get_language

from config import shared_copies
from matches.models import OPEN_CALL_STATUSES, JudgeCall, MatchStatus, Report, Round
from tournaments.audit import EVENT_COPIES
from tournaments.models import Registration, Tournament
from tournaments.timer import RoundTimer, table_ends_at

PANEL_LIST_LIMIT = 200
# At most this old, a copy is made again even when nothing was audited: tables run into
# overtime as time passes, without any change to the event.
PANEL_STEP_SECONDS = 15
PANEL_TTL_SECONDS = 60


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def round_panel(tournament: Tournament, now: datetime) -> dict[str, Any]:
    """The panel of the event's latest round as plain JSON data (the API's answer)."""
    round_ = tournament.rounds.order_by("-number").first()
    calls = _open_calls(tournament)
    data: dict[str, Any] = {
        "event": tournament.slug,
        "round": None,
        "timer": None,
        "counts": {"tables": 0, "byes": 0, "playing": 0, "reported": 0, "disputed": 0, "final": 0},
        "one_sided": [],
        "one_sided_count": 0,
        "late": [],
        "late_count": 0,
        "extensions": [],
        "extensions_count": 0,
        "playing_tables": [],
        "calls": calls["rows"],
        "calls_count": calls["count"],
        "generated_at": now.isoformat(),
    }
    if round_ is None:
        return data
    timer = RoundTimer.from_json(round_.timer or {"length_seconds": 0})
    remaining = timer.remaining(now).total_seconds()
    data["round"] = {"number": round_.number, "stage": round_.stage, "status": round_.status}
    data["timer"] = {
        "state": timer.state,
        "ends_at": _iso(timer.ends_at),
        "remaining_seconds": round(remaining),
        "length_seconds": int(timer.length.total_seconds()),
    }
    data["counts"] = counts = _counts(round_)
    # Plain columns for every table still playing (cheap at any size); names are read only
    # for the rows the panel lists.
    playing = list(
        round_.matches.filter(b__isnull=False, status=MatchStatus.PENDING)
        .order_by("table", "id")
        .values("id", "table", "extension_minutes", "a_id", "b_id")
    )
    late: list[dict[str, Any]] = []
    extensions: list[dict[str, Any]] = []
    for match in playing:
        row = {
            "match": match["id"],
            "table": match["table"],
            "status": MatchStatus.PENDING.value,
            "a": match["a_id"],
            "b": match["b_id"],
            "extension_minutes": match["extension_minutes"],
            "ends_at": _iso(table_ends_at(timer.ends_at, match["extension_minutes"])),
        }
        over = -(remaining + match["extension_minutes"] * 60)
        if timer.state != "not_started" and over > 0:
            late.append({**row, "over_seconds": int(over)})
        if match["extension_minutes"]:
            extensions.append(row)
    reports = _lone_reports(round_)
    listed = [*late[:PANEL_LIST_LIMIT], *extensions[:PANEL_LIST_LIMIT], *reports]
    names = _names({row[side] for row in listed for side in ("a", "b")})
    for row in listed:
        row["a_name"], row["b_name"] = names.get(row["a"], ""), names.get(row["b"], "")
    for row in reports:
        row["reported_by_name"] = names.get(row["reported_by"], "")
    data["playing_tables"] = [m["table"] for m in playing if m["table"] is not None][
        :PANEL_LIST_LIMIT
    ]
    data["late"], data["late_count"] = late[:PANEL_LIST_LIMIT], len(late)
    data["extensions"] = extensions[:PANEL_LIST_LIMIT]
    data["extensions_count"] = len(extensions)
    data["one_sided"], data["one_sided_count"] = reports, counts["reported"]
    return data


def _counts(round_: Round) -> dict[str, int]:
    """Tables by state in one query: `playing` counts tables nobody has reported yet."""
    real = Q(b__isnull=False)
    found = round_.matches.aggregate(
        tables=Count("id", filter=real),
        byes=Count("id", filter=Q(b__isnull=True)),
        playing=Count("id", filter=real & Q(status=MatchStatus.PENDING)),
        reported=Count("id", filter=Q(status=MatchStatus.REPORTED)),
        disputed=Count("id", filter=Q(status=MatchStatus.DISPUTED)),
        final=Count("id", filter=real & Q(status=MatchStatus.FINAL)),
    )
    return {key: int(value or 0) for key, value in found.items()}


_PERSON = ("display_name", "username", "first_name", "last_name")


def _names(registration_ids: set[int]) -> dict[int, str]:
    """Registration id to the name shown for it (Registration.name), in one query of only the
    columns a name needs."""
    registrations = (
        Registration.objects.filter(pk__in=registration_ids)
        .select_related("player")
        .only("walk_in_name", "player", *(f"player__{f}" for f in _PERSON))
    )
    return {r.pk: r.name for r in registrations}


def _lone_reports(round_: Round) -> list[dict[str, Any]]:
    """Tables where one player reported and the other has not answered, by table: who said
    what (names filled in by the caller). At most PANEL_LIST_LIMIT."""
    reports = (
        Report.objects.filter(match__round=round_, match__status=MatchStatus.REPORTED)
        .order_by("match__table", "match_id")
        .values(
            "match_id",
            "registration_id",
            "games_a",
            "games_b",
            "games_drawn",
            "updated_at",
            "match__table",
            "match__a_id",
            "match__b_id",
            "match__result_version",
        )[:PANEL_LIST_LIMIT]
    )
    return [
        {
            "match": r["match_id"],
            "table": r["match__table"],
            "a": r["match__a_id"],
            "b": r["match__b_id"],
            "reported_by": r["registration_id"],
            "reported_by_side": "a" if r["registration_id"] == r["match__a_id"] else "b",
            "games": [r["games_a"], r["games_b"], r["games_drawn"]],
            "reported_at": _iso(r["updated_at"]),
            "result_version": r["match__result_version"],
        }
        for r in reports
    ]


def _open_calls(tournament: Tournament) -> dict[str, Any]:
    """Open judge calls and disputes of the event, longest waiting first."""
    calls = JudgeCall.objects.filter(tournament=tournament, status__in=OPEN_CALL_STATUSES)
    count = calls.count()
    listed = (
        calls.select_related("match__round", "holder")
        .only(
            "kind",
            "status",
            "escalated",
            "opened_at",
            "match__table",
            "match__round__number",
            "holder",
            *(f"holder__{f}" for f in _PERSON),
        )
        .order_by("opened_at", "id")[:PANEL_LIST_LIMIT]
    )
    rows = [
        {
            "id": call.pk,
            "kind": call.kind,
            "status": call.status,
            "escalated": call.escalated,
            "match": call.match_id,
            "round": call.match.round.number,
            "table": call.match.table,
            "holder_name": call.holder.public_name if call.holder is not None else None,
            "opened_at": _iso(call.opened_at),
        }
        for call in listed
    ]
    return {"count": count, "rows": rows}


def _digest(data: dict[str, Any], html: str) -> str:
    """What the copy says, without when it was made: equal panels have equal digests."""
    stable = {k: v for k, v in data.items() if k != "generated_at"}
    if stable.get("timer") and stable["timer"]["state"] == "running":
        # A running timer's time left changes every second; its end time says it all.
        stable["timer"] = {k: v for k, v in stable["timer"].items() if k != "remaining_seconds"}
    text = json.dumps(stable, sort_keys=True, default=str) + "\n" + html
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def panel_copy(
    tournament: Tournament,
    *,
    user_id: int | None,
    render_html: Callable[[dict[str, Any]], str],
) -> dict[str, Any]:
    """The shared copy of the event's panel: {"data", "html", "digest"}. `render_html` turns
    the data into the page's panel (with the CSRF placeholder of config.shared_copies)."""
    step = int(time.time() // PANEL_STEP_SECONDS)

    def render() -> dict[str, Any]:
        data = round_panel(tournament, timezone.now())
        html = render_html(data)
        return {"data": data, "html": html, "digest": _digest(data, html)}

    return shared_copies.shared_copy(
        key=f"round-panel:{get_language()}:{tournament.pk}:{step}",
        kind=EVENT_COPIES,
        object_ids=[tournament.pk],
        user_id=user_id,
        render=render,
        grace=settings.DASHBOARD_MAX_STALE_SECONDS,
        ttl=PANEL_TTL_SECONDS,
    )


def etag(copy: dict[str, Any], representation: str) -> str:
    return f'"{representation}-{copy["digest"]}"'


def not_modified(if_none_match: str, tag: str) -> bool:
    """Whether the client's If-None-Match names this tag (weak or strong, or *)."""
    if not if_none_match:
        return False
    wanted = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
    return "*" in wanted or tag in wanted
