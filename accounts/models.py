"""People: one account per person, whatever roles they hold.

Roles: anyone with an account can play; `is_organiser` may create events (granted by staff);
judges are assigned per event by its organisers (tournaments.Tournament.judges).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext_lazy as _

from accounts.names import public_name_of
from accounts.player_ids import new_player_id
from accounts.validators import validate_name


class User(AbstractUser):
    display_name = models.CharField(
        _("display name"),
        max_length=80,
        blank=True,
        help_text=_("How your name appears in pairings and standings."),
        validators=[validate_name],
    )
    player_id = models.CharField(
        _("player id"),
        max_length=7,
        unique=True,
        editable=False,
        help_text=_("A short code you can read out to an organiser or judge."),
    )
    is_organiser = models.BooleanField(
        _("organiser"), default=False, help_text=_("May create and run events.")
    )
    profile_public = models.BooleanField(
        _("public profile"),
        default=False,
        help_text=_(
            "Show your events, placings, records and published decklists at /players/<your "
            "player id>/. Hide it again at any time."
        ),
    )
    stream_opt_out = models.BooleanField(
        _("not on stream"),
        default=False,
        help_text=_("Organisers cannot put your matches on a stream overlay as a feature match."),
    )

    class Meta:
        ordering = ["display_name", "username"]

    def __str__(self) -> str:
        return self.public_name

    @property
    def public_name(self) -> str:
        # Names are checked when typed (accounts.names); one stored before that cannot
        # reorder or hide what is shown around it.
        return public_name_of(self.display_name, self.first_name, self.last_name, self.username)

    def save(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        if self.player_id:
            super().save(*args, **kwargs)
            return
        # A collision is one in ~600 million; retry rather than check-then-insert (racy).
        for _attempt in range(5):
            self.player_id = new_player_id()
            try:
                with transaction.atomic():
                    super().save(*args, **kwargs)
                return
            except IntegrityError:
                if User.objects.filter(player_id=self.player_id).exists():
                    continue
                raise
        raise IntegrityError("could not allocate a unique player id")
