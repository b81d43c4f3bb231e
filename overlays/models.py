"""Feature matches: the matches an organiser puts on stream, one numbered slot each per round.

The overlay URL names the slot (``/events/<slug>/overlays/feature/1/``), not the match, so a
streamer's browser source keeps its URL from round to round: slot 1 shows the newest visible
round's slot 1.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from matches.models import Match, Round
from tournaments.models import Tournament

MAX_SLOT = 8


class FeatureMatch(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="feature_matches"
    )
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="feature_matches")
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="feature")
    slot = models.PositiveSmallIntegerField(default=1)
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    marked_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round_id", "slot"]
        constraints = [
            models.UniqueConstraint(fields=["round", "slot"], name="feature_slot_once_per_round"),
            models.CheckConstraint(
                condition=models.Q(slot__gte=1, slot__lte=MAX_SLOT), name="feature_slot_range"
            ),
        ]
        indexes = [models.Index(fields=["tournament", "slot"])]

    def __str__(self) -> str:
        return f"feature {self.slot}: match {self.match_id}"
