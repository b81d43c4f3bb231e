"""Use cases for running the rounds: the only code that writes rounds, matches, reports,
result versions, judge calls, rulings and penalties.

Each public function takes keyword-only arguments, checks who may act and in what state, runs
in one transaction, calls the pure cores (tournaments.swiss, standings, topcut, results, timer)
and appends an AuditEntry for every change. One module per subject; this package re-exports
their public names, so callers import ``matches.services`` as before:

- ``locks``: row locks in the site's order and the version counters they guard
- ``history``: the Swiss history (who played whom, with what result) and who can be paired
- ``pairing``: creating and pairing a round (Swiss or bracket), in a task above a size
- ``review``: the organiser's review of a paired round: checks, swaps, tables, publishing
- ``timer``: the round timer and per-match extensions, and its "5 minutes left" warning
- ``result_checks``: whether a reported result is legal, and who reports it
- ``results``: reports, confirmations and staff results, each a new result version
- ``round_end``: finishing a round (and the event) once its last result is in
- ``standings``: standings rows and snapshots, records before a round, correction previews
- ``top_cut``: starting the top cut and the cut calculator
- ``top_decklists``: publishing the decklists of a finished event's top placings
- ``stage_history``, ``stages``: an event's stages: their histories, starting one, pairing by
  kind, finishing one (event-structures: Stages)
- ``calls``: judge calls: opening, claiming, handing back, escalating, settling
- ``rulings``: a judge's ruling on a call, with citations and a replayed game record
- ``penalties``: giving penalties, their suggestions, history and log
- ``teams``: team rounds: pairing teams, line-ups, boards, team match results, the decider,
  team standings (docs/teams.md)
- ``team_stages``: a team event's stages: Swiss, round robin and brackets of teams, each
  stage's team standings and final rows, what placings read

Row locks are always taken in this order (docs/architecture.md), so two requests never wait on
each other in a cycle: event, then registration, then round, then match. Result reports lock
only their round and match: the round lock serialises the "was that the last result?" check,
so a round finishes exactly once.
"""

from __future__ import annotations

from matches.services.calls import (
    MAX_QUESTION,
    call_add_note,
    call_claim,
    call_claim_next,
    call_escalate,
    call_hand_back,
    call_open,
    calls_settle_final,
)
from matches.services.history import (
    SwissHistory,
    bye_games,
    current_round,
    pairable_registrations,
    pairing_candidates,
    round_structure,
    scoring,
    stage_structure,
    swiss_history,
)
from matches.services.locks import (
    _lock_call,
    _lock_event,
    _lock_for_result,
    _lock_match,
    _lock_round,
)
from matches.services.pairing import (
    PAIR_IN_TASK_ABOVE,
    PAIR_ROUND_TASK,
    pairing_progress,
    pairing_progress_key,
    registration_pairing_options,
    round_pair,
    round_pairing_run,
)
from matches.services.penalties import (
    MAX_PENALTY_NOTE,
    PENALTY_CSV_COLUMNS,
    penalties_of_event,
    penalty_give,
    penalty_history,
    penalty_log_csv,
    penalty_suggestion,
    repeated_infractions,
)
from matches.services.result_checks import (
    acting_side,
    checked_result,
    games_text,
)
from matches.services.results import (
    OverridesReport,
    auto_confirm_due,
    match_confirm,
    match_report,
    match_result_record,
)
from matches.services.review import (
    RoundCheck,
    round_checks,
    round_delete,
    round_publish,
    round_repair,
    round_set_table,
    round_swap,
)
from matches.services.round_end import (
    champion_of,
)
from matches.services.rulings import (
    CITATION_PATTERN,
    MAX_CITATIONS,
    MAX_RECORD_ACTIONS,
    MAX_RECORD_BYTES,
    RecordInvalid,
    call_ruling,
    check_citations,
    check_record_bounds,
    replay_malformed,
    replay_record,
)
from matches.services.stages import (
    cut_notes,
    stage_start_service,
)
from matches.services.standings import (
    RECORDS_CACHE_SECONDS,
    correction_preview,
    last_finished_swiss_round,
    records_before_round,
    results_source_version,
    standings_rows,
    standings_snapshot,
)
from matches.services.team_stages import team_stage_standings, team_standings_stage
from matches.services.teams import (
    lineup_set,
    team_match_visible,
    team_round_write,
)
from matches.services.timer import (
    MAX_ADDED_MINUTES,
    MAX_EXTENSION_MINUTES,
    TIMER_ACTIONS,
    WARN_BEFORE_END,
    match_extend,
    round_ending_due,
    round_endings_due,
    round_timer,
    schedule_round_ending,
)
from matches.services.top_cut import (
    cut_calculator,
    cut_for,
    top_cut_start,
)
from matches.services.top_decklists import top_decklists_publish

__all__ = [
    "CITATION_PATTERN",
    "MAX_ADDED_MINUTES",
    "MAX_CITATIONS",
    "MAX_EXTENSION_MINUTES",
    "MAX_PENALTY_NOTE",
    "MAX_QUESTION",
    "MAX_RECORD_ACTIONS",
    "MAX_RECORD_BYTES",
    "PAIR_IN_TASK_ABOVE",
    "PAIR_ROUND_TASK",
    "PENALTY_CSV_COLUMNS",
    "RECORDS_CACHE_SECONDS",
    "TIMER_ACTIONS",
    "WARN_BEFORE_END",
    "OverridesReport",
    "RecordInvalid",
    "RoundCheck",
    "SwissHistory",
    "_lock_call",
    "_lock_event",
    "_lock_for_result",
    "_lock_match",
    "_lock_round",
    "acting_side",
    "auto_confirm_due",
    "bye_games",
    "call_add_note",
    "call_claim",
    "call_claim_next",
    "call_escalate",
    "call_hand_back",
    "call_open",
    "call_ruling",
    "calls_settle_final",
    "champion_of",
    "check_citations",
    "check_record_bounds",
    "checked_result",
    "correction_preview",
    "current_round",
    "cut_calculator",
    "cut_for",
    "cut_notes",
    "games_text",
    "last_finished_swiss_round",
    "lineup_set",
    "match_confirm",
    "match_extend",
    "match_report",
    "match_result_record",
    "pairable_registrations",
    "pairing_candidates",
    "pairing_progress",
    "pairing_progress_key",
    "penalties_of_event",
    "penalty_give",
    "penalty_history",
    "penalty_log_csv",
    "penalty_suggestion",
    "records_before_round",
    "registration_pairing_options",
    "repeated_infractions",
    "replay_malformed",
    "replay_record",
    "results_source_version",
    "round_checks",
    "round_delete",
    "round_ending_due",
    "round_endings_due",
    "round_pair",
    "round_pairing_run",
    "round_publish",
    "round_repair",
    "round_set_table",
    "round_structure",
    "round_swap",
    "round_timer",
    "schedule_round_ending",
    "scoring",
    "stage_start_service",
    "stage_structure",
    "standings_rows",
    "standings_snapshot",
    "swiss_history",
    "team_match_visible",
    "team_round_write",
    "team_stage_standings",
    "team_standings_stage",
    "top_cut_start",
    "top_decklists_publish",
]
