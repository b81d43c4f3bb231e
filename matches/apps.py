from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = "Matches"

    def ready(self) -> None:
        # The services send matches.pair_round by name (they cannot import the tasks module,
        # which imports them): registering the tasks here lets an in-process relay find it.
        import matches.tasks  # noqa: F401
        from accounts.extensions import provide_login_landing
        from matches.selectors import current_table_landing
        from matches.views.event_rounds import RoundsPagesOfMatches
        from tournaments.extensions import provide_rounds_pages

        # tournaments' and accounts' pages show the rounds without importing this app
        provide_rounds_pages(RoundsPagesOfMatches())
        provide_login_landing(current_table_landing)
