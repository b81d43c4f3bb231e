"""python manage.py import_cards GAME FILE... : upsert cards, print created/updated/rejected.

Into the game's official catalog, or the one `--catalog SLUG` names. Whoever runs the command
runs the site, so it may change any catalog; every changed card keeps its history."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from config.commands import DatabaseCommand
from config.errors import ServiceError
from decks.models import Catalog
from decks.services import import_cards
from engine.games import GAMES


class Command(DatabaseCommand):
    help = (
        "Import cards for a game from the files its import format reads (a CSV with a header "
        "row; some games also read community JSON lists; see docs/decklist-format.md). "
        "Idempotent: a second run reports everything unchanged."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("game", choices=list(GAMES), help="the game's key")
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument(
            "--catalog", default="", help="the catalog's slug (default: the official catalog)"
        )
        parser.add_argument("--json", action="store_true", help="print the report as JSON")
        parser.add_argument("--show-rejected", type=int, default=20, help="rejected rows to list")

    def handle(self, *args: Any, game: str, files: list[Path], **options: Any) -> None:
        payload = []
        for path in files:
            if not path.is_file():
                raise CommandError(f"{path}: no such file")
            payload.append((path.name, path.read_bytes()))
        catalog = None
        if options["catalog"]:
            catalog = Catalog.objects.filter(slug=options["catalog"]).first()
            if catalog is None:
                raise CommandError(f"--catalog: no catalog {options['catalog']!r}")
        try:
            counts, rejections = import_cards(
                game=game, files=payload, catalog=catalog, source="command"
            )
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
