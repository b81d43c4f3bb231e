"""Organisations: the stores and organisers that run events, their members and roles, the
players they suspend from their events, and each person's private calendar token."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from accounts.validators import validate_name


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    ORGANISER = "organiser", _("Organiser")
    SCOREKEEPER = "scorekeeper", _("Scorekeeper")
    JUDGE = "judge", _("Judge")


# The roles that make a member an organiser of the organisation's events (an owner runs them
# too) and the roles that may manage its suspensions.
ORGANISING_ROLES = (Role.OWNER.value, Role.ORGANISER.value)


class Organisation(models.Model):
    name = models.CharField(_("name"), max_length=120, validators=[validate_name])
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    description = models.TextField(_("description"), blank=True)
    website = models.URLField(_("website"), blank=True)
    city = models.CharField(_("city"), max_length=100, blank=True, validators=[validate_name])
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """One person's role in an organisation: one row per person (their one role)."""

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="memberships"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="org_memberships"
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["organisation", "role", "id"]
        constraints = [
            models.UniqueConstraint(fields=["organisation", "user"], name="membership_one_role"),
            models.CheckConstraint(
                condition=Q(role__in=[r.value for r in Role]), name="membership_role_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.organisation_id}:{self.user_id} {self.role}"


class Suspension(models.Model):
    """A player kept out of an organisation's events from ``starts_at`` until ``until``
    (the reason is shown to the player); lifting it early keeps the row."""

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="suspensions"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="org_suspensions"
    )
    starts_at = models.DateTimeField(_("from"))
    until = models.DateTimeField(_("until"))
    reason = models.TextField(_("reason"), max_length=2000)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    lifted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(until__gt=F("starts_at")), name="suspension_ends_after_start"
            )
        ]
        indexes = [models.Index(fields=["organisation", "player", "until"])]

    def __str__(self) -> str:
        return f"{self.organisation_id}:{self.player_id} until {self.until:%Y-%m-%d %H:%M}"


class CalendarToken(models.Model):
    """The secret in a person's private "my events" iCalendar URL."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_token"
    )
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"calendar token of {self.user_id}"
