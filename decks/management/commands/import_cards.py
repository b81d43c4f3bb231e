"""python manage.py import_cards boba FILE... : upsert cards, print created/updated/rejected."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from config.errors import ServiceError
from decks.services import import_cards


class Command(BaseCommand):
    help = (
        "Import cards for a game from the community lists (cards.json, plays.json) or CSV files "
        "with a header row. Idempotent: a second run reports everything unchanged."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("game", help="game key, e.g. boba")
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument("--json", action="store_true", help="print the report as JSON")
        parser.add_argument("--show-rejected", type=int, default=20, help="rejected rows to list")

    def handle(self, *args: Any, game: str, files: list[Path], **options: Any) -> None:
        payload = []
        for path in files:
            if not path.is_file():
                raise CommandError(f"{path}: no such file")
            payload.append((path.name, path.read_bytes()))
        try:
            counts, rejections = import_cards(game=game, files=payload)
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        if options["json"]:
            self.stdout.write(
                json.dumps({**counts, "rejected": len(rejections), "rejections": rejections})
            )
            return
        self.stdout.write(
            f"created {counts['created']}, updated {counts['updated']}, "
            f"unchanged {counts['unchanged']}, rejected {len(rejections)}"
        )
        for rejection in rejections[: options["show_rejected"]]:
            field = f" [{rejection['field']}]" if rejection.get("field") else ""
            self.stdout.write(f"  row {rejection['row']}{field}: {rejection['reason']}")
        if len(rejections) > options["show_rejected"]:
            self.stdout.write(f"  ... and {len(rejections) - options['show_rejected']} more")
