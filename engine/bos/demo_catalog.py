"""A small invented BOS card set for tests and demos: every name and text here is our own
and fictional (no published card is copied)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.bos.cards import BosCard, CardType, Color
from engine.frozen import FrozenRows, freeze_rows

DEMO_SET = "Battledesk Demo"

W, SU, SP, B = CardType.WIZARD, CardType.SUMMON, CardType.SPELL, CardType.BOSS
R, Y, BL = Color.RED, Color.YELLOW, Color.BLUE

# name, type, colour, vim cost, strength, summoning condition, ability
_ROWS: tuple[tuple[str, CardType, Color, int | None, int | None, str, str], ...] = (
    (
        "Ember Tutor",
        W,
        R,
        None,
        None,
        "",
        "During your main phase, [act]: a summon gains 1 strength.",
    ),
    ("Cinder Scribe", W, R, None, None, "", "During your ending phase: gain 1 vim."),
    ("Ash Warden", W, R, None, None, "", "Your boss gains 2 strength."),
    ("Kiln Mystic", W, R, None, None, "", "[act]: deal 1 damage to a summon."),
    ("Spark Pup", SU, R, None, 2, "Conduct a summon with any red wizard.", ""),
    ("Coal Golem", SU, R, None, 5, "Conduct a summon with Ash Warden.", ""),
    ("Flare Hound", SU, R, None, 3, "Conduct a summon with any red wizard.", "Can attack twice."),
    ("Magma Crawler", SU, R, None, 4, "Conduct a summon with Kiln Mystic.", ""),
    ("Smoke Imp", SU, R, None, 1, "Conduct a summon with any red wizard.", "Cannot be blocked."),
    ("Brand Knight", SU, R, None, 6, "Conduct a summon with Ember Tutor.", ""),
    ("Heat Wave", SP, R, 2, None, "", "Deal 2 damage to each summon."),
    ("Fire Lash", SP, R, 1, None, "", "Deal 1 damage to a summon."),
    ("Char Ward", SP, R, 3, None, "", "Enchant a summon: it gains 3 strength."),
    ("Kindle", SP, R, 0, None, "", "Gain 1 vim."),
    ("Blaze Pact", SP, R, 4, None, "", "Deal 4 damage to a player."),
    ("Scorch Rain", SP, R, 5, None, "", "Deal 5 damage to each summon."),
    ("Furnace Tyrant", B, R, None, 12, "You control 3 summons.", "Must attack each turn."),
    ("Slag Colossus", B, R, None, 10, "Your graveyard holds 4 spells.", ""),
    ("Tide Reader", W, BL, None, None, "", "[act]: look at a face-down wizard."),
    ("Brook Sprite", SU, BL, None, 2, "Conduct a summon with any blue wizard.", ""),
    ("Mist Veil", SP, BL, 2, None, "", "Enchant a summon: it cannot be attacked."),
    ("Deep Leviathan", B, BL, None, 11, "You control 2 summons.", ""),
    ("Meadow Oracle", W, Y, None, None, "", "During your startup phase: gain 1 life."),
)


def demo_cards() -> tuple[BosCard, ...]:
    cards = []
    for number, (name, kind, color, vim, strength, condition, ability) in enumerate(_ROWS, 1):
        num = f"D{number:03d}"
        cards.append(
            BosCard(
                id=f"demo:bos:{num}",  # the site keeps "demo:" ids in the demo catalog
                name=name,
                type=kind,
                color=color,
                vim_cost=vim,
                strength=strength,
                summoning_condition=condition,
                ability=ability,
                set=DEMO_SET,
                card_number=num,
            )
        )
    return tuple(cards)


# A legal competitive list over the demo cards (24 cards, red, 7 reserves).
SAMPLE_DECKLIST = """\
Title: Demo Red
Wizards (3)
1 Ember Tutor
1 Cinder Scribe
1 Ash Warden

Summons (10)
2 Spark Pup
2 Coal Golem
2 Flare Hound
2 Magma Crawler
2 Smoke Imp

Spells (10)
2 Heat Wave
2 Fire Lash
2 Char Ward
2 Kindle
2 Blaze Pact

Boss (1)
1 Furnace Tyrant

Reserves (7)
3 Brand Knight
3 Scorch Rain
1 Spark Pup
"""


def demo_game_details(winners: Sequence[str], seed: int) -> FrozenRows:
    """Invented per-game details of a demo result (engine.bos.match's JSON): for each game
    in order its winner ("a" or "b"), two different ether bids, the higher bidder choosing
    who goes first and the lower bidder receiving ether equal to their bid (BOS: Going First)."""
    rng = random.Random(seed)
    games: list[dict[str, Any]] = []
    for winner in winners:
        bid_a, bid_b = rng.sample(range(0, 6), 2)
        higher = "a" if bid_a > bid_b else "b"
        games.append(
            {
                "winner": winner,
                "bids": [bid_a, bid_b],
                "chose_first": higher,
                "first": higher if rng.random() < 0.7 else ("b" if higher == "a" else "a"),
                "ether": [bid_a if bid_a < bid_b else 0, bid_b if bid_b < bid_a else 0],
                "end": "played",
            }
        )
    return freeze_rows(games)
