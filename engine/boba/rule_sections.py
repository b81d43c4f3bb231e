"""The numbered sections of the BoBA Comprehensive Rules (v1), for citing a rule in a ruling.

Titles only, no rule text: the judge desk lists these so a judge picks "CR 4.2.2" rather than
typing it. Taken from the headings of sections 1-5 of the rules document; where a title
repeats (each game mode has its own setup and turn structure), the mode is added in brackets.
Pure data: no Django, no file read at run time.
"""

from __future__ import annotations

RULES_VERSION = "1"

RULE_SECTIONS: tuple[tuple[str, str], ...] = (
    ("CR 1", "Game Overview"),
    ("CR 1.1", "Introduction"),
    ("CR 1.2", "Game Modes"),
    ("CR 1.2.1", "Rookie Mode"),
    ("CR 1.2.2", "Substitution Mode"),
    ("CR 1.2.3", "Playmaker Mode"),
    ("CR 2", "Game Components"),
    ("CR 2.1", "Cards"),
    ("CR 2.1.1", "Hero Cards"),
    ("CR 2.1.2", "Play Cards"),
    ("CR 2.1.3", "Bonus Plays"),
    ("CR 2.1.4", "Hot Dog Cards"),
    ("CR 2.2", "Other Game Objects"),
    ("CR 2.2.1", "Coins"),
    ("CR 2.2.2", "Trophies"),
    ("CR 2.2.3", "Markers"),
    ("CR 2.2.4", "Dice"),
    ("CR 3", "Areas of the Game"),
    ("CR 3.1", "Areas"),
    ("CR 3.2", "Movement Between Areas"),
    ("CR 3.3", "Inactive Battles"),
    ("CR 3.4", "Randomization and Shuffling"),
    ("CR 4", "Sequence of Play"),
    ("CR 4.1", "Rookie Mode"),
    ("CR 4.1.1", "Game Setup (Rookie)"),
    ("CR 4.1.2", "Turn and Battle Structure (Rookie)"),
    ("CR 4.2", "Substitution Mode"),
    ("CR 4.2.1", "Game Setup (Substitution)"),
    ("CR 4.2.2", "Turn and Battle Structure (Substitution)"),
    ("CR 4.3", "Playmaker Mode"),
    ("CR 4.3.1", "Game Setup (Playmaker)"),
    ("CR 4.3.2", "Turn and Battle Structure (Playmaker)"),
    ("CR 4.4", "Winning the Game"),
    ("CR 4.4.1", "Victory Condition"),
    ("CR 4.4.2", "Ties"),
    ("CR 4.4.3", "Sudden Death Rules"),
    ("CR 5", "Card Rules and Effects"),
    ("CR 5.1", "Play Resolution"),
    ("CR 5.1.1", "Play Effects"),
    ("CR 5.1.2", "Order of Resolution"),
    ("CR 5.1.3", "Persisting Effects"),
    ("CR 5.1.4", "Future-Only Effects"),
    ("CR 5.1.5", "Ownership and Interaction Limits"),
    ("CR 5.1.6", "Unique Copies and Non-Stacking"),
    ("CR 5.1.7", "Replay and Nullification"),
    ("CR 5.2", "The “If Able” Rule"),
    ("CR 5.2.1", "Partial Resolution"),
    ("CR 5.2.2", "Costs Still Apply"),
    ("CR 5.2.3", "Discard as a Requirement vs. Discard as an Effect"),
    ("CR 5.2.4", "“Send to Discard” Clarification"),
    ("CR 5.3", "Card Commitment"),
    ("CR 5.3.1", "Committing a Card"),
    ("CR 5.3.2", "Cost and Resolution Timing"),
)

RULE_SECTION_TITLES: dict[str, str] = dict(RULE_SECTIONS)


def section_title(citation: str) -> str | None:
    """The title of a cited section ("CR 4.2.2" -> its title), or None if not listed."""
    return RULE_SECTION_TITLES.get(" ".join((citation or "").split()))
