"""Running a card import: the cards read from files upserted into a catalog, each change kept
in the card's history (a CardVersion), an upload's progress and failure, the stuck-import
sweep, and the demo catalog shipped with the project.

An upload is recorded and queued by `decks.services.card_import_start`; the Celery tasks
(`decks.tasks`) run it here, so this module imports neither. `decks.services` re-exports the
public names, so callers import them from there as before.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import ServiceError
from config.locks import for_update
from decks.catalog import card_rows
from decks.models import Card, CardImport, CardVersion, Catalog, shared_catalog
from engine.games import DeckRules, UnknownGame, default_game, get_game
from tournaments import permissions

logger = logging.getLogger(__name__)

IMPORT_BATCH = 1000
# The card's own columns (what an import writes); the identity columns are matched on.
UPDATE_FIELDS = tuple(
    f.name
    for f in Card._meta.concrete_fields
    if f.name not in ("id", "catalog", "game", "external_id", "updated_at")
)


def game_deck_rules(game: str) -> DeckRules:
    """The game's deck rules; an unknown game is a 400 naming `game`."""
    try:
        return get_game(game).deck_rules()
    except UnknownGame as exc:
        raise ServiceError(str(exc), field="game") from None


def card_fields(card: Card) -> dict[str, Any]:
    """A card's own fields as JSON values (what a CardVersion keeps)."""
    return {name: getattr(card, name) for name in UPDATE_FIELDS}


def card_change_record(*, actor: Any, card: Card, before: Mapping[str, Any], source: str) -> None:
    """Keep the history of one change to a card made outside an import (the admin)."""
    after = card_fields(card)
    if dict(before) == after:
        return
    CardVersion.objects.create(
        card=card,
        catalog_id=card.catalog_id,
        external_id=card.external_id,
        before=dict(before),
        after=after,
        changed_by=actor if permissions.is_authenticated(actor) else None,
        source=source,
    )


def card_import_run(*, import_id: int) -> CardImport:
    """Parse and upsert an import; safe to run twice (a retried task finds it done)."""
    with transaction.atomic():
        card_import: CardImport = for_update(CardImport.objects).get(pk=import_id)
        if card_import.status in (CardImport.Status.DONE, CardImport.Status.FAILED):
            return card_import
        card_import.status = CardImport.Status.RUNNING
        card_import.save(update_fields=["status"])
    files = [(f["name"], base64.b64decode(f["data"])) for f in card_import.payload]
    try:
        if card_import.catalog is None:
            raise ServiceError(_("catalog: the catalog was deleted."), field="catalog")
        counts, rejections = import_cards(
            game=card_import.game,
            files=files,
            progress=_progress_for(card_import),
            catalog=card_import.catalog,
            actor=card_import.uploaded_by,
            card_import=card_import,
            source="upload",
        )
    except ServiceError as exc:
        return card_import_fail(import_id=import_id, reason=exc.message)
    except Exception as exc:  # whatever stops it, the import must not stay "running"
        logger.exception("card import %s stopped", import_id)
        return card_import_fail(
            import_id=import_id,
            reason=_(
                "The import stopped on an unexpected error (%(error)s); cards of the batches "
                "before it stay imported. Check the file and upload it again."
            )
            % {"error": type(exc).__name__},
        )
    CardImport.objects.filter(pk=import_id).update(
        status=CardImport.Status.DONE,
        created_count=counts["created"],
        updated_count=counts["updated"],
        unchanged_count=counts["unchanged"],
        rejections=rejections,
        processed=counts["total"],
        total=counts["total"],
        payload=[],
        finished_at=timezone.now(),
    )
    card_import.refresh_from_db()
    return card_import


def card_import_fail(*, import_id: int, reason: str) -> CardImport:
    """Mark an import failed with its reason (and drop its files): what the uploader sees.
    An import that finished is left as it is."""
    CardImport.objects.filter(pk=import_id).exclude(status=CardImport.Status.DONE).update(
        status=CardImport.Status.FAILED,
        error=without_nul(reason)[:2000],
        payload=[],
        finished_at=timezone.now(),
    )
    failed: CardImport = CardImport.objects.get(pk=import_id)
    return failed


# A task redelivered after its worker died (acks_late; the broker's visibility timeout is an
# hour) runs the import again; one still "running" this long after its upload has lost every
# worker that tried it (killed each time, out of memory say).
STUCK_IMPORT_AFTER = timedelta(hours=3)


def card_imports_sweep_stuck(now: datetime | None = None) -> int:
    """Mark failed, with the reason, the imports still running STUCK_IMPORT_AFTER after their
    upload (celery beat): an uploader never watches "Importing" forever. How many."""
    cutoff = (now or timezone.now()) - STUCK_IMPORT_AFTER
    stuck = list(
        CardImport.objects.filter(
            status=CardImport.Status.RUNNING, created_at__lt=cutoff
        ).values_list("pk", flat=True)
    )
    for import_id in stuck:
        card_import_fail(
            import_id=import_id,
            reason=_(
                "The import did not finish: every worker that tried it stopped. Upload the "
                "file again (or a smaller one)."
            ),
        )
    return len(stuck)


Progress = Callable[[int, int, Mapping[str, int]], None]


def _progress_for(card_import: CardImport) -> Progress:
    def progress(done: int, total: int, counts: Mapping[str, int]) -> None:
        CardImport.objects.filter(pk=card_import.pk).update(
            processed=done,
            total=total,
            created_count=counts["created"],
            updated_count=counts["updated"],
            unchanged_count=counts["unchanged"],
        )

    return progress


def import_cards(
    *,
    game: str,
    files: Sequence[tuple[str, bytes]],
    progress: Progress | None = None,
    catalog: Catalog | None = None,
    actor: Any = None,
    card_import: CardImport | None = None,
    source: str = "command",
) -> tuple[dict[str, int], list[dict[str, Any]]]:
    """Upsert the cards read from files into a catalog (by default the game's official one);
    returns counts and every rejected row.

    Idempotent: cards are matched by (catalog, external id); a card whose fields did not change
    is counted unchanged and not written. Every changed card keeps its history (a CardVersion:
    before, after, who, the import). Each batch commits on its own so a 17,000-card import
    shows progress; a re-run finishes the job. Callers check who may write to the catalog
    (`card_import_start`); the command line is the site operator's.
    """
    rules = game_deck_rules(game)
    if catalog is not None and catalog.game != game:
        raise ServiceError(
            _("catalog: %(name)s is not a %(game)s catalog.")
            % {"name": catalog.name, "game": game},
            field="catalog",
        )
    current = (
        catalog
        if catalog is not None
        else Catalog.objects.filter(game=game, kind=Catalog.Kind.OFFICIAL).first()
    )
    try:
        result = rules.parse_import(
            files, existing=card_rows(game, current) if current is not None else []
        )
    except ValueError as exc:
        raise ServiceError(_("files: %s") % exc, field="files") from None
    if catalog is None:
        catalog = shared_catalog(game, str(Catalog.Kind.OFFICIAL))
    entries = list({card.id: card for card in result.entries}.values())
    existing = {
        row["external_id"]: row
        for row in Card.objects.filter(catalog=catalog).values("id", "external_id", *UPDATE_FIELDS)
    }
    changed_by = actor if permissions.is_authenticated(actor) else None
    counts = {"created": 0, "updated": 0, "unchanged": 0, "total": len(entries)}
    for start in range(0, len(entries), IMPORT_BATCH):
        batch = entries[start : start + IMPORT_BATCH]
        to_write = []
        history = []
        for card in batch:
            fields = _model_fields(card.to_dict(), rules.kind_field)
            before = existing.get(card.id)
            if before is None:
                counts["created"] += 1
            elif all(before[k] == fields[k] for k in UPDATE_FIELDS):
                counts["unchanged"] += 1
                continue
            else:
                counts["updated"] += 1
                history.append(
                    CardVersion(
                        card_id=before["id"],
                        catalog=catalog,
                        external_id=card.id,
                        before={k: before[k] for k in UPDATE_FIELDS},
                        after=fields,
                        changed_by=changed_by,
                        card_import=card_import,
                        source=source,
                    )
                )
            to_write.append(Card(catalog=catalog, game=game, external_id=card.id, **fields))
        with transaction.atomic():
            Card.objects.bulk_create(
                to_write,
                update_conflicts=True,
                unique_fields=["catalog", "external_id"],
                update_fields=[*UPDATE_FIELDS, "updated_at"],
            )
            CardVersion.objects.bulk_create(history)
        if progress is not None:
            progress(min(start + IMPORT_BATCH, len(entries)), len(entries), counts)
    return counts, [without_nul(r.to_dict()) for r in result.rejections]


def _model_fields(card: Mapping[str, Any], kind_field: str) -> dict[str, Any]:
    """A plugin's card dict as Card columns: its fields that have a column go there (the
    kind field to `kind`), the rest into `attributes` (see decks.catalog.card_rows)."""
    columns = {name: card.get(name) for name in UPDATE_FIELDS if name != "attributes"}
    columns["set_name"] = card.get("set")
    kind = card.get(kind_field)
    columns["kind"] = getattr(kind, "value", kind)
    stored = {"id", "set", kind_field, *columns}
    columns["attributes"] = {k: v for k, v in card.items() if k not in stored}
    return {name: without_nul(value) for name, value in columns.items()}


def without_nul(value: Any) -> Any:
    """PostgreSQL text and jsonb cannot hold NUL characters; uploaded files sometimes do."""
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, list):
        return [without_nul(v) for v in value]
    if isinstance(value, dict):
        return {without_nul(k): without_nul(v) for k, v in value.items()}
    return value


def demo_catalog_load(*, game: str | None = None) -> dict[str, int]:
    """The generated demo catalog (fictional names) shipped with the project, in the game's
    demo catalog (never the official one); the default game's when none is named."""
    game = game or default_game()
    rules = game_deck_rules(game)
    cards = rules.demo_cards()
    catalog = shared_catalog(game, str(Catalog.Kind.DEMO))
    existing = set(Card.objects.filter(catalog=catalog).values_list("external_id", flat=True))
    new = [
        Card(
            catalog=catalog,
            game=game,
            external_id=c.id,
            **_model_fields(c.to_dict(), rules.kind_field),
        )
        for c in cards
        if c.id not in existing
    ]
    Card.objects.bulk_create(new, ignore_conflicts=True)
    return {"created": len(new), "unchanged": len(cards) - len(new)}
