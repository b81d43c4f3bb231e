"""Pages for tournament staff running the rounds: round control, a match's staff page, the
scorekeeper and printable match slips, in matches/views/ (staff_rounds, staff_match,
scorekeeper; what they share in staff_common). The names stay importable from here
(matches/staff_urls.py and tests use them).
"""

from matches.views.scorekeeper import (
    QR_AUTO_MASK_UP_TO,
    QR_CACHE_SECONDS,
    SlipOutcome,
    match_slips,
    scorekeeper,
)
from matches.views.staff_common import (
    RECENT_ENTRIES,
    RESULT_RE,
    SEAT_RE,
    Seat,
    filtered_matches,
    find_seat,
    matches_by_table,
    parse_result,
    recent_entries,
    round_seats,
)
from matches.views.staff_match import json_text, match_extend, match_staff
from matches.views.staff_rounds import (
    PAGE_SIZE,
    STATE_FILTERS,
    round_control,
    round_delete,
    round_pair,
    round_publish,
    round_repair,
    round_set_table,
    round_swap,
    round_timer,
    round_top_cut,
    stage_start,
)

__all__ = [
    "PAGE_SIZE",
    "QR_AUTO_MASK_UP_TO",
    "QR_CACHE_SECONDS",
    "RECENT_ENTRIES",
    "RESULT_RE",
    "SEAT_RE",
    "STATE_FILTERS",
    "Seat",
    "SlipOutcome",
    "filtered_matches",
    "find_seat",
    "json_text",
    "match_extend",
    "match_slips",
    "match_staff",
    "matches_by_table",
    "parse_result",
    "recent_entries",
    "round_control",
    "round_delete",
    "round_pair",
    "round_publish",
    "round_repair",
    "round_seats",
    "round_set_table",
    "round_swap",
    "round_timer",
    "round_top_cut",
    "scorekeeper",
    "stage_start",
]
