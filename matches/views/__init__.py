"""Player-facing pages for the rounds: pairings, my match and its report form, the round timer,
standings with their explanations, the cut calculator, the bracket and the venue projector.

One module per page family (pairings, report, standings_pages, bracket_page, projector_page,
event_rounds), what they share in common.py; formatting in matches.presenters, the bracket's drawing in
matches.bracket_drawing, the report form in matches.report_forms. The names below stay
importable from ``matches.views`` (matches/urls.py, tournaments/views.py and tests use them).

Thin views over matches.services and matches.selectors (the same calls as matches/api.py).
The pages 2,000 players reload at once (pairings, standings, the projector list) render their
body once per round version / standings snapshot and keep it in django.core.cache; only the
small per-person part (the "your table" banner) is rendered per request.
"""

from matches.bracket_drawing import BracketBox, Slot, bracket_columns, bracket_svg
from matches.report_forms import (
    ONE_TAP_GAMES,
    detail_games,
    detail_rows_from_post,
    details_from_post,
    mark_problem,
    problem_text,
)
from matches.views.bracket_page import POLICY_LABELS, bracket
from matches.views.common import (
    CUT_ROWS_PER_PAGE,
    PAIRINGS_CACHE_SECONDS,
    STANDINGS_CACHE_SECONDS,
    STANDINGS_PER_PAGE,
    registration_of,
    round_timer_context,
    timer_context,
)
from matches.views.event_rounds import SCHEDULE_BREAK_MINUTES, rounds_section
from matches.views.my_match_page import my_match
from matches.views.pairings import NO_RECORD, Seat, pairing_lists
from matches.views.pairings_page import round_pairings
from matches.views.projector_page import PROJECTOR_POLL_SECONDS, projector, projector_live
from matches.views.qr import qr_svg
from matches.views.report import match_confirm_page, match_context, match_report_page
from matches.views.standings_pages import (
    RESULT_LABELS,
    VERDICT_LABELS,
    cut_calculator,
    standings,
    standings_player,
)
from matches.views.tiebreaker_explanation import (
    FLOOR,
    _explanations,
    pct,
    tiebreaker_label,
    tiebreaker_value,
)

__all__ = [
    "CUT_ROWS_PER_PAGE",
    "FLOOR",
    "NO_RECORD",
    "ONE_TAP_GAMES",
    "PAIRINGS_CACHE_SECONDS",
    "POLICY_LABELS",
    "PROJECTOR_POLL_SECONDS",
    "RESULT_LABELS",
    "SCHEDULE_BREAK_MINUTES",
    "STANDINGS_CACHE_SECONDS",
    "STANDINGS_PER_PAGE",
    "VERDICT_LABELS",
    "BracketBox",
    "Seat",
    "Slot",
    "_explanations",
    "bracket",
    "bracket_columns",
    "bracket_svg",
    "cut_calculator",
    "detail_games",
    "detail_rows_from_post",
    "details_from_post",
    "mark_problem",
    "match_confirm_page",
    "match_context",
    "match_report_page",
    "my_match",
    "pairing_lists",
    "pct",
    "problem_text",
    "projector",
    "projector_live",
    "qr_svg",
    "registration_of",
    "round_pairings",
    "round_timer_context",
    "rounds_section",
    "standings",
    "standings_player",
    "tiebreaker_label",
    "tiebreaker_value",
    "timer_context",
]
