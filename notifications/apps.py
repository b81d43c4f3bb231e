from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from notifications.services import player_dropped_receiver, registration_suspended_receiver
        from organisations.signals import registration_suspended
        from tournaments.extensions import player_dropped

        player_dropped.connect(player_dropped_receiver, dispatch_uid="notifications.dropped")
        registration_suspended.connect(
            registration_suspended_receiver, dispatch_uid="notifications.suspended"
        )
