"""The adjudication page: a judge replays a BoBA game record for a call, step by step.

One form holds everything: the record (always visible and editable in a textarea, or uploaded),
the step shown, the step-by-step builder and the what-if. Each submit button names an ``op``;
the page is re-rendered from what was posted (no sessions). The engine does the rules
(engine.boba.replay, engine.boba.board); the ruling goes through services.call_ruling.
Staff of the call's event only: others get a 404 (selectors.call_visible) or a 403.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import Forbidden, ServiceError
from config.pages import int_or_none
from decks import selectors as deck_selectors
from decks import services as deck_services
from decks.models import Card
from engine.boba.board import board, describe_action, legal_options, max_step, position, zones
from engine.boba.errors import RecordError
from engine.boba.play_library import lookup_play
from engine.boba.record import parse_record
from engine.boba.replay import Replay, replay, what_if
from engine.boba.rules import BATTLES, BENCH_SIZE, HOT_DOGS, MODES, PLAYERS
from matches import selectors, services
from matches.models import JudgeCall, RulingDecision
from tournaments import permissions as perms

PANEL_LIMIT = 400  # steps pre-rendered for the script; longer records show one step at a time
HAND_SLOTS = 4
SEARCH_LIMIT = 30


class InputError(Exception):
    """Something the judge typed cannot be used; ``field`` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


# --- access ------------------------------------------------------------------------------


def _staff_call(request: HttpRequest, call_id: int) -> JudgeCall:
    call = selectors.call_visible(request.user, call_id)
    if not perms.is_staff_of(request.user, call.tournament):
        raise PermissionDenied(_("Only this event's organisers and judges may adjudicate."))
    return call


def _call_page(call: JudgeCall) -> str:
    try:
        return reverse("judge_call", args=[call.pk])
    except NoReverseMatch:
        return f"/judge/calls/{call.pk}/"


# --- reading the record ------------------------------------------------------------------


def _record_text(request: HttpRequest) -> str:
    """The record posted: an uploaded file wins over the textarea. Bounded."""
    limit = services.MAX_RECORD_BYTES
    upload = request.FILES.get("record_file")
    if upload is not None and upload.size:
        if upload.size > limit:
            raise InputError("record", _("the file is larger than %(n)d bytes.") % {"n": limit})
        raw = upload.read(limit + 1)
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise InputError("record", _("the file is not UTF-8 text.")) from None
    text = request.POST.get("record", "")
    if len(text.encode("utf-8")) > limit:
        raise InputError("record", _("at most %(n)d bytes.") % {"n": limit})
    return text


def _decode(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise InputError("record", _("is not valid JSON (%(e)s).") % {"e": exc}) from None
    if not isinstance(data, dict):
        raise InputError("record", _("must be a JSON object."))
    try:
        services.check_record_bounds(data)
    except ServiceError as exc:
        raise InputError(exc.field or "record", exc.message) from None
    return data


def _dump(data: Any) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False)


# --- cards: the event's catalog and the players' decklists --------------------------------


def _card_json(card: Card) -> dict[str, Any]:
    if card.kind == "hero":
        return {
            "kind": "hero",
            "name": card.name,
            "variant": card.parallel or "",
            "power": card.power or 0,
            "weapon": card.weapon or "",
        }
    if card.kind in ("play", "bonus_play"):
        out: dict[str, Any] = {"kind": "play", "name": card.name}
        if lookup_play(card.name) is None:
            # Not in the engine's play library: its cost, and its text as a judge's step.
            out["cost"] = card.cost or 0
            out["effect"] = [{"judge": f"{card.name[:150]}: apply the card's text"}]
        if card.kind == "bonus_play":
            out["bonus"] = True
        return out
    return {"kind": "hot_dog", "name": card.name}


def _catalog_card(pool: QuerySet[Card], ref: str, kind: str | None) -> Card | None:
    cards = pool
    if kind == "hero":
        cards = cards.filter(kind="hero")
    elif kind == "play":
        cards = cards.filter(kind__in=("play", "bonus_play"))
    return cards.filter(external_id=ref).first() or cards.filter(name__iexact=ref).first()


def _card_ref(
    data: dict[str, Any], pool: QuerySet[Card], ref: str, field: str, kind: str | None
) -> str:
    """A record card id for what the judge typed: a card id of the record, or a catalog card
    (by id or exact name) added to the record's cards under a fresh id."""
    ref = ref.strip()
    cards = data.setdefault("cards", {})
    if not isinstance(cards, dict):
        raise InputError("record.cards", _("must be an object of cards by id."))
    if ref in cards:
        return ref
    card = _catalog_card(pool, ref, kind)
    if card is None:
        raise InputError(
            field, _("no card %(ref)r in the record or the event's catalog.") % {"ref": ref[:80]}
        )
    base = card.external_id[:180]
    cid, n = base, 1
    while cid in cards:
        n += 1
        cid = f"{base}#{n}"
    cards[cid] = _card_json(card)
    return cid


def _deck_options(call: JudgeCall) -> list[dict[str, Any]]:
    """Both players' registered decklists (their active versions), heroes then plays."""
    out: list[dict[str, Any]] = []
    match = call.match
    for reg in (match.a, match.b):
        if reg is None:
            continue
        version = deck_services.active_version(reg)
        data = version.data if version is not None and isinstance(version.data, dict) else {}
        for key, kind in (("heroes", "hero"), ("playbook", "play"), ("bonus_plays", "play")):
            for item in data.get(key) or []:
                if not isinstance(item, dict) or not item.get("id"):
                    continue
                detail = (
                    f"{item.get('power', '')} {item.get('weapon') or ''}".strip()
                    if kind == "hero"
                    else _("play")
                )
                out.append(
                    {
                        "ref": str(item["id"]),
                        "kind": kind,
                        "label": f"{item.get('name', '')} · {detail} · {reg.name}",
                    }
                )
    return out


def _search(pool: QuerySet[Card], q: str) -> list[dict[str, Any]]:
    q = q.strip()[:100]
    if not q:
        return []
    rows = pool.filter(Q(name__icontains=q) | Q(external_id__iexact=q)).order_by(
        "kind", "name", "power"
    )[:SEARCH_LIMIT]
    return [
        {
            "ref": c.external_id,
            "kind": "hero" if c.kind == "hero" else ("play" if "play" in c.kind else c.kind),
            "label": f"{c.name} · "
            + (f"{c.power} {c.weapon or ''}" if c.kind == "hero" else f"{c.kind}, cost {c.cost}")
            + (f" · {c.set_name} #{c.card_number}" if c.set_name else ""),
        }
        for c in rows
    ]


# --- the setup builder -------------------------------------------------------------------


def _setup_values(request: HttpRequest, call: JudgeCall) -> dict[str, str]:
    post = request.POST
    names = {"A": call.match.a.name, "B": call.match.b.name if call.match.b else "B"}
    values = {
        "mode": post.get("mode") or call.tournament.mode or "playmaker",
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


def _setup_record(values: dict[str, str], pool: QuerySet[Card]) -> dict[str, Any]:
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
                    raise InputError(field, _("choose a hero."))
                ids.append(_card_ref(data, pool, ref, field, kind))
            entry[key] = ids
        if mode != "rookie":
            entry["hot_dogs"] = _small_int(values[f"{p}_hot_dogs"], f"setup.{p}.hot_dogs", HOT_DOGS)
        if mode == "playmaker" and values[f"{p}_playbook_size"]:
            entry["playbook_size"] = _small_int(
                values[f"{p}_playbook_size"], f"setup.{p}.playbook_size", 1000
            )
        data["setup"][p] = entry
    return data


def _small_int(text: str, field: str, hi: int) -> int:
    try:
        n = int(text)
    except ValueError:
        raise InputError(field, _("a whole number.")) from None
    if not 0 <= n <= hi:
        raise InputError(field, _("from 0 to %(n)d.") % {"n": hi})
    return n


# --- actions from the form ---------------------------------------------------------------


def _action_from_form(
    request: HttpRequest,
    data: dict[str, Any],
    pool: QuerySet[Card],
    option: dict[str, Any],
    prefix: str,
) -> dict[str, Any]:
    """The chosen legal action with the outcomes the judge filled in."""
    post = request.POST
    action = dict(option["action"])
    ref = post.get(f"{prefix}card", "").strip()
    if option["do"] == "substitute":
        action["draw"] = _card_ref(data, pool, ref, f"{prefix}card", "hero") if ref else None
    elif option["do"] in ("draw", "reveal"):
        if not ref:
            raise InputError(
                f"{prefix}card",
                _("name the card drawn.")
                if option["do"] == "draw"
                else _("name the hero revealed."),
            )
        kind = "play" if option["do"] == "draw" else "hero"
        action["card"] = _card_ref(data, pool, ref, f"{prefix}card", kind)
    elif option["do"] == "run":
        choices = post.get(f"{prefix}choices", "").strip()
        if choices:
            try:
                action["choices"] = json.loads(choices)
            except ValueError:
                action["choices"] = choices  # a bare value answers whatever the play asks
        rnd = [r.strip() for r in post.get(f"{prefix}random", "").split(",") if r.strip()]
        if rnd:
            action["random"] = [int(r) if r.isdigit() else r.lower() for r in rnd]
        drawn = [r.strip() for r in post.get(f"{prefix}drawn", "").split(",") if r.strip()]
        if drawn:
            action["drawn"] = [
                _card_ref(data, pool, r, f"{prefix}drawn[{i}]", None) for i, r in enumerate(drawn)
            ]
    return action


def _pick(options: list[dict[str, Any]], key: str, field: str) -> dict[str, Any]:
    for option in options:
        if option["key"] == key:
            return option
    raise InputError(field, _("choose one of the actions offered."))


# --- analysis: what the page shows of a record --------------------------------------------


def _battles(rep: Replay) -> list[dict[str, Any]]:
    if rep.record is None or rep.state is None:
        return []
    resolved: list[dict[str, Any]] = zones(rep.record, rep.state)[: len(rep.battles)]
    return resolved


def _analysis(data: dict[str, Any], step: int | None) -> dict[str, Any]:
    rep = replay(data, keep_states=True)
    out: dict[str, Any] = {"replay": rep, "replay_json": rep.to_json()}
    if rep.record is None:
        out["malformed"] = rep.error
        return out
    record = rep.record
    last = max_step(rep)
    step = last if step is None else max(0, min(step, last))
    shown = range(0, last + 1) if last <= PANEL_LIMIT else [step]
    panels = []
    for n in shown:
        state = position(rep, n)
        assert state is not None
        panels.append(
            {
                "step": n,
                "board": board(record, state),
                "action": describe_action(record, record.actions[n - 1]) if n > 0 else "",
                "current": n == step,
            }
        )
    error = rep.error
    out.update(
        record=record,
        step=step,
        last_step=last,
        prev_step=max(0, step - 1),
        next_step=min(last, step + 1),
        panels=panels,
        battles=_battles(rep),
        actions=[
            {
                "index": i,
                "label": describe_action(record, a),
                "illegal": error is not None and error.action == i,
            }
            for i, a in enumerate(record.actions)
        ],
        error=error,
        error_action=(
            describe_action(record, record.actions[error.action])
            if error is not None and error.action is not None
            else ""
        ),
        result=rep.result.to_json() if rep.result is not None else None,
        final=board(record, rep.state) if rep.state is not None else None,
    )
    if error is None and rep.state is not None and not rep.state.is_terminal():
        out["options"] = legal_options(record, rep.state)
    return out


def _whatif_options(rep: Replay, k: int) -> list[dict[str, Any]]:
    if rep.record is None:
        return []
    state = position(rep, k)
    return legal_options(rep.record, state) if state is not None else []


# --- the views ---------------------------------------------------------------------------


def _initial_record(call: JudgeCall) -> str:
    ruling = call.rulings.exclude(record=None).order_by("-created_at", "-id").first()
    return _dump(ruling.record) if ruling is not None else ""


@login_required
def adjudicate(request: HttpRequest, call_id: int) -> HttpResponse:
    call = _staff_call(request, call_id)
    ctx = _context(request, call)
    status = 400 if ctx["errors"] else 200
    return render(request, "matches/adjudicate/page.html", ctx, status=status)


def _context(
    request: HttpRequest, call: JudgeCall, errors: list[InputError] | None = None
) -> dict[str, Any]:
    # The event's catalog only: never another catalog's cards (the demo's fictional ones).
    pool = deck_selectors.event_cards(call.tournament)
    post = request.POST if request.method == "POST" else None
    op = post.get("op", "") if post is not None else ""
    errors = list(errors or [])
    values = _setup_values(request, call)
    ctx: dict[str, Any] = {
        "call": call,
        "match": call.match,
        "event": call.tournament,
        "call_page": _call_page(call),
        "values": values,
        "deck_options": _deck_options(call),
        "search": (post.get("q", "") if post is not None else request.GET.get("q", ""))[:100],
        "decisions": RulingDecision.choices,
        "ruling": {
            "text": post.get("text", "") if post else "",
            "citations": post.get("citations", "") if post else "",
            "decision": post.get("decision", "") if post else "",
            "games_a": post.get("games_a", "") if post else "",
            "games_b": post.get("games_b", "") if post else "",
            "games_drawn": post.get("games_drawn", "") if post else "",
        },
        "modes": MODES,
        "players": PLAYERS,
        "max_bytes": services.MAX_RECORD_BYTES,
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
    ctx["search_results"] = _search(pool, ctx["search"])
    text = ""
    step: int | None = None
    if post is None:
        text = _initial_record(call)
        step = int_or_none(request.GET.get("step"))
    else:
        try:
            text = _record_text(request)
        except InputError as exc:
            errors.append(exc)
            text = ""
        step = int_or_none(post.get("goto")) if post.get("goto") else None
        if step is None and op == "show":
            step = int_or_none(post.get("step"))
    data: dict[str, Any] | None = None
    if op == "setup":
        try:
            data = _setup_record(values, pool)
            text = _dump(data)
        except InputError as exc:
            errors.append(exc)
    elif text.strip() and not errors:
        try:
            data = _decode(text)
        except InputError as exc:
            errors.append(exc)
    if data is not None and op == "append":
        data, text = _append(request, data, pool, errors, text)
        step = None
    analysis = _analysis(data, step) if data is not None else None
    if (
        analysis is not None
        and analysis.get("record") is not None
        and op in ("whatif_pick", "whatif")
    ):
        ctx.update(_whatif(request, data, pool, analysis, op, errors))  # type: ignore[arg-type]
    ctx.update(record_text=text, analysis=analysis, errors=errors, op=op)
    return ctx


def _append(
    request: HttpRequest,
    data: dict[str, Any],
    pool: QuerySet[Card],
    errors: list[InputError],
    text: str,
) -> tuple[dict[str, Any], str]:
    rep = replay(data, keep_states=True)
    if rep.record is None or rep.error is not None or rep.state is None:
        errors.append(InputError("action", _("fix the record before adding actions.")))
        return data, text
    options = legal_options(rep.record, rep.state)
    try:
        option = _pick(options, request.POST.get("action_key", ""), "action")
        new = json.loads(json.dumps(data))
        action = _action_from_form(request, new, pool, option, "action_")
    except InputError as exc:
        errors.append(exc)
        return data, text
    actions = new.get("actions")
    if not isinstance(actions, list):
        actions = new["actions"] = []
    actions.append(action)
    return new, _dump(new)


def _whatif(
    request: HttpRequest,
    data: dict[str, Any],
    pool: QuerySet[Card],
    analysis: dict[str, Any],
    op: str,
    errors: list[InputError],
) -> dict[str, Any]:
    rep: Replay = analysis["replay"]
    record = rep.record
    assert record is not None
    k = int_or_none(request.POST.get("wi_index"))
    top = min(len(record.actions) - 1, max_step(rep))
    if k is None or not 0 <= k <= top:
        errors.append(InputError("wi_index", _("choose an action from 0 to %(n)d.") % {"n": top}))
        return {}
    out: dict[str, Any] = {"wi_index": k, "wi_options": _whatif_options(rep, k)}
    if op != "whatif":
        return out
    try:
        option = _pick(out["wi_options"], request.POST.get("wi_key", ""), "wi_key")
        new = json.loads(json.dumps(data))
        action_json = _action_from_form(request, new, pool, option, "wi_")
        alt_record = parse_record(new)
    except InputError as exc:
        errors.append(exc)
        return out
    except RecordError as exc:
        errors.append(InputError(f"record.{exc.field}", exc.message))
        return out
    from engine.boba.actions import action_from_json

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
        "replaced": describe_action(record, record.actions[k]) if k < len(record.actions) else "",
        "legal": alt.legal,
        "error": alt.error,
        "result": alt.result.to_json() if alt.result is not None else None,
        "battles": _battles(alt),
        "final": board(alt_record, alt.state) if alt.state is not None else None,
        "record_text": _dump(new),
    }
    return out


@login_required
@require_POST
def adjudicate_ruling(request: HttpRequest, call_id: int) -> HttpResponse:
    """The ruling form of the page: text, citations, decision and the record replayed."""
    call = _staff_call(request, call_id)
    post = request.POST
    errors: list[InputError] = []
    record: Any = None
    try:
        text = _record_text(request)
        if text.strip():
            record = _decode(text)
    except InputError as exc:
        errors.append(exc)
    citations = [c.strip() for c in post.get("citations", "").split(",") if c.strip()]
    result = None
    counts = [post.get(k, "").strip() for k in ("games_a", "games_b", "games_drawn")]
    if any(counts):
        try:
            result = {"games": [int(c or 0) for c in counts]}
        except ValueError:
            errors.append(InputError("games", _("Enter whole numbers of games.")))
    if not errors:
        try:
            services.call_ruling(
                actor=request.user,
                call=call,
                text=post.get("text", ""),
                citations=citations,
                record=record,
                result=result,
                decision=post.get("decision") or None,
            )
        except Forbidden as exc:
            raise PermissionDenied(exc.message) from None
        except ServiceError as exc:
            errors.append(InputError(getattr(exc, "field", None) or "ruling", exc.message))
        else:
            return redirect(_call_page(call))
    ctx = _context(request, call, errors)
    ctx["ruling_errors"] = errors
    return render(request, "matches/adjudicate/page.html", ctx, status=400)
