"""The sections of the BOS starter guide and its Competitive Rules, for citing a rule.

Titles only, no rule text: the judge desk lists these so a judge picks "BOS: Main Phase"
rather than typing it. Taken from the guide's headings (../shared/rules/bos-starter-guide.md)
and, within Gameplay, the named phases and main-phase actions the engine cites (BOS: Startup
Phase, BOS: Attack, ...), in the guide's order. Pure data: no Django, no file read at run time.
"""

from __future__ import annotations

_TITLES = (
    "General Rules",
    "Starting Info",
    "Cards",
    "Battlefield Setup",
    "Gameplay",
    "Startup Phase",
    "Summoning Phase",
    "Main Phase",
    "Cast a Spell",
    "Attack",
    "Player Attack",
    "Summon Your Boss",
    "Ending Phase",
    "Abilities",
    "Competitive Rules",
    "Reserves",
    "Going First",
    "Best of 3 Match",
    "Decay",
    "Time Control",
)

RULE_SECTIONS: tuple[tuple[str, str], ...] = tuple((f"BOS: {title}", title) for title in _TITLES)
