from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_save

        from accounts.cached_auth import forget_user
        from accounts.names import safe_text_pattern
        from accounts.validators import validate_name
        from config.schema import document_pattern

        document_pattern(validate_name, safe_text_pattern)

        # Not a domain side effect: the cached copy of the row must never outlive a write.
        user_model = get_user_model()
        post_save.connect(forget_user, sender=user_model, dispatch_uid="forget-cached-user")
        post_delete.connect(forget_user, sender=user_model, dispatch_uid="forget-cached-user-d")
