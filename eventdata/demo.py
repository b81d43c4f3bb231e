"""Demo accounts and the demo events: an organiser, a judge, 32 players, a Playmaker event of
the default game, and a small event of every other registered game.

:func:`load_demo` makes the accounts and the event (registration open); once the decks app has
given every player a list, :func:`load_demo_rounds` checks everyone in, starts the event and
plays three Swiss rounds and part of a fourth through the real services, from fixed seeds, so
the demo is the same on every machine. The judges' queue then holds round 4's one dispute:
round 2's was settled by the judge's entry (:func:`settle_stale_calls` settles it in a demo
loaded before entries did).

Every other game in `engine.games.GAMES` gets an event of its own (:func:`load_game_demos`):
the same organiser and judge, the first `GAME_DEMO_PLAYERS` demo players, the game's default
mode, format and match structure, its recommended match clock per game, and one finished Swiss
round (:func:`load_game_demo_rounds`) whose results carry the per-game details the game's
plugin invents for a demo (`GamePlugin.demo_details`). Nothing here names a game.

Idempotent: a second run finds everything in place and changes nothing.
"""

from __future__ import annotations

import random
from datetime import timedelta
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.dispatch import Signal
from django.utils import timezone

from engine.frozen import thaw
from engine.games import DEFAULT_GAME, GAMES, GamePlugin, get_game
from matches import services as rounds
from matches.models import Round
from overlays import services as overlays
from tournaments import services
from tournaments.models import ClockMode, Tournament
from tournaments.status import EventStatus

# Sent by `load_demo` once the demo Open is loaded (keyword `event`): the apps above eventdata
# add their own demo data to it (metagame: the archetypes). Receivers must be idempotent.
demo_event_loaded = Signal()

DEMO_PASSWORD = "battledesk-demo"
DEMO_EVENT_SLUG = "battledesk-demo-open"
PLAYER_COUNT = 32
# The event's pairing draw and the demo's results: fixed, so every load is the same event.
DEMO_PAIRING_SEED = "battledesk-demo"
DEMO_RESULTS_SEED = 20261122
FINISHED_ROUNDS = 3
# This player drops after round 2 (results so far stay in the standings).
DROPPING_PLAYER = "player27"
PLAYER_NAMES = [
    "Avery Stone",
    "Blake Rivera",
    "Casey Morgan",
    "Dakota Lee",
    "Emerson Reyes",
    "Finley Brooks",
    "Gray Patel",
    "Harper Quinn",
    "Indigo Park",
    "Jordan Ellis",
    "Kai Thompson",
    "Logan Fischer",
    "Morgan Diaz",
    "Nico Bauer",
    "Oakley Singh",
    "Parker Nguyen",
    "Quinn Adler",
    "Riley Osei",
    "Sage Kowalski",
    "Taylor Mendes",
    "Umi Sato",
    "Val Romero",
    "Wren Jansen",
    "Xen Okafor",
    "Yael Cohen",
    "Zion Murphy",
    "Ari Lindqvist",
    "Bo Carter",
    "Cam Novak",
    "Drew Haddad",
    "Eden Walsh",
    "Frankie Ito",
]


def _user(username: str, display_name: str, **flags: Any) -> Any:
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        username=username,
        defaults={"display_name": display_name, "email": f"{username}@example.com", **flags},
    )
    if created:
        # One hash for every demo account: hashing 34 passwords one by one takes ~10 s.
        user.password = _demo_password_hash()
        user.save(update_fields=["password"])
    return user


@cache
def _demo_password_hash() -> str:
    return make_password(DEMO_PASSWORD)


def _demo_schedule(now: Any, *, venue: str, capacity: int) -> dict[str, Any]:
    """When and where a demo event runs: a week away, registration open since yesterday."""
    return {
        "starts_at": now + timedelta(days=7),
        "time_zone": "Europe/London",
        "venue": venue,
        "capacity": capacity,
        "registration_opens_at": now - timedelta(days=1),
        "registration_closes_at": now + timedelta(days=7),
        "decklist_deadline": now + timedelta(days=6),
        "round_minutes": 50,
    }


def load_demo() -> tuple[Tournament, bool]:
    # The Django admin changes anything site-wide: a site administrator's tool, not an
    # organiser's (organisers run their events from the event's own pages).
    _user("admin", "Ada Admin", is_staff=True, is_superuser=True)
    organiser = _user("organiser", "Olive Organiser", is_organiser=True)
    judge = _user("judge", "Jules Judge")
    players = [_user(f"player{i:02d}", PLAYER_NAMES[i - 1]) for i in range(1, PLAYER_COUNT + 1)]

    existing = Tournament.objects.filter(slug=DEMO_EVENT_SLUG).first()
    if existing is not None:
        return existing, False

    now = timezone.now().replace(minute=0, second=0, microsecond=0)
    game = get_game(DEFAULT_GAME)
    event = services.event_create(
        actor=organiser,
        name="Battledesk Demo Open",
        game=game.key,
        mode=game.default_mode,
        format_key=game.default_format,
        match_structure=game.default_match_structure,
        description="A demo BoBA Playmaker event: 32 players, Swiss rounds, top 8.",
        **_demo_schedule(now, venue="Demo Hall, Table Row A", capacity=64),
        top_cut_size=8,
    )
    event.slug = DEMO_EVENT_SLUG
    event.save(update_fields=["slug"])
    services.event_set_judge(actor=organiser, tournament=event, user=judge, assigned=True)
    services.event_transition(actor=organiser, tournament=event, to=EventStatus.REGISTRATION_OPEN)
    for player in players:
        services.registration_register(actor=player, tournament=event)
    return event, True


# --- the demo event's rounds ----------------------------------------------------------------


def load_demo_rounds(event: Tournament) -> dict[str, int]:
    """Check everyone in, start the event, play rounds 1 to 3 and leave round 4 running.

    Everything goes through the services, as the people themselves: players report and
    confirm, the judge enters a few results and settles a dispute, one player drops after
    round 2. Does nothing when the event already has rounds (or is past registration), so
    loading the demo again changes nothing.
    """
    event.refresh_from_db()
    if event.rounds.exists() or event.status not in (
        EventStatus.REGISTRATION_OPEN,
        EventStatus.REGISTRATION_CLOSED,
    ):
        return {"rounds": 0}
    user_model = get_user_model()
    organiser = user_model.objects.get(username="organiser")
    judge = user_model.objects.get(username="judge")
    rng = random.Random(DEMO_RESULTS_SEED)

    # The draw's seed, fixed before the first pairing (the services would draw a random one).
    event.pairing_seed = DEMO_PAIRING_SEED
    event.save(update_fields=["pairing_seed"])
    _start_event(event, organiser)

    for number in range(1, FINISHED_ROUNDS + 2):
        round_ = _pair_and_publish(event, organiser)
        assert round_.number == number
        if number <= FINISHED_ROUNDS:
            _finish_round(round_, judge, rng)
            round_.refresh_from_db()
            assert round_.status == "finished", f"demo round {number} did not finish"
            _warm_standings(event, number)
            if number == 2:
                dropping = event.registrations.get(player__username=DROPPING_PLAYER)
                services.registration_drop(
                    actor=dropping.player, registration=dropping, round_number=number
                )
        else:
            _half_play_round(round_, judge, rng)
            _feature_matches(round_, organiser)
    return {"rounds": Round.objects.filter(tournament=event).count()}


def settle_stale_calls(event: Tournament) -> int:
    """A demo loaded before staff results settled disputes (issue 18) still has round 2's
    dispute in the judges' queue although the judge entered that match's result: the judge
    settles it now, through the service, as the entry does today. Nothing to do on a demo
    loaded since, so loading again still changes nothing."""
    judge = get_user_model().objects.get(username="judge")
    return rounds.calls_settle_final(actor=judge, tournament=event)


def _start_event(event: Tournament, organiser: Any) -> None:
    """Check-in for everyone, the day's times, registration closed, the event running."""
    for registration in event.registrations.filter(status="registered").order_by("pk"):
        services.registration_check_in(actor=organiser, registration=registration)
    # The event started this morning: three 50-minute rounds ago, give or take.
    start = timezone.now().replace(minute=0, second=0, microsecond=0) - timedelta(hours=3)
    services.event_update(
        actor=organiser,
        tournament=event,
        starts_at=start,
        registration_closes_at=start,
        decklist_deadline=start - timedelta(hours=12),
    )
    services.event_transition(actor=organiser, tournament=event, to=EventStatus.REGISTRATION_CLOSED)
    services.event_transition(actor=organiser, tournament=event, to=EventStatus.RUNNING)
    event.refresh_from_db()


def _pair_and_publish(event: Tournament, organiser: Any) -> Any:
    round_ = rounds.round_pair(actor=organiser, tournament=event)
    return rounds.round_publish(actor=organiser, round_=round_)


def _warm_standings(event: Tournament, number: int) -> None:
    """The services store a finished round's standings after the commit; store them now."""
    rounds.standings_snapshot(event, number)


def _result(rng: random.Random, *, draw_chance: float = 0.06) -> tuple[list[int], list[list[int]]]:
    """A best-of-one BoBA result with its trophies: (games, battles), seen from player a."""
    if rng.random() < draw_chance:
        return [0, 0, 1], [[3, 3]]
    winner = rng.randint(4, 7)
    loser = rng.randint(0, 7 - winner)
    if rng.random() < 0.5:
        return [1, 0, 0], [[winner, loser]]
    return [0, 1, 0], [[loser, winner]]


def _flipped(games: list[int]) -> list[int]:
    return [games[1], games[0], games[2]]


def _report_and_confirm(match: Any, rng: random.Random) -> None:
    games, battles = _result(rng)
    reporter, opponent = (match.a, match.b) if rng.random() < 0.5 else (match.b, match.a)
    rounds.match_report(actor=reporter.player, match=match, games=games, battles=battles)
    rounds.match_confirm(actor=opponent.player, match=match)


def _finish_round(round_: Any, judge: Any, rng: random.Random) -> None:
    """Every match of a round to a final result: mostly players, some by the judge, and one
    dispute the judge settles."""
    matches = list(round_.matches.filter(b__isnull=False).select_related("a__player", "b__player"))
    for i, match in enumerate(matches):
        if i % 6 == 5:
            # The judge enters a result from a match slip.
            games, battles = _result(rng)
            rounds.match_report(actor=judge, match=match, games=games, battles=battles)
        elif round_.number == 2 and i == 2:
            # The players disagree; the judge hears both and enters the result.
            games, battles = _result(rng, draw_chance=0)
            rounds.match_report(actor=match.a.player, match=match, games=games, battles=battles)
            rounds.match_report(actor=match.b.player, match=match, games=_flipped(games))
            rounds.match_report(
                actor=judge,
                match=match,
                games=games,
                battles=battles,
                reason="judge call: settled from the match slip",
            )
        else:
            _report_and_confirm(match, rng)


def _half_play_round(round_: Any, judge: Any, rng: random.Random) -> None:
    """Round 4, in progress: some results final, some waiting for the opponent, one disputed,
    the rest still playing (one table with a judge's time extension)."""
    matches = list(
        round_.matches.filter(b__isnull=False)
        .select_related("a__player", "b__player")
        .order_by("table")
    )
    for i, match in enumerate(matches):
        if i < 5:
            _report_and_confirm(match, rng)
        elif i < 9:
            games, battles = _result(rng)
            reporter = match.a if i % 2 else match.b
            rounds.match_report(actor=reporter.player, match=match, games=games, battles=battles)
        elif i == 9:
            games, battles = _result(rng, draw_chance=0)
            rounds.match_report(actor=match.a.player, match=match, games=games, battles=battles)
            rounds.match_report(actor=match.b.player, match=match, games=_flipped(games))
        elif i == 10:
            rounds.match_extend(actor=judge, match=match, minutes=5)


def _feature_matches(round_: Any, organiser: Any) -> None:
    """Round 4 on the stream overlays (docs/overlays.md): a table still playing as feature 1,
    the first final result as feature 2."""
    matches = list(
        round_.matches.filter(b__isnull=False)
        .select_related("round__tournament", "a__player", "b__player")
        .order_by("table")
    )
    overlays.feature_mark(actor=organiser, match=matches[-1], slot=1)
    overlays.feature_mark(actor=organiser, match=matches[0], slot=2)


# --- a demo event of every other game -------------------------------------------------------

GAME_DEMO_PLAYERS = 8
GAME_DEMO_SEED = 20261123


def demo_games() -> list[GamePlugin]:
    """The games that get a demo event of their own: every registered game but the default
    one (whose demo is the Open above)."""
    return [game for key, game in GAMES.items() if key != DEFAULT_GAME]


def game_demo_slug(game: GamePlugin) -> str:
    return f"battledesk-demo-{game.key}"


def load_game_demos() -> list[tuple[Tournament, bool]]:
    """An event for every game of `demo_games()` (after `load_demo`, which makes the accounts)."""
    return [load_game_demo(game) for game in demo_games()]


def load_game_demo(game: GamePlugin) -> tuple[Tournament, bool]:
    """A small event of `game` with registration open: its organiser and judge are the demo's,
    its players the first `GAME_DEMO_PLAYERS` demo players."""
    user_model = get_user_model()
    organiser = user_model.objects.get(username="organiser")
    judge = user_model.objects.get(username="judge")
    existing = Tournament.objects.filter(slug=game_demo_slug(game)).first()
    if existing is not None:
        return existing, False
    now = timezone.now().replace(minute=0, second=0, microsecond=0)
    structure = get_game(game.key).match_structure(game.default_match_structure)
    clock: dict[str, Any] = {}
    if game.clock is not None:
        # The game's recommended clock, each game starting with full time.
        clock = {
            "clock_mode": ClockMode.PER_GAME,
            "clock_minutes": game.clock.minutes_per_player,
            "clock_delay_seconds": game.clock.delay_seconds,
        }
    event = services.event_create(
        actor=organiser,
        name=f"Battledesk Demo {game.name} Cup",
        game=game.key,
        mode=game.default_mode,
        format_key=game.default_format,
        match_structure=game.default_match_structure,
        description=(
            f"A demo {game.name} event: {GAME_DEMO_PLAYERS} players, "
            f"{structure.label if structure else game.default_match_structure} matches, "
            "three Swiss rounds."
        ),
        **_demo_schedule(now, venue="Demo Hall, Table Row B", capacity=16),
        planned_rounds=3,
        **clock,
    )
    event.slug = game_demo_slug(game)
    event.save(update_fields=["slug"])
    services.event_set_judge(actor=organiser, tournament=event, user=judge, assigned=True)
    services.event_transition(actor=organiser, tournament=event, to=EventStatus.REGISTRATION_OPEN)
    for i in range(1, GAME_DEMO_PLAYERS + 1):
        player = user_model.objects.get(username=f"player{i:02d}")
        services.registration_register(actor=player, tournament=event)
    return event, True


def load_game_demo_rounds(event: Tournament) -> dict[str, int]:
    """Check everyone in, start the event and play round 1 to the end: the players report
    with the game's per-game details and confirm, the judge enters one result from a slip.
    Does nothing when the event already has rounds."""
    event.refresh_from_db()
    if event.rounds.exists() or event.status not in (
        EventStatus.REGISTRATION_OPEN,
        EventStatus.REGISTRATION_CLOSED,
    ):
        return {"rounds": 0}
    user_model = get_user_model()
    organiser = user_model.objects.get(username="organiser")
    judge = user_model.objects.get(username="judge")
    game = get_game(event.game)
    rng = random.Random(GAME_DEMO_SEED)
    event.pairing_seed = event.slug
    event.save(update_fields=["pairing_seed"])
    _start_event(event, organiser)
    round_ = _pair_and_publish(event, organiser)
    matches = list(round_.matches.filter(b__isnull=False).select_related("a__player", "b__player"))
    structure = game.match_structure(event.match_structure)
    to_win = structure.games_to_win if structure is not None else 1
    for i, match in enumerate(matches):
        winner = "a" if rng.random() < 0.5 else "b"
        loser = "b" if winner == "a" else "a"
        lost = rng.randint(0, to_win - 1)
        # The loser's wins come first or in between; the match ends on the winner's last win.
        order = [loser] * lost + [winner] * (to_win - 1)
        rng.shuffle(order)
        winners = [*order, winner]
        games = [winners.count("a"), winners.count("b"), 0]
        demo = game.demo_details(winners, GAME_DEMO_SEED + i)
        details = thaw(demo) if demo is not None else None
        if i == len(matches) - 1:
            rounds.match_report(actor=judge, match=match, games=games, game_details=details)
            continue
        reporter, opponent = (match.a, match.b) if i % 2 else (match.b, match.a)
        rounds.match_report(actor=reporter.player, match=match, games=games, game_details=details)
        rounds.match_confirm(actor=opponent.player, match=match)
    round_.refresh_from_db()
    assert round_.status == "finished", "the demo round did not finish"
    _warm_standings(event, round_.number)
    return {"rounds": Round.objects.filter(tournament=event).count()}
