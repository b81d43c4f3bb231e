"""Matches, result reports, disputes, judge calls, rulings and penalties (coming with the matches issue)."""
