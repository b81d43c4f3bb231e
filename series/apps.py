from django.apps import AppConfig


class SeriesConfig(AppConfig):
    """Series (leagues, seasons, circuits): events gathered and players ranked by the points
    their final placings earn (event-structures: Series). It sits on top of the apps whose
    results it reads (tournaments, matches), which never import it: a result change reaches it
    through matches.signals.result_changed and tournaments.extensions.event_status_changed."""

    name = "series"
    verbose_name = "Series"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The receivers, and the refresh task registered in every process (the outbox relays it
        # by name from the web's processes too).
        from matches.players import provide_series_points
        from series import receivers, tasks  # noqa: F401
        from series.selectors import player_series_points

        # A player's profile and own history list their series points.
        provide_series_points(player_series_points)
