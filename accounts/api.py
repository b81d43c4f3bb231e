from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, permissions, serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import api_view, permission_classes
from rest_framework.request import Request
from rest_framework.response import Response

from accounts import services
from accounts.lockout import lockout_seconds_left
from accounts.models import User
from config.api import validated
from config.throttling import LoginFailureThrottle, TokenThrottle


class MeOutput(serializers.ModelSerializer):
    is_judge = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = (
            "username",
            "display_name",
            "player_id",
            "email",
            "is_organiser",
            "is_judge",
            "profile_public",
            "stream_opt_out",
        )

    def get_is_judge(self, obj: User) -> bool:
        return obj.judged_events.exists()


@extend_schema(responses=MeOutput)
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def me(request: Request) -> Response:
    """The current user, with the roles they hold."""
    return Response(MeOutput(request.user).data)


class ProfileInput(serializers.Serializer):
    public = serializers.BooleanField(
        help_text="true: show the profile at /players/{player_id}/; false: hide it (a 404)."
    )


@extend_schema(
    request=ProfileInput,
    responses=MeOutput,
    description="Show or hide the current account's public profile (private by default).",
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def profile_visibility(request: Request) -> Response:
    data = validated(ProfileInput, request.data)
    user = services.profile_set_public(actor=request.user, public=data["public"])
    return Response(MeOutput(user).data)


class EraseInput(serializers.Serializer):
    confirm = serializers.BooleanField(default=False, help_text="Erasing is final: send true.")
    password = serializers.CharField(
        required=False, allow_blank=True, max_length=128, style={"input_type": "password"}
    )


@extend_schema(
    request=EraseInput,
    responses={204: None},
    description="Erase the current account: anonymised (results stay in their events under an "
    "anonymous name), logged out everywhere, its tokens revoked. Needs the password and "
    '{"confirm": true}.',
)
@api_view(["POST"])
@permission_classes([permissions.IsAuthenticated])
def erase_me(request: Request) -> Response:
    data = validated(EraseInput, request.data)
    services.account_erase(actor=request.user, user=request.user, **data)
    return Response(status=204)


class TokenView(ObtainAuthToken):
    """Exchange a username and password for an API token (send it as `Authorization: Token …`).

    Limited per address (the `token` rate); after 10 failed logins for one username from one
    address, that pair is locked for 15 minutes, the right password included (429); an
    address with too many failed logins whatever the usernames (the `login_failures` rate,
    shared with the login page) is refused too (429)."""

    throttle_classes = [TokenThrottle]

    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        failures = LoginFailureThrottle()
        wait = failures.refused_for(request)
        if wait is not None:
            raise exceptions.Throttled(
                wait=wait,
                detail=_(
                    "Too many failed logins from your address: logins are paused, even with "
                    "the right password."
                ),
            )
        try:
            return super().post(request, *args, **kwargs)
        except exceptions.ValidationError:
            failures.failed(request)
            # django-axes marks the request it was given (this DRF request) when it refuses.
            if getattr(request, "axes_locked_out", False):
                data = request.data if hasattr(request.data, "get") else {}
                credentials = {"username": data.get("username")}
                raise exceptions.Throttled(
                    wait=lockout_seconds_left(request, credentials),
                    detail=_(
                        "Too many failed logins for this account from your address: logins "
                        "are paused, even with the right password."
                    ),
                ) from None
            raise
