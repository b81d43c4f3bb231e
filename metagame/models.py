"""Archetypes: a named rule over a decklist's cards (metagame.rules), for one game.

An archetype belongs to one *scope*: an event, a series, an organisation (its events), or none
(site-wide, made by a site administrator). An event's lists are sorted by the archetypes of
its game that reach it, by ``priority`` (lowest first); the first whose rule a list matches
names it, else it is "Other".
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from engine.games import game_choices
from tournaments.models import Tournament

SCOPE_FIELDS = ("tournament", "series", "organisation")


class Archetype(models.Model):
    game = models.CharField(_("game"), max_length=20, choices=game_choices)
    name = models.CharField(_("name"), max_length=80)
    priority = models.PositiveSmallIntegerField(
        _("priority"), default=100, help_text=_("Lower numbers are tried first.")
    )
    # metagame.rules: checked by parse_rule before it is saved.
    rule = models.JSONField(_("rule"))
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="archetypes"
    )
    series = models.ForeignKey(
        "series.Series", on_delete=models.CASCADE, null=True, blank=True, related_name="archetypes"
    )
    organisation = models.ForeignKey(
        "organisations.Organisation",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="archetypes",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "priority", "name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(series__isnull=True, organisation__isnull=True)
                    | Q(tournament__isnull=True, organisation__isnull=True)
                    | Q(tournament__isnull=True, series__isnull=True)
                ),
                name="archetype_one_scope",
            )
        ]
        indexes = [models.Index(fields=["game", "priority"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.game}, {self.scope})"

    @property
    def scope(self) -> str:
        for name in SCOPE_FIELDS:
            if getattr(self, f"{name}_id") is not None:
                return name
        return "global"
