"""A generated, fictional BoBA catalog for the demo site and for tests that need no real data.

Every name is made up here from word lists; no publisher card, name or ability text is used.
The same seed gives the same catalog. It has Heroes of every weapon across the Power range
(55-250, with parallels and two sets), Plays with costs, DBS and HTD variants, Bonus Plays and
Hot Dogs, enough to build a legal list for every preset.
"""

from __future__ import annotations

import random

from engine.boba.deckbuilding.cards import HTD_SUFFIX, WEAPONS, CardKind, Catalog, CatalogCard

DEMO_SETS: tuple[tuple[str, int], ...] = (("Demo Opening Day", 2025), ("Demo Overtime", 2026))
_PARALLELS = ("Paper", "Battlefoil", "Chrome Foil")
_HERO_FIRST = (
    "Rocket",
    "Iron",
    "Night",
    "Thunder",
    "Velvet",
    "Copper",
    "Lucky",
    "Frost",
    "Turbo",
    "Shadow",
    "Neon",
    "Atomic",
    "Crimson",
    "Silver",
    "Wild",
    "Quiet",
    "Golden",
    "Paper",
)
_HERO_LAST = (
    "Jaxon",
    "Mags",
    "Rook",
    "Bolt",
    "Vee",
    "Tank",
    "Dash",
    "Slim",
    "Ace",
    "Duke",
    "Moxie",
    "Comet",
    "Ledger",
    "Pike",
)
_PLAY_FIRST = (
    "Double",
    "Late",
    "Fast",
    "Hidden",
    "Second",
    "Long",
    "Lucky",
    "Final",
    "Quick",
    "Broken",
    "Full",
    "Open",
    "Short",
    "Triple",
    "Deep",
    "Cold",
)
_PLAY_LAST = (
    "Timeout",
    "Pivot",
    "Rally",
    "Huddle",
    "Screen",
    "Bunt",
    "Fade",
    "Audible",
    "Blitz",
    "Switch",
    "Press",
    "Gambit",
    "Volley",
    "Reverse",
)
_HOT_DOGS = (
    "Chili Champ",
    "Mustard Max",
    "Relish Ray",
    "Onion Olly",
    "Kraut Kit",
    "Ketchup Kay",
    "Gherkin Gus",
    "Cheddar Chad",
    "Pretzel Pam",
    "Jalapeno Jo",
    "Sesame Sid",
    "Bun Bunny",
)

HERO_NAMES = 30
PLAYS = 64
HTD_VARIANTS = 10
BONUS_PLAYS = 12


def _names(rng: random.Random, first: tuple[str, ...], last: tuple[str, ...], n: int) -> list[str]:
    pool = [f"{a} {b}" for a in first for b in last]
    rng.shuffle(pool)
    return sorted(pool[:n])


def demo_cards(seed: int = 2026) -> list[CatalogCard]:
    """The demo catalog's printings, in a stable order."""
    rng = random.Random(seed)
    cards: list[CatalogCard] = []
    next_id = 1

    def add(**fields: object) -> None:
        nonlocal next_id
        cards.append(CatalogCard(id=f"demo:{next_id}", **fields))  # type: ignore[arg-type]
        next_id += 1

    powers = list(range(55, 255, 5))
    number = {s: 0 for s, _ in DEMO_SETS}
    for index, name in enumerate(_names(rng, _HERO_FIRST, _HERO_LAST, HERO_NAMES)):
        set_name, year = DEMO_SETS[index % len(DEMO_SETS)]
        variations: set[tuple[str, int]] = set()
        wanted = rng.randint(4, 9)
        # Weapons rotate with the name and the variation, so every weapon appears, and no two
        # variations of one name share a weapon; powers spread over the whole range.
        while len(variations) < wanted:
            weapon = WEAPONS[(index + len(variations)) % len(WEAPONS)]
            power = powers[(index * 7 + len(variations) * 13 + rng.randrange(5)) % len(powers)]
            variations.add((weapon, power))
        for weapon, power in sorted(variations):
            number[set_name] += 1
            n = number[set_name]
            for parallel in _PARALLELS[: rng.randint(1, len(_PARALLELS))]:
                prefix = (
                    "" if parallel == "Paper" else "".join(w[0] for w in parallel.split()) + "-"
                )
                add(
                    kind=CardKind.HERO,
                    name=name,
                    set=set_name,
                    card_number=f"{prefix}{n}",
                    parallel=parallel,
                    weapon=weapon,
                    power=power,
                    year=year,
                )
    play_names = _names(rng, _PLAY_FIRST, _PLAY_LAST, PLAYS + BONUS_PLAYS)
    set_name, year = DEMO_SETS[0]
    for i, name in enumerate(play_names[:PLAYS], start=1):
        cost = rng.choice((0, 0, 1, 1, 1, 2, 2, 3, 4))
        dbs = rng.choice((2, 5, 8, 10, 12, 15, 18, 20, 25, 30, 40, 60, 90))
        add(
            kind=CardKind.PLAY,
            name=name,
            set=set_name,
            card_number=f"PL-{i}",
            parallel="Play",
            cost=cost,
            dbs=dbs,
            year=year,
            release="DEMO",
        )
        if i <= HTD_VARIANTS:
            add(
                kind=CardKind.PLAY,
                name=name + HTD_SUFFIX,
                set=DEMO_SETS[1][0],
                card_number=f"HTD-{i}",
                parallel="HTD Play",
                cost=max(cost - 1, 0),
                dbs=dbs + 5,
                base_name=name,
                year=DEMO_SETS[1][1],
                release="HTD",
            )
    for i, name in enumerate(play_names[PLAYS:], start=1):
        add(
            kind=CardKind.BONUS_PLAY,
            name=name,
            set=set_name,
            card_number=f"BPL-{i}",
            parallel="Bonus Play",
            cost=rng.randint(0, 3),
            dbs=rng.choice((5, 10, 20, 35)),
            year=year,
            release="DEMO",
        )
    for i, name in enumerate(_HOT_DOGS, start=1):
        for set_name, year in DEMO_SETS:
            add(
                kind=CardKind.HOT_DOG,
                name=name,
                set=set_name,
                card_number=f"HD-{i}",
                parallel="Hotdog",
                year=year,
            )
    return cards


def demo_catalog(seed: int = 2026) -> Catalog:
    return Catalog(demo_cards(seed))
