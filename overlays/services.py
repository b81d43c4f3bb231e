"""Marking feature matches (docs/overlays.md): the organiser's only write in the overlays.

One transaction each, the round's row locked (the site's lock order: the round, then what
hangs under it), audited, and the live version moved after the commit so the overlay follows.
A player who chose not to be streamed (``accounts.User.stream_opt_out``) is never put on a
feature overlay: marking their match is a 409 naming their side.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError
from django.utils.translation import gettext as _

from config.errors import Conflict, ServiceError
from config.locks import for_update
from config.transactions import atomic
from matches.models import Match, Round, RoundStatus
from overlays.live_version import bump_after_commit
from overlays.models import MAX_SLOT, FeatureMatch
from tournaments import permissions
from tournaments.audit import audit


def opted_out_side(match: Match) -> tuple[str, str] | None:
    """The first side ("a", "b") whose player chose not to be streamed, and their name."""
    for side, registration in (("a", match.a), ("b", match.b)):
        player = registration.player if registration is not None else None
        if player is not None and player.stream_opt_out:
            return side, registration.name
    return None


def _free_slot(round_: Round) -> int:
    taken = set(FeatureMatch.objects.filter(round=round_).values_list("slot", flat=True))
    for slot in range(1, MAX_SLOT + 1):
        if slot not in taken:
            return slot
    raise Conflict(
        _("slot: the round already has %(n)d feature matches; unmark one first.") % {"n": MAX_SLOT},
        field="slot",
    )


@atomic
def feature_mark(*, actor: Any, match: Match, slot: int | None = None) -> FeatureMatch:
    """Put a match on the feature overlay of ``slot`` (default: the round's first free slot).
    Marking a match again with its own slot (or none) changes nothing."""
    tournament = match.round.tournament
    permissions.require_organiser(actor, tournament)
    if slot is not None and not 1 <= slot <= MAX_SLOT:
        raise ServiceError(
            _("slot: from 1 to %(max)d.") % {"max": MAX_SLOT}, field="slot", code="invalid"
        )
    round_ = for_update(Round.objects).get(pk=match.round_id)
    match = Match.objects.select_related("a__player", "b__player").get(pk=match.pk)
    if round_.status == RoundStatus.FINISHED:
        raise Conflict(
            _("match: round %(n)d is finished; mark a match of a running round.")
            % {"n": round_.number},
            field="match",
        )
    if match.b is None:
        raise ServiceError(_("match: a bye cannot be a feature match."), field="match")
    refused = opted_out_side(match)
    if refused is not None:
        side, name = refused
        raise Conflict(
            _(
                "%(side)s: %(name)s chose not to be streamed; their matches cannot be feature matches."
            )
            % {"side": side, "name": name},
            field=side,
            code="stream_opt_out",
        )
    existing = FeatureMatch.objects.filter(match=match).first()
    if existing is not None and slot in (None, existing.slot):
        return existing
    if slot is None:
        slot = _free_slot(round_)
    holder = FeatureMatch.objects.filter(round=round_, slot=slot).exclude(match=match).first()
    if holder is not None:
        raise Conflict(
            _("slot: feature %(slot)d already shows table %(table)s; unmark it first.")
            % {"slot": slot, "table": holder.match.table or "-"},
            field="slot",
        )
    try:
        if existing is not None:
            before = existing.slot
            existing.slot = slot
            existing.save(update_fields=["slot"])
            feature = existing
        else:
            before = None
            feature = FeatureMatch.objects.create(
                tournament=tournament, round=round_, match=match, slot=slot, marked_by=actor
            )
    except IntegrityError as exc:  # a second organiser took the slot: the lock makes it rare
        raise Conflict(_("slot: the slot was just taken; try again."), field="slot") from exc
    audit(
        tournament=tournament,
        actor=actor,
        action="match.featured",
        target=match,
        round=round_.number,
        table=match.table,
        slot=slot,
        slot_before=before,
    )
    bump_after_commit(tournament.pk)
    return feature


@atomic
def feature_unmark(*, actor: Any, match: Match) -> None:
    """Take a match off the feature overlays (nothing to do when it is not on one)."""
    tournament = match.round.tournament
    permissions.require_organiser(actor, tournament)
    for_update(Round.objects).get(pk=match.round_id)
    feature = FeatureMatch.objects.filter(match=match).first()
    if feature is None:
        return
    slot = feature.slot
    feature.delete()
    audit(
        tournament=tournament,
        actor=actor,
        action="match.unfeatured",
        target=match,
        round=match.round.number,
        table=match.table,
        slot=slot,
    )
    bump_after_commit(tournament.pk)
