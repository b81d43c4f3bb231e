"""The card catalog, decklists and deck checks.

Vocabulary: a *card* is one printing in a game's catalog (kept in the plugin's flat fields);
a *decklist* belongs to one registration and holds *versions*: every submission is a new,
immutable version and the latest is the active list. A *deck check* is a judge's random
selection of players in a round, with an outcome recorded per player.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from engine.games import game_choices
from tournaments.models import Registration, Tournament

DEMO_ID_PREFIX = "demo:"
"""Every game's generated demo cards have ids that start with this (its demo_cards())."""


class Catalog(models.Model):
    """A card pool of one game: the official list, the demo's fictional cards, or an
    organiser's own cards. Every card belongs to exactly one catalog; an event reads one."""

    class Kind(models.TextChoices):
        DEMO = "demo", _("Demo (fictional cards)")
        OFFICIAL = "official", _("Official")
        CUSTOM = "custom", _("Custom")

    game = models.CharField(max_length=20, choices=game_choices)
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80, unique=True)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="card_catalogs",
        help_text=_("The organiser a custom catalog belongs to."),
    )
    # A custom catalog may belong to a store or organiser (organisations app) as well.
    organisation = models.ForeignKey(
        "organisations.Organisation",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="card_catalogs",
        help_text=_("The organisation a custom catalog belongs to."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "kind", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "kind"],
                condition=models.Q(kind__in=["demo", "official"]),
                name="catalog_one_shared_per_game_and_kind",
            )
        ]
        permissions = [
            (
                "manage_shared_catalogs",
                "Can import cards into shared catalogs (official, demo) and any organiser's",
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def shared(self) -> bool:
        return self.kind != self.Kind.CUSTOM


class Card(models.Model):
    catalog = models.ForeignKey(Catalog, on_delete=models.PROTECT, related_name="cards")
    game = models.CharField(max_length=20, choices=game_choices)
    external_id = models.CharField(max_length=120, help_text="The card's id in its source list.")
    kind = models.CharField(max_length=20)
    name = models.CharField(max_length=200)
    set_name = models.CharField(max_length=120, blank=True, null=True)
    card_number = models.CharField(max_length=40, blank=True, null=True)
    parallel = models.CharField(max_length=120, blank=True, null=True)
    weapon = models.CharField(max_length=20, blank=True, null=True)
    power = models.IntegerField(null=True, blank=True)
    cost = models.IntegerField(null=True, blank=True)
    dbs = models.IntegerField(null=True, blank=True)
    base_name = models.CharField(max_length=200, blank=True, null=True)
    year = models.IntegerField(null=True, blank=True)
    release = models.CharField(max_length=40, blank=True, null=True)
    # The game's own card fields that have no column here (its plugin's card_fields).
    attributes = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "set_name", "card_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["catalog", "external_id"], name="card_unique_per_catalog"
            )
        ]
        indexes = [
            models.Index(fields=["game", "kind", "name"]),
            models.Index(fields=["catalog", "name"]),
        ]

    def __str__(self) -> str:
        return f"{self.name} [{self.set_name} #{self.card_number}]"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # A card made without a catalog (the admin, a test) goes where its origin says: the
        # demo catalog for the generated demo cards, the official one for the rest.
        if self.catalog_id is None:
            kind = (
                Catalog.Kind.DEMO
                if self.external_id.startswith(DEMO_ID_PREFIX)
                else Catalog.Kind.OFFICIAL
            )
            self.catalog = shared_catalog(self.game, kind)
        super().save(*args, **kwargs)


SHARED_CATALOG_NAMES = {
    "demo": "%(game)s demo cards (fictional)",
    "official": "%(game)s official cards",
}


def shared_catalog(game: str, kind: str) -> Catalog:
    """The game's demo or official catalog, made on first use (slug `<game>-<kind>`)."""
    catalog, _created = Catalog.objects.get_or_create(
        game=game,
        kind=kind,
        defaults={
            "slug": f"{game}-{kind}",
            "name": SHARED_CATALOG_NAMES[kind] % {"game": game.upper()},
        },
    )
    return catalog


class EventCatalog(models.Model):
    """The catalog an event's decklists, card search and suggestions read, when an organiser
    chose one (the demo event uses the demo catalog). Without a row an event reads its game's
    default catalog: the official one once it has cards, else the demo one."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="card_catalog"
    )
    catalog = models.ForeignKey(Catalog, on_delete=models.PROTECT, related_name="event_links")
    chosen_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    chosen_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.tournament}: {self.catalog}"


class CardImport(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        RUNNING = "running", _("Importing")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    game = models.CharField(max_length=20, choices=game_choices)
    catalog = models.ForeignKey(
        Catalog, on_delete=models.SET_NULL, null=True, blank=True, related_name="imports"
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    file_names = models.JSONField(default=list)
    # The uploaded files, kept until the import finishes so a worker on another machine can
    # read them; a task retried after a crash starts again from them (upserts are idempotent).
    payload = models.JSONField(default=list, blank=True)
    total = models.PositiveIntegerField(default=0)
    processed = models.PositiveIntegerField(default=0)
    created_count = models.PositiveIntegerField(default=0)
    updated_count = models.PositiveIntegerField(default=0)
    unchanged_count = models.PositiveIntegerField(default=0)
    rejections = models.JSONField(default=list, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Import {self.pk} ({self.status})"

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return int(100 * self.processed / self.total) if self.total else 0

    @property
    def rejected_count(self) -> int:
        return len(self.rejections)


class CardVersion(models.Model):
    """One change to a card, never edited: its fields before and after, who, when, and the
    import (or other source) that made it."""

    card = models.ForeignKey(
        Card, on_delete=models.SET_NULL, null=True, blank=True, related_name="versions"
    )
    catalog = models.ForeignKey(Catalog, on_delete=models.CASCADE, related_name="+")
    external_id = models.CharField(max_length=120)
    before = models.JSONField(help_text="The card's fields before the change.")
    after = models.JSONField(help_text="The card's fields after the change.")
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    card_import = models.ForeignKey(
        CardImport, on_delete=models.SET_NULL, null=True, blank=True, related_name="card_versions"
    )
    source = models.CharField(
        max_length=40, help_text="What made the change: upload, command, admin."
    )
    changed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-changed_at", "-id"]
        indexes = [models.Index(fields=["catalog", "external_id"])]

    def __str__(self) -> str:
        return f"{self.external_id} changed {self.changed_at:%Y-%m-%d %H:%M}"


class Decklist(models.Model):
    registration = models.OneToOneField(
        Registration, on_delete=models.CASCADE, related_name="decklist"
    )
    unlocked = models.BooleanField(
        default=False, help_text=_("An organiser reopened this list after the lock.")
    )
    # This list alone made public (the top decklists of a finished event), whether or not the
    # event's lists are (Tournament.decklists_published_at publishes them all).
    published_at = models.DateTimeField(_("published"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Decklist of {self.registration}"

    @property
    def tournament(self) -> Tournament:
        return self.registration.tournament


class DecklistVersion(models.Model):
    """One submission, never edited: what was sent, the canonical list, and its report."""

    decklist = models.ForeignKey(Decklist, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    text = models.TextField(help_text="The list in the canonical decklist text format.")
    data = models.JSONField(help_text="The list in the JSON form (sections of entries).")
    submitted_text = models.TextField(blank=True)
    format_key = models.CharField(max_length=40)
    legal = models.BooleanField()
    report = models.JSONField()
    statistics = models.JSONField(default=dict)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    entered_by_staff = models.BooleanField(default=False)
    submitted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["decklist", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["decklist", "number"], name="decklist_version_unique")
        ]

    def __str__(self) -> str:
        return f"{self.decklist} v{self.number}"


class DeckCheck(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="deck_checks")
    round_number = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    requested = models.PositiveSmallIntegerField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Deck check, round {self.round_number}"


class DeckCheckResult(models.Model):
    class Outcome(models.TextChoices):
        PENDING = "pending", _("Not checked yet")
        OK = "ok", _("Matches the list")
        PROBLEM = "problem", _("Does not match the list")

    deck_check = models.ForeignKey(DeckCheck, on_delete=models.CASCADE, related_name="results")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    version = models.ForeignKey(
        DecklistVersion, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    outcome = models.CharField(max_length=20, choices=Outcome.choices, default=Outcome.PENDING)
    notes = models.TextField(blank=True)
    # Filled when the penalty log exists (matches issue); kept as a free reference until then.
    penalty_reference = models.CharField(max_length=80, blank=True)
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    checked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["deck_check", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["deck_check", "registration"], name="deck_check_one_result_per_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.registration}: {self.outcome}"
