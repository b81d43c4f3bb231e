"""Rounds, matches, result reports and every version of a result.

Vocabulary: a *round* is one Swiss round or one bracket round of an event; a *match* is one
table of a round (or a bye: no opponent); a *report* is what one player says the result was
(one per player per match, a database constraint); a *result version* is one change to a
match's result, kept forever (who, when, before, after, why). The final result lives on the
match row itself, so a match has exactly one final result by construction.

A standings *snapshot* is the standings after a finished round, computed once by the pure core
and stored; a correction to a finished round drops the snapshots it changes.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from engine.frozen import thaw
from engine.games import get_game
from engine.penalties import PenaltyError, infraction
from tournaments.models import Registration, Team, Tournament


class RoundStage(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    TOP_CUT = "top_cut", _("Top cut")
    ROUND_ROBIN = "round_robin", _("Round robin")


class RoundStatus(models.TextChoices):
    PAIRING = "pairing", _("Pairing")
    PAIRED = "paired", _("Paired, not published")
    PUBLISHED = "published", _("Published")
    FINISHED = "finished", _("Finished")


VISIBLE_TO_PLAYERS = (RoundStatus.PUBLISHED, RoundStatus.FINISHED)


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=20, choices=RoundStage.choices)
    # The event's stage (tournaments.models.Stage.number) the round belongs to, and its name
    # there ("Round 3", "Quarterfinals", "Losers round 1", "Grand final"; event-structures).
    stage_number = models.PositiveSmallIntegerField(default=1)
    name = models.CharField(max_length=40, blank=True)
    status = models.CharField(max_length=10, choices=RoundStatus.choices)
    # Bumped on every change to who sits where: the cache key of the rendered pairings.
    version = models.PositiveIntegerField(default=1)
    # Bumped, with changed_at, in the same transaction as every change to what the round's
    # published copies show (a result, a seat, an extension, the timer, its status): the
    # version of config.published copies. A counter in the row, not in the cache, so an
    # evicted cache key can never make a stale copy look fresh.
    content_version = models.PositiveBigIntegerField(default=1)
    changed_at = models.DateTimeField(null=True, blank=True)
    seed = models.CharField(max_length=64, blank=True)
    pairing_stats = models.JSONField(default=dict, blank=True)
    pairing_error = models.TextField(blank=True)
    # tournaments.timer.RoundTimer.to_json(): the length and the start/stop activations.
    timer = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        # By the columns, not the relations: ordering by a relation joins its table.
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            # Two organisers pairing at once, or a retried task, still make one round of a
            # stage; stages run side by side (flights) each have theirs.
            models.UniqueConstraint(
                fields=["tournament", "stage_number"],
                condition=~Q(status="finished"),
                name="round_one_unfinished_per_stage",
            ),
            models.CheckConstraint(
                condition=Q(status__in=RoundStatus.values), name="round_status_known"
            ),
            models.CheckConstraint(
                condition=Q(stage__in=RoundStage.values), name="round_stage_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"

    @property
    def is_visible_to_players(self) -> bool:
        return self.status in VISIBLE_TO_PLAYERS

    @property
    def is_top_cut(self) -> bool:
        return self.stage == RoundStage.TOP_CUT


class MatchStatus(models.TextChoices):
    PENDING = "pending", _("Not reported")
    REPORTED = "reported", _("One side reported")
    DISPUTED = "disputed", _("Disputed")
    FINAL = "final", _("Final")


class TeamMatch(models.Model):
    """One table of a team event's round: team against team (``team_b`` null for a bye).

    Its boards are ordinary matches (``Match.team_match``, ``Match.board``), paired from the
    two line-ups when the round is published; a tied team match with Head Coaches adds the
    deciding game (``Match.is_decider``). ``boards_*`` and ``decider`` are the result the
    pure core (tournaments.teams.team_match_result) gave from the boards; written only under
    the round's lock, like every result of the round, and ``version`` moves with each change.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="team_matches")
    table = models.PositiveIntegerField(null=True, blank=True)
    team_a = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    team_b = models.ForeignKey(
        Team, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    status = models.CharField(
        max_length=10, choices=MatchStatus.choices, default=MatchStatus.PENDING
    )
    boards_a = models.PositiveSmallIntegerField(default=0)
    boards_b = models.PositiveSmallIntegerField(default=0)
    boards_drawn = models.PositiveSmallIntegerField(default=0)
    # "a", "b" (the deciding game's winner) or "" (none, or none yet).
    decider = models.CharField(max_length=1, blank=True, default="")
    reason = models.CharField(max_length=200, blank=True)
    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round_id", "table", "id"]
        verbose_name_plural = "team matches"
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table"],
                condition=Q(table__isnull=False),
                name="team_match_table_unique_in_round",
            ),
            models.UniqueConstraint(fields=["round", "team_a"], name="team_match_a_once"),
            models.UniqueConstraint(
                fields=["round", "team_b"],
                condition=Q(team_b__isnull=False),
                name="team_match_b_once",
            ),
            models.CheckConstraint(
                condition=~Q(team_a=models.F("team_b")), name="team_match_not_against_self"
            ),
            models.CheckConstraint(
                condition=Q(team_b__isnull=False) | Q(status="final"),
                name="team_match_bye_is_final",
            ),
            models.CheckConstraint(
                condition=Q(decider__in=["", "a", "b"]), name="team_match_decider_side"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "final"]), name="team_match_status_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} team table {self.table}"

    @property
    def is_bye(self) -> bool:
        return self.team_b_id is None

    def side_of_team(self, team_id: int) -> str | None:
        if team_id == self.team_a_id:
            return "a"
        if team_id == self.team_b_id:
            return "b"
        return None


class Lineup(models.Model):
    """The members a team fields in one team match, in board order (registration ids)."""

    team_match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="lineups")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    players = models.JSONField(default=list)
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["team_match_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["team_match", "team"], name="lineup_one_per_team"),
        ]

    def __str__(self) -> str:
        return f"line-up of team {self.team_id} in {self.team_match_id}"


class Match(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveIntegerField(null=True, blank=True)
    a = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="matches_as_a")
    b = models.ForeignKey(
        Registration,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="matches_as_b",
    )
    status = models.CharField(
        max_length=10, choices=MatchStatus.choices, default=MatchStatus.PENDING
    )
    games_a = models.PositiveSmallIntegerField(null=True, blank=True)
    games_b = models.PositiveSmallIntegerField(null=True, blank=True)
    games_drawn = models.PositiveSmallIntegerField(null=True, blank=True)
    # Per game, what the game's plugin records of it (engine.plugin.MatchRules: BoBA's
    # trophies, BOS's bids, first player and swaps), or null.
    game_details = models.JSONField(null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True)
    assigned_bye = models.BooleanField(default=False)
    seed_a = models.PositiveSmallIntegerField(null=True, blank=True)
    seed_b = models.PositiveSmallIntegerField(null=True, blank=True)
    extension_minutes = models.PositiveSmallIntegerField(default=0)
    result_version = models.PositiveIntegerField(default=0)
    # A team event's board (its team match and board number, 1, 2, ...) or the Head Coaches'
    # deciding game (is_decider, no board); null and false in an individual event.
    team_match = models.ForeignKey(
        TeamMatch, on_delete=models.CASCADE, null=True, blank=True, related_name="boards"
    )
    board = models.PositiveSmallIntegerField(null=True, blank=True)
    is_decider = models.BooleanField(default=False)
    # HiLo Madness: this board is played "low power wins" (tournaments.teams.TeamRules).
    low_power_wins = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round_id", "table", "id"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(
                fields=["team_match", "board"],
                condition=Q(board__isnull=False),
                name="match_board_unique_in_team_match",
            ),
            models.UniqueConstraint(
                fields=["team_match"],
                condition=Q(is_decider=True),
                name="match_one_decider_per_team_match",
            ),
            models.CheckConstraint(
                condition=Q(team_match__isnull=True, board__isnull=True, is_decider=False)
                | Q(team_match__isnull=False, board__isnull=False, is_decider=False)
                | Q(team_match__isnull=False, board__isnull=True, is_decider=True),
                name="match_board_or_decider_of_team_match",
            ),
            models.UniqueConstraint(
                fields=["round", "table"],
                condition=Q(table__isnull=False),
                name="match_table_unique_in_round",
            ),
            # A Head Coach who played a board plays the deciding game too: a player sits
            # once per round, the decider aside.
            models.UniqueConstraint(
                fields=["round", "a"], condition=Q(is_decider=False), name="match_a_once_per_round"
            ),
            models.UniqueConstraint(
                fields=["round", "b"],
                condition=Q(b__isnull=False, is_decider=False),
                name="match_b_once_per_round",
            ),
            models.CheckConstraint(condition=~Q(a=models.F("b")), name="match_not_against_self"),
            models.CheckConstraint(
                condition=~Q(status="final") | Q(games_a__isnull=False, games_b__isnull=False),
                name="match_final_has_result",
            ),
            models.CheckConstraint(
                condition=Q(b__isnull=False) | Q(status="final"), name="match_bye_is_final"
            ),
        ]
        indexes = [models.Index(fields=["round", "status"])]

    def __str__(self) -> str:
        return f"{self.round} table {self.table}"

    @property
    def is_bye(self) -> bool:
        return self.b_id is None

    @property
    def games(self) -> tuple[int, int, int] | None:
        if self.games_a is None or self.games_b is None:
            return None
        return (self.games_a, self.games_b, self.games_drawn or 0)

    def side_of(self, registration_id: int) -> str | None:
        if registration_id == self.a_id:
            return "a"
        if registration_id == self.b_id:
            return "b"
        return None

    def opponent_of(self, registration_id: int) -> int | None:
        return self.b_id if registration_id == self.a_id else self.a_id

    def result_json(self, viewer: str | None = None) -> dict[str, Any] | None:
        """The final result as the event API shows it to `viewer`: "staff", a player's side
        ("a", "b") or None (anyone)."""
        games = self.games
        if games is None or self.status != MatchStatus.FINAL:
            return None
        out: dict[str, Any] = {"games": list(games)}
        if self.game_details is not None:
            # Under the game's API name and shape (BoBA: `battles`, `[[a, b], ...]`).
            rules = get_game(self.round.tournament.game).match_rules()
            visible = self.visible_details(self.game_details, viewer)
            out[rules.api_key] = rules.to_api(visible)
        return out

    def visible_details(self, details: Any, viewer: str | None) -> Any:
        """What of per-game details `viewer` ("staff", "a", "b" or None) may see: all for staff
        and once the event's decklists are published; else what the game shows (BOS: a
        player's own reserve swaps only, none to anyone else)."""
        tournament = self.round.tournament
        if details is None or viewer == "staff" or tournament.decklists_published_at is not None:
            return details

        return thaw(get_game(tournament.game).match_rules().visible_details(details, viewer))


class Report(models.Model):
    """What one player of a match says its result was."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reports")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    games_a = models.PositiveSmallIntegerField()
    games_b = models.PositiveSmallIntegerField()
    games_drawn = models.PositiveSmallIntegerField(default=0)
    game_details = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["match", "registration"], name="report_one_per_player_per_match"
            )
        ]

    def __str__(self) -> str:
        return f"report by {self.registration_id} on match {self.match_id}"

    @property
    def games(self) -> tuple[int, int, int]:
        return (self.games_a, self.games_b, self.games_drawn)


class ResultChange(models.TextChoices):
    REPORTED = "reported", _("Reported by a player")
    CONFIRMED = "confirmed", _("Confirmed by the opponent")
    DISPUTED = "disputed", _("Disputed")
    ENTERED = "entered", _("Entered by staff")
    CORRECTED = "corrected", _("Corrected by staff")
    AUTO_CONFIRMED = "auto_confirmed", _("Confirmed automatically")
    BYE = "bye", _("Bye")
    TIME = "time", _("Loss on time (match clock)")


class ResultVersion(models.Model):
    """One change to a match's result: kept forever."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    change = models.CharField(max_length=20, choices=ResultChange.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="result_version_unique")
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} version {self.number} ({self.change})"


class ClockEvent(models.Model):
    """One press on a match clock, kept forever: the clock's state is replayed from these
    (matches.clock), so it survives a lost connection and judges see the same times."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="clock_events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=20)
    side = models.CharField(max_length=1, blank=True)
    game = models.PositiveSmallIntegerField(default=1)
    at = models.DateTimeField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    payload = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["match_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="clock_event_seq_unique")
        ]

    def __str__(self) -> str:
        return f"clock {self.kind} #{self.seq} on match {self.match_id}"


class StandingsSnapshot(models.Model):
    """The standings after a finished round, as the pure core computed them."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="standings")
    rows = models.JSONField()
    # The newest result version of the rounds it covers when it was computed: a correction
    # to any of those rounds makes a newer one, so a stale snapshot is never served.
    source_version = models.BigIntegerField(default=0)
    # The tiebreaker configuration it was computed with (tournaments.tiebreakers.fingerprint):
    # a changed order, or a deployed change to a tiebreaker, makes the next read recompute.
    tiebreakers = models.CharField(max_length=200, blank=True, default="")
    computed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"standings after {self.round}"


class CallKind(models.TextChoices):
    CALL = "call", _("Judge call")
    DISPUTE = "dispute", _("Disputed result")


class CallStatus(models.TextChoices):
    OPEN = "open", _("Waiting for a judge")
    CLAIMED = "claimed", _("A judge is on it")
    RESOLVED = "resolved", _("Resolved")


OPEN_CALL_STATUSES = (CallStatus.OPEN, CallStatus.CLAIMED)


class JudgeCall(models.Model):
    """A call for a judge on a match, or a disputed result: one item of the judges' queue.

    A match has at most one unresolved call (a partial unique constraint): a second call or a
    dispute on it joins the open one. ``holder`` is the one judge working on it.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="calls")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="calls")
    kind = models.CharField(max_length=10, choices=CallKind.choices, default=CallKind.CALL)
    status = models.CharField(max_length=10, choices=CallStatus.choices, default=CallStatus.OPEN)
    question = models.CharField(max_length=500, blank=True)
    notes = models.TextField(blank=True)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    holder = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="held_calls",
    )
    escalated = models.BooleanField(default=False)
    opened_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["opened_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"],
                condition=~Q(status="resolved"),
                name="call_one_open_per_match",
            ),
            models.CheckConstraint(
                condition=~Q(status="claimed") | Q(holder__isnull=False),
                name="call_claimed_has_holder",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "status"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} on {self.match}"

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_CALL_STATUSES


class RulingDecision(models.TextChoices):
    STANDS = "stands", _("Result stands")
    CHANGED = "changed", _("Result changed")
    REPLAYED = "replayed", _("Replayed (part of) a game")
    OTHER = "other", _("Ruling without a result change")


class Ruling(models.Model):
    """A judge's ruling on a call: words, rule citations, and the replayed record if any."""

    call = models.ForeignKey(JudgeCall, on_delete=models.CASCADE, related_name="rulings")
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    text = models.TextField()
    citations = models.JSONField(default=list, blank=True)
    decision = models.CharField(max_length=10, choices=RulingDecision.choices)
    record = models.JSONField(null=True, blank=True)
    replay = models.JSONField(null=True, blank=True)
    engine_version = models.CharField(max_length=40, blank=True)
    result = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"ruling on {self.call}"


class InfractionCategory(models.TextChoices):
    """The penalty guidelines group infractions as these (engine/penalties.py)."""

    CONDUCT = "conduct", _("Conduct")
    GAMEPLAY = "gameplay", _("Gameplay")
    TOURNAMENT = "tournament", _("Tournament")


class PenaltyKind(models.TextChoices):
    """Lightest first, as in engine/penalties.PENALTIES."""

    CAUTION = "caution", _("Caution")
    WARNING = "warning", _("Warning")
    GAME_LOSS = "game_loss", _("Game loss")
    MATCH_LOSS = "match_loss", _("Match loss")
    DISQUALIFICATION = "disqualification", _("Disqualification")


class Penalty(models.Model):
    """A penalty a judge gave a player from a match card, kept forever.

    ``infraction`` is a key of engine/penalties.CATALOGUE (its ``category`` is copied so the
    log reads without the catalogue); ``suggested`` is what the catalogue and the upgrade rule
    suggested when it was given (it differs from ``penalty`` when the judge chose otherwise);
    ``repeat`` counts earlier penalties for the same infraction to this player in this event.
    ``applied_to_result`` says whether it changed the match's recorded result; ``outcome`` says
    in words what it did.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="penalties")
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="penalties"
    )
    infraction = models.CharField(max_length=60)
    category = models.CharField(max_length=12, choices=InfractionCategory.choices)
    penalty = models.CharField(max_length=20, choices=PenaltyKind.choices)
    suggested = models.CharField(max_length=20, choices=PenaltyKind.choices)
    repeat = models.PositiveSmallIntegerField(default=0)
    note = models.TextField(blank=True)
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    applied_to_result = models.BooleanField(default=False)
    outcome = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name_plural = "penalties"
        constraints = [
            models.CheckConstraint(
                condition=Q(penalty__in=PenaltyKind.values), name="penalty_kind_known"
            ),
            models.CheckConstraint(
                condition=Q(category__in=InfractionCategory.values), name="penalty_category_known"
            ),
        ]
        indexes = [
            models.Index(fields=["tournament", "created_at"]),
            models.Index(fields=["registration", "infraction"]),
        ]

    def __str__(self) -> str:
        return f"{self.get_penalty_display()} for {self.infraction} ({self.registration_id})"

    @property
    def infraction_label(self) -> str:
        try:
            return infraction(self.infraction).label
        except PenaltyError:
            return self.infraction

    @property
    def upgrade_suggested(self) -> bool:
        """The infraction repeated in this event, so the next penalty up was suggested."""
        return self.repeat > 0

    @property
    def deviates(self) -> bool:
        return self.penalty != self.suggested
