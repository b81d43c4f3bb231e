"""REST API for rounds, results, standings, the top cut, judge calls, penalties and team
matches: thin views over matches.services and matches.selectors.

The contract is ../shared/spec/event-api.md; docs/api.md lists what this adds to it. One module
per subject; this package re-exports every view, so config/urls.py names them
``matches_api.<view>`` whichever module holds it:

- ``common``: the event and match a request may see, the round's JSON, query integers
- ``rounds``: listing and pairing rounds, one round (its published copy), publish, timer, swaps
- ``standings``: standings, a player's line, the cut calculator, placings, the top cut, stages
- ``results``: a player's match, reports, confirmations, corrections, extensions, tables
- ``calls``: the judges' queue, calls and rulings, replaying a game record
- ``penalties``: giving penalties, the event's log (JSON or CSV), a player's history
- ``teams``: team matches and line-ups
"""

from __future__ import annotations

from matches.api.calls import (
    call_claim,
    call_claim_next,
    call_detail,
    call_escalate,
    call_hand_back,
    call_notes,
    call_ruling,
    calls,
    match_calls,
    replay_game,
)
from matches.api.penalties import (
    PenaltyCSVRenderer,
    event_penalties,
    event_penalties_csv,
    match_penalties,
    penalty_catalogue,
    registration_penalties,
)
from matches.api.results import (
    match_confirm,
    match_correction_preview,
    match_detail,
    match_extension,
    match_report,
    match_table,
    match_versions,
    my_match,
    registration_pairing_options,
)
from matches.api.rounds import (
    round_checks,
    round_copy,
    round_copy_answer,
    round_detail,
    round_publish,
    round_repair,
    round_swap,
    round_timer,
    rounds,
)
from matches.api.standings import (
    MAX_PLACINGS_PAGE,
    MAX_STANDINGS_PAGE,
    STANDING_FIELDS,
    cut_calculator,
    placings,
    stage_start,
    standings,
    standings_copy,
    standings_player,
    top_cut,
    top_cut_copy,
    top_decklists_publish,
)
from matches.api.teams import (
    team_match_detail,
    team_match_lineup,
)

__all__ = [
    "MAX_PLACINGS_PAGE",
    "MAX_STANDINGS_PAGE",
    "STANDING_FIELDS",
    "PenaltyCSVRenderer",
    "call_claim",
    "call_claim_next",
    "call_detail",
    "call_escalate",
    "call_hand_back",
    "call_notes",
    "call_ruling",
    "calls",
    "cut_calculator",
    "event_penalties",
    "event_penalties_csv",
    "match_calls",
    "match_confirm",
    "match_correction_preview",
    "match_detail",
    "match_extension",
    "match_penalties",
    "match_report",
    "match_table",
    "match_versions",
    "my_match",
    "penalty_catalogue",
    "placings",
    "registration_pairing_options",
    "registration_penalties",
    "replay_game",
    "round_checks",
    "round_copy",
    "round_copy_answer",
    "round_detail",
    "round_publish",
    "round_repair",
    "round_swap",
    "round_timer",
    "rounds",
    "stage_start",
    "standings",
    "standings_copy",
    "standings_player",
    "team_match_detail",
    "team_match_lineup",
    "top_cut",
    "top_cut_copy",
    "top_decklists_publish",
]
