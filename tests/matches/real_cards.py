"""Real BoBA cards from ../shared/data/boba for the judge-desk tests: two lists that share
heroes, imported into the official catalog as an organiser would."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from decks import services as deck_services

SHARED_HEROES = 7  # of the eleven heroes each setup names


PLAYS = 6  # both lists' Plays: four in the opening hands, two to draw


def real_overlapping_lists(shared_data: Path) -> tuple[list[dict[str, Any]], list[str], str, str]:
    """Fifteen real heroes (one printing each, distinct names) and six real Plays of the
    engine's library; list A holds heroes 0-10, list B heroes 4-14 (seven shared) and both
    the same Plays. Returns (the hero rows, the play names, list A's text, list B's text)."""
    from engine.boba.play_library import lookup_play

    rows = json.loads((shared_data / "boba" / "cards.json").read_text())
    heroes: list[dict[str, Any]] = []
    names: set[str] = set()
    for row in rows:
        if row["Weapon"] and row["Power"] and row["Name"] not in names:
            names.add(row["Name"])
            heroes.append(row)
        if len(heroes) == 15:
            break
    plays = json.loads((shared_data / "boba" / "plays.json").read_text())
    play_names = [p["name"] for p in plays if lookup_play(p["name"]) is not None][:PLAYS]

    def text(chosen: list[dict[str, Any]]) -> str:
        lines = ["Heroes"] + [f"1 {h['Name']} ({h['Weapon']} {h['Power']})" for h in chosen]
        return "\n".join([*lines, "Playbook", *(f"1 {n}" for n in play_names)])

    return heroes, play_names, text(heroes[:11]), text(heroes[4:15])


def import_real_cards(shared_data: Path, heroes: list[dict[str, Any]], plays: list[str]) -> None:
    """The heroes' printings and the Plays' printings of the real lists, with the Plays'
    costs, imported into the official catalog (the default of a BoBA event)."""
    rows = json.loads((shared_data / "boba" / "cards.json").read_text())
    wanted = {h["Name"] for h in heroes} | set(plays)
    subset = [r for r in rows if r["Name"] in wanted]
    play_rows = [
        p
        for p in json.loads((shared_data / "boba" / "plays.json").read_text())
        if p["name"] in plays
    ]
    deck_services.import_cards(
        game="boba",
        files=[
            ("cards.json", json.dumps(subset).encode()),
            ("plays.json", json.dumps(play_rows).encode()),
        ],
    )
