"""Events, registrations and the audit trail.

Vocabulary: an *event* (model Tournament) is one tournament; a *registration* ties a person
(an account, or a walk-in known only by name until an account claims it) to an event; the
*waitlist* holds registrations beyond capacity, promoted in the order they joined it. Every
change to an event or registration is an AuditEntry: who, when, what.
"""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.names import display_safe
from accounts.validators import validate_name
from engine.games import GAMES, default_game, game_choices, get_game
from tournaments import stages as stage_rules
from tournaments import teams, tiebreakers
from tournaments.organisation_roles import organisation_roles
from tournaments.status import LABELS, PUBLIC, EventStatus

STATUS_CHOICES = [(s.value, LABELS[s]) for s in EventStatus]
TOP_CUT_CHOICES = [(0, _("No top cut")), (2, "2"), (4, "4"), (8, "8"), (16, "16")]


class FirstRoundPairing(models.TextChoices):
    RANDOM = "random", _("Random")
    SEEDED = "seeded", _("By seed (top half against bottom half)")


class LateEntryPolicy(models.TextChoices):
    LOSS = "loss", _("A loss for each missed round")
    ZERO = "zero", _("Join on zero, missed rounds not counted")


class ClockMode(models.TextChoices):
    """A match clock's scope: the rules that recommend one do not say (BOS: Time Control)."""

    OFF = "off", _("No match clock")
    PER_GAME = "per_game", _("Per game: each game starts with full time")
    PER_MATCH = "per_match", _("Per match: the time carries over between games")


def default_clock_mode(game: str) -> str:
    """A new event's match clock: per game when its game recommends a clock (the plugin's
    ClockDefaults), off otherwise."""
    plugin = GAMES.get(game)
    return ClockMode.PER_GAME if plugin is not None and plugin.clock is not None else ClockMode.OFF


class RegistrationMode(models.TextChoices):
    FIRST_COME = "first_come", _("First come, first served")
    LOTTERY = "lottery", _("Lottery: entries until a deadline, then a published draw")


class FeeStatus(models.TextChoices):
    UNPAID = "unpaid", _("Unpaid")
    PAID = "paid", _("Paid")
    REFUNDED = "refunded", _("Refunded")
    COMPED = "comped", _("Comped")


class CutPolicy(models.TextChoices):
    STRICT = "strict", _("Strict: the top N by standings")
    POINTS = "points", _("Everyone tied on points with the Nth player")


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(_("'%(value)s' is not a known time zone."), params={"value": value})


class TournamentQuerySet(models.QuerySet["Tournament"]):
    def visible_to(self, user) -> TournamentQuerySet:  # type: ignore[no-untyped-def]
        public = Q(status__in=[s.value for s in PUBLIC])
        if user is not None and user.is_authenticated:
            staff = Q(organisers=user) | Q(judges=user)
            provider = organisation_roles()
            if provider is not None:
                # The drafts of the organisations the person helps run.
                staff |= Q(organisation_id__in=provider.staffed_organisations(user))
            return self.filter(public | staff).distinct()
        return self.filter(public)


def tiebreaker_order_refusal(order: object, game: str) -> str:
    """Why ``order`` cannot be an event's tiebreaker order for ``game`` ("" when it can)."""
    if order in (None, ""):
        return ""
    if not isinstance(order, list | tuple):
        return str(_("A list of tiebreaker keys, in order."))
    try:
        tiebreakers.check_order(order, game)
    except tiebreakers.TiebreakerOrderError as exc:
        return gettext("Tiebreaker %(n)d: %(reason)s.") % {
            "n": exc.index + 1,
            "reason": exc.reason.render(gettext),
        }
    return ""


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=120, validators=[validate_name])
    slug = models.SlugField(_("slug"), max_length=140, unique=True)
    # Callables: adding a game to engine.games needs no migration.
    game = models.CharField(_("game"), max_length=20, choices=game_choices, default=default_game)
    mode = models.CharField(_("game mode"), max_length=30)
    format_key = models.CharField(_("format"), max_length=40)
    format_params = models.JSONField(
        _("custom format parameters"),
        default=dict,
        blank=True,
        help_text=_("Overrides of the format's parameters; empty: the preset as published."),
    )
    match_structure = models.CharField(_("match structure"), max_length=10, default="bo1")
    description = models.TextField(_("description"), blank=True)
    starts_at = models.DateTimeField(_("start time"))
    time_zone = models.CharField(
        _("time zone"), max_length=64, default="UTC", validators=[validate_time_zone]
    )
    venue = models.CharField(_("venue"), max_length=200, blank=True, validators=[validate_name])
    city = models.CharField(
        _("city"), max_length=100, blank=True, db_index=True, validators=[validate_name]
    )
    # The store or organiser running the event (organisations app); its organisers organise
    # the event, its judges judge it. Null: an event of its own organisers only.
    organisation = models.ForeignKey(
        "organisations.Organisation",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("organisation"),
    )
    capacity = models.PositiveIntegerField(
        _("capacity"), null=True, blank=True, help_text=_("Blank: no limit.")
    )
    registration_opens_at = models.DateTimeField(_("registration opens"), null=True, blank=True)
    registration_closes_at = models.DateTimeField(_("registration closes"), null=True, blank=True)
    decklist_deadline = models.DateTimeField(_("decklist deadline"), null=True, blank=True)
    round_minutes = models.PositiveSmallIntegerField(_("round length (minutes)"), default=50)
    planned_rounds = models.PositiveSmallIntegerField(
        _("Swiss rounds"),
        null=True,
        blank=True,
        help_text=_("Blank: recommended from attendance."),
    )
    top_cut_size = models.PositiveSmallIntegerField(
        _("top cut"), choices=TOP_CUT_CHOICES, default=8
    )
    status = models.CharField(
        _("status"), max_length=30, choices=STATUS_CHOICES, default=EventStatus.DRAFT.value
    )
    player_check_in_open = models.BooleanField(_("players may check themselves in"), default=False)
    require_legal_decklist = models.BooleanField(
        _("a legal decklist is needed to check in"),
        default=True,
        help_text=_("Players without a legal decklist cannot check in."),
    )
    decklists_published_at = models.DateTimeField(_("decklists published"), null=True, blank=True)
    first_round_pairing = models.CharField(
        _("round 1 pairing"),
        max_length=10,
        choices=FirstRoundPairing.choices,
        default=FirstRoundPairing.RANDOM,
    )
    late_entry_policy = models.CharField(
        _("late entries"),
        max_length=10,
        choices=LateEntryPolicy.choices,
        default=LateEntryPolicy.LOSS,
    )
    cut_policy = models.CharField(
        _("cut line"), max_length=10, choices=CutPolicy.choices, default=CutPolicy.STRICT
    )
    start_timer_on_publish = models.BooleanField(
        _("publishing a round starts its timer"), default=True
    )
    auto_confirm_minutes = models.PositiveSmallIntegerField(
        _("confirm a lone report automatically after (minutes)"),
        null=True,
        blank=True,
        help_text=_(
            "Minutes after the round ends; blank: never (a judge or the opponent confirms)."
        ),
    )
    clock_mode = models.CharField(
        _("match clock"), max_length=10, choices=ClockMode.choices, default=ClockMode.OFF
    )
    clock_minutes = models.PositiveSmallIntegerField(
        _("clock minutes per player"),
        null=True,
        blank=True,
        help_text=_("Blank: the game's recommendation."),
    )
    clock_delay_seconds = models.PositiveSmallIntegerField(
        _("clock delay each turn (seconds)"),
        null=True,
        blank=True,
        help_text=_("Blank: the game's recommendation."),
    )
    hide_standings_before_final = models.BooleanField(
        _("hide standings before the final Swiss round"), default=False
    )
    # The organiser's order of the Swiss tiebreakers after match points (keys of the
    # registry, tournaments.tiebreakers); empty: the game's order (`tiebreakers`).
    tiebreaker_order = models.JSONField(
        _("tiebreakers"),
        default=list,
        blank=True,
        help_text=_("Blank: the game's order."),
    )
    judges_may_check_in = models.BooleanField(
        _("judges may check players in"),
        default=False,
        help_text=_("Judges then work the check-in desk alongside the organisers."),
    )
    # A team event (docs/teams.md): the contract's {"players", "roster_max", "head_coach"};
    # null for an individual event. `team_rules`: what a preset adds (tournaments.teams
    # rules_from_event: the preset, the low-power boards, the Head Coach's board, the format
    # each role plays), kept normalised by the services.
    team = models.JSONField(_("team event"), null=True, blank=True, default=None)
    team_rules = models.JSONField(_("team rules"), default=dict, blank=True)
    # The pairing draw's seed: kept so anyone can re-run an event's pairings (swiss_state).
    pairing_seed = models.CharField(max_length=32, blank=True)
    # Registration at capacity (tournaments.lottery): the seed stays secret until the draw;
    # its SHA-256 commitment is public from the moment the lottery is chosen.
    registration_mode = models.CharField(
        _("registration"),
        max_length=12,
        choices=RegistrationMode.choices,
        default=RegistrationMode.FIRST_COME,
    )
    lottery_deadline = models.DateTimeField(
        _("lottery deadline"),
        null=True,
        blank=True,
        help_text=_("Entries are collected until then; the draw follows."),
    )
    lottery_seed = models.CharField(max_length=64, blank=True)
    lottery_commitment = models.CharField(max_length=64, blank=True)
    lottery_drawn_at = models.DateTimeField(null=True, blank=True)
    entry_fee = models.DecimalField(
        _("entry fee"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    entry_fee_currency = models.CharField(
        _("currency"), max_length=3, blank=True, help_text=_("ISO 4217, like EUR or USD.")
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_events", verbose_name=_("organisers")
    )
    judges = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="judged_events",
        blank=True,
        verbose_name=_("judges"),
    )
    head_judge = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="head_judged_events",
        verbose_name=_("head judge"),
        help_text=_("Escalated calls go to this judge."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["starts_at", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in EventStatus]),
                name="tournament_status_known",
            ),
            models.CheckConstraint(
                condition=Q(registration_closes_at__isnull=True)
                | Q(registration_opens_at__isnull=True)
                | Q(registration_closes_at__gt=models.F("registration_opens_at")),
                name="tournament_registration_window_ordered",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("event_detail", kwargs={"slug": self.slug})

    def clean(self) -> None:
        errors: dict[str, str] = {}
        if self.game not in GAMES:
            errors["game"] = _("Unknown game.")
        else:
            game = get_game(self.game)
            if game.mode(self.mode) is None:
                errors["mode"] = _("'%(mode)s' is not a mode of %(game)s.") % {
                    "mode": self.mode,
                    "game": game.name,
                }
            fmt = game.format(self.format_key)
            if fmt is None:
                errors["format_key"] = _("'%(fmt)s' is not a format of %(game)s.") % {
                    "fmt": self.format_key,
                    "game": game.name,
                }
            elif fmt.mode != self.mode and "mode" not in errors:
                errors["format_key"] = _(
                    "The format '%(fmt)s' is played in %(fmode)s mode, not %(mode)s."
                ) % {"fmt": fmt.label, "fmode": fmt.mode, "mode": self.mode}
            elif self.format_params:
                try:
                    game.deck_rules().resolve_format(self.format_key, self.format_params)
                except ValueError as exc:
                    errors["format_params"] = str(exc)
            refusal = tiebreaker_order_refusal(self.tiebreaker_order, self.game)
            if refusal:
                errors["tiebreaker_order"] = refusal
            if game.match_structure(self.match_structure) is None:
                errors["match_structure"] = _("Unknown match structure.")
            if self.clock_mode != ClockMode.OFF and not self.clock_minutes and game.clock is None:
                errors["clock_minutes"] = _(
                    "%(game)s recommends no match clock: give the minutes each player has."
                ) % {"game": game.name}
            if self.team is not None or self.team_rules:
                try:
                    _rules = self.team_rules_value
                except teams.TeamError as exc:
                    key = "team" if exc.field.split(".")[0] == "team" else "team_rules"
                    errors[key] = str(exc)
        if self.clock_minutes is not None and not 1 <= self.clock_minutes <= 600:
            errors["clock_minutes"] = _("From 1 to 600 minutes.")
        if self.clock_delay_seconds is not None and self.clock_delay_seconds > 600:
            errors["clock_delay_seconds"] = _("At most 600 seconds.")
        if (
            self.registration_opens_at
            and self.registration_closes_at
            and self.registration_closes_at <= self.registration_opens_at
        ):
            errors["registration_closes_at"] = _("Registration must close after it opens.")
        if self.capacity is not None and self.capacity < 2:
            errors["capacity"] = _("An event needs room for at least two players.")
        if self.registration_mode == RegistrationMode.LOTTERY:
            if self.capacity is None:
                errors.setdefault("capacity", _("A lottery needs a capacity: the places drawn."))
            if self.lottery_deadline is None:
                errors["lottery_deadline"] = _("A lottery needs a deadline for its entries.")
        if self.entry_fee is not None and self.entry_fee < 0:
            errors["entry_fee"] = _("An entry fee cannot be negative.")
        if self.entry_fee_currency and not (
            len(self.entry_fee_currency) == 3
            and self.entry_fee_currency.isascii()
            and self.entry_fee_currency.isupper()
        ):
            errors["entry_fee_currency"] = _("Three capital letters (ISO 4217), like EUR.")
        if errors:
            raise ValidationError(errors)

    @property
    def is_team_event(self) -> bool:
        return self.team is not None

    @property
    def team_rules_value(self) -> teams.TeamRules | None:
        """The event's team rules (tournaments.teams), or None for an individual event.
        Raises teams.TeamError for settings that do not read (Tournament.clean refuses them)."""
        if self.team is None and not self.team_rules:
            return None
        game = get_game(self.game)
        return teams.rules_from_event(
            self.team,
            self.team_rules or {},
            [f.key for f in game.formats()],
            default_format=self.format_key,
        )

    @property
    def status_enum(self) -> EventStatus:
        return EventStatus(self.status)

    @property
    def format_label(self) -> str:
        fmt = get_game(self.game).format(self.format_key)
        return fmt.label if fmt else self.format_key

    @property
    def deck_format(self):  # type: ignore[no-untyped-def]
        """The deck rules' format object for this event (a preset or its custom variant)."""
        return get_game(self.game).deck_rules().resolve_format(self.format_key, self.format_params)

    @property
    def game_name(self) -> str:
        return get_game(self.game).name

    @property
    def tiebreakers(self) -> tuple[str, ...]:
        """The order the standings rank by: the organiser's, or the game's by default."""
        if self.tiebreaker_order:
            return tuple(self.tiebreaker_order)
        return get_game(self.game).tiebreakers

    @property
    def tiebreaker_fingerprint(self) -> str:
        """What the event's tiebreakers compute (stored standings keep the one they had)."""
        return tiebreakers.fingerprint(self.tiebreakers)

    @property
    def structure(self):  # type: ignore[no-untyped-def]
        """The match structure (best of 1 or 3) of this event's game."""
        return get_game(self.game).match_structure(self.match_structure)


class RegistrationStatus(models.TextChoices):
    REGISTERED = "registered", _("Registered")
    WAITLISTED = "waitlisted", _("Waitlisted")
    WITHDRAWN = "withdrawn", _("Withdrawn")
    REMOVED = "removed", _("Removed by organiser")
    ENTERED = "entered", _("Entered in the lottery")


ACTIVE_STATUSES = (
    RegistrationStatus.REGISTERED,
    RegistrationStatus.WAITLISTED,
    RegistrationStatus.ENTERED,
)
# The waitlist's order: a lottery's draw order first, then when each joined.
WAITLIST_ORDER = (models.F("draw_position").asc(nulls_last=True), "queued_at", "id")


class Registration(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="registrations",
    )
    walk_in_name = models.CharField(
        _("walk-in name"), max_length=80, blank=True, validators=[validate_name]
    )
    claim_code = models.CharField(max_length=12, null=True, blank=True, unique=True)
    status = models.CharField(
        max_length=20, choices=RegistrationStatus.choices, default=RegistrationStatus.REGISTERED
    )
    # Waitlist order: when the registration last joined the waitlist.
    queued_at = models.DateTimeField(null=True, blank=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    dropped_at = models.DateTimeField(null=True, blank=True)
    drop_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # Rounds with a bye granted at registration (invitations): never paired in those rounds.
    bye_rounds = models.JSONField(_("byes granted for rounds"), default=list, blank=True)
    # Why the player holds this place without registering, shown to them and to the staff
    # ("Invited: rank 3 of the Store season"); set by a series' qualification.
    invitation = models.CharField(_("invitation"), max_length=200, blank=True)
    seed = models.FloatField(_("seed"), null=True, blank=True, help_text=_("Higher seeds first."))
    fixed_table = models.PositiveIntegerField(
        _("fixed table"), null=True, blank=True, help_text=_("For players who cannot move.")
    )
    # The first round this registration could be paired in; set when it is first paired.
    late_entry_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # Its place in the lottery's draw (1 = drawn first); null without a lottery.
    draw_position = models.PositiveIntegerField(null=True, blank=True)
    fee_status = models.CharField(
        _("entry fee"), max_length=10, choices=FeeStatus.choices, default=FeeStatus.UNPAID
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(player__isnull=False),
                name="registration_one_per_player",
            ),
            models.CheckConstraint(
                condition=Q(player__isnull=False) | ~Q(walk_in_name=""),
                name="registration_has_a_person",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "status"])]

    def __str__(self) -> str:
        return f"{self.name} @ {self.tournament}"

    @property
    def name(self) -> str:
        return self.player.public_name if self.player_id else display_safe(self.walk_in_name)

    @property
    def is_walk_in(self) -> bool:
        return self.player_id is None

    @property
    def checked_in(self) -> bool:
        return self.checked_in_at is not None

    @property
    def dropped(self) -> bool:
        return self.dropped_at is not None


class AuditEntry(models.Model):
    """One change, kept forever: who did what to which object of an event, and when."""

    # The trail outlives what it describes: deleting an event or a registration (the admin
    # can) keeps its entries, which still name the event by slug.
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="audit_entries",
    )
    event_slug = models.CharField(max_length=140, blank=True, db_index=True)
    registration = models.ForeignKey(
        Registration,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="audit_entries",
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    action = models.CharField(max_length=60)
    target = models.CharField(max_length=80, blank=True, help_text="model:id of what changed")
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "audit entries"
        # The dashboard's "recent changes": an event's latest entries, among thousands.
        indexes = [models.Index(fields=["tournament", "-created_at", "-id"])]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action} {self.target}"


class FeeChange(models.Model):
    """One change of a registration's entry-fee status: who, when, from what to what."""

    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="fee_changes"
    )
    was = models.CharField(max_length=10, choices=FeeStatus.choices)
    status = models.CharField(max_length=10, choices=FeeStatus.choices)
    note = models.CharField(max_length=200, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.registration_id}: {self.was} -> {self.status}"


class StageKind(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    SINGLE_ELIMINATION = "single_elimination", _("Single elimination")
    DOUBLE_ELIMINATION = "double_elimination", _("Double elimination")
    ROUND_ROBIN = "round_robin", _("Round robin")


class StageCarry(models.TextChoices):
    NONE = "none", _("A fresh start")
    POINTS = "points", _("Records carried")


class StageStatus(models.TextChoices):
    PENDING = "pending", _("Not started")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class Stage(models.Model):
    """One stage of an event (event-structures: Stages): a Swiss, a bracket or a round robin.

    The definition is the contract's (``tournaments.stages.Stage``, converted by
    :meth:`to_rule` and :meth:`from_rule`, the one place that does); the site adds who plays it
    (``players``, in seed order, frozen when it starts) and when it started and finished.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="stages")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(_("name"), max_length=64)
    kind = models.CharField(_("kind"), max_length=20, choices=StageKind.choices)
    rounds = models.PositiveSmallIntegerField(_("rounds"), null=True, blank=True)
    match_structure = models.CharField(_("match structure"), max_length=10, blank=True)
    round_minutes = models.PositiveSmallIntegerField(
        _("round length (minutes)"), null=True, blank=True
    )
    entry = models.JSONField(_("entry"), null=True, blank=True)
    carry = models.CharField(
        _("carry"), max_length=10, choices=StageCarry.choices, default=StageCarry.NONE
    )
    players = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="stage_number_unique"),
            models.CheckConstraint(condition=Q(kind__in=StageKind.values), name="stage_kind_known"),
            models.CheckConstraint(
                condition=Q(carry__in=StageCarry.values), name="stage_carry_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} stage {self.number}"

    @property
    def status(self) -> str:
        if self.finished_at is not None:
            return StageStatus.FINISHED.value
        if self.started_at is not None:
            return StageStatus.RUNNING.value
        return StageStatus.PENDING.value

    @property
    def is_elimination(self) -> bool:
        return self.kind in (StageKind.SINGLE_ELIMINATION, StageKind.DOUBLE_ELIMINATION)

    def to_rule(self) -> stage_rules.Stage:
        """The pure definition (tournaments.stages) of this row."""
        entry = None
        if self.entry is not None:
            raw = self.entry
            entry = stage_rules.Entry(
                sources=tuple(raw.get("from") or ()),
                top=raw.get("top"),
                points=raw.get("points"),
                players=tuple(raw["players"]) if raw.get("players") is not None else None,
            )
        return stage_rules.Stage(
            number=self.number,
            name=self.name,
            kind=self.kind,  # type: ignore[arg-type]
            rounds=self.rounds,
            match_structure=self.match_structure or None,
            round_minutes=self.round_minutes,
            entry=entry,
            carry=self.carry,  # type: ignore[arg-type]
        )

    @classmethod
    def from_rule(cls, tournament: Tournament, rule: stage_rules.Stage) -> Stage:
        """An unsaved row for the pure definition ``rule`` of ``tournament``."""
        return cls(
            tournament=tournament,
            number=rule.number,
            name=rule.name,
            kind=rule.kind,
            rounds=rule.rounds,
            match_structure=rule.match_structure or "",
            round_minutes=rule.round_minutes,
            entry=rule.entry.to_json() if rule.entry is not None else None,
            carry=rule.carry,
        )

    def to_json(self) -> dict[str, Any]:
        """The contract's stage (event-structures: Stages) with the site's number, status and,
        once started, players."""
        out = self.to_rule().to_json()
        out["number"] = self.number
        out["status"] = self.status
        if self.players is not None:
            out["players"] = list(self.players)
        return out


class Team(models.Model):
    """A team of a team event (docs/teams.md): its roster is its TeamMember rows, its Head
    Coach one of them (tournaments.services checks; the pure rules are tournaments.teams)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("team name"), max_length=80, validators=[validate_name])
    head_coach = models.ForeignKey(
        Registration,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("Head Coach"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    """One registration on a team's roster. A registration belongs to one event, so the
    unique registration is "nobody in two teams of the event" as a database rule."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="team_memberships"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["team_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["registration"], name="team_member_one_team"),
        ]

    def __str__(self) -> str:
        return f"{self.registration_id} in {self.team_id}"
