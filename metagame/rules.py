"""The archetype rule language: a named rule over a decklist's cards, as JSON, checked and run
here (pure: no Django).

A *rule* is one JSON object with exactly one of these keys:

- ``{"all": [rule, ...]}``: every rule holds; ``{"any": [rule, ...]}``: at least one holds;
  ``{"not": rule}``: the rule does not hold;
- ``{"card": "Name", "min": 1, "max": null}``: the list holds between ``min`` (default 1) and
  ``max`` (default no limit) copies of the card named so (or with that catalog id; names are
  compared without regard to case); with only ``max`` given, ``min`` is 0 (``"max": 0``: the
  list has none);
- ``{"cards": ["Name", ...], "at_least": n}``: at least ``n`` (default all) of these cards
  are in the list, one copy or more each;
- ``{"count": FILTER, "min": n, "max": m}``: the copies of the cards that match ``FILTER`` add up
  to between ``min`` and ``max`` (the same defaults). A filter is an object: ``section`` (``heroes``, ``playbook``,
  ...; a list of sections for any of them), ``name``, and any other key is a card field the
  stored list carries (BoBA: ``power``, ``weapon``; BOS: ``type``, ``color``, ``vim_cost``,
  ``strength``) compared with a value (equal) or an object of comparisons
  ``{"gte": 130}``, ``{"lt": 5}``, ``{"ne": "Fire"}``, ``{"in": ["Fire", "Ice"]}``.

"Contains Play X and at least 20 heroes of power 130+" is::

    {"all": [{"card": "Play X"},
             {"count": {"section": "heroes", "power": {"gte": 130}}, "min": 20}]}

`parse_rule` refuses anything else with a `RuleError` naming the offending part
(``rule.all[1].count.power.gte``). `matches` runs a parsed rule over a list's `DeckCard`s
(`deck_cards` reads them from a stored list's JSON, any game); `classify` gives a list the first
archetype whose rule it matches, in the order given (the callers order by priority).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import BattledeskError

MAX_DEPTH = 8
MAX_ITEMS = 100
MAX_TEXT = 200
MAX_NUMBER = 10_000
OPERATORS = ("eq", "ne", "gt", "gte", "lt", "lte", "in")
OTHER = "Other"

Scalar = str | int | float | bool | None


class RuleError(BattledeskError, ValueError):
    """An archetype rule that is not in the language; ``field`` names the part."""

    code = "invalid_rule"


@dataclass(frozen=True, slots=True)
class DeckCard:
    """One line of a list: its section, catalog id, name, copies and the card's other fields."""

    section: str
    id: str
    name: str
    count: int
    fields: Mapping[str, Scalar]


@dataclass(frozen=True, slots=True)
class Condition:
    field: str
    operator: str
    value: Scalar | tuple[Scalar, ...]

    def holds(self, card: DeckCard) -> bool:
        actual = _field_of(card, self.field)
        if self.operator == "in":
            assert isinstance(self.value, tuple)
            return any(_equal(actual, v) for v in self.value)
        if self.operator == "eq":
            return _equal(actual, self.value)
        if self.operator == "ne":
            return not _equal(actual, self.value)
        if not isinstance(actual, int | float) or isinstance(actual, bool):
            return False  # a card without the number (a Play has no power) never compares
        limit = self.value
        assert isinstance(limit, int | float)
        if self.operator == "gt":
            return actual > limit
        if self.operator == "gte":
            return actual >= limit
        if self.operator == "lt":
            return actual < limit
        return actual <= limit


@dataclass(frozen=True, slots=True)
class AllOf:
    rules: tuple[Rule, ...]


@dataclass(frozen=True, slots=True)
class AnyOf:
    rules: tuple[Rule, ...]


@dataclass(frozen=True, slots=True)
class Not:
    rule: Rule


@dataclass(frozen=True, slots=True)
class CardCopies:
    card: str
    min: int
    max: int | None


@dataclass(frozen=True, slots=True)
class CardSet:
    cards: tuple[str, ...]
    at_least: int


@dataclass(frozen=True, slots=True)
class CountWhere:
    conditions: tuple[Condition, ...]
    min: int
    max: int | None


Rule = AllOf | AnyOf | Not | CardCopies | CardSet | CountWhere


def _fold(value: object) -> object:
    return value.casefold() if isinstance(value, str) else value


def _equal(actual: object, expected: object) -> bool:
    return _fold(actual) == _fold(expected)


def _field_of(card: DeckCard, name: str) -> Scalar:
    if name == "section":
        return card.section
    if name == "name":
        return card.name
    if name == "id":
        return card.id
    return card.fields.get(name)


def _is_card(card: DeckCard, wanted: str) -> bool:
    folded = wanted.casefold()
    return card.name.casefold() == folded or card.id == wanted


# -- parsing ---------------------------------------------------------------------------------


def _text(value: object, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise RuleError(field, "expected a non-empty text")
    if len(value) > MAX_TEXT:
        raise RuleError(field, f"at most {MAX_TEXT} characters")
    return value.strip()


def _count(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(field, "expected a whole number")
    if not 0 <= value <= MAX_NUMBER:
        raise RuleError(field, f"expected a number from 0 to {MAX_NUMBER}")
    return value


def _bounds(raw: Mapping[str, Any], field: str, default_min: int) -> tuple[int, int | None]:
    high = _count(raw["max"], f"{field}.max") if raw.get("max") is not None else None
    # Only a maximum ("at most 2 copies", "max": 0 for none) counts from zero.
    low = _count(raw["min"], f"{field}.min") if "min" in raw else default_min if high is None else 0
    if high is not None and high < low:
        raise RuleError(f"{field}.max", "max is below min")
    return low, high


def _only(raw: Mapping[str, Any], allowed: set[str], field: str) -> None:
    extra = sorted(set(raw) - allowed)
    if extra:
        raise RuleError(f"{field}.{extra[0]}", "not a key of this rule")


def _scalar(value: object, field: str) -> Scalar:
    if isinstance(value, str):
        return _text(value, field)
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        if value != value or abs(value) > 10**9:
            raise RuleError(field, "expected a finite number")
        return value
    raise RuleError(field, "expected a text, a number, true, false or null")


def _conditions(raw: object, field: str) -> tuple[Condition, ...]:
    if not isinstance(raw, Mapping):
        raise RuleError(field, "expected an object of card fields")
    if len(raw) > MAX_ITEMS:
        raise RuleError(field, f"at most {MAX_ITEMS} card fields")
    out: list[Condition] = []
    for key in sorted(raw):
        name = _text(key, field) if isinstance(key, str) else ""
        where = f"{field}.{name}"
        value = raw[key]
        if name == "section" and isinstance(value, list):
            out.append(Condition(name, "in", _choices(value, where)))
        elif isinstance(value, Mapping):
            if not value:
                raise RuleError(where, f"expected one or more of {', '.join(OPERATORS)}")
            for op in sorted(value):
                if op not in OPERATORS:
                    raise RuleError(f"{where}.{op}", f"expected one of {', '.join(OPERATORS)}")
                out.append(_comparison(name, op, value[op], f"{where}.{op}"))
        else:
            out.append(Condition(name, "eq", _scalar(value, where)))
    return tuple(out)


def _choices(value: object, field: str) -> tuple[Scalar, ...]:
    if not isinstance(value, list) or not value or len(value) > MAX_ITEMS:
        raise RuleError(field, f"expected a list of 1 to {MAX_ITEMS} values")
    return tuple(_scalar(v, f"{field}[{i}]") for i, v in enumerate(value))


def _comparison(name: str, op: str, value: object, field: str) -> Condition:
    if op == "in":
        return Condition(name, op, _choices(value, field))
    scalar = _scalar(value, field)
    if op in ("gt", "gte", "lt", "lte") and (
        isinstance(scalar, bool) or not isinstance(scalar, int | float)
    ):
        raise RuleError(field, "expected a number")
    return Condition(name, op, scalar)


def _rules(raw: object, field: str, depth: int) -> tuple[Rule, ...]:
    if not isinstance(raw, list) or not raw:
        raise RuleError(field, "expected a non-empty list of rules")
    if len(raw) > MAX_ITEMS:
        raise RuleError(field, f"at most {MAX_ITEMS} rules")
    return tuple(_parse(item, f"{field}[{i}]", depth + 1) for i, item in enumerate(raw))


def _parse(raw: object, field: str, depth: int) -> Rule:
    if depth > MAX_DEPTH:
        raise RuleError(field, f"rules nest at most {MAX_DEPTH} deep")
    if not isinstance(raw, Mapping):
        raise RuleError(field, "expected a rule (a JSON object)")
    kinds = [k for k in ("all", "any", "not", "card", "cards", "count") if k in raw]
    if len(kinds) != 1:
        raise RuleError(field, "expected exactly one of all, any, not, card, cards, count")
    kind = kinds[0]
    where = f"{field}.{kind}"
    if kind in ("all", "any", "not"):
        _only(raw, {kind}, field)
        if kind == "not":
            return Not(_parse(raw["not"], where, depth + 1))
        rules = _rules(raw[kind], where, depth)
        return AllOf(rules) if kind == "all" else AnyOf(rules)
    if kind == "card":
        _only(raw, {"card", "min", "max"}, field)
        low, high = _bounds(raw, field, 1)
        return CardCopies(_text(raw["card"], where), low, high)
    if kind == "cards":
        _only(raw, {"cards", "at_least"}, field)
        names = raw["cards"]
        if not isinstance(names, list) or not names or len(names) > MAX_ITEMS:
            raise RuleError(where, f"expected a list of 1 to {MAX_ITEMS} card names")
        cards = tuple(_text(n, f"{where}[{i}]") for i, n in enumerate(names))
        at_least = _count(raw["at_least"], f"{field}.at_least") if "at_least" in raw else len(cards)
        if at_least > len(cards):
            raise RuleError(f"{field}.at_least", "more than the cards listed")
        return CardSet(cards, at_least)
    _only(raw, {"count", "min", "max"}, field)
    low, high = _bounds(raw, field, 1)
    return CountWhere(_conditions(raw["count"], where), low, high)


def parse_rule(raw: object, field: str = "rule") -> Rule:
    """The rule in `raw` (parsed JSON), or `RuleError` naming the part that is wrong."""
    return _parse(raw, field, 1)


def rule_to_json(rule: Rule) -> dict[str, Any]:
    """A parsed rule back as JSON (`parse_rule(rule_to_json(r)) == r`)."""
    if isinstance(rule, AllOf):
        return {"all": [rule_to_json(r) for r in rule.rules]}
    if isinstance(rule, AnyOf):
        return {"any": [rule_to_json(r) for r in rule.rules]}
    if isinstance(rule, Not):
        return {"not": rule_to_json(rule.rule)}
    if isinstance(rule, CardSet):
        return {"cards": list(rule.cards), "at_least": rule.at_least}
    if isinstance(rule, CardCopies):
        return _with_bounds({"card": rule.card}, rule.min, rule.max)
    conditions: dict[str, Any] = {}
    for c in rule.conditions:
        value = list(c.value) if isinstance(c.value, tuple) else c.value
        conditions.setdefault(c.field, {})[c.operator] = value
    return _with_bounds({"count": conditions}, rule.min, rule.max)


def _with_bounds(out: dict[str, Any], low: int, high: int | None) -> dict[str, Any]:
    out["min"] = low
    if high is not None:
        out["max"] = high
    return out


# -- running ---------------------------------------------------------------------------------


def _within(total: int, low: int, high: int | None) -> bool:
    return total >= low and (high is None or total <= high)


def matches(rule: Rule, cards: Sequence[DeckCard]) -> bool:
    """Whether a list with these cards matches the rule."""
    if isinstance(rule, AllOf):
        return all(matches(r, cards) for r in rule.rules)
    if isinstance(rule, AnyOf):
        return any(matches(r, cards) for r in rule.rules)
    if isinstance(rule, Not):
        return not matches(rule.rule, cards)
    if isinstance(rule, CardCopies):
        total = sum(c.count for c in cards if _is_card(c, rule.card))
        return _within(total, rule.min, rule.max)
    if isinstance(rule, CardSet):
        present = sum(1 for wanted in rule.cards if any(_is_card(c, wanted) for c in cards))
        return present >= rule.at_least
    total = sum(c.count for c in cards if all(cond.holds(c) for cond in rule.conditions))
    return _within(total, rule.min, rule.max)


def classify(archetypes: Iterable[tuple[str, Rule]], cards: Sequence[DeckCard]) -> str:
    """The name of the first archetype (in the order given) whose rule the list matches, else
    `OTHER`."""
    for name, rule in archetypes:
        if matches(rule, cards):
            return name
    return OTHER


def deck_cards(data: object) -> tuple[DeckCard, ...]:
    """A stored list's JSON (any game: an object of sections, each a list of items with
    ``count``, ``id``, ``name`` and the card's fields) as `DeckCard`s; anything else in it is
    left out."""
    if not isinstance(data, Mapping):
        return ()
    out: list[DeckCard] = []
    for section, items in data.items():
        if not isinstance(section, str) or not isinstance(items, list):
            continue
        for item in items:
            if not isinstance(item, Mapping):
                continue
            count, name = item.get("count"), item.get("name")
            if isinstance(count, bool) or not isinstance(count, int) or not isinstance(name, str):
                continue
            fields = {
                str(k): v
                for k, v in item.items()
                if k not in ("count", "id", "name")
                and (v is None or isinstance(v, str | int | float | bool))
            }
            out.append(DeckCard(section, str(item.get("id") or ""), name, count, fields))
    return tuple(out)


def card_names(cards: Iterable[DeckCard]) -> frozenset[str]:
    """The distinct card names of a list (what the suggestions compare)."""
    return frozenset(c.name for c in cards if c.count > 0)
