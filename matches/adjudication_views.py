"""The adjudication page: a judge replays a game record for a call, step by step.

The page is the event's game's (`get_game(event.game).adjudicator()`, engine.plugin.Adjudicator):
the game builds the record form and the replay from what was posted (an AdjudicationView) and
this module renders it with the game's template, `matches/adjudicate/<game key>.html`; it reads the record posted (a textarea or an upload, bounded),
hands the game the event's catalog and the players' registered lists, and adds the call and
the ruling form. The ruling goes through services.call_ruling, which replays the record with
the same game's engine. Staff of the call's event only: others get a 404
(selectors.call_visible) or a 403; a game without an adjudicator has no page (404).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import Forbidden, ServiceError
from decks import selectors as deck_selectors
from decks import services as deck_services
from decks.models import Card
from engine.errors import MAX_RECORD_DEPTH, record_json_problem
from engine.games import (
    AdjudicationInput,
    AdjudicationInputError,
    Adjudicator,
    CatalogCard,
    get_game,
)
from matches import selectors, services
from matches.models import JudgeCall, RulingDecision
from tournaments import permissions as perms

SEARCH_LIMIT = 30
InputError = AdjudicationInputError
SIDES = ("A", "B")  # the record's names for the match's players a and b


# --- access ------------------------------------------------------------------------------


def _staff_call(request: HttpRequest, call_id: int) -> JudgeCall:
    call = selectors.call_visible(request.user, call_id)
    if not perms.is_staff_of(request.user, call.tournament):
        raise PermissionDenied(_("Only this event's organisers and judges may adjudicate."))
    return call


def _template(call: JudgeCall) -> str:
    """The game's adjudication page (it extends the site's adjudication frame)."""
    return f"matches/adjudicate/{call.tournament.game}.html"


def _adjudicator(call: JudgeCall) -> Adjudicator:
    adjudicator = get_game(call.tournament.game).adjudicator()
    if adjudicator is None:
        raise Http404("This event's game has no adjudication page.")
    return adjudicator


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


def posted_record_problem(text: str, data: Any) -> tuple[str, str] | None:
    """(field, message) when a posted record (``data`` decoded from ``text``) holds a NUL
    character or is nested more than MAX_RECORD_DEPTH levels deep (neither reaches the
    engine or the database); None if not."""
    problem = record_json_problem(text, data, MAX_RECORD_DEPTH)
    if problem is None:
        return None
    code, path = problem
    field = f"record.{path}" if path else "record"
    if code == "nul":
        return field, _("contains a NUL character (\\u0000): remove it.")
    return field, _("is nested more than %(n)d levels deep.") % {"n": MAX_RECORD_DEPTH}


def _decode(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except RecursionError:
        raise InputError(
            "record", _("is nested more than %(n)d levels deep.") % {"n": MAX_RECORD_DEPTH}
        ) from None
    except ValueError as exc:
        raise InputError("record", _("is not valid JSON (%(e)s).") % {"e": exc}) from None
    problem = posted_record_problem(text, data)
    if problem is not None:
        raise InputError(*problem)
    if not isinstance(data, dict):
        raise InputError("record", _("must be a JSON object."))
    try:
        services.check_record_bounds(data)
    except ServiceError as exc:
        raise InputError(exc.field or "record", exc.message) from None
    return data


def _dump(data: Any) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False)


# --- the event's catalog, for the game to look cards up -----------------------------------


def _catalog_card(card: Card) -> CatalogCard:
    fields = {f.attname: getattr(card, f.attname) for f in Card._meta.concrete_fields}
    attributes = card.attributes if isinstance(card.attributes, dict) else {}
    return CatalogCard(
        ref=card.external_id, name=card.name, kind=card.kind, fields={**attributes, **fields}
    )


class EventCards:
    """engine.games.CardPool over the event's catalog (never another catalog's cards)."""

    def __init__(self, pool: QuerySet[Card]) -> None:
        self.pool = pool

    def find(self, ref: str, kinds: Sequence[str] | None = None) -> CatalogCard | None:
        cards = self.pool if kinds is None else self.pool.filter(kind__in=list(kinds))
        card = cards.filter(external_id=ref).first() or cards.filter(name__iexact=ref).first()
        return _catalog_card(card) if card is not None else None

    def search(self, query: str) -> list[CatalogCard]:
        rows = self.pool.filter(Q(name__icontains=query) | Q(external_id__iexact=query))
        return [_catalog_card(c) for c in rows.order_by("kind", "name", "power")[:SEARCH_LIMIT]]


def _players(call: JudgeCall) -> dict[str, str]:
    match = call.match
    return {"A": match.a.name, "B": match.b.name if match.b is not None else "B"}


def _decks(call: JudgeCall) -> dict[str, dict[str, Any] | None]:
    """Both players' registered lists (their active versions' JSON; None: no list)."""
    out: dict[str, dict[str, Any] | None] = {}
    for side, reg in zip(SIDES, (call.match.a, call.match.b), strict=True):
        if reg is None:
            continue
        version = deck_services.active_version(reg)
        data = version.data if version is not None else None
        out[side] = data if isinstance(data, dict) else None
    return out


def _recorded_details(call: JudgeCall) -> dict[str, object]:
    """The match's per-game details: its result's ("match") and each player's last report
    ("A", "B"); judges see them all, swaps included."""
    match = call.match
    out: dict[str, object] = {}
    if match.game_details:
        out["match"] = match.game_details
    by_registration = {r.registration_id: r.game_details for r in match.reports.all()}
    for side, reg_id in zip(SIDES, (match.a_id, match.b_id), strict=True):
        details = by_registration.get(reg_id) if reg_id is not None else None
        if details:
            out[side] = details
    return out


# --- the views ---------------------------------------------------------------------------


def _initial_record(call: JudgeCall) -> str:
    ruling = call.rulings.exclude(record=None).order_by("-created_at", "-id").first()
    return _dump(ruling.record) if ruling is not None else ""


@login_required
def adjudicate(request: HttpRequest, call_id: int) -> HttpResponse:
    call = _staff_call(request, call_id)
    adjudicator = _adjudicator(call)
    ctx = _context(request, call, adjudicator)
    status = 400 if ctx["errors"] else 200
    return render(request, _template(call), ctx, status=status)


def _context(
    request: HttpRequest,
    call: JudgeCall,
    adjudicator: Adjudicator,
    errors: list[InputError] | None = None,
) -> dict[str, Any]:
    post = request.POST if request.method == "POST" else None
    errors = list(errors or [])
    text = ""
    if post is None:
        text = _initial_record(call)
    else:
        try:
            text = _record_text(request)
        except InputError as exc:
            errors.append(exc)
            text = ""
    ctx: dict[str, Any] = {
        "call": call,
        "match": call.match,
        "event": call.tournament,
        "call_page": _call_page(call),
        "decisions": RulingDecision.choices,
        "ruling": {
            key: post.get(key, "") if post else ""
            for key in ("text", "citations", "decision", "games_a", "games_b", "games_drawn")
        },
        "max_bytes": services.MAX_RECORD_BYTES,
        "record_format": adjudicator.record_format,
        "citation_example": get_game(call.tournament.game).citation_example(),
        "drawn_games": get_game(call.tournament.game).drawn_games,
    }
    page = adjudicator.page(
        AdjudicationInput(
            post={k: post.get(k, "") for k in post} if post is not None else None,
            query={k: request.GET.get(k, "") for k in request.GET},
            record_text=text,
            players=_players(call),
            decks=_decks(call),
            mode=call.tournament.mode or "",
            cards=EventCards(deck_selectors.event_cards(call.tournament)),
            decode=_decode,
            gettext=_,
            errors=tuple(errors),
            recorded_details=_recorded_details(call),
        )
    )
    return {**ctx, **page.context()}


@login_required
@require_POST
def adjudicate_ruling(request: HttpRequest, call_id: int) -> HttpResponse:
    """The ruling form of the page: text, citations, decision and the record replayed."""
    call = _staff_call(request, call_id)
    adjudicator = _adjudicator(call)
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
    ctx = _context(request, call, adjudicator, errors)
    ctx["ruling_errors"] = errors
    return render(request, _template(call), ctx, status=400)
