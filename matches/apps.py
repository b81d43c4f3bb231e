from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = "Matches"

    def ready(self) -> None:
        # The services send matches.pair_round by name (they cannot import the tasks module,
        # which imports them): registering the tasks here lets an in-process relay find it.
        import matches.tasks  # noqa: F401
