"""Reads shared by the pages and the API: what each person may see of rounds and matches.

Anything unpublished is invisible (a 404) to those who may not see it yet: players and the
public see published and finished rounds; the event's organisers and judges see every round.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.db.models import Q, QuerySet
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _

from config import prepared
from config.published import version_of
from engine.games import get_game
from matches.models import (
    OPEN_CALL_STATUSES,
    VISIBLE_TO_PLAYERS,
    CallStatus,
    JudgeCall,
    Match,
    MatchStatus,
    Round,
    RoundStage,
    RoundStatus,
    TeamMatch,
)
from tournaments import permissions
from tournaments.models import Registration, RegistrationStatus, TeamMember, Tournament
from tournaments.selectors import entrant_count, rows_version
from tournaments.status import PUBLIC, EventStatus
from tournaments.swiss import recommended_structure
from tournaments.timer import RoundTimer, table_ends_at


def rounds_visible(user: Any, tournament: Tournament) -> QuerySet[Round]:
    qs = tournament.rounds.order_by("number")
    if permissions.is_staff_of(user, tournament):
        return qs
    return qs.filter(status__in=VISIBLE_TO_PLAYERS)


def _rounds_of(tournament_id: int) -> QuerySet[Round]:
    return Round.objects.filter(tournament_id=tournament_id).order_by("number")


def _player_rounds_of(tournament_id: int) -> QuerySet[Round]:
    return _rounds_of(tournament_id).filter(status__in=VISIBLE_TO_PLAYERS)


def rounds_visible_list(user: Any, tournament: Tournament) -> list[Round]:
    """``list(rounds_visible(user, tournament))``, each round's `tournament` the one given, its
    SQL compiled once per process (config.prepared): everybody loads the event page at once."""
    if type(tournament.pk) is not int:
        rounds = list(rounds_visible(user, tournament))
    elif permissions.is_staff_of(user, tournament):
        rounds = prepared.fetch(
            "rounds-of-event", _rounds_of, tournament.pk, remember=rows_version(tournament)
        )
    else:
        rounds = prepared.fetch(
            "player-rounds-of-event",
            _player_rounds_of,
            tournament.pk,
            remember=rows_version(tournament),
        )
    for r in rounds:
        r.tournament = tournament
    return rounds


def _round_numbered(tournament_id: int, number: int) -> QuerySet[Round]:
    # at most one row (the event's round numbers are unique): no ORDER BY needed
    return Round.objects.filter(tournament_id=tournament_id, number=number).order_by()


def round_visible(user: Any, tournament: Tournament, number: int) -> Round:
    """The event's round `number` if the user may see it, else 404; its SQL compiled once per
    process (config.prepared): every player loads the pairings page at once."""
    if type(tournament.pk) is int and type(number) is int:
        found = prepared.fetch("round-numbered", _round_numbered, tournament.pk, number)
        round_ = found[0] if found else None
    else:
        round_ = tournament.rounds.filter(number=number).first()
    # The staff check only for an unpublished round: published ones are everyone's.
    if round_ is None or (
        not round_.is_visible_to_players and not permissions.is_staff_of(user, tournament)
    ):
        raise Http404("No such round.")
    round_.tournament = tournament
    return round_


def round_shown_version(round_: Round) -> str:
    """What decides everything a round's published copies show (config.published): its
    counter of shown changes (a result, a seat, an extension: matches.services bumps it in
    the same transaction), its status and timer, and what of the event changes how its
    results and records read. Read from the rows already loaded: no query unless the event
    hides its standings before the final round."""
    tournament = round_.tournament
    return version_of(
        "round",
        round_.pk,
        round_.content_version,
        round_.version,
        round_.status,
        round_.stage,
        json.dumps(round_.timer, sort_keys=True),
        round_.published_at,
        round_.finished_at,
        round_.pairing_error,
        tournament.game,
        tournament.decklists_published_at,
        records_hidden(round_),
    )


def round_changed_at(round_: Round) -> datetime | None:
    """When what the round shows last changed, as far as the rows say (Last-Modified)."""
    tournament = round_.tournament
    stamps = [
        t
        for t in (
            round_.changed_at,
            round_.published_at,
            round_.finished_at,
            tournament.decklists_published_at,
        )
        if t is not None
    ]
    return max(stamps) if stamps else None


def top_cut_version(tournament: Tournament, cut_rounds: list[Round]) -> str:
    """What decides what the top cut shows (the API's and the bracket page's copies): the
    event's cut settings and each bracket round the reader may see (staff see unpublished
    ones too, so their version differs from the public's)."""
    return version_of(
        "top-cut",
        tournament.pk,
        tournament.top_cut_size,
        tournament.cut_policy,
        tournament.status,
        *(round_shown_version(r) for r in cut_rounds),
    )


def top_cut_changed_at(cut_rounds: list[Round]) -> datetime | None:
    stamps = [t for t in (round_changed_at(r) for r in cut_rounds) if t is not None]
    return max(stamps) if stamps else None


def timer_is_running(round_: Round) -> bool:
    return RoundTimer.from_json(round_.timer or {"length_seconds": 0}).state == "running"


def round_matches(round_: Round) -> QuerySet[Match]:
    """Every match of a round with both players' names, byes last, by table."""
    return round_.matches.select_related("a__player", "b__player").order_by("table", "id")


def match_visible(user: Any, match_id: int) -> Match:
    # A pk filter finds one row or none: no ORDER BY to build (first() would add one).
    found = list(
        Match.objects.select_related("round__tournament", "a__player", "b__player").filter(
            pk=match_id
        )
    )
    if not found:
        raise Http404("No such match.")
    match = found[0]
    tournament = match.round.tournament
    # Tournament.objects.visible_to, decided on the row already loaded: a public event's
    # published rounds are everyone's; anything else is for its staff.
    public = tournament.status in PUBLIC and match.round.is_visible_to_players
    if not public and not permissions.is_staff_of(user, tournament):
        raise Http404("No such match.")
    return match


def latest_visible_round(user: Any, tournament: Tournament) -> Round | None:
    return rounds_visible(user, tournament).order_by("-number").first()


def registration_of(user: Any, tournament: Tournament) -> Registration | None:
    if not permissions.is_authenticated(user):
        return None
    return tournament.registrations.filter(player=user).first()


@dataclass(frozen=True)
class Seat:
    """What decides a player's own match as "my match" shows it, read in two indexed
    queries: the match, its round's counter of shown changes and timer, and who looks."""

    match_id: int
    viewer: str  # "staff", or the player's side "a" / "b"
    version: str
    changed_at: datetime | None
    timer_running: bool


def _my_seat_sql() -> str:
    """One statement for `my_seat`: the registration by its unique (event, player) index, the
    latest published round, the match by the (round, a) / (round, b) indexes, and whether the
    reader is staff. Written out because building it with the ORM cost more than running it
    (it answers every phone's poll)."""
    visible = ", ".join(f"'{status}'" for status in VISIBLE_TO_PLAYERS)
    public = ", ".join(f"'{status}'" for status in PUBLIC)
    match, round_ = Match._meta.db_table, Round._meta.db_table
    registration, tournament = Registration._meta.db_table, Tournament._meta.db_table
    organisers = Tournament.organisers.through._meta.db_table
    judges = Tournament.judges.through._meta.db_table
    return f"""
        SELECT m.id, m.a_id = g.id, r.id, r.content_version, r.version, r.status, r.timer,
               r.changed_at, r.published_at, r.finished_at, t.decklists_published_at,
               EXISTS (SELECT 1 FROM {organisers} o WHERE o.tournament_id = t.id
                       AND o.user_id = %(user)s)
               OR EXISTS (SELECT 1 FROM {judges} j WHERE j.tournament_id = t.id
                          AND j.user_id = %(user)s)
        FROM {tournament} t
        JOIN {registration} g ON g.tournament_id = t.id AND g.player_id = %(user)s
        JOIN {round_} r ON r.tournament_id = t.id AND r.number = (
            SELECT max(v.number) FROM {round_} v
            WHERE v.tournament_id = t.id AND v.status IN ({visible}))
        JOIN {match} m ON m.round_id = r.id AND (m.a_id = g.id OR m.b_id = g.id)
        WHERE t.slug = %(slug)s AND t.status IN ({public})
        LIMIT 1"""


def _stamp(value: Any) -> datetime | None:
    """A timestamp from a raw row: SQLite gives text (UTC, as Django stores it)."""
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value)).replace(tzinfo=UTC)


def my_seat(user: Any, slug: str) -> Seat | None:
    """The signed-in player's match in the latest published round of a public event, as
    `my_match` finds it, in one indexed statement and without loading the event, the round
    or the people; None when there is none or the event is not public (the caller then takes
    the full path, which decides between a 404 and what staff may see)."""
    if not permissions.is_authenticated(user):
        return None
    with connection.cursor() as cursor:
        cursor.execute(_my_seat_sql(), {"user": user.pk, "slug": slug})
        row = cursor.fetchone()
    if row is None:
        return None
    match_id, is_a, round_id, content, seats, status, timer, *stamps, staff = row
    changed, published, finished, decklists_published_at = (_stamp(t) for t in stamps)
    if isinstance(timer, str):
        timer = json.loads(timer)
    viewer = "staff" if staff or user.is_superuser else ("a" if is_a else "b")
    known = [t for t in (changed, published, finished, decklists_published_at) if t is not None]
    return Seat(
        match_id=match_id,
        viewer=viewer,
        version=version_of(
            "my-match",
            match_id,
            viewer,
            round_id,
            content,
            seats,
            status,
            json.dumps(timer, sort_keys=True),
            published,
            finished,
            decklists_published_at,
        ),
        changed_at=max(known) if known else None,
        timer_running=RoundTimer.from_json(timer or {"length_seconds": 0}).state == "running",
    )


def _registration_of(tournament_id: int, user_id: int) -> QuerySet[Registration]:
    # registration_of's query: at most one row (the unique (event, player) index)
    return Registration.objects.filter(tournament_id=tournament_id, player_id=user_id)[:1]


def _latest_player_round(tournament_id: int) -> QuerySet[Round]:
    return Round.objects.filter(
        tournament_id=tournament_id, status__in=VISIBLE_TO_PLAYERS
    ).order_by("-number")[:1]


def _match_of(round_id: int, registration_id: int) -> QuerySet[Match]:
    # what `.first()` of the unordered query asks: ordered by id
    return Match.objects.filter(
        Q(a_id=registration_id) | Q(b_id=registration_id), round_id=round_id
    ).order_by("pk")[:1]


def _people(registration_id: int) -> QuerySet[Registration]:
    return Registration.objects.filter(pk=registration_id).select_related("player")


def _pair(a_id: int, b_id: int) -> QuerySet[Registration]:
    return Registration.objects.filter(pk__in=[a_id, b_id]).select_related("player")


def my_match(user: Any, tournament: Tournament, round_: Round | None = None) -> Match | None:
    """The user's match in the latest published round (or in ``round_``): the user's
    registration by its unique (event, player) index, then the match by the unique
    (round, a) or (round, b) index; no join over the round's matches."""
    if not permissions.is_authenticated(user):
        return None
    # Each query's SQL compiled once per process (config.prepared) when its values are plain
    # ids: every player loads their match when a round is published.
    plain = type(tournament.pk) is int and type(user.pk) is int
    if plain:
        found = prepared.fetch("registration-of", _registration_of, tournament.pk, user.pk)
        registration = found[0] if found else None
    else:
        registration = registration_of(user, tournament)
    if registration is None:
        return None
    if round_ is None:
        if plain:
            rounds = prepared.fetch("latest-player-round", _latest_player_round, tournament.pk)
            round_ = rounds[0] if rounds else None
        else:
            round_ = (
                tournament.rounds.filter(status__in=VISIBLE_TO_PLAYERS).order_by("-number").first()
            )
    if round_ is None:
        return None
    round_.tournament = tournament
    if tournament.team is None and type(round_.pk) is int and type(registration.pk) is int:
        found_matches = prepared.fetch("match-of", _match_of, round_.pk, registration.pk)
        match = found_matches[0] if found_matches else None
    else:
        matches = Match.objects.filter(Q(a=registration) | Q(b=registration), round=round_)
        # No ordering: the two unique indexes answer it without a sort. In a team event a
        # Head Coach may have a board and the deciding game: the decider first, it is played
        # last.
        ordered = (
            matches.order_by("-is_decider") if tournament.team is not None else matches.order_by()
        )
        match = ordered.first()
    if match is None:
        return None
    # Two small queries plan faster than one five-table join (the planner's time dominated).
    if match.b_id is None and type(match.a_id) is int:
        people = {r.pk: r for r in prepared.fetch("registration-and-player", _people, match.a_id)}
    elif type(match.a_id) is int and type(match.b_id) is int:
        pair = prepared.fetch("registrations-and-players", _pair, match.a_id, match.b_id)
        people = {r.pk: r for r in pair}
    else:
        people = {
            r.pk: r
            for r in Registration.objects.filter(pk__in=[match.a_id, match.b_id]).select_related(
                "player"
            )
        }
    match.round = round_
    match.a = people[match.a_id]
    if match.b_id is not None:
        match.b = people[match.b_id]
    return match


@dataclass(frozen=True)
class TimerView:
    state: str
    ends_at: datetime | None
    remaining_seconds: int
    length_seconds: int


def timer_view(round_: Round, now: datetime, extension_minutes: int = 0) -> TimerView:
    timer = RoundTimer.from_json(round_.timer or {"length_seconds": 0})
    ends = table_ends_at(timer.ends_at, extension_minutes)
    remaining = timer.remaining(now).total_seconds() + extension_minutes * 60
    return TimerView(
        state=timer.state,
        ends_at=ends,
        remaining_seconds=round(remaining),
        length_seconds=int(timer.length.total_seconds()),
    )


@dataclass(frozen=True)
class RoundProgress:
    counts: dict[str, int]
    total: int
    unfinished: list[Match]


def round_progress(round_: Round) -> RoundProgress:
    """Every match's state with counts, and the unfinished ones by table for the sweep."""
    matches = list(round_matches(round_))
    counts = Counter(m.status for m in matches)
    unfinished = sorted(
        (m for m in matches if m.status != MatchStatus.FINAL), key=lambda m: m.table or 0
    )
    return RoundProgress(
        counts={status: counts.get(status, 0) for status in MatchStatus.values},
        total=len(matches),
        unfinished=unfinished,
    )


def swiss_rounds_planned(tournament: Tournament, players: int) -> int:
    """The event's Swiss rounds: its own count, else the recommended count for its
    entrants: ``players``, or a team event's teams (its Swiss pairs teams)."""
    if tournament.planned_rounds:
        return int(tournament.planned_rounds)
    return recommended_structure(max(entrant_count(tournament, players), 2))[0]


def standings_hidden_for(user: Any, tournament: Tournament, round_number: int) -> bool:
    """With the event's option on, players do not see standings going into the final round."""
    if not tournament.hide_standings_before_final or permissions.is_staff_of(user, tournament):
        return False
    players = tournament.registrations.filter(status="registered").count()
    planned = swiss_rounds_planned(tournament, players)
    final_finished = tournament.rounds.filter(
        stage=RoundStage.SWISS, number=planned, status=RoundStatus.FINISHED
    ).exists()
    return round_number == planned - 1 and not final_finished


def records_hidden(round_: Round) -> bool:
    """Whether the pairings of `round_` leave out each player's record: with the event's
    option to hide the standings going into the final round, its records would show them
    (decided for everyone alike: the pairings are rendered once for all)."""
    tournament = round_.tournament
    if not tournament.hide_standings_before_final or round_.stage != RoundStage.SWISS:
        return False
    return standings_hidden_for(AnonymousUser(), tournament, round_.number - 1)


def judged_events(user: Any) -> QuerySet[Tournament]:
    """The events whose calls reach this person today: running ones they judge or organise."""
    if not permissions.is_authenticated(user):
        return Tournament.objects.none()
    running = [EventStatus.RUNNING.value, EventStatus.TOP_CUT.value]
    qs = Tournament.objects.filter(status__in=running)
    if not user.is_superuser:
        # Two small subqueries rather than joins and DISTINCT: every look at the queue and
        # every "take the next call" asks this.
        judges = Tournament.judges.through.objects.filter(user=user).values("tournament_id")
        organisers = Tournament.organisers.through.objects.filter(user=user)
        qs = qs.filter(Q(pk__in=judges) | Q(pk__in=organisers.values("tournament_id")))
    return qs


QUEUE_FILTERS = ("open", "mine", "escalated", "resolved", "all")
QUEUE_SORTS = ("waiting", "table")


# The kind of shared copy (config.shared_copies) the judges' queue is: one version per event.
QUEUE_COPIES = "judge-calls"


def judge_queue(
    user: Any, *, state: str = "open", sort: str = "waiting", event: Tournament | None = None
) -> QuerySet[JudgeCall]:
    """The queue across every event the person judges today, filtered and sorted."""
    events = judged_events(user).values("pk")
    return queue_calls(events, state=state, sort=sort, event=event, user=user)


def queue_calls(
    event_ids: Any,
    *,
    state: str = "open",
    sort: str = "waiting",
    event: Tournament | None = None,
    user: Any = None,
) -> QuerySet[JudgeCall]:
    """The calls of these events (ids or a subquery) as the queue shows them; ``user`` is
    needed only for "mine"."""
    qs = JudgeCall.objects.filter(tournament__in=event_ids)
    if event is not None:
        qs = qs.filter(tournament=event)
    if state == "open":
        qs = qs.filter(status__in=OPEN_CALL_STATUSES)
    elif state == "mine":
        qs = qs.filter(status__in=OPEN_CALL_STATUSES, holder=user)
    elif state == "escalated":
        qs = qs.filter(status__in=OPEN_CALL_STATUSES, escalated=True)
    elif state == "resolved":
        qs = qs.filter(status=CallStatus.RESOLVED)
    order = ("match__table", "opened_at", "id") if sort == "table" else ("opened_at", "id")
    return _call_columns(qs).order_by(*order)


_PERSON = ("display_name", "username", "first_name", "last_name")


def _call_columns(qs: QuerySet[JudgeCall]) -> QuerySet[JudgeCall]:
    """Only what the queue and the API show of a call: the joined rows are wide (accounts,
    events), and building and loading every column of ten tables dominated their cost."""
    return qs.select_related(
        "tournament", "holder", "match__round", "match__a__player", "match__b__player"
    ).only(
        "kind",
        "status",
        "question",
        "notes",
        "escalated",
        "opened_at",
        "claimed_at",
        "resolved_at",
        "tournament__name",
        "tournament__slug",
        "tournament__status",
        *(f"holder__{f}" for f in _PERSON),
        "match__table",
        "match__round__number",
        "match__a__walk_in_name",
        "match__a__player_id",
        "match__b__walk_in_name",
        "match__b__player_id",
        *(f"match__a__player__{f}" for f in _PERSON),
        *(f"match__b__player__{f}" for f in _PERSON),
    )


def call_visible(user: Any, call_id: int, *, lean: bool = False) -> JudgeCall:
    """A call for the event's staff, or for a player of its match; else 404. ``lean`` loads
    only what the API shows of it (the pages need the whole rows)."""
    qs = JudgeCall.objects.filter(pk=call_id)
    if lean:
        qs = _call_columns(qs)
    else:
        qs = qs.select_related(
            "tournament", "holder", "match__round", "match__a__player", "match__b__player"
        )
    found = list(qs)  # one row or none: no ORDER BY to build
    if not found:
        raise Http404("No such call.")
    call = found[0]
    if permissions.is_staff_of(user, call.tournament):
        return call
    match = call.match
    plays = permissions.is_authenticated(user) and user.pk in (
        match.a.player_id,
        match.b.player_id if match.b is not None else None,
    )
    if not plays:
        raise Http404("No such call.")
    return call


def game_detail_lines(game: str, details: Any, name_a: str, name_b: str) -> list[str]:
    """Each game of a result's per-game details in words, as the event's game describes it
    (the staff match page's result, and each report on a judge's call page)."""
    if not details:
        return []
    rules = get_game(game).match_rules()
    names = {"a": name_a, "b": name_b}
    return [" ".join(t.render(_) for t in game_) for game_ in rules.describe(details, names)]


def report_outcome(match: Match) -> str:
    """What a player's report or confirmation just did, in words, from the match's status
    after it: final, waiting for the opponent, or disputed with a judge on the way. The
    page's message and the API's `message` say the same thing."""
    if match.status == MatchStatus.FINAL:
        return _("The result is final: you and your opponent agree.")
    if match.status == MatchStatus.DISPUTED:
        return _(
            "Your report differs from your opponent's: the match is disputed. "
            "A judge is coming to your table: stay there."
        )
    return _("Result sent. Waiting for your opponent to confirm it on their phone.")


def current_table_of(user: Any) -> Match | None:
    """The match a signed-in player should see first: theirs in the published current round
    of a running event (Swiss or top cut) they are still registered in. With several, the
    most relevant: a result still to report before a final one, a table before a bye, then
    the round published last. None when they play nowhere right now."""
    if not permissions.is_authenticated(user):
        return None
    registrations = Registration.objects.filter(
        player=user,
        status=RegistrationStatus.REGISTERED,
        dropped_at__isnull=True,
        tournament__status__in=[EventStatus.RUNNING.value, EventStatus.TOP_CUT.value],
    ).values("pk")
    found = list(
        Match.objects.filter(Q(a__in=registrations) | Q(b__in=registrations))
        .filter(round__status=RoundStatus.PUBLISHED)
        .select_related("round__tournament")
        .order_by()[:20]  # one per event at most: bounded by the events a person plays at once
    )
    if not found:
        return None
    epoch = datetime.min.replace(tzinfo=UTC)
    return min(
        found,
        key=lambda m: (
            m.status == MatchStatus.FINAL,
            m.b_id is None,
            -(m.round.published_at or epoch).timestamp(),
        ),
    )


def current_table_landing(user: Any) -> str | None:
    """Where a player signing in lands (accounts.extensions): their current table's page."""
    match = current_table_of(user)
    if match is None:
        return None
    return reverse("my_match", kwargs={"slug": match.round.tournament.slug})


def lineups_for(user: Any, team_match: TeamMatch) -> dict[str, list[int] | None]:
    """The line-ups of a team match a reader may see ("a", "b": registration ids in board
    order, or None): staff both; a team's members their own before the round is published;
    everyone both once it is (the boards show them anyway)."""
    lineups = {lu.team_id: list(lu.players) for lu in team_match.lineups.all()}
    tournament = team_match.round.tournament
    shown = permissions.is_staff_of(user, tournament) or team_match.round.is_visible_to_players
    out: dict[str, list[int] | None] = {}
    for side, team_id in (("a", team_match.team_a_id), ("b", team_match.team_b_id)):
        own = (
            team_id is not None
            and permissions.is_authenticated(user)
            and TeamMember.objects.filter(team_id=team_id, registration__player=user).exists()
        )
        out[side] = lineups.get(team_id) if team_id is not None and (shown or own) else None
    return out
