"""python manage.py load_demo: every app's demo data, idempotent (a second run changes nothing)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

import notifications.services
from config.commands import DatabaseCommand
from eventdata import demo, demo_decks


class Command(DatabaseCommand):
    help = "Load the demo data (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        # The demo's history is news to nobody: no e-mails or webhook posts while loading it.
        with transaction.atomic(), notifications.services.quiet():
            event, created = demo.load_demo()
            decks = demo_decks.load_demo(event)
            # After the decklists: the event starts, three rounds are played, round 4 runs.
            rounds = demo.load_demo_rounds(event)
            demo.settle_stale_calls(event)
            # Public lists, so the coverage page shows the Open's metagame.
            demo_decks.publish_lists(event)
            demo.demo_event_loaded.send(sender=demo.__name__, event=event)
            # A small event of every other game, with decklists and one finished round.
            game_events = []
            for game_event, _game_created in demo.load_game_demos():
                demo_decks.load_demo(game_event)
                demo.load_game_demo_rounds(game_event)
                demo.settle_stale_calls(game_event)
                game_events.append(game_event)
        verb = "Loaded" if created else "Demo already loaded:"
        self.stdout.write(self.style.SUCCESS(f"{verb} {event.name} at /events/{event.slug}/"))
        self.stdout.write(
            f"Catalog: {decks['created']} demo cards added; decklists: {decks['decklists']} submitted"
        )
        if rounds["rounds"]:
            self.stdout.write(
                f"Rounds: {demo.FINISHED_ROUNDS} finished, "
                f"round {demo.FINISHED_ROUNDS + 1} running"
            )
        for game_event in game_events:
            self.stdout.write(f"Also: {game_event.name} at /events/{game_event.slug}/")
        self.stdout.write(
            f"Logins (password '{demo.DEMO_PASSWORD}'): organiser, judge, "
            f"player01 ... player{demo.PLAYER_COUNT:02d}"
        )
