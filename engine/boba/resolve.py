"""What each effect step does (CR 5): the resolver behind :mod:`engine.boba.effects`.

A :class:`~engine.boba.context.Context` answers counts and conditions for one player (the
play's owner). Here: the registry of step kinds (:class:`StepWord`, :func:`step_word`,
:func:`parse_step`) and the :class:`Resolver`, which runs a list of steps for one play under
the "if able" rule (CR 5.2.1), reading coins and dice from the action's ``random``, cards from
hidden zones from its ``drawn`` and decisions from its ``choices``. It reads the position as a
:class:`~engine.boba.battle_flow.BattleFlow` (the game is always a
:class:`~engine.boba.state.GameState`, which asks it for the layers below). Missing outcomes raise IllegalActionError with
``needs`` set (the generator fills them in); outcomes left over are illegal too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .battle_flow import BattleFlow
from .cards import Hero, Play
from .checks import Checker, fail
from .context import Context, Cursor, Spec, _invalid
from .errors import IllegalActionError, Need
from .results import Ongoing
from .rules import BATTLES, OTHER, PLAYERS, weapon_in

MAX_DEPTH = 4  # nested runs, copies and triggers
_REST = ("rest", "later")  # durations that run to the end of the game
ALL = 10**6  # "all" cards of a zone


def _who(me: int, who: str, actor: int | None = None) -> tuple[int, ...]:
    if who == "both":
        return (me, OTHER[me])
    if who == "actor":
        return (me if actor is None else actor,)
    return (me,) if who == "own" else (OTHER[me],)


def _cost(card: Any) -> int:
    return card.cost or 0 if isinstance(card, Play) else 0


def _battles(s: BattleFlow, spec: Any, chosen: Any) -> frozenset[int]:
    b = s.battle
    if spec is None or spec == "this":
        return frozenset((b,))
    if isinstance(spec, dict):
        lo = max(b, spec.get("from", b))
        return frozenset(range(lo, spec.get("to", BATTLES) + 1))
    if spec == "rest":
        return frozenset(range(b, BATTLES + 1))
    if spec == "later":
        return frozenset(range(b + 1, BATTLES + 1))
    if spec == "chosen":
        n = chosen
        if not isinstance(n, int) or isinstance(n, bool) or not b < n <= BATTLES:
            raise IllegalActionError(
                "invalid_choice",
                "CR 3.3",
                f"choices.battle must name a future battle ({b + 1}-{BATTLES}).",
                Need("choice", "battle", tuple(range(b + 1, BATTLES + 1))),
            )
        return frozenset((n,))
    return frozenset(b + k for k in spec if b + k <= BATTLES)


# ---------------------------------------------------------------- the step words
# The registry of step kinds: the words register from engine/boba/steps.py (their handlers
# need the resolver), which engine.boba.effects loads; the game's record reader imports
# effects, so a game never resolves without them.


@dataclass(frozen=True, slots=True)
class StepWord:
    """A step kind: ``check`` validates its main value, ``field_checks`` the extra fields it
    accepts (``fields`` their names), ``whole`` (optional) the step as a whole; ``handler``
    does it (True: done in full, for CR 5.2.3 A)."""

    name: str
    doc: str
    check: Checker
    field_checks: Mapping[str, Checker]
    handler: Callable[[Resolver, Spec], bool]
    whole: Callable[[Spec, str], None] | None = None

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(self.field_checks)


STEP_WORDS: dict[str, StepWord] = {}


def step_word(
    name: str,
    doc: str,
    check: Checker,
    fields: Mapping[str, Checker] | None = None,
    whole: Callable[[Spec, str], None] | None = None,
) -> Callable[[Callable[[Resolver, Spec], bool]], Callable[[Resolver, Spec], bool]]:
    """Register the decorated handler as the step kind ``name`` (the function is returned
    unchanged)."""

    def register(handler: Callable[[Resolver, Spec], bool]) -> Callable[[Resolver, Spec], bool]:
        STEP_WORDS[name] = StepWord(name, doc, check, dict(fields or {}), handler, whole)
        return handler

    return register


@dataclass(frozen=True, slots=True)
class ParsedStep:
    """A validated step, read once: its word (kind and handler), its ``if`` condition, whether
    it is ``required`` (CR 5.2.3 A), and the step object its handler reads."""

    kind: str
    word: StepWord
    step: Spec
    cond: Spec | None
    required: bool


def parse_step(step: Spec) -> ParsedStep:
    """Read one validated step (its kind is its one registered key)."""
    for key in step:
        word = STEP_WORDS.get(key)
        if word is not None:
            cond = step.get("if")
            return ParsedStep(key, word, step, cond, bool(step.get("required")))
    fail("step", "no kind")


_PARSED: dict[int, tuple[object, tuple[ParsedStep, ...]]] = {}
_PARSED_MAX = 4096
_NESTED = ("then", "else", "do")  # keys whose value is a list of steps (and choose's options)


def parsed_steps(steps: Any) -> tuple[ParsedStep, ...]:
    """The steps of an effect, parsed once per effect: a play's effect (a tuple, as
    :func:`~engine.boba.effects.validate_effect` returns it) is parsed with the step lists
    nested in it on first use and kept; any other list (an ongoing effect's bound ``do``) is
    parsed when it runs."""
    key = id(steps)
    hit = _PARSED.get(key)
    if hit is not None and hit[0] is steps:
        return hit[1]
    out = tuple(parse_step(st) for st in steps)
    if isinstance(steps, tuple):
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[key] = (steps, out)
        _keep_nested(out)
    return out


def _keep_nested(parsed: tuple[ParsedStep, ...]) -> None:
    """Parse and keep the step lists nested in a kept effect (they live as long as it)."""
    for p in parsed:
        nested: list[Any] = [p.step[k] for k in _NESTED if isinstance(p.step.get(k), list)]
        if p.kind == "choose" and isinstance(p.step["choose"], dict):
            nested += p.step["choose"].values()
        for steps in nested:
            out = tuple(parse_step(st) for st in steps)
            _PARSED[id(steps)] = (steps, out)
            _keep_nested(out)


class Resolver(Context):
    """Runs one play's steps (CR 5.1.2: fully, before the next play)."""

    __slots__ = ("depth", "key", "nullified", "parent", "source")

    def __init__(
        self,
        s: BattleFlow,
        me: int,
        play: Play | None,
        cursor: Cursor,
        source: str,
        depth: int = 0,
    ) -> None:
        super().__init__(s, me, play, cursor)
        self.source = source
        self.key = play.base.lower() if play else source
        self.depth = depth
        self.nullified = False
        self.parent: Resolver | None = None

    # ---------------------------------------------------------------- outcomes

    def next_random(self, kind: str) -> str | int:
        cur = self.cur
        if cur.ri >= len(cur.random):
            raise IllegalActionError(
                "missing_random",
                "CR 2.2.1" if kind == "coin" else "CR 2.2.4",
                f"The play needs a {kind} result that the record does not give (random).",
                Need("random", kind),
            )
        r = cur.random[cur.ri]
        if (kind == "coin") != (r in ("heads", "tails")):
            raise IllegalActionError(
                "invalid_random",
                "CR 2.2.1" if kind == "coin" else "CR 2.2.4",
                f"random[{cur.ri}] is {r!r} but the play needs a {kind} result here.",
            )
        cur.ri += 1
        return r

    def next_drawn(self, kind: str, optional: bool = False, pi: int | None = None) -> str | None:
        cur = self.cur
        if cur.di >= len(cur.drawn):
            if optional and not self.s.probe:
                return None  # the hero deck is empty (its size is not recorded)
            raise IllegalActionError(
                "missing_drawn",
                "CR 5.1.5",
                f"The play takes a {kind} from a hidden zone that the record does not give "
                "(drawn).",
                Need(
                    "drawn",
                    kind,
                    ("optional",) if optional else (),
                    1,
                    self.me if pi is None else pi,
                ),
            )
        cid = cur.drawn[cur.di]
        owner = self.me if pi is None else pi
        try:
            self.s.check_new(cid, kind, owner, "CR 5.1.5")
        except IllegalActionError as exc:
            raise IllegalActionError(
                exc.code, exc.rule, f"drawn[{cur.di}]: {exc.message}"
            ) from None
        cur.di += 1
        self.s.take(cid, owner)
        card = self.s.cards[cid]
        if isinstance(card, Hero):
            self.drawn_power = card.power
            self.drawn_weapon = card.weapon
            self.revealed_powers[owner] = card.power
        elif isinstance(card, Play):
            self.drawn_cost = card.cost or 0
        return cid

    # ---------------------------------------------------------------- running

    def run(self, steps: Any) -> None:
        """Resolve a list of validated steps in order (each parsed once per effect)."""
        for p in parsed_steps(steps):
            if self.nullified:
                return
            self.do(p)

    def step(self, step: Mapping[str, Any]) -> None:
        """Resolve one validated step."""
        self.do(parse_step(step))

    def do(self, p: ParsedStep) -> None:
        """Resolve a parsed step with its word's handler, under its ``if`` (a ``then`` step
        reads its own)."""
        if p.cond is not None and p.kind != "then" and not self.cond(p.cond):
            if p.required:
                self.nullified = True  # CR 5.2.3 A
            return
        if not p.word.handler(self, p.step) and p.required:
            self.nullified = True  # CR 5.2.3 A: the rest of the effect is nullified

    def ongoing(
        self,
        kind: str,
        step: Mapping[str, Any],
        amount: int = 0,
        battles: frozenset[int] | None = None,
    ) -> Ongoing:
        o = Ongoing(
            self.s.new_instance(),
            self.me,
            self.source,
            self.key,
            kind,
            self.bind(step),
            battles
            if battles is not None
            else _battles(self.s, step.get("battles"), self.choice("battle")),
            amount,
            self.s.battle,
        )
        self.s.add_ongoing(o)
        return o

    def bind(self, obj: Any, refs: tuple[str, ...] = ("chosen", "discarded", "drawn")) -> Any:
        """Freeze what this resolution decided (choices; the weapon of a hero it discarded or
        drew) into an ongoing step, so it means the same thing in later battles. Inside a
        trigger's ``do`` only choices are frozen: the rest is read when the trigger fires."""
        if isinstance(obj, list):
            return [self.bind(x, refs) for x in obj]
        if not isinstance(obj, dict):
            return obj
        out: dict[str, Any] = {}
        for k, v in obj.items():
            if k == "do":
                out[k] = self.bind(v, ("chosen",))
            elif k in ("weapon", "set_weapon", "drawn_weapon") and v in refs:
                out[k] = self.weapon_param(v, self.me)
            elif (
                isinstance(v, dict)
                and "choice" in v
                and set(v) <= {"choice", "times", "plus", "min", "max"}
            ):
                out[k] = self.amount(v)
            elif isinstance(v, dict) and v.get("count") in ("drawn_cost", "drawn_power"):
                out[k] = self.amount(v)  # what this play revealed, not a later play's
            else:
                out[k] = self.bind(v, refs)
        return out

    def protected(self, pi: int, amount: int) -> bool:
        s = self.s
        if pi != self.me and s.is_prevented("opp_effects", pi):
            return True
        if amount < 0:
            if s.is_prevented("power_loss", pi):
                return True
            if pi != self.me and s.is_prevented("power_loss_from_opp", pi):
                return True
        return False

    def modify(self, pi: int, amount: int) -> bool:
        if amount == 0:
            return True
        if amount < 0 and pi != self.me and self.s.ongoing and _inverted(self.s, pi):
            amount = -amount  # Sweet Relish: the opponent's power cuts become gains
        if self.protected(pi, amount):
            return False
        self.s.p[pi].mods.append((self.s.new_instance(), self.source, amount))
        return True

    # ---------------------------------------------------------------- power

    # ---------------------------------------------------------------- hot dogs

    # ---------------------------------------------------------------- cards

    def draw_play(self, pi: int) -> bool:
        s = self.s
        ps = s.p[pi]
        if ps.playbook_size <= 0 or s.is_prevented("draw_plays", pi):
            return False
        cid = self.next_drawn("play", pi=pi)
        assert cid is not None
        ps.hand.append(cid)
        ps.playbook_size -= 1
        self.last_drawn = cid
        return True

    def draw_hero(self, pi: int) -> bool:
        cid = self.next_drawn("hero", optional=True, pi=pi)
        if cid is None:
            return False
        self.s.p[pi].bench.append(cid)
        return True

    def _pick(
        self, key: str, eligible: list[str], k: int, use_drawn: bool, shared: bool = False
    ) -> list[str]:
        """k distinct cards out of eligible: all of them if k covers them, else chosen (from
        ``drawn`` when the pick is random). ``shared``: one choices list serves both players."""
        if k >= len(eligible) and (use_drawn or self.choice(key) is None):
            cur = self.cur
            left = set(eligible) if use_drawn else set()
            while cur.di < len(cur.drawn) and cur.drawn[cur.di] in left:
                left.discard(cur.drawn[cur.di])  # a forced "random" pick may be written down
                cur.di += 1
            return eligible[:]
        if use_drawn:
            picked: list[str] = []
            for _ in range(k):
                cur = self.cur
                if cur.di >= len(cur.drawn):
                    raise IllegalActionError(
                        "missing_drawn",
                        "CR 5.1.5",
                        "The random pick is not in the record (drawn).",
                        Need("pick", key, tuple(x for x in eligible if x not in picked), k),
                    )
                cid = cur.drawn[cur.di]
                if cid not in eligible or cid in picked:
                    raise IllegalActionError(
                        "invalid_drawn",
                        "CR 5.1.5",
                        f"drawn[{cur.di}] {cid} is not one of the cards that could be picked.",
                    )
                cur.di += 1
                picked.append(cid)
            return picked
        chosen = self.choice(key)
        if isinstance(chosen, str):
            chosen = [chosen]
        if isinstance(chosen, list) and shared:
            chosen = [c for c in chosen if c in eligible]  # one list for both players' picks
        if (
            not isinstance(chosen, list)
            or len(chosen) != k
            or len(set(map(str, chosen))) != k
            or not all(c in eligible for c in chosen)
        ):
            raise IllegalActionError(
                "invalid_choice",
                "CR 5.1.1",
                f"choices.{key} must list {k} of: {', '.join(eligible)}.",
                Need("choice", key, tuple(eligible), k),
            )
        return [str(c) for c in chosen]

    def _can_discard(self, pi: int, zone: str, step: Mapping[str, Any]) -> int:
        """How many cards player pi could discard from ``zone`` for this step (the hero
        deck's size is not recorded: taken as large enough)."""
        ps = self.s.p[pi]
        if zone == "hot_dogs":
            return ps.hot_dogs - (len(ps.ghost) if pi != self.me else 0)
        if zone == "last_drawn":
            return 1 if self.last_drawn in ps.hand else 0
        if zone == "hero_deck_top":
            return ALL
        if zone == "playbook_top":
            return ps.playbook_size
        n = 0
        if zone in ("hand", "hand_heroes"):
            w = step.get("weapon")
            n += sum(
                1
                for c in ps.bench
                if w is None or weapon_in(self._hero(c).weapon, self.weapon_param(w, pi))
            )
        if zone in ("hand", "hand_plays"):
            n += len(ps.hand)
        return n

    def _hero(self, cid: str) -> Hero:
        h = self.s.cards[cid]
        assert isinstance(h, Hero)
        return h

    # ---------------------------------------------------------------- chance

    # ---------------------------------------------------------------- control

    def _able(self, steps: Any) -> bool:
        """Could these steps be done now (tried on a copy of the game)? An outcome the record
        does not give (a choice, a card, a coin) counts as possible."""
        cur = Cursor(None)
        cur.random, cur.drawn, cur.choices = self.cur.random, self.cur.drawn, self.cur.choices
        cur.ri, cur.di, cur.option_i = self.cur.ri, self.cur.di, self.cur.option_i
        trial = Resolver(self.s.clone(), self.me, self.play, cur, self.source, self.depth)
        trial.actor, trial.result = self.actor, self.result
        try:
            trial.run(steps)
        except IllegalActionError as exc:
            return exc.code in ("invalid_choice", "missing_drawn", "missing_random")
        return not trial.nullified

    # ---------------------------------------------------------------- ongoing

    def chosen_hero(self) -> str | None:
        """``choices.hero``: one of the runner's unrevealed heroes (the lineup's future
        battles). A version-1 record without it names a battle (``choices.battle``): the hero
        in that battle when the play is run. None: no unrevealed hero is left (if able)."""
        s = self.s
        ps = s.p[self.me]
        unrevealed = tuple(ps.lineup[s.battle :])
        if "hero" not in self.cur.choices:
            b = self.choice("battle")  # a bare number answers it too
            if isinstance(b, int) and not isinstance(b, bool):
                b = next(iter(_battles(s, "chosen", b)))
                return ps.lineup[b - 1]
        if not unrevealed:
            return None
        pick = self.choice("hero")
        if not isinstance(pick, str) or pick not in unrevealed:
            raise _invalid(
                "hero",
                f"choices.hero must be the card id of one of {PLAYERS[self.me]}'s unrevealed "
                f"heroes (battles {s.battle + 1}-{BATTLES}): {', '.join(unrevealed)}.",
                unrevealed,
            )
        return pick

    # ---------------------------------------------------------------- heroes

    def _replace_future(self, step: Mapping[str, Any]) -> bool:
        """Every face-down hero of the future battles is discarded and replaced, in battle
        order, by the top card of the hero deck (ids from `drawn`; if able)."""
        s = self.s
        done = True
        for pi in _who(self.me, step.get("who", "own"), self.actor):
            ps = s.p[pi]
            for slot in range(s.battle, BATTLES):
                new = self.next_drawn("hero", optional=True, pi=pi)
                if new is None:
                    done = False
                    break
                ps.discard.append(ps.lineup[slot])
                if s.triggers or s.ongoing:
                    s.hero_left(ps.lineup[slot])  # discarded unrevealed (CR 3.2)
                ps.lineup[slot] = new
        return done


def _nullify_source(s: BattleFlow, source: str) -> None:
    s.drop(lambda o: o.source == source)


def start_play(s: BattleFlow, me: int, play: Play) -> None:
    """Bookkeeping when a play is run: counts, and a new instance ends the old (CR 5.1.7)."""
    ps = s.p[me]
    ps.plays_battle.append(play.id)
    ps.used.append((s.battle, play.id))
    if s.ongoing or s.triggers:
        key = play.base.lower()
        s.drop(lambda o: o.owner == me and o.key == key)


def run_play(s: BattleFlow, me: int, play: Play, action: Action, before_cost: int = 0) -> None:
    """Resolve a play whose cost is paid (CR 5.3.2); the card then goes to the discard."""
    start_play(s, me, play)
    cur = Cursor(action)
    r = Resolver(s, me, play, cur, play.id)
    r.before_cost = before_cost
    if s.triggers:
        fire(s, "play_run", me, r)
    r.run(play.effect)
    ps = s.p[me]
    if play.id not in ps.ghost:  # a play that became a hot dog stays one (Ghost Dog)
        ps.discard.append(play.id)
    if cur.ri < len(cur.random):
        raise IllegalActionError(
            "unexpected_random",
            "CR 2.2.1",
            f"random has {len(cur.random) - cur.ri} result(s) the play did not call for: a coin "
            "is flipped or a die rolled only when a card says so.",
        )
    if cur.di < len(cur.drawn):
        raise IllegalActionError(
            "unexpected_drawn",
            "CR 5.1.5",
            f"drawn has {len(cur.drawn) - cur.di} card(s) the play did not take.",
        )


_DEFAULT_WHO = {"win": "own", "lose": "own", "reveal": "own"}
# Events with no action of their own: battle start and end (and the reveal, which follows
# the substitution decisions by itself).
_DETACHED_EVENTS = ("win", "lose", "draw_battle", "battle_end", "battle_start", "reveal")


def _outcomes(later: Any) -> Cursor:
    """The outcomes a detached trigger takes: ``choices.trigger`` of the action that created
    it (``drawn`` and ``random`` lists; every other key is a choice), or none."""
    cur = Cursor(None)
    if isinstance(later, dict):
        drawn, rnd = later.get("drawn", []), later.get("random", [])
        cur.drawn = tuple(str(x) for x in drawn) if isinstance(drawn, list) else ()
        cur.random = tuple(rnd) if isinstance(rnd, list) else ()
        cur.choices = {k: v for k, v in later.items() if k not in ("drawn", "random")}
    return cur


def _inverted(s: BattleFlow, pi: int) -> bool:
    for o in s.ongoing:
        if o.kind == "invert" and s.battle in o.battles:
            who = o.step.get("who", "own")
            if who == "both" or (pi == o.owner) == (who == "own"):
                return True
    return False


def fire(
    s: BattleFlow, event: str, actor: int | None, parent: Resolver | None, hero_only: bool = False
) -> None:
    """Run the triggers (``on`` effects) listening for ``event`` now. ``actor`` is the player
    the event is about (the winner, the loser, the one who flipped, ran or revealed). A
    trigger bound to a hero (``hero``) fires only on that card's reveal, in whichever battle
    it is; ``hero_only``: only those (a hero swapped into the battle zone mid-battle)."""
    depth = parent.depth + 1 if parent else 0
    if depth > MAX_DEPTH:
        return
    b = s.battle
    for o in tuple(s.triggers):
        if o.step["on"] != event or b not in o.battles:
            continue
        if o not in s.triggers:
            continue  # cancelled by an earlier trigger
        hero = o.step.get("hero")
        if hero is not None:
            if actor is None or s.p[actor].lineup[b - 1] != hero:
                continue
        elif hero_only:
            continue
        who = o.step.get("who", _DEFAULT_WHO.get(event, "both"))
        if actor is not None and who != "both" and (actor == o.owner) != (who == "own"):
            continue
        if o.step.get("once"):
            s.drop(lambda x, o=o: x is o)  # type: ignore[misc]
        play = s.cards.get(o.source)
        cursor = parent.cur if parent is not None else _outcomes(o.step.get("outcomes"))
        r = Resolver(s, o.owner, play if isinstance(play, Play) else None, cursor, o.source, depth)
        r.key = o.key
        r.actor = actor
        r.parent = parent
        results = s.p[o.owner].results
        r.result = results[-1] if results and s.phase == "resolving" else None
        if parent is None:
            _run_detached(r, o.step["do"])
        else:
            r.run(o.step["do"])


def _run_detached(r: Resolver, steps: Any) -> None:
    """Triggers outside any action (battle start/end): play draws become due ``draw``
    actions; outcomes nobody recorded are skipped (if able)."""
    for p in parsed_steps(steps):
        if r.nullified:
            return
        step, kind = p.step, p.kind
        if kind == "draw" and step.get("deck", "plays") == "plays":
            if "if" in step and not r.cond(step["if"]):
                continue
            n = r.amount(step["draw"])
            for pi in _who(r.me, step.get("who", "own")):
                ps = r.s.p[pi]
                if not r.s.is_prevented("draw_plays", pi):
                    ps.pending_draws = min(ps.pending_draws + n, ps.playbook_size)
            continue
        if kind == "then":
            branch = step["then"] if r.cond(step["if"]) else step.get("else", [])
            _run_detached(r, branch)
            continue
        try:
            r.do(p)
        except IllegalActionError:
            continue


def aura_amount(s: BattleFlow, o: Ongoing, pi: int) -> int | None:
    """What an ongoing power effect adds to pi's active hero now (None: it doesn't reach)."""
    step = o.step
    target = step.get("target", "own")
    if target != "both" and (pi == o.owner) != (target == "own"):
        return None
    w = step.get("weapon")
    if w is not None and not weapon_in(s.weapon(pi), w):
        return None
    if "while" in step:
        play = s.cards.get(o.source)
        ctx = Context(s, o.owner, play if isinstance(play, Play) else None)
        if not ctx.cond(step["while"]):
            return None
    amount = o.amount
    if pi != o.owner and s.is_prevented("opp_effects", pi):
        return None
    if amount < 0 and pi != o.owner and _inverted(s, pi):
        return -amount  # Sweet Relish
    if amount < 0 and (
        s.is_prevented("power_loss", pi)
        or (pi != o.owner and s.is_prevented("power_loss_from_opp", pi))
    ):
        return None
    return amount
