"""Refuse query parameters and form fields no page or API call can use, before any view runs.

A NUL byte cannot be stored or searched for in PostgreSQL (it made searches a 500), and no
search box or filter needs a value longer than MAX_QUERY_VALUE characters. The pages' form
fields are checked for NUL bytes and bounded by MAX_FORM_VALUE (the largest pasted text, a game
record, is at most a megabyte). The answer is a 400 naming the field: JSON under /api/, a page
elsewhere. API bodies are DRF's: config.parsers bounds JSON (and refuses NUL in it), DRF's
CharField refuses NUL in form fields.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import render
from django.utils.translation import gettext as _

from config.errors import ServiceError

MAX_QUERY_VALUE = 1000
MAX_FORM_VALUE = 2 * 1024 * 1024
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _problem(params: QueryDict, limit: int) -> ServiceError | None:
    """The first parameter with a NUL byte (in its name or a value) or a value over limit."""
    for key, values in params.lists():
        name = key.replace("\x00", "")[:60] or "parameter"
        if "\x00" in key or any("\x00" in value for value in values):
            message = _("%(name)s: NUL characters are not allowed.") % {"name": name}
            return ServiceError(message, field=name)
        if any(len(value) > limit for value in values):
            message = _("%(name)s: at most %(limit)d characters.") % {"name": name, "limit": limit}
            return ServiceError(message, field=name)
    return None


class InputLimitsMiddleware:
    """400 for a NUL byte or an overlong value in the query string or a posted form."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        api = request.path.startswith("/api/")
        problem = _problem(request.GET, MAX_QUERY_VALUE)
        # An API body is DRF's to read (its parsers and serializers refuse NUL bytes):
        # reading a multipart body here would leave none for a view that wants it raw.
        form = request.method == "POST" and request.content_type in _FORM_TYPES
        if problem is None and form and not api:
            problem = _problem(request.POST, MAX_FORM_VALUE)
        if problem is None:
            return self.get_response(request)
        if api:
            return JsonResponse(problem.as_dict(), status=400)
        return render(
            request,
            "bad_input.html",
            {"problem": problem.message, "field": problem.field},
            status=400,
        )
