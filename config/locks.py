"""Row locks, in the site's one order (docs/architecture.md, "Lock order").

Every service that locks rows takes them through ``for_update`` and in the order of
``LOCK_ORDER``, skipping what it does not need but never going back up the list. Two services
that lock the same rows in different orders deadlock under load (PostgreSQL kills one of them:
a 500 to its user); in one order the second simply waits.

The lock is ``FOR NO KEY UPDATE OF <the model's own table>``: it serialises writers of the row
just as ``FOR UPDATE`` does, but it does not block inserting rows that merely point at it
(an audit entry, a decklist version, a report): PostgreSQL checks such a foreign key with a
``FOR KEY SHARE`` lock on the parent, which ``FOR UPDATE`` blocks. With ``FOR UPDATE`` every
audit entry written under a round's or a match's lock waited on the event's lock, out of order.
"""

from __future__ import annotations

from typing import TypeVar

from django.db import models

M = TypeVar("M", bound=models.Model)

# What each service locks, outermost first. Rows of one kind are locked in id order.
LOCK_ORDER: tuple[str, ...] = (
    # organisations.Organisation: above its events (a suspension cancelling registrations)
    "organisation",
    "weekend",  # weekends.Weekend: above its events (adding one, launching a side event)
    "event",  # tournaments.Tournament
    "series",  # series.Series (closing one: after the events it invites into)
    "registration",  # tournaments.Registration
    "team",  # tournaments.Team (team matches and line-ups: under their round's lock)
    "decklist",  # decks.Decklist
    "deck check result",  # decks.DeckCheckResult
    "round",  # matches.Round
    "match",  # matches.Match
    "report",  # matches.Report
    "judge call",  # matches.JudgeCall
)
# Locked alone, in a transaction that takes no other lock: decks.CardImport, series.Series in a
# leaderboard refresh (its audit entries only point at events), an account being erased
# (accounts.User), organisations.Organisation in its other services (then its Membership or
# Suspension row), and a person's CalendarToken. Locked after the event and nothing else:
# notifications.NotificationSettings.


def for_update(queryset: models.QuerySet[M], *, skip_locked: bool = False) -> models.QuerySet[M]:
    """The queryset's own rows, locked for writing (``FOR NO KEY UPDATE OF`` its table only,
    never the rows of tables it joins for ``select_related``)."""
    return queryset.select_for_update(of=("self",), no_key=True, skip_locked=skip_locked)
