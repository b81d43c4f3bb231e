from django.apps import AppConfig


class MetagameConfig(AppConfig):
    """Archetypes, the metagame breakdown of an event or a series, and the event's coverage
    page. It reads decklists (decks), results (matches) and series; none of them import it."""

    name = "metagame"
    verbose_name = "Metagame"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from eventdata.demo import demo_event_loaded
        from metagame.demo import load_demo_archetypes

        demo_event_loaded.connect(load_demo_archetypes, dispatch_uid="metagame-demo")
