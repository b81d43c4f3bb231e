"""The match report form: the per-game inputs a game asks for, a refusal laid next to the
input it names, and the posted form read back into what the services take.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from config.errors import ServiceError
from engine.frozen import thaw
from engine.games import DetailField, GameDetailsError, MatchRules, for_reader, get_game
from matches.models import Match
from matches.services.history import round_structure


def detail_games(
    rules: MatchRules,
    max_games: int,
    side: str | None,
    details: Any,
    *,
    names: tuple[str, str],
    staff: bool = False,
    prefill: list[dict[str, object]] | None = None,
) -> list[dict[str, Any]]:
    """The report form's per-game inputs the game asks for (engine.games.DetailField), from
    `side` ("me", "opp"; staff: a is "me"), filled from recorded details where the field is
    a side or numbers, else from `prefill` (form values: the match clock's games). Staff give
    both players' inputs (`own_only` does not apply)."""
    fields = rules.form_fields()
    if not fields:
        return []
    other = "b" if side == "a" else "a"
    recorded = rules.form_values(details) if details is not None else (prefill or [])

    def mine(value: Any) -> str:
        return "me" if value == side else "opp" if value == other else ""

    games = []
    for number in range(1, max_games + 1):
        old = recorded[number - 1] if number <= len(recorded) else {}
        old = old if isinstance(old, Mapping) else {}
        shown = []
        for f in fields:
            if number < f.from_game:
                continue
            name = f"g{number}_{f.key}"
            value: Any = old.get(f.key)
            entry: dict[str, Any] = {
                "key": f.key,
                "name": name,
                "label": f.label.render(_),
                "help": f.help.render(_) if f.help else "",
                "kind": f.kind,
                "per_side": f.per_side,
                "own_only": f.own_only and not staff,
                "sides": [("me", names[0])]
                if f.own_only and not staff
                else [("me", names[0]), ("opp", names[1])],
                "choices": [(key, label.render(_)) for key, label in f.choices],
                "min": f.minimum,
                "max": f.maximum,
            }
            if f.kind == "side":
                entry["value"] = mine(value)
            elif f.per_side and isinstance(value, list | tuple) and len(value) == 2:
                pair = tuple(value) if side == "a" else tuple(value[::-1])
                entry["value_me"], entry["value_opp"] = pair
            else:
                entry["value"] = value if isinstance(value, str) else ""
            shown.append(entry)
        games.append({"number": number, "fields": shown})
    return games


def detail_summary(rules: MatchRules) -> str:
    """What the per-game inputs ask, for the form's heading: "winner, ether bid, ..."."""
    labels = [str(f.label.render(_)) for f in rules.form_fields()]
    return ", ".join(label[:1].lower() + label[1:] for label in labels)


def problem_text(
    exc: GameDetailsError, rules: MatchRules, names: Mapping[str, str], reader: str | None
) -> str:
    """A refused detail in words for a page: "Game 1, Ether bid: …", players by their names
    (`names`: "a" and "b"), counts from `reader`'s side ("a", "b"; None: a's first). The API
    keeps `exc.field` (`game_details[0].bids`) for tools."""
    message = for_reader(exc.text, names, reader).render(_)
    if exc.game is None:
        return str(capfirst(message))
    number = exc.game + 1
    known = next((f for f in rules.form_fields() if f.key == exc.part), None)
    if known is None:
        return str(_("Game %(n)d: %(message)s") % {"n": number, "message": message})
    label = known.label.render(_)
    if known.per_side and exc.side in names:
        label = _("%(label)s (%(name)s)") % {"label": label, "name": names[exc.side or ""]}
    if known.kind == "lines" and exc.item is not None:
        label = _("%(label)s, line %(line)d") % {"label": label, "line": exc.item + 1}
    return str(
        _("Game %(n)d, %(field)s: %(message)s") % {"n": number, "field": label, "message": message}
    )


def mark_problem(
    inputs: list[dict[str, Any]], exc: GameDetailsError, reader: str, message: str
) -> str | None:
    """Lay `message` on the input of `detail_games`' output that `exc` names (`reader`: the
    side the form's "me" is); the id to link to, None when it names no game."""
    if exc.game is None or not 0 <= exc.game < len(inputs):
        return None
    game = inputs[exc.game]
    for entry in game["fields"]:
        if entry["key"] != exc.part:
            continue
        if entry["per_side"]:
            who = "opp" if exc.side is not None and exc.side != reader else "me"
            if who not in (w for w, _name in entry["sides"]):
                break
            entry["error"], entry["error_who"] = message, who
            return f"id_{entry['name']}_{who}"
        entry["error"] = message
        return f"id_{entry['name']}"
    game["error"] = message
    return f"id_g{game['number']}"


def posted_value(request: HttpRequest, name: str) -> str:
    return (request.POST.get(name) or "").strip()[:20]


def report_form_state(
    request: HttpRequest,
    rules: MatchRules,
    side: str,
    names: Mapping[str, str],
    detail_inputs: list[dict[str, Any]],
    my_report: Any,
    problem: Exception | None,
    clock_totals: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """The report form's games counts (posted, else my report's, else the games the match
    clock saw: `clock_totals`, mine first) and, after a refusal, the problem in words with
    the id of the input it names (`detail_inputs` marked)."""
    if problem is not None:
        values = {key: posted_value(request, key) for key in ("won", "lost", "drawn", "outcome")}
    elif my_report is not None:
        won, lost = my_report.games[0:2] if side == "a" else my_report.games[1::-1]
        outcome = "win" if won > lost else "loss" if lost > won else "draw"
        values = {
            "won": str(won),
            "lost": str(lost),
            "drawn": str(my_report.games[2]),
            "outcome": outcome,
        }
    elif clock_totals is not None:
        won, lost = clock_totals
        outcome = "win" if won > lost else "loss" if lost > won else ""
        values = {"won": str(won), "lost": str(lost), "drawn": "0", "outcome": outcome}
    else:
        values = {"won": "", "lost": "", "drawn": "0", "outcome": ""}
    state: dict[str, Any] = {"values": values, "problem": None, "anchor": "", "on": ""}
    if problem is None:
        return state
    cause = problem.__cause__ if isinstance(problem, ServiceError) else problem
    if isinstance(cause, GameDetailsError) and detail_inputs:
        message = problem_text(cause, rules, names, side)
        # The input it names, else the per-game section as a whole (every game or none).
        anchor = mark_problem(detail_inputs, cause, side, message) or "err_details"
        on = "details"
    else:
        message = problem.message if isinstance(problem, ServiceError) else str(problem)
        on = "games"
        anchor = "id_won"
        if "outcome" in request.POST:
            anchor = "id_outcome_win"  # the one-tap choice (best of 1)
    state.update(problem=message, anchor=anchor, on=on)
    return state


class FormProblem(ValueError):
    """A report form value that does not read; `field` as the API names it."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


# A best-of-1 result in one tap (templates/matches/_report_form.html): the games it means,
# the reporter's first. Whether a draw is allowed stays the service's check, as for the form.
ONE_TAP_GAMES = {"win": (1, 0, 0), "loss": (0, 1, 0), "draw": (0, 0, 1)}


def _one_tap_games(outcome: str) -> tuple[int, int, int]:
    try:
        return ONE_TAP_GAMES[outcome]
    except KeyError:
        raise FormProblem(_("Choose I won, I lost or Draw."), "outcome") from None


def report_from_post(request: HttpRequest, match: Match, side: str) -> dict[str, Any]:
    """The form's "me / my opponent" numbers as the services take them: a's games first."""

    def number(name: str, *, required: bool = True) -> int:
        raw = (request.POST.get(name) or "").strip()
        if not raw and required:
            # A stray tap must not report a 0-0 draw: both game counts are typed.
            raise ValueError(_("Enter the games each of you won (0 if none)."))
        raw = raw or "0"
        try:
            value = int(raw)
        except ValueError:
            raise ValueError(_("Enter whole numbers of games.")) from None
        if value < 0:
            raise ValueError(_("Enter whole numbers of games, 0 or more."))
        return value

    if "outcome" in request.POST:
        won, lost, drawn = _one_tap_games(request.POST.get("outcome") or "")
    else:
        won, lost, drawn = number("won"), number("lost"), number("drawn", required=False)
    games = [won, lost, drawn] if side == "a" else [lost, won, drawn]
    data: dict[str, Any] = {"games": games}
    details = details_from_post(request, match, side)
    if details is not None:
        data["game_details"] = details
    return data


def details_from_post(request: HttpRequest, match: Match, side: str, *, staff: bool = False) -> Any:
    """The per-game inputs (me / my opponent; staff: a / b) in a/b terms, as the game's
    MatchRules reads them; None when the game asks for none or none were filled in. A
    GameDetailsError (a ValueError) names what does not read."""
    rules = get_game(match.round.tournament.game).match_rules()
    if not rules.has_game_details:
        return None
    details = rules.details_from_form(detail_rows_from_post(request, match, side, staff=staff))
    return thaw(details) if details is not None else None


def detail_rows_from_post(
    request: HttpRequest, match: Match, side: str, *, staff: bool = False
) -> list[dict[str, object]]:
    """The per-game inputs as posted, as form values in a/b terms (MatchRules.form_values'
    shape): what `details_from_post` reads, and what the form shows again after a refusal."""
    event = match.round.tournament
    rules = get_game(event.game).match_rules()
    if not rules.has_game_details:
        return []
    fields: tuple[DetailField, ...] = rules.form_fields()
    other = "b" if side == "a" else "a"
    structure = round_structure(match.round)
    max_games = structure.max_games if structure is not None else 1
    rows: list[dict[str, object]] = []
    for number in range(1, max_games + 1):
        row: dict[str, object] = {}
        for f in fields:
            if number < f.from_game:
                continue
            name = f"g{number}_{f.key}"
            if f.kind == "side":
                chosen = (request.POST.get(name) or "").strip()
                row[f.key] = side if chosen == "me" else other if chosen == "opp" else ""
            elif f.per_side:
                me = (request.POST.get(f"{name}_me") or "")[:2000]
                opp = ("" if f.own_only and not staff else (request.POST.get(f"{name}_opp") or ""))[
                    :2000
                ]
                row[f.key] = [me, opp] if side == "a" else [opp, me]
            else:
                row[f.key] = (request.POST.get(name) or "")[:2000]
        rows.append(row)
    return rows
