from django.apps import AppConfig


class OverlaysConfig(AppConfig):
    """Stream overlays (docs/overlays.md): the feature match, standings, pairings and bracket
    for OBS browser sources, a JSON feed behind each and a server-sent-events stream. It sits
    on top of matches, which never imports it: a result change reaches it through
    matches.signals.result_changed, a clock press through the ClockEvent model's post_save."""

    name = "overlays"
    verbose_name = "Stream overlays"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from overlays import receivers  # noqa: F401
        from overlays.views import feature_section
        from tournaments.extensions import provide_dashboard_section

        provide_dashboard_section(feature_section)
