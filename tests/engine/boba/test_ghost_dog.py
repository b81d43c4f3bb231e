"""Ghost Dog: "This is now a Hot Dog. It can't be removed by your opponent's Plays. Discard
this Play when you spend it." The card wins over README decision 9's ten hot dogs (as the
decision says): it is one more available hot dog for its owner (a ghost dog), safe from the
opponent's plays, and goes to the discard pile as a Play when spent. Invariant: available +
discarded hot dogs = 10 + ghost dogs (CR 2.1.4, README decision 9).
"""

from __future__ import annotations

from typing import Any

from engine.boba.generator import Catalog, default_catalog, random_game
from engine.boba.replay import replay
from engine.boba.rules import HOT_DOGS
from tests.engine.boba.helpers import act, make_record, passes

PM = "playmaker"


def _plays() -> dict[str, dict[str, Any]]:
    return {
        "gd": {"name": "Ghost Dog"},
        "big": {"name": "Big Spender", "cost": 11, "effect": [{"power": 1}]},
        "three": {"name": "Three Dogs", "cost": 3, "effect": [{"power": 1}]},
        "lose_own": {"name": "Own Loss", "cost": 0, "effect": [{"lose_hot_dogs": 3}]},
        "steal": {
            "name": "Opponent Loses All",
            "cost": 0,
            "effect": [{"lose_hot_dogs": "all", "who": "opp"}],
        },
        "burn": {
            "name": "Opponent Discards Dogs",
            "cost": 0,
            "effect": [{"discard": 5, "from": "hot_dogs", "who": "opp"}],
        },
        "swap": {"name": "Hot Dog Swap", "cost": 0, "effect": [{"exchange_hot_dogs": True}]},
    }


def _after(
    a_runs: list[str], b_runs: list[str] | None = None, hot_dogs: int = 10
) -> dict[str, Any]:
    """Battle 1: A runs a_runs, passes; B runs b_runs, passes. The players after it."""
    actions = passes("A") + [act("A", "run", c) for c in a_runs] + [act("A", "pass")]
    b_runs = b_runs or []
    actions += [act("B", "run", c) for c in b_runs] + [act("B", "pass")]
    rec = make_record(
        PM,
        actions=actions,
        plays=_plays(),
        hands={"A": ["gd", *a_runs[1:]], "B": b_runs},
        hot_dogs=hot_dogs,
    )
    r = replay(rec)
    assert r.legal, r.error
    assert r.state is not None
    players: dict[str, Any] = r.state.snapshot()["players"]
    for p in players.values():
        assert p["hot_dogs"] + p["hot_dogs_discarded"] == HOT_DOGS + len(p["ghost_dogs"])
    return players


def test_cr_2_1_4_ghost_dog_becomes_an_extra_hot_dog() -> None:
    a = _after(["gd"])["A"]
    assert (a["hot_dogs"], a["hot_dogs_discarded"], a["ghost_dogs"]) == (11, 0, ["gd"])
    assert "gd" not in a["discard"] and "gd" not in a["hand"]


def test_cr_2_1_4_ghost_dog_pays_for_an_eleventh_hot_dog_and_is_then_discarded_as_a_play() -> None:
    # Only with the ghost dog can A pay 11; spent, it goes to the discard pile as a Play.
    a = _after(["gd", "big"])["A"]
    assert (a["hot_dogs"], a["hot_dogs_discarded"], a["ghost_dogs"]) == (0, 10, [])
    assert a["discard"] == ["gd", "big"]


def test_cr_2_1_4_ordinary_hot_dogs_are_spent_before_the_ghost_dog() -> None:
    a = _after(["gd", "three"])["A"]
    assert (a["hot_dogs"], a["hot_dogs_discarded"], a["ghost_dogs"]) == (8, 3, ["gd"])
    assert a["discard"] == ["three"]


def test_cr_2_1_4_ghost_dog_lost_to_its_owners_own_play_goes_to_the_discard_as_a_play() -> None:
    # 2 ordinary hot dogs + the ghost dog; A's own play loses 3: all of them.
    a = _after(["gd", "lose_own"], hot_dogs=2)["A"]
    assert (a["hot_dogs"], a["hot_dogs_discarded"], a["ghost_dogs"]) == (0, 10, [])
    assert "gd" in a["discard"]


def test_cr_2_1_4_ghost_dog_is_safe_from_the_opponents_plays() -> None:
    # B's plays remove A's hot dogs: the ordinary ones go, the ghost dog stays.
    for play in ("steal", "burn"):
        a = _after(["gd"], [play], hot_dogs=4)["A"]
        assert (a["hot_dogs"], a["hot_dogs_discarded"], a["ghost_dogs"]) == (1, 10, ["gd"]), play
        assert "gd" not in a["discard"]


def test_cr_2_1_4_ghost_dog_is_not_taken_by_an_opponents_hot_dog_exchange() -> None:
    # A: 7 ordinary + the ghost dog (10 + 1 - 3 paid); B: 10. B switches the numbers of
    # ordinary hot dogs: A gets 10 and keeps the ghost dog, B gets 7.
    players = _after(["gd", "three"], ["swap"])
    assert (players["A"]["hot_dogs"], players["A"]["ghost_dogs"]) == (11, ["gd"])
    assert (players["B"]["hot_dogs"], players["B"]["ghost_dogs"]) == (7, [])


def test_cr_2_1_4_ghost_dog_hot_dog_invariant_holds_in_random_games() -> None:
    # Random legal games whose playbooks hold Ghost Dog and plays that spend and take hot dogs.
    names = ("Ghost Dog", "Back From The Dumps", "Deadline Deal", "Burn That Play", "Reload")
    extra = tuple(p for p in default_catalog().plays if p[0] in names)
    assert len(extra) == len(names)
    synthetic = (
        ("Take Two", 1, [{"lose_hot_dogs": 2, "who": "opp"}]),
        ("Swap Dogs", 2, [{"exchange_hot_dogs": True}]),
        ("Pricey", 6, [{"power": 30}]),
    )
    catalog = Catalog(default_catalog().heroes, extra + synthetic)
    ghosts_seen = 0
    for seed in range(12):
        r = replay(random_game(seed, PM, catalog))
        assert r.legal, r.error
        for state in r.states:
            for p in state.snapshot()["players"].values():
                ghosts = len(p["ghost_dogs"])
                ghosts_seen += ghosts
                assert p["hot_dogs"] + p["hot_dogs_discarded"] == HOT_DOGS + ghosts
                assert ghosts <= p["hot_dogs"]
                assert not set(p["ghost_dogs"]) & set(p["discard"])
    assert ghosts_seen > 0  # the games did make ghost dogs
