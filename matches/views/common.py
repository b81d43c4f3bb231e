"""What the player-facing round pages share: cache keys and lifetimes, the reader's
registration, the games a match is played to, and the round timer's context.
"""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import timezone
from django.utils.translation import get_language

from matches import presenters, selectors, services
from matches.models import Round, RoundStatus
from tournaments.models import Registration, Tournament

PAIRINGS_CACHE_SECONDS = 6 * 3600
STANDINGS_CACHE_SECONDS = 6 * 3600
STANDINGS_PER_PAGE = 200
CUT_ROWS_PER_PAGE = 200


def cache_key(*parts: Any) -> str:
    return ":".join(str(p) for p in parts)


def _timer_url(slug: str, number: int) -> str:
    """``reverse("api-round-timer", ...)`` for the round, kept per process for everything the
    answer depends on (the URL configuration and script prefix in force, the language): every
    page with a timer asks it for every request."""
    return _reversed_timer_url(
        settings.ROOT_URLCONF, get_urlconf(), get_script_prefix(), get_language(), slug, number
    )


@functools.lru_cache(maxsize=1024)
def _reversed_timer_url(
    root: str, urlconf: Any, prefix: str, language: str | None, slug: str, number: int
) -> str:
    return reverse("api-round-timer", kwargs={"slug": slug, "number": number}, urlconf=urlconf)


def round_timer_context(
    event: Tournament, round_: Round, *, extension_minutes: int = 0, now: datetime | None = None
) -> dict[str, Any]:
    """The round's timer as every page shows it (matches.presenters.timer_context), one
    table's extension added."""
    now = now or timezone.now()
    view = selectors.timer_view(round_, now)
    return presenters.timer_context(
        state=view.state,
        ends_at=view.ends_at,
        remaining_seconds=view.remaining_seconds,
        now=now,
        extension_minutes=extension_minutes,
        url=_timer_url(event.slug, round_.number),
        time_zone=event.time_zone,
        round_number=round_.number,
    )


def timer_context(
    event: Tournament, round_: Round, *, extension_minutes: int = 0, now: datetime | None = None
) -> dict[str, Any] | None:
    """What templates/matches/_timer.html shows; None unless the round is being played."""
    if round_.status != RoundStatus.PUBLISHED:
        return None
    return round_timer_context(event, round_, extension_minutes=extension_minutes, now=now)


def registration_of(user: Any, event: Tournament) -> Registration | None:
    return selectors.registration_of(user, event)


def games_to_win_of(round_: Round) -> int:
    """Games a match win needs in the round: its stage's structure (event-structures:
    Stages; a best-of-3 top cut after a best-of-1 Swiss)."""
    structure = services.round_structure(round_)
    return structure.games_to_win if structure is not None else 1
