"""Series: a named set of events with a points table, and which event belongs to which series.

Vocabulary (event-structures: Series; tournaments/series.py): a *series* gathers events; its
*points table* gives points by final place (or, league-style, per match won or drawn); its
*leaderboard* sums each player's points over the events whose placings are final. The stored
``leaderboard`` is the one last announced in the events' audit trails (series.services.refresh);
readers get the current one from series.selectors, computed once per change of any event's
results.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.validators import validate_name
from tournaments.models import Tournament


class SeriesCounting(models.TextChoices):
    PLACINGS = "placings", _("Points by final place")
    MATCHES = "matches", _("Points per match won or drawn")


class Series(models.Model):
    name = models.CharField(_("name"), max_length=120, validators=[validate_name])
    slug = models.SlugField(_("slug"), max_length=140, unique=True)
    counting = models.CharField(
        _("counting"), max_length=10, choices=SeriesCounting.choices, default="placings"
    )
    # tournaments.series.PointsTable.to_json() (placings) or LeagueTable.to_json() (matches).
    points = models.JSONField(_("points"), default=dict)
    description = models.TextField(_("description"), blank=True)
    # The store or organiser running the series (issue 22: series belong to an organisation);
    # its owners and organisers count as the series' organisers.
    organisation = models.ForeignKey(
        "organisations.Organisation",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="series",
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_series", blank=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The leaderboard as last refreshed (rows of LeaderboardRow.to_json() plus "results"): what
    # a correction's audit entry is compared against.
    leaderboard = models.JSONField(default=list, blank=True)
    refreshed_at = models.DateTimeField(null=True, blank=True)
    # Closing applies the qualifications; a closed series takes no more events.
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "id"]
        verbose_name_plural = "series"
        constraints = [
            models.CheckConstraint(
                condition=Q(counting__in=SeriesCounting.values), name="series_counting_known"
            )
        ]

    def __str__(self) -> str:
        return self.name


class SeriesEvent(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="entries")
    # An event belongs to at most one series (the contract): one row per event.
    event = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="series_entry")
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["series_id", "id"]

    def __str__(self) -> str:
        return f"{self.series} / {self.event}"


class SeriesQualification(models.Model):
    """The rule "the top ``invite_top`` of this series get an invite to ``event``; the top ``bye_top``
    also get byes in ``bye_rounds``", applied when the series closes (by rank: players tied at
    the line all qualify)."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="qualifications")
    event = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    invite_top = models.PositiveSmallIntegerField()
    bye_top = models.PositiveSmallIntegerField(default=0)
    bye_rounds = models.JSONField(default=list, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["series_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["series", "event"], name="qualification_once"),
            models.CheckConstraint(
                condition=Q(bye_top__lte=models.F("invite_top")),
                name="qualification_byes_within_invites",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series}: top {self.invite_top} to {self.event}"
