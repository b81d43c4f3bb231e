"""The event archives kept after every finished round (`archive_store_round`, run by the Celery
task in eventdata/tasks.py), listed and found for the organiser's download (the dashboard, the
archive page and the API)."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from eventdata import archive
from eventdata.archive_selectors import event_archive
from matches.models import Round, RoundStatus
from tournaments.models import Tournament

ARCHIVE_DIR = "archives"


def round_archive_name(slug: str, stage: str, number: int) -> str:
    return f"{ARCHIVE_DIR}/{slug}/round-{stage}-{number}.json"


def archive_store_round(*, round_id: int) -> str | None:
    """Keep the event's archive as it was when this round finished (idempotent: a round's
    archive is written once and kept). Returns its storage name, or None for a round that is
    gone or not finished."""
    round_ = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if round_ is None or round_.status != RoundStatus.FINISHED:
        return None
    name = round_archive_name(round_.tournament.slug, round_.stage, round_.number)
    if default_storage.exists(name):
        return name
    text = archive.dumps(event_archive(round_.tournament))
    saved: str = default_storage.save(name, ContentFile(text.encode("utf-8")))
    return saved


@dataclass(frozen=True)
class StoredArchive:
    name: str
    size: int


def stored_archives(event: Tournament) -> list[StoredArchive]:
    """The archives kept for this event (after each round), oldest round first."""
    folder = f"{ARCHIVE_DIR}/{event.slug}"
    try:
        _dirs, files = default_storage.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return []
    out = []
    for name in files:
        if name.endswith(".json"):
            out.append(StoredArchive(name=name, size=default_storage.size(f"{folder}/{name}")))

    def order(a: StoredArchive) -> tuple[int, int, str]:
        stem = a.name.removesuffix(".json").split("-")
        number = int(stem[-1]) if stem[-1].isdigit() else 0
        return (0 if "swiss" in a.name else 1, number, a.name)

    return sorted(out, key=order)


def stored_archive_path(event: Tournament, name: str) -> str | None:
    """The storage name of one kept archive of this event, or None (no path tricks)."""
    if name not in {a.name for a in stored_archives(event)}:
        return None
    return f"{ARCHIVE_DIR}/{event.slug}/{name}"
