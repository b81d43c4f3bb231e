from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from accounts.signals import account_erased
        from tournaments.audit import audit_account_erased

        account_erased.connect(audit_account_erased, dispatch_uid="tournaments.account_erased")
