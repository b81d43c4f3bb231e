"""Refuse query parameters and form fields no page or API call can use, before any view runs.

A NUL byte cannot be stored or searched for in PostgreSQL (it made searches a 500), and no
search box or filter needs a value longer than MAX_QUERY_VALUE characters. The pages' form
fields are checked for NUL bytes and bounded by MAX_FORM_VALUE (the largest pasted text, a game
record, is at most a megabyte). The answer is a 400 naming the field: JSON under /api/, a page
elsewhere. API bodies are DRF's: config.parsers bounds JSON (and refuses NUL in it), DRF's
CharField refuses NUL in form fields.

Before any of that, RequestBodyLimitMiddleware refuses a body over MAX_REQUEST_BODY_BYTES with
a 413 without reading it (the whole upload never reaches a worker's memory).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable

from django.conf import settings
from django.core.handlers.wsgi import LimitedStream
from django.db import OperationalError
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


def _not_found(request: HttpRequest, api: bool) -> HttpResponse:
    message = _("path: NUL characters are not allowed.")
    if api:
        return JsonResponse({"detail": message, "code": "not_found", "field": "path"}, status=404)
    return render(request, "bad_input.html", {"problem": message, "field": "path"}, status=404)


class InputLimitsMiddleware:
    """400 for a NUL byte or an overlong value in the query string or a posted form."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        api = request.path.startswith("/api/")
        if "\x00" in request.path:
            # No URL names anything with a NUL in it (a slug, an id), and PostgreSQL cannot
            # even look one up: not found, before any view runs.
            return _not_found(request, api)
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


# PostgreSQL's query_canceled: the statement ran past statement_timeout (settings
# DATABASE_STATEMENT_TIMEOUT_MS) or an operator cancelled it.
QUERY_CANCELED = "57014"


def is_statement_timeout(exc: BaseException) -> bool:
    return isinstance(exc, OperationalError) and (
        getattr(exc.__cause__, "sqlstate", None) == QUERY_CANCELED
    )


def is_pool_exhausted(exc: BaseException) -> bool:
    """No connection of the process's pool came free within DATABASE_POOL_TIMEOUT (more
    threads than the pool holds: config/database.py)."""
    try:
        from psycopg_pool import PoolTimeout
    except ImportError:  # no pool without psycopg_pool
        return False
    return isinstance(exc, OperationalError) and isinstance(exc.__cause__, PoolTimeout)


class StatementTimeoutMiddleware:
    """A statement the database gave up on, or a request that waited too long for a pooled
    connection, is a 503 that says to try again: JSON under /api/, a page elsewhere. Nothing
    was saved: the transaction it ran in was rolled back, or never began."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not (is_statement_timeout(exception) or is_pool_exhausted(exception)):
            return None
        message = _("The database is busy and gave up on this request. Please try again.")
        if request.path.startswith("/api/"):
            response: HttpResponse = JsonResponse(
                {"detail": message, "code": "timeout"}, status=503
            )
        else:
            response = render(request, "server_busy.html", {"problem": message}, status=503)
        response["Retry-After"] = "5"
        return response


CHUNK = 64 * 1024


class RequestBodyLimitMiddleware:
    """413 for a request body over settings.MAX_REQUEST_BODY_BYTES, before it is read.

    A Content-Length over the cap is refused from the header alone (nothing of the body is
    read; a worker never holds a 200 MB upload). A chunked body (no Content-Length) is read
    at most cap + 1 bytes, into a temporary file that spills to disk, and refused once it
    passes the cap. It runs before anything that reads a body (InputLimitsMiddleware, CSRF's
    process_view, DRF's parsers). The proxy in front caps bodies too (docs/operations.md).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        cap: int = settings.MAX_REQUEST_BODY_BYTES
        declared = request.META.get("CONTENT_LENGTH") or ""
        if declared.strip():
            if not declared.strip().isdigit():
                return _refusal(request, 400, _("Content-Length: not a number of bytes."))
            if int(declared) > cap:
                return _too_large(request, cap)
        elif "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
            if not _spool_chunked_body(request, cap):
                return _too_large(request, cap)
        return self.get_response(request)


def _spool_chunked_body(request: HttpRequest, cap: int) -> bool:
    """Read a chunked body (the server has decoded it) into a temporary file, at most cap + 1
    bytes; False when it is over the cap. Django then reads the file as a sized body."""
    environ = request.META
    if not environ.get("wsgi.input_terminated"):
        return True  # the server did not end the stream: Django reads no body from it
    # Not a `with`: the request reads the file after this returns (freed with the request).
    spool = tempfile.SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE)  # noqa: SIM115
    size = 0
    while size <= cap:
        chunk = environ["wsgi.input"].read(min(CHUNK, cap + 1 - size))
        if not chunk:
            break
        spool.write(chunk)
        size += len(chunk)
    if size > cap:
        spool.close()
        return False
    spool.seek(0)
    environ["CONTENT_LENGTH"] = str(size)
    request._stream = LimitedStream(spool, size)  # type: ignore[attr-defined]
    return True


def _too_large(request: HttpRequest, cap: int) -> HttpResponse:
    megabytes = cap / (1024 * 1024)
    message = _("The request is larger than %(limit).0f MB; send a smaller file.") % {
        "limit": megabytes
    }
    return _refusal(request, 413, message, code="too_large")


def _refusal(
    request: HttpRequest, status: int, message: str, code: str = "invalid"
) -> HttpResponse:
    # The body is never read: closing the connection tells the server not to wait for it.
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"detail": message, "code": code, "field": "body", "body": [message]}, status=status
        )
    else:
        response = render(
            request, "bad_input.html", {"problem": message, "field": "body"}, status=status
        )
    response["Connection"] = "close"
    return response
