"""BOS's judge-desk page (see `engine.plugin.Adjudicator`): a bos-game-record/1 pasted, uploaded
or started from the two players' registered lists, built action by action, and replayed turn
by turn: after every action, what the BOS rules say the position is (life, vim and ether, the
battlefield column by column, the bosses), and the first illegal action with its rule
("BOS: Main Phase").

Made for a judge at a table with a tablet: one page, large one-tap buttons for the actions
that take no details (start a turn, end it, turn the boss face-up), one short form for the
others. The page's request flow is every game's (`engine.adjudication`); BOS's are its form
(the players' lists, the action builder) and its replay's positions. The site renders
``matches/adjudicate/bos.html`` with the plain data ``ADJUDICATOR.page`` returns. Pure: no
Django.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from engine.adjudication import (
    AdjudicationPage,
    InputError,
    PageAdjudicator,
    PageState,
    append_action,
    copy_record,
    dump,
    replay_analysis,
    replay_steps,
)
from engine.errors import MAX_RECORD_DEPTH, json_problem
from engine.plugin import N_, Text

from .cards import normalize_name
from .match import MAX_SWAP_LINES, RESERVES, DetailsError, form_swaps
from .record import COLOURS, PLAYERS, RECORD_FORMAT, Action, Record, RecordError, parse_record
from .replay import replay
from .rule_sections import RULE_SECTIONS
from .state import GameState

SLOTS: tuple[str, ...] = ("0", "1", "2", "boss")
QUICK = ("start_turn", "end_turn", "summon_boss")
TITLES = dict(RULE_SECTIONS)


def _other(p: str) -> str:
    return "B" if p == "A" else "A"


# --- words for actions and positions ------------------------------------------------------


def _name(record: Record, card_id: str) -> str:
    card = record.cards.get(card_id)
    return card.name if card is not None and card.name != card_id else card_id


def _slot_words(slot: object) -> str:
    return "boss" if slot == "boss" else f"column {slot}"


def describe_action(record: Record, action: Action) -> str:
    """One action in words: "A attacks B with column 0, blocked by column 1"."""
    d, p = action.data, action.player
    if action.type == "start_turn":
        return f"{p} starts a turn"
    if action.type == "end_turn":
        return f"{p} ends the turn"
    if action.type == "summon_boss":
        return f"{p} turns the boss face-up"
    if action.type == "summon":
        return f"{p} conducts {_name(record, d['card'])} with the wizard in column {d['wizard']}"
    if action.type == "attack":
        target = d["target"]
        whom = (
            f"{target['player']}'s {_slot_words(target['slot'])}"
            if "slot" in target
            else f"player {target['player']}"
        )
        blocked = (
            f", blocked by {target['player']}'s {_slot_words(d['blocker'])}"
            if d.get("blocker") is not None
            else ""
        )
        return f"{p} attacks {whom} with {_slot_words(d['attacker'])}{blocked}"
    if action.type == "cast":
        return f"{p} casts {_name(record, d['card'])} ({d['vim']} vim + {d['ether']} ether)"
    if action.type == "abilities":
        parts = []
        for e in d["effects"]:
            target = e["target"]
            where = (
                f"{target['player']}'s {_slot_words(target['slot'])}"
                if "slot" in target
                else target["player"]
            )
            must = "mandatory" if e["mandatory"] else "optional"
            parts.append(f"{e['kind']} {e['amount']:+d} to {where} ({e['source']}, {must})")
        return f"{p}'s abilities: " + "; ".join(parts)
    adjust = ", ".join(
        f"{who} {key} {n}" for who, vals in d.get("adjust", {}).items() for key, n in vals.items()
    )
    return f"Judge ({p}): {d.get('note', '')}" + (f" — sets {adjust}" if adjust else "")


def _unit(record: Record, unit: Any) -> dict[str, Any] | None:
    if unit is None:
        return None
    base = record.cards[unit.card].strength
    return {
        "id": unit.card,
        "name": _name(record, unit.card),
        "strength": unit.strength,
        "printed": base,
        "acted": unit.acted,
    }


def position(record: Record, state: GameState) -> dict[str, Any]:
    """What the page shows of one position: whose turn and which phase, and per player their
    life, vim, ether, the three columns (wizard and summon), the boss and the piles."""
    players = {}
    for p in PLAYERS:
        side = state.sides[p]
        columns = []
        for col in range(3):
            wid = side.wizards[col]
            columns.append(
                {
                    "column": col,
                    "wizard": _name(record, wid),
                    "wizard_id": wid,
                    "wizard_state": side.wizard_state[col],
                    "summon": _unit(record, side.summons[col]),
                }
            )
        players[p] = {
            "name": record.players[p],
            "life": side.life,
            "vim": side.vim,
            "ether": side.ether,
            "columns": columns,
            "boss": _unit(record, side.boss_unit),
            "boss_name": _name(record, side.boss),
            "boss_state": (
                "defeated"
                if side.boss_defeated
                else ("face_up" if side.boss_unit is not None else "face_down")
            ),
            "castle": len(side.castle),
            "spellbook": len(side.spellbook),
            "graveyard": [_name(record, c) for c in side.graveyard],
            "turns_started": side.turns_started,
        }
    return {
        "turn": state.turn,
        "active": state.active,
        "phase": state.phase,
        "winner": state.winner,
        "players": players,
        "next": state.next_expected(),
    }


def analyse(data: Mapping[str, Any], step: int | None) -> dict[str, Any]:
    """The replay of a record as the page shows it: a panel per step (0: before any action),
    the actions in words, the error with its rule and the rule's title, the result."""
    rep = replay(data, keep_states=True)
    out = replay_analysis(rep)
    if rep.record is None:
        return out
    record = rep.record
    states = [GameState.initial(record), *rep.states]
    error = rep.error
    out.update(
        replay_steps(
            record,
            record.actions,
            error,
            step,
            len(rep.states),
            lambda n: position(record, states[n]),
            describe_action,
        )
    )
    out.update(
        error_title=TITLES.get(error.rule or "", "") if error is not None else "",
        turns=rep.to_json()["turns"],
        result=rep.result,
        final=position(record, rep.state) if rep.state is not None else None,
        next=rep.state.next_expected() if error is None and rep.state is not None else None,
    )
    if out["next"] is not None:
        out["builder"] = _builder(record, rep.state)
    return out


def _builder(record: Record, state: GameState | None) -> dict[str, Any]:
    """What the action form offers now: the player to act, the quick actions expected, and
    the cards the player could name (summons in the castle, spells in the spellbook)."""
    assert state is not None
    nxt = state.next_expected() or {"player": state.first, "expects": []}
    p = nxt["player"]
    side = state.sides[p]
    return {
        "player": p,
        "expects": nxt["expects"],
        "quick": [t for t in QUICK if t in nxt["expects"]],
        "castle": sorted({(c, _name(record, c)) for c in side.castle}),
        "spellbook": sorted(
            {(c, f"{_name(record, c)} · {record.cards[c].vim_cost}") for c in side.spellbook}
        ),
        "form_types": [t for t in nxt["expects"] if t not in ("start_turn", "end_turn")]
        + ["judge"],
    }


def _count(item: Mapping[str, Any]) -> int:
    """A stored list line's count: at least 1, and 1 for anything but a whole number."""
    count = item.get("count")
    return max(1, count) if isinstance(count, int) and not isinstance(count, bool) else 1


def _copies(items: list[Mapping[str, Any]]) -> list[str]:
    """Card ids of a list's section, each as many times as its count."""
    return [str(i["id"]) for i in items for _ in range(min(_count(i), 24))]


def recorded_swap_lines(details: object, side: str) -> str:
    """The reserve swaps of `side` ("a" or "b") over every game in `details`, one
    "Nx card out > card in" line each: the swaps in effect for the next game (BOS: Reserves;
    swaps are cumulative). The count is always written, with its "x", so a card name that
    starts with a number or an "X " reads back as the name."""
    lines: list[str] = []
    for game in details if isinstance(details, list) else []:
        swaps = game.get("swaps") if isinstance(game, dict) else None
        items = swaps.get(side) if isinstance(swaps, dict) else None
        for item in items if isinstance(items, list) else []:
            if not isinstance(item, dict):
                continue
            out, in_, count = item.get("out"), item.get("in"), item.get("count", 1)
            if isinstance(out, str) and isinstance(in_, str) and isinstance(count, int):
                lines.append(f"{count}x {out} > {in_}")
    return "\n".join(lines[:MAX_SWAP_LINES])


_MAIN_SECTION = {"summon": "summons", "spell": "spells"}


def _side_id(side: str) -> Callable[[object], str]:
    """The record's id of ``side``'s copy of a list's card: "A:demo:bos:D005"."""

    def own(list_id: object) -> str:
        return f"{side}:{list_id}" if list_id else ""

    return own


def swap_reserves(
    sections: Mapping[str, list[Mapping[str, Any]]], swaps: list[dict[str, Any]], where: str
) -> dict[str, list[Mapping[str, Any]]]:
    """A registered list's sections after `swaps` ({"out", "in", "count"}, in order): each
    moves `count` copies of a main-deck summon or spell to the reserves and as many of a
    reserve card to its main section (BOS: Reserves). Raises DetailsError naming `where` when
    a swap takes more copies than the list holds."""
    counts: dict[str, dict[str, list[Any]]] = {}
    for section, items in sections.items():
        for item in items:
            entry = counts.setdefault(section, {}).setdefault(
                normalize_name(str(item.get("name") or "")), [dict(item), 0]
            )
            entry[1] += _count(item)

    def held(section: str, name: str) -> int:
        entry = counts.get(section, {}).get(normalize_name(name))
        return int(entry[1]) if entry else 0

    def move(name: str, source: str, target: str, n: int) -> None:
        key = normalize_name(name)
        item = counts[source][key][0]
        counts[source][key][1] -= n
        counts.setdefault(target, {}).setdefault(key, [item, 0])[1] += n

    for swap in swaps:
        out, in_, n = str(swap["out"]), str(swap["in"]), int(swap["count"])
        source = next((sec for sec in ("summons", "spells") if held(sec, out)), None)
        if source is None:
            raise DetailsError(
                where,
                f"{out} is not a summon or spell of the main deck ({RESERVES})",
                text=Text.of(
                    N_("%(card)s is not a summon or spell of the main deck (%(rule)s)"),
                    card=out,
                    rule=RESERVES,
                ),
            )
        if held(source, out) < n:
            raise DetailsError(
                where,
                f"{out}: the main deck holds {held(source, out)}, not {n} ({RESERVES})",
                text=Text.of(
                    N_("%(card)s: the main deck holds %(held)d, not %(count)d (%(rule)s)"),
                    card=out,
                    held=held(source, out),
                    count=n,
                    rule=RESERVES,
                ),
            )
        if held("reserves", in_) < n:
            raise DetailsError(
                where,
                f"{in_}: the reserves hold {held('reserves', in_)}, not {n} ({RESERVES})",
                text=Text.of(
                    N_("%(card)s: the reserves hold %(held)d, not %(count)d (%(rule)s)"),
                    card=in_,
                    held=held("reserves", in_),
                    count=n,
                    rule=RESERVES,
                ),
            )
        target = _MAIN_SECTION.get(str(counts["reserves"][normalize_name(in_)][0].get("type")))
        if target is None:  # a legal list's reserves hold summons and spells only
            raise DetailsError(
                where,
                f"{in_} cannot enter the main deck ({RESERVES})",
                text=Text.of(
                    N_("%(card)s cannot enter the main deck (%(rule)s)"), card=in_, rule=RESERVES
                ),
            )
        move(out, source, "reserves", n)
        move(in_, "reserves", target, n)
    return {
        section: [{**item, "count": n} for item, n in entries.values() if n > 0]
        for section, entries in counts.items()
    }


# --- the page ----------------------------------------------------------------------------


class _Page(AdjudicationPage):
    start_op = "skeleton"

    def op(self) -> str:
        """A quick action's button adds it: op ``append``."""
        if self.post is not None and self.post.get("quick"):
            return "append"
        return super().op()

    def values(self) -> dict[str, str]:
        post = self.post or {}
        return {
            "first": post.get("first", "") if post.get("first") in PLAYERS else "A",
            "A_ether": post.get("A_ether", "0") or "0",
            "B_ether": post.get("B_ether", "0") or "0",
            **{f"{p}_swaps": self._swaps_value(p) for p in PLAYERS},
            **{
                f"act_{k}": post.get(f"act_{k}", "")
                for k in (
                    "type",
                    "wizard",
                    "card",
                    "attacker",
                    "target_player",
                    "target_slot",
                    "blocker",
                    "vim",
                    "ether",
                    "effects",
                    "note",
                    "adjust",
                )
            },
        }

    # --- a record from the registered lists ----------------------------------------------

    def _swaps_value(self, p: str) -> str:
        """As posted; on a new page, the swaps recorded for the match so far (the result's,
        else the player's own report)."""
        if self.post is not None:
            return self.post.get(f"{p}_swaps", "")
        recorded = self.req.recorded_details
        details = recorded.get("match") or recorded.get(p)
        return recorded_swap_lines(details, p.lower())

    def _condition(self, item: Mapping[str, Any], wizards: list[tuple[str, str]]) -> dict[str, str]:
        found = self.req.cards.find(str(item.get("id") or ""))
        text = str(found.fields.get("summoning_condition") or "") if found is not None else ""
        low = text.lower()
        for wid, wname in wizards:
            if wname and wname.lower() in low:
                return {"wizard": wid}
        for colour in COLOURS:
            if colour in low:
                return {"colour": colour}
        colour = str(item.get("color") or "")
        return {"colour": colour if colour in COLOURS else COLOURS[0]}

    def start(self, values: dict[str, str]) -> dict[str, Any]:
        """A record with the players' registered main decks after the reserve swaps written
        in the form (those in effect for the game judged), no action yet. Each player's cards
        are their own ("A:<list id>", the list's id kept as ``ref``): both lists may hold
        the same card, whose summoning condition names that player's wizard."""
        cards: dict[str, Any] = {}
        decks: dict[str, Any] = {}
        ether: dict[str, int] = {}
        for p in PLAYERS:
            data = self.req.decks.get(p)
            if not data:
                raise InputError(
                    f"decks.{p}",
                    self._("%(name)s has no registered list: paste the record instead.")
                    % {"name": self.req.players.get(p, p)},
                )
            sections: dict[str, list[Mapping[str, Any]]] = {
                key: [i for i in data.get(key) or [] if isinstance(i, dict) and i.get("id")]
                for key in ("wizards", "summons", "spells", "boss", "reserves")
            }
            swaps_field = f"{p}_swaps"
            if values.get(swaps_field, "").strip():
                try:
                    swaps = form_swaps(values[swaps_field], swaps_field)
                    sections.update(swap_reserves(sections, swaps, swaps_field))
                except DetailsError as exc:
                    raise InputError(
                        swaps_field,
                        self._("%(name)s's reserve swaps: %(problem)s")
                        % {"name": self.req.players.get(p, p), "problem": exc.text.render(self._)},
                    ) from None
            own = _side_id(p)
            wizards = [(own(i["id"]), str(i.get("name") or "")) for i in sections["wizards"]]
            for key, ctype in (
                ("wizards", "wizard"),
                ("summons", "summon"),
                ("spells", "spell"),
                ("boss", "boss"),
            ):
                for item in sections[key]:
                    card: dict[str, Any] = {
                        "name": str(item.get("name") or item["id"]),
                        "type": ctype,
                        "colour": item.get("color") if item.get("color") in COLOURS else "red",
                    }
                    if ctype == "spell":
                        card["vim_cost"] = int(item.get("vim_cost") or 0)
                    if ctype in ("summon", "boss"):
                        card["strength"] = max(1, int(item.get("strength") or 1))
                    if ctype == "summon":
                        card["summoning_condition"] = self._condition(item, wizards)
                    card["ref"] = str(item["id"])
                    cards[own(item["id"])] = card

            decks[p] = {
                "wizards": [own(i) for i in _copies(sections["wizards"])[:3]],
                "boss": own((_copies(sections["boss"]) or [""])[0]),
                "castle": [own(i) for i in _copies(sections["summons"])],
                "spellbook": [own(i) for i in _copies(sections["spells"])],
            }
            ether[p] = self.small_int(values[f"{p}_ether"], f"initial.ether.{p}")
        return {
            "format": RECORD_FORMAT,
            "players": {p: str(self.req.players.get(p) or p)[:200] for p in PLAYERS},
            "first": values["first"],
            "cards": cards,
            "decks": decks,
            "initial": {"life": 30, "vim": 1, "ether": ether},
            "actions": [],
        }

    def small_int(self, text: str, field: str, lo: int = 0, hi: int = 10**6) -> int:
        try:
            n = int(text)
        except (TypeError, ValueError):
            raise InputError(field, self._("a whole number.")) from None
        if not lo <= n <= hi:
            raise InputError(field, self._("from %(lo)d to %(hi)d.") % {"lo": lo, "hi": hi})
        return n

    # --- an action from the form ----------------------------------------------------------

    def _slot(self, text: str, field: str) -> int | str:
        if text == "boss":
            return "boss"
        if text in ("0", "1", "2"):
            return int(text)
        raise InputError(field, self._("choose a column or the boss."))

    def action(self, player: str, kind: str, values: dict[str, str]) -> dict[str, Any]:
        """The action the judge chose, as record JSON (the replay checks it)."""
        out: dict[str, Any] = {"type": kind, "player": player}
        if kind == "summon":
            out["wizard"] = self._slot(values["act_wizard"], "act_wizard")
            if not values["act_card"]:
                raise InputError("act_card", self._("choose the summon."))
            out["card"] = values["act_card"]
        elif kind == "attack":
            out["attacker"] = self._slot(values["act_attacker"], "act_attacker")
            tp = values["act_target_player"]
            if tp not in PLAYERS:
                raise InputError("act_target_player", self._("choose the player attacked."))
            target: dict[str, Any] = {"player": tp}
            if values["act_target_slot"]:
                target["slot"] = self._slot(values["act_target_slot"], "act_target_slot")
            out["target"] = target
            blocker = values["act_blocker"]
            out["blocker"] = self._slot(blocker, "act_blocker") if blocker else None
        elif kind == "cast":
            if not values["act_card"]:
                raise InputError("act_card", self._("choose the spell."))
            out["card"] = values["act_card"]
            out["vim"] = self.small_int(values["act_vim"] or "0", "act_vim")
            out["ether"] = self.small_int(values["act_ether"] or "0", "act_ether")
        elif kind == "abilities":
            out["effects"] = self._json(values["act_effects"], "act_effects", list)
        elif kind == "judge":
            out["note"] = values["act_note"].strip()[:500]
            if not out["note"]:
                raise InputError("act_note", self._("say what the judge decided."))
            if values["act_adjust"].strip():
                out["adjust"] = self._json(values["act_adjust"], "act_adjust", dict)
        elif kind not in QUICK:
            raise InputError("act_type", self._("choose one of the actions offered."))
        return out

    def _json(self, text: str, field: str, kind: type) -> Any:
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            raise InputError(field, self._("is not valid JSON.")) from None
        if json_problem(value) is not None:
            raise InputError(
                field,
                self._("no NUL character, no nesting %(n)d levels deep.") % {"n": MAX_RECORD_DEPTH},
            )
        if not isinstance(value, kind):
            raise InputError(
                field,
                self._("must be a JSON list.")
                if kind is list
                else self._("must be a JSON object."),
            )
        return value

    def append(
        self, data: dict[str, Any], values: dict[str, str], errors: list[InputError], text: str
    ) -> tuple[dict[str, Any], str]:
        rep = replay(data, keep_states=False)
        nxt = rep.state.next_expected() if rep.state is not None and rep.error is None else None
        if nxt is None:
            errors.append(
                InputError("action", self._("fix the record before adding actions."))
                if rep.error is not None
                else InputError("action", self._("the game is over: no action follows."))
            )
            return data, text
        post = self.post or {}
        kind = post.get("quick") or values["act_type"]
        if kind not in [*nxt["expects"], "judge"]:
            errors.append(InputError("act_type", self._("choose one of the actions offered.")))
            return data, text
        try:
            action = self.action(str(nxt["player"]), kind, values)
        except InputError as exc:
            errors.append(exc)
            return data, text
        new = copy_record(data)
        append_action(new, action)
        try:
            parse_record(new)
        except RecordError as exc:
            errors.append(InputError(f"record.{exc.field}", exc.message))
            return data, text
        return new, dump(new)

    def analyse(self, data: dict[str, Any], step: int | None) -> dict[str, Any]:
        return analyse(data, step)

    def page_context(self, done: PageState) -> dict[str, Any]:
        return {
            "values": done.values,
            "players": PLAYERS,
            "names": {p: self.req.players.get(p, p) for p in PLAYERS},
            "has_decks": all(self.req.decks.get(p) for p in PLAYERS),
            "slots": SLOTS,
        }


ADJUDICATOR = PageAdjudicator(record_format=RECORD_FORMAT, page_type=_Page)
