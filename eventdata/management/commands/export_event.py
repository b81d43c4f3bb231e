"""python manage.py export_event SLUG [--output FILE]: the event as one versioned JSON archive
(docs/archive.md); `import_event` restores it. Exit 0 written, 2 no such event."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from config.commands import DatabaseCommand
from eventdata import archive
from eventdata.archive_selectors import event_archive
from tournaments.models import Tournament


class Command(DatabaseCommand):
    help = "Write an event (everything about it) as one JSON archive; import_event restores it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the event's slug (its address: /events/<slug>/)")
        parser.add_argument("--output", "-o", help="write to this file (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Tournament.objects.filter(slug=options["slug"]).first()
        if event is None:
            raise CommandError(f"no event with the slug {options['slug']!r}", returncode=2)
        text = archive.dumps(event_archive(event))
        if options["output"]:
            try:
                Path(options["output"]).write_text(text, encoding="utf-8")
            except OSError as exc:
                raise CommandError(
                    f"cannot write {options['output']}: {exc}", returncode=2
                ) from None
            self.stderr.write(f"{event.slug}: archive written to {options['output']}")
        else:
            self.stdout.write(text, ending="")
