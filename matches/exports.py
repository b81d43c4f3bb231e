"""CSV exports of an event's standings, pairings and results, for publishers' reporting.

One header line, then one line per player (standings) or per match (pairings, results); every
cell goes through config.csvfile (cells a spreadsheet would run as a formula are neutralised).
Reads only; the pages and the API (organisers) serve the same text.
"""

from __future__ import annotations

import json
from typing import Any

from config.csvfile import csv_text
from config.errors import NotFound
from engine.games import get_game
from matches import services
from matches.models import Match, Round
from matches.placings import event_placings, places_by_registration
from tournaments import tiebreakers as tiebreaker_registry
from tournaments.models import Registration, Tournament

STANDINGS_COLUMNS = (
    "round",
    "rank",
    "registration",
    "player",
    "player_id",
    "points",
    "record",
    "dropped",
)
# Added after the tiebreakers once the event has placings (the columns before keep their places).
PLACE_COLUMN = "place"
MATCH_COLUMNS = (
    "round",
    "stage",
    "table",
    "a_registration",
    "a_player",
    "a_player_id",
    "b_registration",
    "b_player",
    "b_player_id",
    "status",
)
PAIRINGS_COLUMNS = (*MATCH_COLUMNS, "reason")
RESULTS_COLUMNS = (
    *MATCH_COLUMNS,
    "games_a",
    "games_b",
    "games_drawn",
    "winner",
    "battles",
    "result_version",
    "game_details",
)


def _player_id(registration: Registration | None) -> str:
    if registration is None or registration.player is None:
        return ""
    return str(registration.player.player_id)


def standings_csv(tournament: Tournament, round_number: int | None = None) -> str:
    """The standings after a finished Swiss round (default the latest), one line per player
    with every tiebreaker of the event (that has a value) in its own column; then, once the
    event has placings, each player's ``place`` in them (event-structures: Placings: final
    once the last stage is finished, else the placings as they stand)."""
    snapshot = services.standings_snapshot(tournament, round_number)
    placings = event_placings(tournament)
    place = places_by_registration(tournament, placings) if placings.rows else None
    number = snapshot.round.number
    tiebreakers = tiebreaker_registry.shown(tournament.tiebreakers)
    ids = {
        r.pk: r.player.player_id if r.player else ""
        for r in tournament.registrations.select_related("player")
    }
    rows = [
        (
            number,
            row["rank"],
            row["registration"],
            row["name"],
            ids.get(row["registration"], ""),
            row["points"],
            row["record"],
            "yes" if row["dropped"] else "no",
            *(row["tiebreakers"].get(t, "") for t in tiebreakers),
            *(() if place is None else (place.get(row["registration"], ""),)),
        )
        for row in snapshot.rows
    ]
    header = (*STANDINGS_COLUMNS, *tiebreakers, *(() if place is None else (PLACE_COLUMN,)))
    return csv_text(header, rows)


def _match_cells(m: Match, round_: Round) -> list[Any]:
    return [
        round_.number,
        round_.stage,
        m.table,
        m.a_id,
        m.a.name,
        _player_id(m.a),
        m.b_id,
        m.b.name if m.b is not None else "",
        _player_id(m.b),
        m.status,
    ]


def _matches(rounds: Any) -> Any:
    return (
        Match.objects.filter(round__in=rounds)
        .select_related("round", "a__player", "b__player")
        .order_by("round__number", "table", "id")
    )


def pairings_csv(tournament: Tournament, round_number: int | None = None) -> str:
    """One round's pairings (default the newest), by table, byes last."""
    rounds = tournament.rounds.order_by("-number")
    round_ = (
        rounds.filter(number=round_number).first() if round_number is not None else rounds.first()
    )
    if round_ is None:
        raise NotFound(f"round: no round {round_number or ''} yet.", field="round")
    matches = sorted(_matches([round_]), key=lambda m: (m.table is None, m.table or 0, m.pk))
    return csv_text(PAIRINGS_COLUMNS, [[*_match_cells(m, round_), m.reason] for m in matches])


def results_csv(tournament: Tournament) -> str:
    """Every match of every round with its result (empty while not final)."""
    rows = []
    rules = get_game(tournament.game).match_rules()
    for m in _matches(tournament.rounds.all()):
        games = m.games if m.status == "final" else None
        winner = ""
        if games is not None:
            winner = "a" if games[0] > games[1] else "b" if games[1] > games[0] else "draw"
            if m.b_id is None:
                winner = "bye"
        # The columns are the event API's fields: the details under the game's API name.
        api = (
            {}
            if games is None or m.game_details is None
            else {rules.api_key: rules.to_api(m.game_details)}
        )
        trophies = api.get("battles")
        battles = " ".join(f"{a}-{b}" for a, b in trophies) if isinstance(trophies, list) else ""
        shown = api.get("game_details")
        rows.append(
            [
                *_match_cells(m, m.round),
                *(games if games is not None else ("", "", "")),
                winner,
                battles,
                m.result_version,
                json.dumps(shown, separators=(",", ":"), ensure_ascii=False)
                if shown is not None
                else "",
            ]
        )
    return csv_text(RESULTS_COLUMNS, rows)
