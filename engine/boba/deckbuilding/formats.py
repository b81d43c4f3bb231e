"""BoBA formats as data: one frozen `Format` of parameters, and every published preset.

This module is the one named place for the deck-rule product decisions
(shared/rules/README.md, decisions 1 and 2) and for the defaults this project chose where the
published formats are silent. Each choice is a parameter an organiser can change in a custom
format (`Format.from_dict({"base": "playmaker", "dbs_cap": 1200})`).

Choices made here where shared/rules/formats.md is silent (documented in docs/decklist-format.md):
- SPEC+ Playmaker: "a limited number of higher-Power Heroes" is read as at most
  `SPEC_PLUS_SLOTS` (5) Heroes above `SPEC_POWER_CAP` (160) Power.
- Sealed formats carry no card pool (the pool is what was opened). Booster Box Sealed keeps the
  normal build limits, the DBS cap included (Formats: DBS applies at sanctioned Playmaker
  events unless the event says otherwise). Double Blaster/Mega "no build limits" switch off the
  per-Power-value and one-copy rules, allow duplicate Plays and carry no DBS cap; Bonus Plays
  stay allowed beyond the Playbook (CR 2.1.3).
- Apex Madness and HiLo Madness are Rookie-mode events whose format adds 4 Hot Dogs: the
  format's own parameters decide which sections a list may have.
- The per-Hero-name cap (Summary: Deckbuilding, six) is off in every 2026 preset.
- Card pools by set: Modern = the two most recent years' sets, AlphaTrilogy = Alpha-era sets,
  Legacy = every set (older cards allowed).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from engine.boba.deckbuilding.cards import normalise_name
from engine.errors import FormatError as FormatError  # the family's, shared by every game


class GameMode(StrEnum):
    """CR 1.2: Rookie uses the Hero deck; Substitution adds Hot Dogs; Playmaker adds the Playbook."""

    ROOKIE = "rookie"
    SUBSTITUTION = "substitution"
    PLAYMAKER = "playmaker"


class FormatKind(StrEnum):
    CONSTRUCTED = "constructed"
    LIMITED = "limited"
    SPECIAL = "special"
    TEAM = "team"
    CUSTOM = "custom"


# -- product decisions and published numbers, in one place -----------------------------------
HERO_DECK_SIZE = 60  # CR 1.2.1, 4.1.1
MAX_HEROES_PER_POWER = 6  # CR 4.1.1
MAX_COPIES_PER_HERO_NAME = 6  # Summary: Deckbuilding; dropped in 2026, off in the presets
PLAYBOOK_SIZE = 30  # CR 1.2.3, 4.3.1
HOT_DOG_DECK_SIZE = 10  # CR 2.1.4
DBS_CAP = 1000  # Formats: DBS
SEALED_HERO_DECK_SIZE = 40  # Formats: Double Blaster / Double Mega Sealed
SEALED_PLAYBOOK_SIZE = 20
TEAM_HOT_DOGS = 4  # Formats: Apex Madness, HiLo Madness
SPEC_POWER_CAP = 160  # Formats: SPEC Playmaker
SPEC_PLUS_SLOTS = 5  # project default for "a limited number of higher-Power Heroes"
ELITE_TOTAL_POWER = 8250  # Formats: Elite Playmaker
EXPANDED_HERO_DECK_MAX = 70  # Formats: SPEC+ Playmaker, Apex Madness (60-70)

CARD_POOLS: dict[str, tuple[str, ...]] = {
    # Modern: the two most recent years (2025, 2026) of the community card list.
    "modern": (
        "Alpha Update",
        "Alpha Blast",
        "Promo Cards",
        "Big League Chew",
        "Griffey Edition",
        "Griffey Edition Promo Cards",
    ),
    # AlphaTrilogy: the Alpha era.
    "alpha_trilogy": (
        "Alpha Edition",
        "Alpha Update",
        "Alpha Blast",
        "National 24 Starter Set",
        "Prize and Promo Cards",
        "Promo Cards",
    ),
    # Legacy: older cards allowed, so every set.
    "legacy": (
        "Alpha Edition",
        "Alpha Update",
        "Alpha Blast",
        "National 24 Starter Set",
        "Prize and Promo Cards",
        "Promo Cards",
        "Big League Chew",
        "Griffey Edition",
        "Griffey Edition Promo Cards",
    ),
}
"""Named card pools (Formats: card pools) as set lists; `card_pool` accepts a name or a list."""


@dataclass(frozen=True, slots=True)
class Format:
    """Every parameter a BoBA deck rule reads. None switches a limit off.

    A section is used by the format when its size is not None: `playbook_size` for the
    Playbook (and Bonus Plays), `hot_dog_count` for the Hot Dog deck.
    """

    key: str
    name: str
    game_mode: GameMode
    kind: FormatKind = FormatKind.CUSTOM
    hero_deck_min: int = HERO_DECK_SIZE
    hero_deck_max: int = HERO_DECK_SIZE
    max_heroes_per_power: int | None = MAX_HEROES_PER_POWER
    one_copy_per_variation: bool = True
    max_copies_per_hero_name: int | None = None
    max_hero_power: int | None = None
    limited_slots_above_power: int | None = None
    limited_slots: int = 0
    max_total_hero_power: int | None = None
    playbook_size: int | None = PLAYBOOK_SIZE
    unique_plays: bool = True
    bonus_plays_allowed: bool = True
    max_bonus_plays: int | None = None
    hot_dog_count: int | None = HOT_DOG_DECK_SIZE
    dbs_cap: int | None = DBS_CAP
    card_pool: tuple[str, ...] | None = None
    play_checklist: tuple[str, ...] | None = None
    notes: str = ""
    _checklist_keys: frozenset[str] = field(default=frozenset(), repr=False, compare=False)
    _pool_keys: frozenset[str] = field(default=frozenset(), repr=False, compare=False)

    def __post_init__(self) -> None:
        _check(self)
        object.__setattr__(
            self,
            "_checklist_keys",
            frozenset(normalise_name(n) for n in self.play_checklist or ()),
        )
        object.__setattr__(
            self, "_pool_keys", frozenset(normalise_name(s) for s in self.card_pool or ())
        )

    @property
    def uses_playbook(self) -> bool:
        return self.playbook_size is not None

    @property
    def uses_hot_dogs(self) -> bool:
        return self.hot_dog_count is not None

    def set_allowed(self, set_name: str | None) -> bool:
        if self.card_pool is None:
            return True
        return set_name is not None and normalise_name(set_name) in self._pool_keys

    def play_allowed(self, play_name: str) -> bool:
        if self.play_checklist is None:
            return True
        return normalise_name(play_name) in self._checklist_keys

    # -- serialisation -----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name.startswith("_"):
                continue
            value = getattr(self, f.name)
            if isinstance(value, StrEnum):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, params: Mapping[str, Any]) -> Format:
        """Build a format from parameters, checking each; raises `FormatError(field, ...)`.

        `base` (a preset key) supplies every parameter not given; without it `key`, `name` and
        `game_mode` are required and the rest take the defaults above. `card_pool` may be a
        pool name from `CARD_POOLS` or a list of set names.
        """
        if not isinstance(params, Mapping):
            raise FormatError("params", "must be a mapping of parameter names to values")
        known = {f.name for f in fields(cls) if not f.name.startswith("_")}
        for name in params:
            if name != "base" and name not in known:
                raise FormatError(str(name), "unknown format parameter")
        values: dict[str, Any] = {}
        base_key = params.get("base")
        if base_key is not None:
            if not isinstance(base_key, str) or base_key not in FORMAT_PRESETS:
                raise FormatError("base", f"unknown preset {base_key!r}")
            values = {k: v for k, v in FORMAT_PRESETS[base_key].to_dict().items() if k in known}
            values["kind"] = FormatKind.CUSTOM.value
        values.update({k: v for k, v in params.items() if k != "base"})
        for required in ("key", "name", "game_mode"):
            if required not in values:
                raise FormatError(required, "is required")
        converted: dict[str, Any] = {}
        for f in fields(cls):
            if f.name.startswith("_") or f.name not in values:
                continue
            converted[f.name] = _convert(f.name, values[f.name])
        # A game mode implies its sections (CR 1.2) unless the parameters say otherwise.
        base_mode = FORMAT_PRESETS[base_key].game_mode if base_key is not None else None
        if converted["game_mode"] is not base_mode:
            for name, value in _mode_sections(converted["game_mode"]).items():
                if name not in params:
                    converted[name] = value
        return cls(**converted)

    def but(self, **changes: Any) -> Format:
        """A copy with some parameters changed, read and checked as `from_dict` does."""
        return Format.from_dict({**self.to_dict(), **changes})


def _mode_sections(mode: GameMode) -> dict[str, Any]:
    """Section sizes a game mode implies (CR 1.2), used when a custom format changes mode."""
    if mode is GameMode.ROOKIE:
        return {"playbook_size": None, "hot_dog_count": None, "dbs_cap": None}
    if mode is GameMode.SUBSTITUTION:
        return {"playbook_size": None, "hot_dog_count": HOT_DOG_DECK_SIZE, "dbs_cap": None}
    return {"playbook_size": PLAYBOOK_SIZE, "hot_dog_count": HOT_DOG_DECK_SIZE, "dbs_cap": DBS_CAP}


_INT_FIELDS = {
    "hero_deck_min",
    "hero_deck_max",
    "limited_slots",
}
_OPTIONAL_INT_FIELDS = {
    "max_heroes_per_power",
    "max_copies_per_hero_name",
    "max_hero_power",
    "limited_slots_above_power",
    "max_total_hero_power",
    "playbook_size",
    "max_bonus_plays",
    "hot_dog_count",
    "dbs_cap",
}
_BOOL_FIELDS = {"one_copy_per_variation", "unique_plays", "bonus_plays_allowed"}
_MAX_PARAM = 1_000_000


def _convert(name: str, value: Any) -> Any:
    if name in ("key", "name", "notes"):
        if not isinstance(value, str):
            raise FormatError(name, "must be a string")
        return value
    if name == "game_mode":
        try:
            return GameMode(value)
        except ValueError:
            choices = ", ".join(m.value for m in GameMode)
            raise FormatError(name, f"must be one of {choices}") from None
    if name == "kind":
        try:
            return FormatKind(value)
        except ValueError:
            choices = ", ".join(k.value for k in FormatKind)
            raise FormatError(name, f"must be one of {choices}") from None
    if name in _BOOL_FIELDS:
        if not isinstance(value, bool):
            raise FormatError(name, "must be true or false")
        return value
    if name in _INT_FIELDS or name in _OPTIONAL_INT_FIELDS:
        if value is None and name in _OPTIONAL_INT_FIELDS:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise FormatError(
                name,
                "must be a whole number" + (" or null" if name in _OPTIONAL_INT_FIELDS else ""),
            )
        return value
    if name == "card_pool":
        if value is None:
            return None
        if isinstance(value, str):
            if value not in CARD_POOLS:
                raise FormatError(
                    name, f"unknown card pool {value!r}; known: {', '.join(CARD_POOLS)}"
                )
            return CARD_POOLS[value]
        return _string_tuple(name, value)
    if name == "play_checklist":
        return None if value is None else _string_tuple(name, value)
    raise FormatError(name, "unknown format parameter")  # pragma: no cover - guarded above


def _string_tuple(name: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, list | tuple | frozenset | set):
        raise FormatError(name, "must be a list of strings")
    items = list(value)
    if not all(isinstance(v, str) and v.strip() for v in items):
        raise FormatError(name, "must be a list of non-empty strings")
    return tuple(items)


def _check(fmt: Format) -> None:
    """Parameter checks shared by the constructor and `from_dict`."""
    if not isinstance(fmt.key, str) or not fmt.key.strip():
        raise FormatError("key", "must be a non-empty string")
    if not isinstance(fmt.name, str) or not fmt.name.strip():
        raise FormatError("name", "must be a non-empty string")
    if not isinstance(fmt.game_mode, GameMode):
        raise FormatError("game_mode", "must be a GameMode")
    for name in _INT_FIELDS | _OPTIONAL_INT_FIELDS:
        value = getattr(fmt, name)
        if value is None and name in _OPTIONAL_INT_FIELDS:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise FormatError(name, "must be a whole number")
        low = 0 if name in ("limited_slots", "max_bonus_plays") else 1
        if not low <= value <= _MAX_PARAM:
            raise FormatError(name, f"must be between {low} and {_MAX_PARAM:,}")
    if fmt.hero_deck_min > fmt.hero_deck_max:
        raise FormatError("hero_deck_min", "must not exceed hero_deck_max")
    if fmt.limited_slots and fmt.limited_slots_above_power is None:
        raise FormatError("limited_slots_above_power", "is required when limited_slots is set")
    if (
        fmt.max_hero_power is not None
        and fmt.limited_slots_above_power is not None
        and fmt.limited_slots_above_power >= fmt.max_hero_power
    ):
        raise FormatError("limited_slots_above_power", "must be below max_hero_power")
    if fmt.playbook_size is None:
        if fmt.dbs_cap is not None:
            raise FormatError("dbs_cap", "needs a Playbook (playbook_size)")
        if fmt.play_checklist is not None:
            raise FormatError("play_checklist", "needs a Playbook (playbook_size)")
        if fmt.max_bonus_plays is not None:
            raise FormatError("max_bonus_plays", "needs a Playbook (playbook_size)")
    if not fmt.bonus_plays_allowed and fmt.max_bonus_plays:
        raise FormatError("max_bonus_plays", "is set but bonus_plays_allowed is false")
    for name in ("card_pool", "play_checklist"):
        value = getattr(fmt, name)
        if value is not None and not (
            isinstance(value, tuple) and all(isinstance(v, str) for v in value)
        ):
            raise FormatError(name, "must be a tuple of strings (from_dict also takes a list)")
    if fmt.card_pool is not None and not fmt.card_pool:
        raise FormatError("card_pool", "must list at least one set (or be null for any set)")


_SEALED_NO_LIMITS: dict[str, Any] = {
    "hero_deck_min": SEALED_HERO_DECK_SIZE,
    "hero_deck_max": SEALED_HERO_DECK_SIZE,
    "max_heroes_per_power": None,
    "one_copy_per_variation": False,
    "playbook_size": SEALED_PLAYBOOK_SIZE,
    "unique_plays": False,
    "dbs_cap": None,
}

FORMAT_PRESETS: dict[str, Format] = {
    f.key: f
    for f in (
        Format(
            key="rookie",
            name="Rookie",
            game_mode=GameMode.ROOKIE,
            kind=FormatKind.CONSTRUCTED,
            **_mode_sections(GameMode.ROOKIE),
        ),
        Format(
            key="substitution",
            name="Substitution",
            game_mode=GameMode.SUBSTITUTION,
            kind=FormatKind.CONSTRUCTED,
            **_mode_sections(GameMode.SUBSTITUTION),
        ),
        Format(
            key="playmaker",
            name="Playmaker",
            game_mode=GameMode.PLAYMAKER,
            kind=FormatKind.CONSTRUCTED,
        ),
        Format(
            key="booster_box_sealed",
            name="Booster Box Sealed",
            game_mode=GameMode.PLAYMAKER,
            kind=FormatKind.LIMITED,
            notes="Pool from one booster box; normal build limits, DBS cap included.",
        ),
        Format(
            key="double_blaster_sealed",
            name="Double Blaster Sealed",
            game_mode=GameMode.PLAYMAKER,
            kind=FormatKind.LIMITED,
            **_SEALED_NO_LIMITS,
            notes="Pool from two blasters; no build limits.",
        ),
        Format(
            key="double_mega_sealed",
            name="Double Mega Sealed",
            game_mode=GameMode.PLAYMAKER,
            kind=FormatKind.LIMITED,
            **_SEALED_NO_LIMITS,
            notes="Pool from one double mega; no build limits.",
        ),
        Format(
            key="spec_playmaker",
            name="SPEC Playmaker",
            game_mode=GameMode.PLAYMAKER,
            kind=FormatKind.SPECIAL,
            max_hero_power=SPEC_POWER_CAP,
        ),
        Format(
            key="spec_plus_playmaker",
            name="SPEC+ Playmaker",
            game_mode=GameMode.PLAYMAKER,
            kind=FormatKind.SPECIAL,
            hero_deck_max=EXPANDED_HERO_DECK_MAX,
            limited_slots_above_power=SPEC_POWER_CAP,
            limited_slots=SPEC_PLUS_SLOTS,
            notes=f"Project default: at most {SPEC_PLUS_SLOTS} Heroes above "
            f"{SPEC_POWER_CAP} Power.",
        ),
        Format(
            key="elite_playmaker",
            name="Elite Playmaker",
            game_mode=GameMode.PLAYMAKER,
            kind=FormatKind.SPECIAL,
            max_total_hero_power=ELITE_TOTAL_POWER,
        ),
        Format(
            key="apex_madness",
            name="Apex Madness",
            game_mode=GameMode.ROOKIE,
            kind=FormatKind.TEAM,
            hero_deck_max=EXPANDED_HERO_DECK_MAX,
            playbook_size=None,
            dbs_cap=None,
            hot_dog_count=TEAM_HOT_DOGS,
            notes="Team event.",
        ),
        Format(
            key="hilo_madness",
            name="HiLo Madness",
            game_mode=GameMode.ROOKIE,
            kind=FormatKind.TEAM,
            playbook_size=None,
            dbs_cap=None,
            hot_dog_count=TEAM_HOT_DOGS,
            notes="Team event; some matches are won by the lower Power.",
        ),
    )
}
"""Every format in shared/rules/formats.md, by key."""


def get_format(key: str) -> Format:
    """A preset by key; raises `FormatError("format", ...)` naming the known keys."""
    try:
        return FORMAT_PRESETS[key]
    except (KeyError, TypeError):
        raise FormatError(
            "format", f"unknown format {key!r}; known: {', '.join(FORMAT_PRESETS)}"
        ) from None
