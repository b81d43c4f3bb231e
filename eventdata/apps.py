from django.apps import AppConfig


class EventDataConfig(AppConfig):
    """The whole event as data: the archive (export, import, the copy kept after each round,
    the CSV downloads) and the demo. It sits on top of the apps it reads and writes
    (tournaments, decks, matches), which never import it."""

    name = "eventdata"
    verbose_name = "Event data"

    def ready(self) -> None:
        # Registers the archive task in every process, the web's too: the outbox relays it by
        # name (tournaments.tasks.schedule_round_archive), and a relay looks the name up.
        from eventdata import tasks  # noqa: F401
