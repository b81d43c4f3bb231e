from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness and database reachability for load balancers and docker-compose."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


# Every answer under /api/ is JSON, the refusals Django makes before any API view runs too (an
# unknown path, a rejected Host or CSRF token, a crash): the error body of docs/api.md. Pages
# keep Django's own pages. (With DEBUG on, Django shows its technical 404 and 500 pages.)
def _api_error(request: HttpRequest, status: int, detail: str, code: str) -> JsonResponse | None:
    if not request.path.startswith("/api/"):
        return None
    return JsonResponse({"detail": detail, "code": code}, status=status)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    answer = _api_error(request, 400, _("Bad request."), "bad_request")
    return answer or defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    answer = _api_error(request, 403, _("You do not have permission to do this."), "forbidden")
    return answer or defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    answer = _api_error(request, 404, _("Not found."), "not_found")
    return answer or defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    answer = _api_error(request, 500, _("Something went wrong on our side."), "server_error")
    return answer or defaults.server_error(request)
