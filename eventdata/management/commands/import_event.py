"""python manage.py import_event FILE [--dry-run] [--json]: restore an event archive written by
`export_event` (or downloaded from the dashboard), into this installation or another one.

All or nothing, in one transaction; importing the same archive twice changes nothing. With
--dry-run, says what it would create or change and writes nothing. Exit 0 imported (or would
import), 2 an unreadable file, a wrong format or version, or content the database refuses.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from config.commands import DatabaseCommand
from eventdata.archive import ArchiveError
from eventdata.archive_services import archive_import


class Command(DatabaseCommand):
    help = "Restore an event archive (export_event); --dry-run reports and writes nothing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive (JSON), or - for standard input")
        parser.add_argument(
            "--dry-run", action="store_true", help="report what would change, write nothing"
        )
        parser.add_argument("--json", action="store_true", help="the report as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            if path == "-":
                import sys

                data: bytes = sys.stdin.buffer.read()
            else:
                data = Path(path).read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror or exc}", returncode=2) from None
        try:
            report = archive_import(data, dry_run=options["dry_run"])
        except ArchiveError as exc:
            raise CommandError(f"{path}: {exc}", returncode=2) from None
        if options["json"]:
            self.stdout.write(json.dumps(report.to_json(), indent=1, sort_keys=True))
            return
        head = (
            f"{report.slug}: dry run, nothing written"
            if report.dry_run
            else f"{report.slug}: imported"
        )
        if not report.changed:
            head += " (no change: this installation already holds this archive)"
        self.stdout.write(head)
        for section, counts in report.counts.items():
            created, updated = counts["created"], counts["updated"]
            self.stdout.write(
                f"  {section}: would create {created}, would update {updated}, "
                f"unchanged {counts['unchanged']}"
                if report.dry_run
                else f"  {section}: created {created}, updated {updated}, "
                f"unchanged {counts['unchanged']}"
            )
        for note in report.notes:
            self.stdout.write(f"  note: {note}")
