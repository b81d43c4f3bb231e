"""The JSON behind each overlay (docs/overlays.md): what the overlay pages draw, what the
stream sends and what the public API answers, one function per overlay.

Everything here is what the public sees: published and finished rounds, final results, the
per-game details a game shows to anyone (``Match.visible_details``), standings unless the
event hides them before its final round. A feature match whose player has since chosen not
to be streamed is shown as no match at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import NotFound
from engine.games import get_game
from matches import clock, selectors
from matches import services as match_services
from matches.clock_services import clock_settings
from matches.models import VISIBLE_TO_PLAYERS, Match, MatchStatus, Round, RoundStage, Ruling
from overlays.models import MAX_SLOT, FeatureMatch
from overlays.selectors import feature_in_slot
from overlays.services import opted_out_side
from tournaments.models import Tournament

MAX_TICKER_ROWS = 64
DEFAULT_TICKER_ROWS = 16
KINDS = ("feature", "standings", "pairings", "bracket")
STATUS_WORDS = {
    MatchStatus.PENDING: "playing",
    MatchStatus.REPORTED: "reported",
    MatchStatus.DISPUTED: "judge",
    MatchStatus.FINAL: "final",
}


def _stamp(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _event(event: Tournament) -> dict[str, Any]:
    return {"slug": event.slug, "name": event.name, "game": event.game}


def _round(round_: Round | None) -> dict[str, Any] | None:
    if round_ is None:
        return None
    return {
        "number": round_.number,
        "name": round_.name or _("Round %(n)d") % {"n": round_.number},
        "stage": round_.stage,
        "status": round_.status,
    }


def _games(match: Match) -> list[int] | None:
    if match.status != MatchStatus.FINAL or match.games is None:
        return None
    return list(match.games)


def _pairing(match: Match) -> dict[str, Any]:
    return {
        "table": match.table,
        "a": match.a.name,
        "b": match.b.name if match.b is not None else None,
        "bye": match.b is None,
        "status": STATUS_WORDS.get(MatchStatus(match.status), match.status),
        "games": _games(match),
    }


def _clock(match: Match, now: datetime) -> dict[str, Any] | None:
    """The match clock as of its last press (``as_of``), with the server's ``now``: the
    page projects a running clock itself, so the feed does not change while it ticks."""
    tournament = match.round.tournament
    rows = list(match.clock_events.order_by("seq"))
    fallback = clock_settings(tournament, match.round.stage_number)
    if not rows and fallback is None:
        return None
    events = [
        clock.ClockEvent(r.kind, r.at, r.side, r.payload if isinstance(r.payload, Mapping) else {})
        for r in rows
    ]
    rules = get_game(tournament.game).clock_rules()
    try:
        settings = clock.settings_of(events, fallback)
        state = clock.replay(settings, events, None if events else now, rules)
    except clock.ClockError:
        return None
    out = state.to_json()
    return {
        "as_of": state.since.isoformat(),
        "phase": out["phase"],
        "game": out["game"],
        "active": out["active"],
        "paused": out["paused"],
        "running": out["running"],
        "remaining_ms": out["remaining_ms"],
        "delay_left_ms": out["delay_left_ms"],
        "wins": out["wins"],
        "flagged": out["flagged"],
    }


def _replay(match: Match) -> dict[str, Any] | None:
    """The newest judge's replay of this match (a ruling on one of its calls), in the game's
    own few lines: its running score (BoBA: trophies; BOS: life) by side."""
    ruling = (
        Ruling.objects.filter(call__match=match, replay__isnull=False)
        .only("replay", "created_at")
        .order_by("-created_at", "-id")
        .first()
    )
    if ruling is None or not isinstance(ruling.replay, dict):
        return None
    replayer = get_game(match.round.tournament.game).replayer()
    if replayer is None:
        return None
    summary = replayer.summary(ruling.replay)
    return {
        "at": ruling.created_at.isoformat(),
        "label": summary.score_label.render(_) if summary.score_label else "",
        # The record's players A and B are the match's sides a and b.
        "score": {player.lower(): n for player, n in summary.score},
        "finished": summary.finished,
        "winner": summary.winner.lower() if summary.winner else None,
        "decided": summary.decided.render(_) if summary.decided else "",
        "progress": summary.progress.render(_) if summary.progress else "",
    }


def _feature_match(match: Match, now: datetime) -> dict[str, Any]:
    game = match.round.tournament.game
    rules = get_game(game).match_rules()
    details = match.visible_details(match.game_details, None) if _games(match) else None
    lines = selectors.game_detail_lines(
        game, details, match.a.name, match.b.name if match.b else ""
    )
    score = rules.match_score(details) if details else None
    state = _clock(match, now)
    games = _games(match)
    if games is not None:
        game_score: dict[str, int] | None = {"a": games[0], "b": games[1]}
    elif state is not None and state["game"]:
        game_score = dict(state["wins"])
    else:
        game_score = None
    return {
        "id": match.pk,
        "table": match.table,
        "status": STATUS_WORDS.get(MatchStatus(match.status), match.status),
        "players": {
            "a": {"name": match.a.name, "registration": match.a_id},
            "b": {"name": match.b.name, "registration": match.b_id} if match.b else None,
        },
        "games": games,
        "game_score": game_score,
        "details": lines,
        "details_score": {"a": score[0], "b": score[1]} if score else None,
        "replay": _replay(match),
        "clock": state,
    }


def feature_feed(event: Tournament, slot: int) -> dict[str, Any]:
    if not 1 <= slot <= MAX_SLOT:
        raise NotFound(_("slot: from 1 to %(max)d.") % {"max": MAX_SLOT}, field="slot")
    now = timezone.now()
    feature: FeatureMatch | None = feature_in_slot(event, slot)
    match = feature.match if feature is not None else None
    if match is not None and opted_out_side(match) is not None:
        match = None
    if match is not None:
        match.round = feature.round  # type: ignore[union-attr]
        match.round.tournament = event
    return {
        "kind": "feature",
        "event": _event(event),
        "slot": slot,
        "round": _round(feature.round) if feature is not None else None,
        "match": _feature_match(match, now) if match is not None else None,
        "server_now": now.isoformat(),
    }


def _latest_round(event: Tournament) -> Round | None:
    round_ = event.rounds.filter(status__in=VISIBLE_TO_PLAYERS).order_by("-number").first()
    if round_ is not None:
        round_.tournament = event
    return round_


def pairings_feed(
    event: Tournament, limit: int = MAX_TICKER_ROWS, offset: int = 0
) -> dict[str, Any]:
    round_ = _latest_round(event)
    rows: list[dict[str, Any]] = []
    count = 0
    if round_ is not None:
        matches = selectors.round_matches(round_).select_related("a__player", "b__player")
        count = matches.count()
        rows = [_pairing(m) for m in matches[offset : offset + limit]]
    return {
        "kind": "pairings",
        "event": _event(event),
        "round": _round(round_),
        "count": count,
        "rows": rows,
        "server_now": timezone.now().isoformat(),
    }


def standings_feed(event: Tournament, limit: int = DEFAULT_TICKER_ROWS) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    number: int | None = None
    try:
        snapshot = match_services.standings_snapshot(event)
    except NotFound:
        snapshot = None
    if snapshot is not None and not selectors.standings_hidden_for(
        AnonymousUser(), event, snapshot.round.number
    ):
        number = snapshot.round.number
        rows = [
            {
                "rank": row["rank"],
                "name": row["name"],
                "points": row["points"],
                "record": row["record"],
                "dropped": row["dropped"],
            }
            for row in snapshot.rows[:limit]
        ]
    return {
        "kind": "standings",
        "event": _event(event),
        "after_round": number,
        "rows": rows,
        "server_now": timezone.now().isoformat(),
    }


def bracket_feed(event: Tournament) -> dict[str, Any]:
    cut = list(
        event.rounds.filter(stage=RoundStage.TOP_CUT, status__in=VISIBLE_TO_PLAYERS).order_by(
            "number"
        )
    )
    rounds = []
    for round_ in cut:
        round_.tournament = event
        matches = selectors.round_matches(round_).select_related("a__player", "b__player")
        rounds.append(
            {
                **(_round(round_) or {}),
                "matches": [{**_pairing(m), "seeds": [m.seed_a, m.seed_b]} for m in matches],
            }
        )
    champion = match_services.champion_of(event)
    return {
        "kind": "bracket",
        "event": _event(event),
        "rounds": rounds,
        "champion": champion.name if champion is not None else None,
        "server_now": timezone.now().isoformat(),
    }


def build(event: Tournament, kind: str, arg: int) -> dict[str, Any]:
    """The feed of overlay ``kind`` (``arg``: the feature slot, or the ticker's rows)."""
    if kind == "feature":
        return feature_feed(event, arg)
    if kind == "standings":
        return standings_feed(event, arg)
    if kind == "pairings":
        return pairings_feed(event, arg)
    return bracket_feed(event)
