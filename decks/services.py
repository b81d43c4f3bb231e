"""Use cases for the card catalog, decklists and deck checks: the only code that writes them.

Decklists: a registered player submits before the deadline; every submission is a new
immutable version and the latest is active. Lists lock at the decklist deadline or when the
event starts running; an organiser may unlock one player, and may enter a list for a player
(the version records who entered it). A list that cannot be read (unknown cards, bad lines) is
refused with its report and nothing is saved; a readable list that breaks the format's rules is
saved with its report, marked illegal, so the player sees what to fix beside it.

Card imports: `card_import_start` records an upload and queues its Celery task
(`decks.tasks`); the import itself runs in `decks.card_imports`, whose public names are
re-exported here.
"""

from __future__ import annotations

import base64
import random
import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts.validators import check_name
from config.errors import Forbidden, ServiceError
from config.locks import for_update
from config.outbox import send_after_commit
from config.transactions import atomic
from decks import selectors, tasks
from decks.card_imports import IMPORT_BATCH as IMPORT_BATCH
from decks.card_imports import STUCK_IMPORT_AFTER as STUCK_IMPORT_AFTER
from decks.card_imports import UPDATE_FIELDS as UPDATE_FIELDS
from decks.card_imports import Progress as Progress
from decks.card_imports import card_change_record as card_change_record
from decks.card_imports import card_fields as card_fields
from decks.card_imports import card_import_fail as card_import_fail
from decks.card_imports import card_import_run as card_import_run
from decks.card_imports import card_imports_sweep_stuck as card_imports_sweep_stuck
from decks.card_imports import demo_catalog_load as demo_catalog_load
from decks.card_imports import game_deck_rules as game_deck_rules
from decks.card_imports import import_cards as import_cards
from decks.card_imports import without_nul as without_nul
from decks.catalog import catalog_for, catalog_for_event
from decks.models import (
    CardImport,
    Catalog,
    DeckCheck,
    DeckCheckResult,
    Decklist,
    DecklistVersion,
    EventCatalog,
    shared_catalog,
)
from engine.games import (
    DeckEvaluation,
    DeckRules,
    GameCatalog,
    GameFormat,
    get_game,
)
from organisations.models import Organisation
from organisations.services import may_organise
from tournaments import permissions
from tournaments.audit import audit
from tournaments.models import Registration, RegistrationStatus, Tournament
from tournaments.services import team_role_format
from tournaments.status import EventStatus

MAX_DECKLIST_BYTES = 200_000
MAX_IMPORT_BYTES = 20 * 1024 * 1024
MAX_CATALOG_NAME = 120

# --- catalogs ------------------------------------------------------------------------------


def can_manage_shared_catalogs(user: Any) -> bool:
    """The site-wide role that may change shared catalogs (official, demo) and any other."""
    return permissions.is_authenticated(user) and (
        user.is_superuser or user.has_perm("decks.manage_shared_catalogs")
    )


def can_import_into(user: Any, catalog: Catalog) -> bool:
    """Shared catalogs need the site-wide role; organisers import into their own only, and
    an organisation's owners and organisers into the organisation's."""
    if can_manage_shared_catalogs(user):
        return True
    if catalog.kind != Catalog.Kind.CUSTOM or not permissions.is_authenticated(user):
        return False
    if catalog.organisation_id is not None:
        return may_organise(user, catalog.organisation)
    return (
        catalog.owner_id is not None
        and permissions.can_create_events(user)
        and catalog.owner_id == user.pk
    )


def may_choose_catalog(user: Any, catalog: Catalog) -> bool:
    """Whether an event's organiser may have their event read the catalog: a shared one, one
    of their own, or one of an organisation they own or organise for."""
    if catalog.kind != Catalog.Kind.CUSTOM or can_manage_shared_catalogs(user):
        return True
    if catalog.organisation_id is not None:
        return may_organise(user, catalog.organisation)
    return bool(catalog.owner_id is not None and catalog.owner_id == user.pk)


def own_catalog(*, actor: Any, game: str) -> Catalog:
    """An organiser's own catalog of a game (made on first use): where their uploads go."""
    if not permissions.can_create_events(actor):
        raise Forbidden(_("Only organisers may import cards."))
    existing: Catalog | None = (
        Catalog.objects.filter(game=game, kind=Catalog.Kind.CUSTOM, owner=actor)
        .order_by("pk")
        .first()
    )
    if existing is not None:
        return existing
    return custom_catalog_create(
        actor=actor,
        game=game,
        name=_("%(who)s's %(game)s cards") % {"who": actor.get_username(), "game": game.upper()},
    )


def custom_catalog_create(
    *, actor: Any, game: str, name: str, organisation: Organisation | None = None
) -> Catalog:
    """A new custom catalog (card pool) owned by an organiser, or (``organisation``) by an
    organisation: its owners and organisers import into it and choose it for their events
    (audited, without an event: target the catalog, the organisation's slug in the data)."""
    if organisation is not None:
        if not may_organise(actor, organisation):
            raise Forbidden(
                _("Only the organisation's owners and organisers may make its card catalogs.")
            )
    elif not permissions.can_create_events(actor):
        raise Forbidden(_("Only organisers may make card catalogs."))
    game_deck_rules(game)
    check_name("name", name)
    name = without_nul(name).strip()[:MAX_CATALOG_NAME]
    if not name:
        raise ServiceError(_("name: give the catalog a name."), field="name")
    base = slugify(f"{game}-{name}")[:60] or f"{game}-cards"
    slug, n = base, 1
    while Catalog.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    created: Catalog = Catalog.objects.create(
        game=game,
        name=name,
        slug=slug,
        kind=Catalog.Kind.CUSTOM,
        owner=actor if organisation is None else None,
        organisation=organisation,
    )
    if organisation is not None:
        audit(
            tournament=None,
            actor=actor,
            action="organisation.catalog_created",
            target=created,
            organisation=organisation.slug,
            catalog=created.slug,
            game=game,
        )
    return created


def import_catalog(*, actor: Any, game: str, slug: str | None = None) -> Catalog:
    """The catalog an upload goes into: the one named (if the person may change it), else the
    official catalog for the site-wide role, else the organiser's own catalog."""
    if slug:
        catalog = selectors.catalog_by_slug(slug)
        if catalog is None or catalog.game != game:
            raise ServiceError(
                _("catalog: no %(game)s catalog %(slug)r.") % {"game": game, "slug": slug[:80]},
                field="catalog",
            )
        if not can_import_into(actor, catalog):
            raise Forbidden(
                _(
                    "Only site administrators may change the %(name)s catalog; import into "
                    "a catalog of your own."
                )
                % {"name": catalog.name}
            )
        return catalog
    if can_manage_shared_catalogs(actor):
        return shared_catalog(game, str(Catalog.Kind.OFFICIAL))
    return own_catalog(actor=actor, game=game)


def read_catalog(
    *, game: str, slug: str | None = None, event: Tournament | None = None
) -> Catalog | None:
    """The catalog a read names (by slug, or an event's), else the game's default; a slug
    that names no catalog of the game is a 400 naming `catalog`."""
    if slug:
        catalog = selectors.catalog_by_slug(slug)
        if catalog is None or catalog.game != game:
            raise ServiceError(
                _("catalog: no %(game)s catalog %(slug)r.") % {"game": game, "slug": slug[:80]},
                field="catalog",
            )
        return catalog
    if event is not None:
        return selectors.event_catalog(event)
    return selectors.default_catalog(game)


@atomic
def event_catalog_set(*, actor: Any, tournament: Tournament, catalog: Catalog) -> EventCatalog:
    """An organiser picks the catalog their event reads: a shared one of the event's game, or
    one of their own. Lists already submitted keep their reports; new ones use the catalog."""
    tournament = for_update(Tournament.objects).get(pk=tournament.pk)
    permissions.require_organiser(actor, tournament)
    if catalog.game != tournament.game:
        raise ServiceError(
            _("catalog: %(name)s is not a catalog of this event's game.") % {"name": catalog.name},
            field="catalog",
        )
    if not may_choose_catalog(actor, catalog):
        raise Forbidden(
            _("You may only choose a shared catalog, one of your own or your organisation's.")
        )
    link: EventCatalog | None = EventCatalog.objects.filter(tournament=tournament).first()
    previous = link.catalog.slug if link is not None else None
    if link is None:
        link = EventCatalog(tournament=tournament)
    link.catalog = catalog
    link.chosen_by = actor
    link.save()
    audit(
        tournament=tournament,
        actor=actor,
        action="decks.catalog_chosen",
        target=link,
        **{"from": previous, "to": catalog.slug},
    )
    return link


# --- catalog imports -----------------------------------------------------------------------


def check_import_size(size: int) -> None:
    """Uploads over the limit are refused by their size, before anyone reads them."""
    if size > MAX_IMPORT_BYTES:
        raise ServiceError(
            _("files: %(size)d MB is over the %(limit)d MB limit.")
            % {"size": size // 1024 // 1024, "limit": MAX_IMPORT_BYTES // 1024 // 1024},
            field="files",
        )


def card_import_start(
    *, actor: Any, game: str, files: Sequence[tuple[str, bytes]], catalog: str | None = None
) -> CardImport:
    """Record an upload and queue its import (a Celery task, run after the commit).

    `catalog` is the slug of the catalog to import into; without it, the official catalog for
    the site-wide role and the organiser's own catalog for everyone else."""
    # Into a named catalog: whoever may change it (import_catalog checks, below).
    if not catalog and not (
        permissions.can_create_events(actor) or can_manage_shared_catalogs(actor)
    ):
        raise Forbidden(_("Only organisers may import cards."))
    game_deck_rules(game)
    if not files:
        raise ServiceError(_("files: choose at least one file."), field="files")
    check_import_size(sum(len(data) for _, data in files))
    target = import_catalog(actor=actor, game=game, slug=catalog)
    card_import: CardImport = CardImport.objects.create(
        game=game,
        catalog=target,
        uploaded_by=actor,
        file_names=[name for name, _ in files],
        payload=[
            {"name": name, "data": base64.b64encode(data).decode("ascii")} for name, data in files
        ],
    )
    send_after_commit(tasks.run_card_import, card_import.pk)
    return card_import


def demo_event_catalog(*, event: Tournament) -> EventCatalog:
    """The demo event reads the demo catalog, whatever else is imported (idempotent)."""
    catalog = shared_catalog(event.game, str(Catalog.Kind.DEMO))
    link: EventCatalog
    link, _created = EventCatalog.objects.update_or_create(
        tournament=event, defaults={"catalog": catalog}
    )
    return link


# --- decklists -----------------------------------------------------------------------------


def event_format(tournament: Tournament, registration: Registration | None = None) -> GameFormat:
    """The event's format; custom parameters that no longer read are a 400, not a crash.
    With ``registration`` in a team event: the format of its role (a Head Coach's may differ,
    tournaments.services.team_role_format), the organiser's parameters applying to the
    event's own format only."""
    rules = get_game(tournament.game).deck_rules()
    key = deck_format_key(tournament, registration)
    try:
        if key != tournament.format_key:
            return rules.resolve_format(key, None)
        return rules.resolve_format(tournament.format_key, tournament.format_params)
    except ValueError as exc:
        raise ServiceError(
            _("format_params: the event's custom format does not read (%s); ask the organiser.")
            % exc,
            field="format_params",
        ) from None


def decklist_check(
    *,
    game: str,
    format_key: str,
    source: str | bytes | Mapping[str, Any],
    params: Mapping[str, Any] | None = None,
    catalog: str | None = None,
    event: Tournament | None = None,
) -> DeckEvaluation:
    """Validate a list without saving it ("check my deck"): the report plus the canonical list.

    Against the catalog named by slug, else the event's, else the game's default (the official
    catalog once it has cards, the demo one before)."""
    rules = game_deck_rules(game)
    try:
        fmt = rules.resolve_format(format_key, params)
    except ValueError as exc:
        raise ServiceError(_("format: %s") % exc, field="format") from None
    chosen = read_catalog(game=game, slug=catalog, event=event)
    return _evaluate(rules, catalog_for(game, chosen), fmt, source)


def _evaluate(
    rules: DeckRules,
    catalog: GameCatalog,
    fmt: GameFormat,
    source: str | bytes | Mapping[str, Any],
) -> DeckEvaluation:
    if isinstance(source, str | bytes) and len(source) > MAX_DECKLIST_BYTES:
        raise ServiceError(
            _("decklist: the list is %(size)d KB; a decklist is at most %(limit)d KB.")
            % {"size": len(source) // 1024, "limit": MAX_DECKLIST_BYTES // 1000},
            field="decklist",
            code="too_large",
        )
    return rules.evaluate(source, catalog, fmt)


def deck_format_key(tournament: Tournament, registration: Registration | None = None) -> str:
    """The key of the format a registration's list is checked against (docs/teams.md)."""
    if registration is None or tournament.team is None:
        return str(tournament.format_key)
    return team_role_format(registration)


def decklist_evaluate_for_event(
    tournament: Tournament,
    source: str | bytes | Mapping[str, Any],
    registration: Registration | None = None,
) -> DeckEvaluation:
    """A list read and validated as a submission to the event would be, saving nothing
    (the bulk player import's preview): the event's catalog and format (the registration's
    role's, in a team event)."""
    rules = game_deck_rules(tournament.game)
    fmt = event_format(tournament, registration)
    return _evaluate(rules, catalog_for_event(tournament), fmt, source)


def decklist_lock_reason(tournament: Tournament, now: datetime | None = None) -> str | None:
    now = now or timezone.now()
    if tournament.status in (
        EventStatus.RUNNING,
        EventStatus.TOP_CUT,
        EventStatus.FINISHED,
        EventStatus.CANCELLED,
    ):
        return str(_("Decklists are locked: the event has started."))
    if tournament.decklist_deadline and now >= tournament.decklist_deadline:
        return str(_("Decklists are locked: the deadline has passed."))
    return None


def decklist_submit(
    *, actor: Any, registration: Registration, source: str | bytes | Mapping[str, Any]
) -> DecklistVersion:
    """Save a new version of a player's list (the player before the lock, or an organiser)."""
    with transaction.atomic():
        # The site's lock order: the registration (its row only, not the event's), then the
        # decklist. Two submissions of one list queue here; a check-in waits for the new list.
        registration = (
            for_update(Registration.objects).select_related("tournament").get(pk=registration.pk)
        )
        tournament = registration.tournament
        is_organiser = permissions.is_organiser_of(actor, tournament)
        if not (is_organiser or permissions.is_own_registration(actor, registration)):
            raise Forbidden(_("You can only submit your own decklist."))
        if registration.status != RegistrationStatus.REGISTERED:
            raise ServiceError(
                _("Only registered players submit decklists (not waitlisted or withdrawn)."),
                field="registration",
            )
        decklist, _created = Decklist.objects.get_or_create(registration=registration)
        lock = decklist_lock_reason(tournament)
        if lock and not is_organiser and not decklist.unlocked:
            raise ServiceError(lock, field="decklist", code="locked")
        result = decklist_evaluate_for_event(tournament, source, registration)
        if not result.readable:
            raise DecklistUnreadable(without_nul(result.report_json()))
        number = (decklist.versions.aggregate(n=Max("number"))["n"] or 0) + 1
        submitted = (
            source
            if isinstance(source, str)
            else (source.decode("utf-8", "replace") if isinstance(source, bytes) else "")
        )
        version: DecklistVersion = DecklistVersion.objects.create(
            decklist=decklist,
            number=number,
            text=result.text,
            data=result.data_json(),
            submitted_text=without_nul(submitted[:MAX_DECKLIST_BYTES]),
            format_key=deck_format_key(tournament, registration),
            legal=result.legal,
            report=without_nul(result.report_json()),
            statistics=result.statistics_json(),
            submitted_by=actor,
            entered_by_staff=not permissions.is_own_registration(actor, registration),
        )
        audit(
            tournament=tournament,
            actor=actor,
            action="decklist.submitted",
            target=version,
            registration=registration,
            version=number,
            legal=version.legal,
            entered_by_staff=version.entered_by_staff,
        )
        return version


class DecklistUnreadable(ServiceError):
    """The list has lines that name no card or make no sense; the report says which."""

    def __init__(self, report: dict[str, Any]) -> None:
        first = report["violations"][0]["message"] if report["violations"] else "unreadable list"
        super().__init__(_("decklist: %s") % first, field="decklist", code="unreadable")
        self.report = report

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "report": self.report}


@atomic
def decklist_unlock(*, actor: Any, registration: Registration, unlocked: bool) -> Decklist:
    # The site's lock order, as decklist_submit takes it: the registration, then the decklist.
    registration = (
        for_update(Registration.objects).select_related("tournament").get(pk=registration.pk)
    )
    permissions.require_organiser(actor, registration.tournament)
    Decklist.objects.get_or_create(registration=registration)
    decklist: Decklist = for_update(Decklist.objects).get(registration=registration)
    decklist.unlocked = unlocked
    decklist.save(update_fields=["unlocked"])
    audit(
        tournament=registration.tournament,
        actor=actor,
        action="decklist.unlocked" if unlocked else "decklist.locked",
        registration=registration,
    )
    return decklist


@atomic
def decklists_publish(*, actor: Any, tournament: Tournament, published: bool = True) -> Tournament:
    tournament = for_update(Tournament.objects).get(pk=tournament.pk)
    permissions.require_organiser(actor, tournament)
    if published and tournament.status != EventStatus.FINISHED:
        raise ServiceError(
            _("Decklists can be published once the event has finished."), field="status"
        )
    tournament.decklists_published_at = timezone.now() if published else None
    tournament.save(update_fields=["decklists_published_at", "updated_at"])
    hidden: list[int] = []
    if not published:
        # Private again means every list, those published one by one too.
        one_by_one = list(
            for_update(
                Decklist.objects.filter(
                    registration__tournament=tournament, published_at__isnull=False
                )
            ).order_by("pk")
        )
        hidden = [d.registration_id for d in one_by_one]
        Decklist.objects.filter(pk__in=[d.pk for d in one_by_one]).update(published_at=None)
    extra: dict[str, Any] = {"hidden_registrations": hidden} if hidden else {}
    audit(
        tournament=tournament,
        actor=actor,
        action="decklists.published" if published else "decklists.unpublished",
        **extra,
    )
    return tournament


MAX_PUBLISHED_AT_ONCE = 256


@atomic
def decklists_publish_some(
    *,
    actor: Any,
    tournament: Tournament,
    registrations: Sequence[int],
    **details: Any,
) -> dict[str, list[int]]:
    """Publish the lists of some players of a finished event (the top decklists: the caller
    chose the players, ``details`` say how, e.g. ``top=8``), leaving the others as they are.
    Audited as ``decklists.published_some``. Returns the registrations whose list is now
    public (``published``, in the order given) and those without a list (``without_list``).

    Locks the event, then the lists (the site's order)."""
    tournament = for_update(Tournament.objects).get(pk=tournament.pk)
    permissions.require_organiser(actor, tournament)
    if tournament.status != EventStatus.FINISHED:
        raise ServiceError(
            _("Decklists can be published once the event has finished."), field="status"
        )
    ids = list(dict.fromkeys(registrations))
    if not ids:
        raise ServiceError(_("registrations: name at least one player."), field="registrations")
    if len(ids) > MAX_PUBLISHED_AT_ONCE:
        raise ServiceError(
            _("registrations: at most %(n)d at once.") % {"n": MAX_PUBLISHED_AT_ONCE},
            field="registrations",
        )
    known = set(
        Registration.objects.filter(tournament=tournament, pk__in=ids).values_list("pk", flat=True)
    )
    strangers = [pk for pk in ids if pk not in known]
    if strangers:
        raise ServiceError(
            _("registrations: %(id)s is not a player of this event.") % {"id": strangers[0]},
            field="registrations",
        )
    lists = {
        d.registration_id: d
        for d in for_update(
            Decklist.objects.filter(
                registration_id__in=ids,
                pk__in=DecklistVersion.objects.values("decklist_id"),
            )
        ).order_by("pk")
    }
    now = timezone.now()
    newly = [d.pk for d in lists.values() if d.published_at is None]
    Decklist.objects.filter(pk__in=newly).update(published_at=now)
    result: dict[str, list[int]] = {
        "published": [pk for pk in ids if pk in lists],
        "without_list": [pk for pk in ids if pk not in lists],
    }
    audit(
        tournament=tournament,
        actor=actor,
        action="decklists.published_some",
        **{**details, **result},
    )
    return result


def active_version(registration: Registration) -> DecklistVersion | None:
    version: DecklistVersion | None = (
        DecklistVersion.objects.filter(decklist__registration=registration)
        .order_by("-number")
        .first()
    )
    return version


def can_view_decklist(user: Any, registration: Registration) -> bool:
    tournament = registration.tournament
    return (
        permissions.is_own_registration(user, registration)
        or permissions.is_staff_of(user, tournament)
        or tournament.decklists_published_at is not None
        or Decklist.objects.filter(registration=registration, published_at__isnull=False).exists()
    )


def published_one_by_one(tournament: Tournament) -> set[int]:
    """The registrations whose list was published on its own (the top decklists)."""
    return set(
        Decklist.objects.filter(
            registration__tournament=tournament, published_at__isnull=False
        ).values_list("registration_id", flat=True)
    )


def latest_versions(tournament: Tournament) -> dict[int, DecklistVersion]:
    """Each registration's active (latest) version in an event, by registration id; one query."""
    versions = (
        DecklistVersion.objects.filter(decklist__registration__tournament=tournament)
        .select_related("decklist")
        .defer("text", "data", "submitted_text", "report", "statistics")
        .order_by("decklist_id", "number")
    )
    return {v.decklist.registration_id: v for v in versions}


def has_legal_decklist(registration: Registration) -> bool:
    version = active_version(registration)
    return version is not None and version.legal


class EventDecklists:
    """What tournaments asks of decklists (tournaments.extensions.Decklists): check-in and the
    roster import. Provided in decks/apps.py."""

    def has_legal_decklist(self, registration: Registration) -> bool:
        return has_legal_decklist(registration)

    def evaluate(self, tournament: Tournament, source: str) -> DeckEvaluation:
        return decklist_evaluate_for_event(tournament, source)

    def submit(self, *, actor: Any, registration: Registration, source: str) -> bool:
        version = decklist_submit(actor=actor, registration=registration, source=source)
        return bool(version.legal)


# --- deck checks ---------------------------------------------------------------------------


@atomic
def deck_check_create(
    *, actor: Any, tournament: Tournament, round_number: int, count: int, seed: int | None = None
) -> DeckCheck:
    """Pick `count` active players at random (seeded and recorded, so the pick can be shown fair)."""
    permissions.require_staff(actor, tournament)
    if count < 1:
        raise ServiceError(_("count: pick at least one player."), field="count")
    if round_number < 1:
        raise ServiceError(_("round_number: rounds start at 1."), field="round_number")
    # A check is for a round that exists or the one about to be paired, never round 42 of an
    # event with no rounds.
    latest = tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0
    if round_number > latest + 1:
        raise ServiceError(
            _(
                "round_number: this event has %(n)d rounds so far; a deck check is for one of "
                "them or the next (at most %(max)d)."
            )
            % {"n": latest, "max": latest + 1},
            field="round_number",
        )
    candidates = list(
        Registration.objects.filter(
            tournament=tournament, status=RegistrationStatus.REGISTERED, dropped_at__isnull=True
        ).order_by("pk")
    )
    if not candidates:
        raise ServiceError(_("count: no active players to check."), field="count")
    seed = secrets.randbits(48) if seed is None else seed
    chosen = random.Random(seed).sample(candidates, min(count, len(candidates)))
    deck_check: DeckCheck = DeckCheck.objects.create(
        tournament=tournament,
        round_number=round_number,
        seed=seed,
        requested=count,
        created_by=actor,
    )
    DeckCheckResult.objects.bulk_create(
        DeckCheckResult(deck_check=deck_check, registration=r, version=active_version(r))
        for r in chosen
    )
    audit(
        tournament=tournament,
        actor=actor,
        action="deck_check.created",
        target=deck_check,
        round=round_number,
        seed=seed,
        players=[r.pk for r in chosen],
    )
    return deck_check


@atomic
def deck_check_record(
    *,
    actor: Any,
    result: DeckCheckResult,
    outcome: str,
    notes: str = "",
    penalty_reference: str = "",
) -> DeckCheckResult:
    result = (
        for_update(DeckCheckResult.objects)
        .select_related("deck_check__tournament")
        .get(pk=result.pk)
    )
    tournament = result.deck_check.tournament
    permissions.require_staff(actor, tournament)
    if outcome not in DeckCheckResult.Outcome.values:
        raise ServiceError(
            _("outcome: one of %s.") % ", ".join(DeckCheckResult.Outcome.values), field="outcome"
        )
    previous = result.outcome
    result.outcome = outcome
    result.notes = notes[:2000]
    result.penalty_reference = penalty_reference[:80]
    result.checked_by = actor
    result.checked_at = timezone.now()
    result.save()
    audit(
        tournament=tournament,
        actor=actor,
        action="deck_check.recorded",
        target=result,
        registration=result.registration,
        **{"from": previous, "to": outcome, "notes": result.notes},
    )
    return result
