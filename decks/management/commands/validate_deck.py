"""python manage.py validate_deck [--game GAME] [--format KEY] FILE [--json]: exit 0 legal,
1 not legal, 2 when the input cannot be read (no such file, not text, not JSON, unknown game,
format or parameters) or the database is not set up."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from config.commands import DatabaseCommand
from config.errors import ServiceError
from decks.services import decklist_check
from engine.games import DEFAULT_GAME, GAMES, get_game

UNREADABLE = 2  # 1 means "read it, and it is not legal"


class Command(DatabaseCommand):
    help = "Validate a decklist file against a format using the imported card catalog."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "file", type=Path, help="a decklist in the text format, or its JSON form"
        )
        parser.add_argument(
            "--format",
            dest="format_key",
            default=None,
            help="a format of the game (default: the game's own default format)",
        )
        parser.add_argument(
            "--game",
            default=DEFAULT_GAME,
            help=f"the game's key, one of {', '.join(GAMES)} (default: {DEFAULT_GAME})",
        )
        parser.add_argument("--params", help="JSON object of format parameter overrides")
        parser.add_argument(
            "--catalog",
            default=None,
            help="the card list's slug (default: the official catalog once it has cards)",
        )
        parser.add_argument("--json", action="store_true")

    def handle(
        self, *args: Any, file: Path, format_key: str | None, game: str, **options: Any
    ) -> None:
        if game not in GAMES:
            raise CommandError(
                f"--game: unknown game {game!r}; one of {', '.join(GAMES)}", returncode=UNREADABLE
            )
        format_key = format_key or get_game(game).default_format
        if not file.is_file():
            raise CommandError(f"{file}: no such file", returncode=UNREADABLE)
        try:
            raw = file.read_bytes()
        except OSError as exc:
            raise CommandError(f"{file}: cannot read it ({exc})", returncode=UNREADABLE) from None
        source: Any = raw
        if file.suffix.lower() == ".json":
            try:
                source = json.loads(raw)
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise CommandError(
                    f"{file}: not valid JSON ({exc})", returncode=UNREADABLE
                ) from None
        params = None
        if options.get("params"):
            try:
                params = json.loads(options["params"])
            except json.JSONDecodeError as exc:
                raise CommandError(
                    f"--params: not valid JSON ({exc})", returncode=UNREADABLE
                ) from None
        try:
            result = decklist_check(
                game=game,
                format_key=format_key,
                source=source,
                params=params,
                catalog=options.get("catalog") or None,
            )
        except ServiceError as exc:
            raise CommandError(exc.message, returncode=UNREADABLE) from None
        report = result.report_json()
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2))
        else:
            self._print(report)
        sys.exit(0 if report["legal"] else 1)

    def _print(self, report: dict[str, Any]) -> None:
        if report["legal"]:
            self.stdout.write(self.style.SUCCESS(f"Legal for {report['format']}."))
        else:
            self.stdout.write(self.style.ERROR(f"Not legal for {report['format']}:"))
        for v in report["violations"]:
            cards = f" ({', '.join(v['cards'][:6])})" if v.get("cards") else ""
            self.stdout.write(f"- [{v['rule']}] {v['message']}{cards} — {v['citation']}")
        for w in report.get("warnings", []):
            self.stdout.write(f"  warning: {w['message']}")
