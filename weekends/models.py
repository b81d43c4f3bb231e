"""Weekends: a group of events at one venue (a main event, side events and last-chance
qualifiers) with one schedule, one check-in badge and one rule of one entry per deck.

An event belongs to at most one weekend: ``WeekendEvent`` is the link, one row per event (a
unique event), so the tournaments app's tables do not change.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from accounts.validators import validate_name
from tournaments.models import Tournament


class Weekend(models.Model):
    name = models.CharField(_("name"), max_length=120, validators=[validate_name])
    slug = models.SlugField(_("slug"), max_length=140, unique=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True, validators=[validate_name])
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_weekends", verbose_name=_("organisers")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["starts_on", "name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")), name="weekend_days_ordered"
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("weekend_schedule", kwargs={"slug": self.slug})


class WeekendEventKind(models.TextChoices):
    MAIN = "main", _("Main event")
    SIDE = "side", _("Side event")
    LCQ = "lcq", _("Last-chance qualifier")


class WeekendEvent(models.Model):
    """An event of a weekend; an event is in at most one weekend (the unique event)."""

    weekend = models.ForeignKey(Weekend, on_delete=models.CASCADE, related_name="entries")
    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="weekend_entry"
    )
    kind = models.CharField(
        _("kind"), max_length=10, choices=WeekendEventKind.choices, default=WeekendEventKind.SIDE
    )
    template = models.ForeignKey(
        Tournament,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text=_("The event this one was launched from, if any."),
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["weekend_id", "tournament__starts_at", "tournament_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["weekend"], condition=Q(kind="main"), name="weekend_one_main_event"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=WeekendEventKind.values), name="weekend_event_kind_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.weekend}: {self.tournament}"
