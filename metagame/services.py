"""The only writers of archetypes: make one (from a rule, or from a suggested group's core
cards), change its name, priority or rule, delete it.

Who may: an event's organisers for the event's archetypes, a series' organisers for the
series', an organisation's owners and organisers for the organisation's, site administrators
(staff) for the site-wide ones. A rule is checked by `metagame.rules.parse_rule`; a bad one is
refused naming its part (``rule.all[1].count.power.gte``). Changes to an event's archetypes are
in its audit trail.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from config.errors import Forbidden, ServiceError
from config.transactions import atomic
from engine.games import GAMES
from metagame import clustering
from metagame.models import Archetype
from metagame.rules import OTHER, RuleError, parse_rule
from organisations.models import Organisation
from organisations.services import may_organise
from series.models import Series
from series.permissions import is_organiser_of_series
from tournaments import permissions
from tournaments.audit import audit
from tournaments.models import Tournament

MAX_NAME = 80


def may_manage(
    user: Any,
    *,
    tournament: Tournament | None = None,
    series: Series | None = None,
    organisation: Organisation | None = None,
) -> bool:
    """Whether `user` may change the archetypes of this scope (none given: site-wide)."""
    if not permissions.is_authenticated(user):
        return False
    if tournament is not None:
        return permissions.is_organiser_of(user, tournament)
    if series is not None:
        return is_organiser_of_series(user, series)
    if organisation is not None:
        return may_organise(user, organisation)
    return bool(user.is_staff or user.is_superuser)


def _require(user: Any, archetype: Archetype) -> None:
    if not may_manage(
        user,
        tournament=archetype.tournament,
        series=archetype.series,
        organisation=archetype.organisation,
    ):
        raise Forbidden(_("Only the organisers of this event, series or organisation may do this."))


def _clean_name(name: object) -> str:
    text = str(name or "").strip()
    if not text:
        raise ServiceError(_("Give the archetype a name."), field="name")
    if len(text) > MAX_NAME:
        raise ServiceError(_("At most %(n)d characters.") % {"n": MAX_NAME}, field="name")
    if text.casefold() == OTHER.casefold():
        raise ServiceError(
            _("“Other” is the name of the lists no archetype matches."), field="name"
        )
    return text


def _clean_rule(rule: object) -> dict[str, Any]:
    try:
        parse_rule(rule)
    except RuleError as error:
        raise ServiceError(str(error), field=error.field or "rule", code=error.code) from None
    assert isinstance(rule, dict)
    return rule


def _clean_priority(priority: object) -> int:
    if isinstance(priority, bool) or not isinstance(priority, int) or not 0 <= priority <= 32767:
        raise ServiceError(_("Give a whole number from 0 to 32767."), field="priority")
    return priority


def _audit(actor: Any, archetype: Archetype, action: str, **data: Any) -> None:
    if archetype.tournament is not None:
        audit(
            tournament=archetype.tournament,
            actor=actor,
            action=action,
            target=archetype,
            name=archetype.name,
            **data,
        )


@atomic
def archetype_create(
    *,
    actor: Any,
    name: object,
    rule: object,
    priority: object = 100,
    game: str | None = None,
    tournament: Tournament | None = None,
    series: Series | None = None,
    organisation: Organisation | None = None,
) -> Archetype:
    """A new archetype in one scope (at most one of tournament, series, organisation; none:
    site-wide). An event's archetypes are of its game; other scopes name theirs (``game``)."""
    if sum(x is not None for x in (tournament, series, organisation)) > 1:
        raise ServiceError(_("An archetype belongs to one scope."), field="scope")
    if not may_manage(actor, tournament=tournament, series=series, organisation=organisation):
        raise Forbidden(_("Only the organisers of this event, series or organisation may do this."))
    if tournament is not None:
        if game is not None and game != tournament.game:
            raise ServiceError(_("An event's archetypes are of its game."), field="game")
        game = tournament.game
    if game not in GAMES:
        raise ServiceError(
            _("Choose one of the games: %(games)s.") % {"games": ", ".join(GAMES)}, field="game"
        )
    archetype = Archetype.objects.create(
        game=game,
        name=_clean_name(name),
        rule=_clean_rule(rule),
        priority=_clean_priority(priority),
        tournament=tournament,
        series=series,
        organisation=organisation,
        created_by=actor,
    )
    _audit(actor, archetype, "archetype.created", rule=archetype.rule, priority=archetype.priority)
    return archetype


@atomic
def archetype_update(
    *,
    actor: Any,
    archetype: Archetype,
    name: object = None,
    rule: object = None,
    priority: object = None,
) -> Archetype:
    """Change what is given of the name, the rule and the priority."""
    _require(actor, archetype)
    archetype = Archetype.objects.select_for_update().get(pk=archetype.pk)
    before = {"name": archetype.name, "rule": archetype.rule, "priority": archetype.priority}
    if name is not None:
        archetype.name = _clean_name(name)
    if rule is not None:
        archetype.rule = _clean_rule(rule)
    if priority is not None:
        archetype.priority = _clean_priority(priority)
    archetype.save()
    _audit(actor, archetype, "archetype.changed", before=before)
    return archetype


@atomic
def archetype_delete(*, actor: Any, archetype: Archetype) -> None:
    _require(actor, archetype)
    _audit(actor, archetype, "archetype.deleted", rule=archetype.rule)
    archetype.delete()


def archetype_from_group(
    *,
    actor: Any,
    tournament: Tournament,
    name: object,
    cards: object,
    priority: object = 100,
) -> Archetype:
    """Name a suggested group: an event archetype "contains most of these core cards"
    (`metagame.clustering.core_rule`)."""
    if not isinstance(cards, list | tuple) or not all(isinstance(c, str) for c in cards):
        raise ServiceError(_("Give the group's core cards."), field="cards")
    try:
        rule = clustering.core_rule(tuple(cards))
    except clustering.ClusteringError:
        raise ServiceError(_("Give the group's core cards."), field="cards") from None
    return archetype_create(
        actor=actor, name=name, rule=rule, priority=priority, tournament=tournament
    )
