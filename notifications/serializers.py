"""Input and output shapes of the notifications API."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from rest_framework import serializers

from notifications import push
from notifications.models import (
    MAX_PUSH_ENDPOINT,
    MAX_PUSH_KEY,
    MAX_WEBHOOK_URL,
    Channel,
    Delivery,
    DeliveryStatus,
    Kind,
    NotificationSettings,
)


class SettingsInput(serializers.Serializer):
    webhook_url = serializers.CharField(
        allow_blank=True,
        max_length=MAX_WEBHOOK_URL,
        trim_whitespace=True,
        help_text="An https URL (a Discord channel's webhook URL works), or empty for none.",
    )
    email_kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=Kind.choices),
        max_length=len(Kind.choices),
        allow_empty=True,
        help_text="The kinds e-mailed to the players concerned.",
    )
    webhook_kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=Kind.choices),
        max_length=len(Kind.choices),
        allow_empty=True,
        help_text="The kinds posted to the webhook.",
    )
    push_kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=Kind.choices),
        max_length=len(Kind.choices),
        allow_empty=True,
        required=False,
        help_text="The kinds pushed to the phones of the players concerned who asked for it.",
    )


class KindOutput(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()


class SettingsOutput(serializers.ModelSerializer):
    kinds = serializers.SerializerMethodField()
    webhook_url = serializers.CharField(help_text="An https URL, or empty for none.")
    updated_at = serializers.DateTimeField(allow_null=True, help_text="Null until first saved.")
    webhook_secret = serializers.SerializerMethodField(
        help_text="The current Standard Webhooks signing secret (whsec_...), null without a "
        "webhook. Organisers only, as this whole answer."
    )
    webhook_secrets_in_use = serializers.SerializerMethodField(
        help_text="How many secrets sign each post now (2 while a rotated-out one overlaps)."
    )

    class Meta:
        model = NotificationSettings
        fields = [
            "webhook_url",
            "email_kinds",
            "webhook_kinds",
            "push_kinds",
            "push_enabled",
            "kinds",
            "updated_at",
            "webhook_secret",
            "webhook_secrets_in_use",
        ]

    push_enabled = serializers.SerializerMethodField(
        help_text="Whether the site can push at all (false: it has no VAPID key pair, and "
        "push_kinds are not sent)."
    )

    def get_push_enabled(self, obj: NotificationSettings) -> bool:
        return push.enabled()

    def get_webhook_secret(self, obj: NotificationSettings) -> str | None:
        current = (obj.webhook_secrets or [])[-1:]
        return str(current[0]["secret"]) if current else None

    def get_webhook_secrets_in_use(self, obj: NotificationSettings) -> int:
        return len(obj.secrets_in_use(timezone.now()))

    def get_kinds(self, obj: NotificationSettings) -> list[dict[str, Any]]:
        return [{"key": key, "label": str(label)} for key, label in Kind.choices]


class DeliveryOutput(serializers.ModelSerializer):
    recipient = serializers.SerializerMethodField()
    recipient_player_id = serializers.SerializerMethodField()
    kind = serializers.ChoiceField(choices=Kind.choices)
    channel = serializers.ChoiceField(choices=Channel.choices)
    status = serializers.ChoiceField(choices=DeliveryStatus.choices)

    class Meta:
        model = Delivery
        fields = [
            "id",
            "kind",
            "channel",
            "recipient",
            "recipient_player_id",
            "subject",
            "body",
            "status",
            "attempts",
            "error",
            "created_at",
            "last_attempt_at",
            "next_attempt_at",
            "sent_at",
            "sent_via",
            "sent_via_text",
        ]

    sent_via_text = serializers.SerializerMethodField(
        help_text="Where a sent message went, in words (e-mails printed to the console "
        "reached nobody)."
    )

    def get_sent_via_text(self, obj: Delivery) -> str:
        return str(obj.get_sent_via_display()) if obj.sent_via else ""

    def get_recipient(self, obj: Delivery) -> str | None:
        return obj.recipient.public_name if obj.recipient is not None else None

    def get_recipient_player_id(self, obj: Delivery) -> str | None:
        return obj.recipient.player_id if obj.recipient is not None else None


class SecretRotationInput(serializers.Serializer):  # type: ignore[type-arg]
    # Checked by the service (a 400 naming it).
    overlap_hours = serializers.JSONField(required=False, default=24)


class PushKeysInput(serializers.Serializer):  # type: ignore[type-arg]
    p256dh = serializers.CharField(max_length=MAX_PUSH_KEY, trim_whitespace=True)
    auth = serializers.CharField(max_length=MAX_PUSH_KEY, trim_whitespace=True)


class PushSubscriptionInput(serializers.Serializer):  # type: ignore[type-arg]
    """A browser's PushSubscription.toJSON(), as the service worker's pushManager gives it."""

    endpoint = serializers.CharField(max_length=MAX_PUSH_ENDPOINT, trim_whitespace=True)
    keys = PushKeysInput()
    # Other members of toJSON() (expirationTime) are ignored.


class PushUnsubscribeInput(serializers.Serializer):  # type: ignore[type-arg]
    endpoint = serializers.CharField(max_length=MAX_PUSH_ENDPOINT, trim_whitespace=True)


class PushSubscriptionOutput(serializers.Serializer):  # type: ignore[type-arg]
    endpoint = serializers.CharField()
    created_at = serializers.DateTimeField()
    last_success_at = serializers.DateTimeField(allow_null=True)
    user_agent = serializers.CharField()


class PushConfigOutput(serializers.Serializer):  # type: ignore[type-arg]
    enabled = serializers.BooleanField(help_text="False: the site has no VAPID key pair.")
    public_key = serializers.CharField(
        allow_null=True,
        help_text="The VAPID public key (base64url) for pushManager.subscribe's "
        "applicationServerKey; null while push is off.",
    )
    subscriptions = serializers.IntegerField(
        help_text="How many phones or browsers of yours are subscribed."
    )


class PushUnsubscribeOutput(serializers.Serializer):  # type: ignore[type-arg]
    removed = serializers.IntegerField()
