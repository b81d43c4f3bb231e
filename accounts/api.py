from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import api_view, permission_classes
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User


class MeOutput(serializers.ModelSerializer):
    is_judge = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = ("username", "display_name", "player_id", "email", "is_organiser", "is_judge")

    def get_is_judge(self, obj: User) -> bool:
        return obj.judged_events.exists()


@extend_schema(responses=MeOutput)
@api_view(["GET"])
@permission_classes([permissions.IsAuthenticated])
def me(request: Request) -> Response:
    """The current user, with the roles they hold."""
    return Response(MeOutput(request.user).data)


class TokenView(ObtainAuthToken):
    """Exchange a username and password for an API token (send it as `Authorization: Token …`)."""
