"""BoBA's judge-desk page (see `engine.plugin.Adjudicator`): replay a boba-game-record/1 for a
call, step by step; build it action by action from the legal actions; ask what if.

The page's request flow is every game's (`engine.adjudication`); BoBA's are its form (the
setup builder, the legal actions with the outcomes the judge fills in) and the what-if. The
site reads the posted record, looks cards up in the event's catalog (`CardPool`) and renders
``matches/adjudicate/boba.html`` with the plain data ``ADJUDICATOR.page`` returns. Pure: no
Django.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from engine.adjudication import (
    AdjudicationPage,
    InputError,
    PageAdjudicator,
    PageState,
    append_action,
    copy_record,
    dump,
    int_or_none,
    replay_analysis,
    replay_steps,
)
from engine.errors import MAX_RECORD_DEPTH, RecordError, json_problem
from engine.plugin import AdjudicationInput, CardPool, CatalogCard

from .actions import action_from_json
from .board import board, describe_action, legal_options, max_step, position, zones
from .play_library import lookup_play
from .record import parse_record
from .replay import Replay, replay, what_if
from .rules import BATTLES, BENCH_SIZE, HOT_DOGS, MODES, PLAYERS

HAND_SLOTS = 4
# The catalog kinds a record's card kind is looked up among (None: any kind).
KINDS: dict[str | None, tuple[str, ...] | None] = {
    "hero": ("hero",),
    "play": ("play", "bonus_play"),
    None: None,
}


def _field(card: CatalogCard, key: str) -> Any:
    return card.fields.get(key)


def record_card_id(side: str, catalog_ref: str) -> str:
    """The record's id for ``side``'s copy of a catalog card: "A:demo:37"."""
    return f"{side}:{catalog_ref[:180]}"


class _Page(AdjudicationPage):
    """One rendering of the page: the request and its translation."""

    start_op = "setup"

    def __init__(self, req: AdjudicationInput) -> None:
        super().__init__(req)
        self.pool: CardPool = req.cards

    # --- cards: the event's catalog and the players' decklists -----------------------------

    @staticmethod
    def card_json(card: CatalogCard) -> dict[str, Any]:
        if card.kind == "hero":
            return {
                "kind": "hero",
                "name": card.name,
                "variant": _field(card, "parallel") or "",
                "power": _field(card, "power") or 0,
                "weapon": _field(card, "weapon") or "",
                "ref": card.ref,
            }
        if card.kind in ("play", "bonus_play"):
            out: dict[str, Any] = {"kind": "play", "name": card.name, "ref": card.ref}
            if lookup_play(card.name) is None:
                # Not in the engine's play library: its cost, and its text as a judge's step.
                out["cost"] = _field(card, "cost") or 0
                out["effect"] = [{"judge": f"{card.name[:150]}: apply the card's text"}]
            if card.kind == "bonus_play":
                out["bonus"] = True
            return out
        return {"kind": "hot_dog", "name": card.name, "ref": card.ref}

    def card_ref(
        self, data: dict[str, Any], ref: str, field: str, kind: str | None, side: str
    ) -> str:
        """A record card id for what the judge typed: a card id of the record, or a catalog
        card (by id or exact name) added to the record's cards as ``side``'s own copy.

        Each player's copy of a catalog card is its own card of the record (the engine
        tracks whose deck a card comes from, CR 5.1.5, and a card sits in one zone), so the
        record id is the side and the catalog id, "A:demo:37" and "B:demo:37", and the card
        keeps the catalog id as ``ref``. "B:demo:37" typed names B's copy of demo:37 whoever
        acts (a play that takes a card of the opponent's)."""
        ref = ref.strip()
        cards = data.setdefault("cards", {})
        if not isinstance(cards, dict):
            raise InputError("record.cards", self._("must be an object of cards by id."))
        if ref in cards:
            return ref
        owner, _sep, rest = ref.partition(":")
        card = None
        if owner in PLAYERS and rest:
            card = self.pool.find(rest, KINDS[kind])
            if card is not None:
                side = owner
        if card is None:
            card = self.pool.find(ref, KINDS[kind])
        if card is None:
            raise InputError(
                field,
                self._("no card %(ref)r in the record or the event's catalog.") % {"ref": ref[:80]},
            )
        base = record_card_id(side, card.ref)
        cid, n = base, 1
        while cid in cards:
            n += 1
            cid = f"{base}#{n}"
        cards[cid] = self.card_json(card)
        return cid

    def deck_options(self) -> list[dict[str, Any]]:
        """Both players' registered decklists, heroes then plays."""
        out: list[dict[str, Any]] = []
        for p in PLAYERS:
            if p not in self.req.decks:
                continue
            data = self.req.decks[p] or {}
            name = self.req.players.get(p, p)
            for key, kind in (("heroes", "hero"), ("playbook", "play"), ("bonus_plays", "play")):
                for item in data.get(key) or []:
                    if not isinstance(item, dict) or not item.get("id"):
                        continue
                    detail = (
                        f"{item.get('power', '')} {item.get('weapon') or ''}".strip()
                        if kind == "hero"
                        else self._("play")
                    )
                    out.append(
                        {
                            "ref": str(item["id"]),
                            "kind": kind,
                            "label": f"{item.get('name', '')} · {detail} · {name}",
                        }
                    )
        return out

    def search(self, q: str) -> list[dict[str, Any]]:
        q = q.strip()[:100]
        if not q:
            return []
        out = []
        for c in self.pool.search(q):
            set_name = _field(c, "set_name")
            out.append(
                {
                    "ref": c.ref,
                    "kind": "hero"
                    if c.kind == "hero"
                    else ("play" if "play" in c.kind else c.kind),
                    "label": f"{c.name} · "
                    + (
                        f"{_field(c, 'power')} {_field(c, 'weapon') or ''}"
                        if c.kind == "hero"
                        else f"{c.kind}, cost {_field(c, 'cost')}"
                    )
                    + (f" · {set_name} #{_field(c, 'card_number')}" if set_name else ""),
                }
            )
        return out

    # --- the setup builder ---------------------------------------------------------------

    def values(self) -> dict[str, str]:
        post = self.post or {}
        names = {p: self.req.players.get(p) or p for p in PLAYERS}
        values = {
            "mode": post.get("mode") or self.req.mode or "playmaker",
            "honors": post.get("honors") or "A",
            "stop_at_four": "on" if post.get("stop_at_four", "on" if not post else "") else "",
            "tiebreakers": "on" if post.get("tiebreakers") else "",
        }
        if values["mode"] not in MODES:
            values["mode"] = "playmaker"
        for p in PLAYERS:
            values[f"{p}_name"] = post.get(f"{p}_name") or names[p]
            values[f"{p}_hot_dogs"] = post.get(f"{p}_hot_dogs") or str(HOT_DOGS)
            values[f"{p}_playbook_size"] = post.get(f"{p}_playbook_size") or ""
            for zone, n in (("battle", BATTLES), ("bench", BENCH_SIZE), ("hand", HAND_SLOTS)):
                for i in range(1, n + 1):
                    key = f"{p}_{zone}_{i}"
                    values[key] = post.get(key, "").strip()
        return values

    def start(self, values: dict[str, str]) -> dict[str, Any]:
        mode = values["mode"]
        data: dict[str, Any] = {
            "format": "boba-game-record/1",
            "mode": mode,
            "options": {
                "stop_at_four": bool(values["stop_at_four"]),
                "tiebreakers": bool(values["tiebreakers"]),
            },
            "players": {p: values[f"{p}_name"][:200] for p in PLAYERS},
            "honors": values["honors"] if values["honors"] in PLAYERS else "A",
            "direction": "left-to-right",
            "cards": {},
            "setup": {},
            "actions": [],
        }
        for p in PLAYERS:
            entry: dict[str, Any] = {}
            for zone, key, n, kind in (
                ("battle", "battles", BATTLES, "hero"),
                ("bench", "bench", BENCH_SIZE, "hero"),
                ("hand", "hand", HAND_SLOTS, "play"),
            ):
                if key != "battles" and mode == "rookie":
                    continue
                if key == "hand" and mode != "playmaker":
                    continue
                ids = []
                for i in range(1, n + 1):
                    ref = values[f"{p}_{zone}_{i}"]
                    field = f"setup.{p}.{key}[{i - 1}]"
                    if not ref:
                        if key == "hand":
                            continue
                        raise InputError(field, self._("choose a hero."))
                    ids.append(self.card_ref(data, ref, field, kind, p))
                entry[key] = ids
            if mode != "rookie":
                entry["hot_dogs"] = self.small_int(
                    values[f"{p}_hot_dogs"], f"setup.{p}.hot_dogs", HOT_DOGS
                )
            if mode == "playmaker" and values[f"{p}_playbook_size"]:
                entry["playbook_size"] = self.small_int(
                    values[f"{p}_playbook_size"], f"setup.{p}.playbook_size", 1000
                )
            data["setup"][p] = entry
        return data

    def small_int(self, text: str, field: str, hi: int) -> int:
        try:
            n = int(text)
        except ValueError:
            raise InputError(field, self._("a whole number.")) from None
        if not 0 <= n <= hi:
            raise InputError(field, self._("from 0 to %(n)d.") % {"n": hi})
        return n

    # --- actions from the form -------------------------------------------------------------

    def action_from_form(
        self, data: dict[str, Any], option: dict[str, Any], prefix: str
    ) -> dict[str, Any]:
        """The chosen legal action with the outcomes the judge filled in."""
        post = self.post or {}
        action = dict(option["action"])
        side = str(action.get("player") or "A")
        ref = post.get(f"{prefix}card", "").strip()
        if option["do"] == "substitute":
            action["draw"] = (
                self.card_ref(data, ref, f"{prefix}card", "hero", side) if ref else None
            )
        elif option["do"] in ("draw", "reveal"):
            if not ref:
                raise InputError(
                    f"{prefix}card",
                    self._("name the card drawn.")
                    if option["do"] == "draw"
                    else self._("name the hero revealed."),
                )
            kind = "play" if option["do"] == "draw" else "hero"
            action["card"] = self.card_ref(data, ref, f"{prefix}card", kind, side)
        elif option["do"] == "run":
            choices = post.get(f"{prefix}choices", "").strip()
            if choices:
                try:
                    action["choices"] = json.loads(choices)
                except RecursionError:
                    raise InputError(
                        f"{prefix}choices",
                        self._("is nested more than %(n)d levels deep.") % {"n": MAX_RECORD_DEPTH},
                    ) from None
                except ValueError:
                    action["choices"] = choices  # a bare value answers whatever the play asks
                if json_problem(action["choices"]) is not None:
                    raise InputError(
                        f"{prefix}choices",
                        self._("no NUL character, no nesting %(n)d levels deep.")
                        % {"n": MAX_RECORD_DEPTH},
                    )
            rnd = [r.strip() for r in post.get(f"{prefix}random", "").split(",") if r.strip()]
            if rnd:
                action["random"] = [int(r) if r.isdigit() else r.lower() for r in rnd]
            drawn = [r.strip() for r in post.get(f"{prefix}drawn", "").split(",") if r.strip()]
            if drawn:
                action["drawn"] = [
                    self.card_ref(data, r, f"{prefix}drawn[{i}]", None, side)
                    for i, r in enumerate(drawn)
                ]
        return action

    def pick(self, options: list[dict[str, Any]], key: str, field: str) -> dict[str, Any]:
        """The option chosen: by its key; when the form also sends the action the judge saw
        (``expect_<field's input>``: an entry made offline and replayed later, when the keys
        may stand for other actions), the option with that action, wherever it is now."""
        post = self.post or {}
        expected = post.get(f"expect_{field}_key" if field == "action" else f"expect_{field}")
        if expected:
            for option in options:
                if option_json(option) == expected:
                    return option
            raise InputError(
                field, self._("the action entered is not one of the legal actions at this point.")
            )
        for option in options:
            if option["key"] == key:
                return option
        raise InputError(field, self._("choose one of the actions offered."))

    # --- the page --------------------------------------------------------------------------

    def page_context(self, done: PageState) -> dict[str, Any]:
        post, values = self.post, done.values
        search = (post.get("q", "") if post is not None else self.req.query.get("q", ""))[:100]
        ctx: dict[str, Any] = {
            "values": values,
            "deck_options": self.deck_options(),
            "search": search,
            "search_results": self.search(search),
            "modes": MODES,
            "players": PLAYERS,
            "setup_players": [
                {
                    "p": p,
                    "name": values[f"{p}_name"],
                    "hot_dogs": values[f"{p}_hot_dogs"],
                    "playbook_size": values[f"{p}_playbook_size"],
                    **{
                        zone: [(i, values[f"{p}_{zone}_{i}"]) for i in range(1, n + 1)]
                        for zone, n in (
                            ("battle", BATTLES),
                            ("bench", BENCH_SIZE),
                            ("hand", HAND_SLOTS),
                        )
                    },
                }
                for p in PLAYERS
            ],
        }
        if (
            done.data is not None
            and done.analysis is not None
            and done.analysis.get("record") is not None
            and done.op in ("whatif_pick", "whatif")
        ):
            ctx.update(self.whatif(done.data, done.analysis, done.op, done.errors))
        return ctx

    def analyse(self, data: dict[str, Any], step: int | None) -> dict[str, Any]:
        return analyse(data, step)

    def append(
        self, data: dict[str, Any], values: dict[str, str], errors: list[InputError], text: str
    ) -> tuple[dict[str, Any], str]:
        rep = replay(data, keep_states=True)
        if rep.record is None or rep.error is not None or rep.state is None:
            errors.append(InputError("action", self._("fix the record before adding actions.")))
            return data, text
        options = legal_options(rep.record, rep.state)
        try:
            option = self.pick(options, (self.post or {}).get("action_key", ""), "action")
            new = copy_record(data)
            action = self.action_from_form(new, option, "action_")
        except InputError as exc:
            errors.append(exc)
            return data, text
        append_action(new, action)
        return new, dump(new)

    def whatif(
        self,
        data: dict[str, Any],
        analysis: dict[str, Any],
        op: str,
        errors: list[InputError],
    ) -> dict[str, Any]:
        post = self.post or {}
        rep: Replay = analysis["replay"]
        record = rep.record
        assert record is not None
        k = int_or_none(post.get("wi_index"))
        top = min(len(record.actions) - 1, max_step(rep))
        if k is None or not 0 <= k <= top:
            errors.append(
                InputError("wi_index", self._("choose an action from 0 to %(n)d.") % {"n": top})
            )
            return {}
        out: dict[str, Any] = {"wi_index": k, "wi_options": whatif_options(rep, k)}
        if op != "whatif":
            return out
        try:
            option = self.pick(out["wi_options"], post.get("wi_key", ""), "wi_key")
            new = copy_record(data)
            action_json = self.action_from_form(new, option, "wi_")
            alt_record = parse_record(new)
        except InputError as exc:
            errors.append(exc)
            return out
        except RecordError as exc:
            errors.append(InputError(f"record.{exc.field}", exc.message))
            return out
        try:
            action = action_from_json(action_json, "what_if", alt_record.cards)
        except RecordError as exc:
            errors.append(InputError(exc.field, exc.message))
            return out
        alt = what_if(alt_record, k, action)
        acts = list(new.get("actions") or [])
        if k >= len(acts):
            acts.append(action_json)
        else:
            acts[k] = action_json
        new["actions"] = acts
        out["whatif"] = {
            "index": k,
            "action": describe_action(alt_record, action),
            "replaced": (
                describe_action(record, record.actions[k]) if k < len(record.actions) else ""
            ),
            "legal": alt.legal,
            "error": alt.error,
            "result": alt.result.to_json() if alt.result is not None else None,
            "battles": battles(alt),
            "final": board(alt_record, alt.state) if alt.state is not None else None,
            "record_text": dump(new),
        }
        return out


# --- analysis: what the page shows of a record ----------------------------------------------


def battles(rep: Replay) -> list[dict[str, Any]]:
    if rep.record is None or rep.state is None:
        return []
    resolved: list[dict[str, Any]] = zones(rep.record, rep.state)[: len(rep.battles)]
    return resolved


def analyse(data: Mapping[str, Any], step: int | None) -> dict[str, Any]:
    rep = replay(data, keep_states=True)
    out = replay_analysis(rep)
    if rep.record is None:
        return out
    record = rep.record

    def board_at(n: int) -> dict[str, Any]:
        state = position(rep, n)
        assert state is not None
        return board(record, state)

    out.update(
        replay_steps(
            record, record.actions, rep.error, step, max_step(rep), board_at, describe_action
        )
    )
    out.update(
        battles=battles(rep),
        result=rep.result.to_json() if rep.result is not None else None,
        final=board(record, rep.state) if rep.state is not None else None,
    )
    if rep.error is None and rep.state is not None and not rep.state.is_terminal():
        out["options"] = [
            {**o, "action_json": option_json(o)} for o in legal_options(record, rep.state)
        ]
    return out


def option_json(option: Mapping[str, Any]) -> str:
    """A legal option's action as one canonical JSON text (the page sends it back with an
    entry made offline, to find the same action when it is replayed)."""
    return json.dumps(option["action"], sort_keys=True, separators=(",", ":"))


def whatif_options(rep: Replay, k: int) -> list[dict[str, Any]]:
    if rep.record is None:
        return []
    state = position(rep, k)
    return legal_options(rep.record, state) if state is not None else []


ADJUDICATOR = PageAdjudicator(
    record_format="boba-game-record/1",
    page_type=_Page,
)
