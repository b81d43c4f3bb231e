"""Summary figures for a deck page: Hero Power histogram, weapons, Play cost curve, DBS."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.boba.deckbuilding.cards import Catalog
from engine.boba.deckbuilding.decklist import Decklist, Section
from engine.boba.deckbuilding.formats import Format


@dataclass(frozen=True, slots=True)
class DeckStatistics:
    heroes: int
    playbook: int
    bonus_plays: int
    hot_dogs: int
    hero_power_histogram: dict[int, int]
    weapon_breakdown: dict[str, int]
    total_hero_power: int
    average_hero_power: float
    play_cost_curve: dict[int, int]
    plays_with_variable_cost: int
    dbs_total: int
    dbs_cap: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "heroes": self.heroes,
            "playbook": self.playbook,
            "bonus_plays": self.bonus_plays,
            "hot_dogs": self.hot_dogs,
            "hero_power_histogram": {str(k): v for k, v in self.hero_power_histogram.items()},
            "weapon_breakdown": dict(self.weapon_breakdown),
            "total_hero_power": self.total_hero_power,
            "average_hero_power": self.average_hero_power,
            "play_cost_curve": {str(k): v for k, v in self.play_cost_curve.items()},
            "plays_with_variable_cost": self.plays_with_variable_cost,
            "dbs_total": self.dbs_total,
            "dbs_cap": self.dbs_cap,
        }


def deck_statistics(
    decklist: Decklist, catalog: Catalog, fmt: Format | None = None
) -> DeckStatistics:
    """Counts per section and chart data; cards missing from the catalog are skipped.
    Histograms are sorted by key; the cost curve and DBS cover Playbook and Bonus Plays."""
    counts = {s: 0 for s in Section}
    histogram: dict[int, int] = {}
    weapons: dict[str, int] = {}
    curve: dict[int, int] = {}
    variable = 0
    dbs_total = 0
    for entry in decklist.entries:
        card = catalog.get(entry.card_id)
        if card is None:
            continue
        n = entry.count
        counts[entry.section] += n
        if entry.section is Section.HEROES:
            if card.power is not None:
                histogram[card.power] = histogram.get(card.power, 0) + n
            if card.weapon is not None:
                weapons[card.weapon] = weapons.get(card.weapon, 0) + n
        elif entry.section in (Section.PLAYBOOK, Section.BONUS_PLAYS):
            if card.cost is None:
                variable += n
            else:
                curve[card.cost] = curve.get(card.cost, 0) + n
            dbs_total += (card.dbs or 0) * n
    total_power = sum(power * n for power, n in histogram.items())
    heroes = counts[Section.HEROES]
    return DeckStatistics(
        heroes=heroes,
        playbook=counts[Section.PLAYBOOK],
        bonus_plays=counts[Section.BONUS_PLAYS],
        hot_dogs=counts[Section.HOT_DOGS],
        hero_power_histogram=dict(sorted(histogram.items())),
        weapon_breakdown=dict(sorted(weapons.items())),
        total_hero_power=total_power,
        average_hero_power=round(total_power / heroes, 1) if heroes else 0.0,
        play_cost_curve=dict(sorted(curve.items())),
        plays_with_variable_cost=variable,
        dbs_total=dbs_total,
        dbs_cap=fmt.dbs_cap if fmt is not None else None,
    )
