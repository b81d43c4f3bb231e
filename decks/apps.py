from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "decks"
    verbose_name = "Decks"

    def ready(self) -> None:
        from decks.services import EventDecklists
        from tournaments.extensions import provide_decklists

        provide_decklists(EventDecklists())
