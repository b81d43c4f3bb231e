from django.apps import AppConfig


class WeekendsConfig(AppConfig):
    name = "weekends"
    verbose_name = "Weekends"

    def ready(self) -> None:
        from tournaments.extensions import provide_dashboard_section
        from weekends.views import dashboard_section

        provide_dashboard_section(dashboard_section)
