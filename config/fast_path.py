"""Published copies answered before Django's middleware: a WSGI wrapper (config/wsgi.py).

At a publish spike most of what an anonymous reader's request of a published copy costs is
the machinery around the copy: fifteen middleware classes (sessions, CSRF, the account, the
language, the security headers, CSP...), the URL resolver and DRF. For an anonymous ``GET``
none of it decides anything the copy does not already say. ``FastPath`` sits in front of
Django's WSGI handler and answers such a request itself, from the copy already stored in the
cache (config.published), with the same ``ETag``/``Last-Modified``, the same ``304``s, gzip
when the request allows it, and the same headers the full stack sends.

The same headers, by construction: the wrapper never writes a header list of its own. The
first request of a kind (a route, the status 200 or 304, the negotiated language, HTTPS or
not) that it could have answered goes through the full stack, and the wrapper keeps the
headers Django answered with (everything but the copy's own validators and length). Later
requests of that kind get those headers with their own copy's ``ETag``, ``Last-Modified``,
``Content-Length`` and ``Content-Encoding``. A full-stack answer that sets a cookie, says
``private`` or carries no ``ETag`` is never kept (tests/test_fast_path.py compares both
paths' headers).

A signed-in reader (a session cookie, and the CSRF cookie at most) is answered the same way
on a route that says so (`Route.signed_in`: the published round, whose answer is the same
copy for everyone who may read it): the session is loaded as SessionMiddleware loads it, and
the account is the one accounts.cached_auth keeps (read from its row and cached when no copy
is there), when it verifies against the session (the session's backend and password hash, as
Django's get_user checks them with the current secret); the limits count the account, as DRF's do; the kept
headers are those the full stack sent a signed-in reader (``private``, never a cookie), kept
apart from the anonymous ones. Nothing is written but the account's cache entry (as the full
stack's CachedAuthenticationMiddleware writes it): reading a session never saves it
(SESSION_SAVE_EVERY_REQUEST is off; with it on, every signed-in request is the full
stack's), so its expiry is what the full stack leaves it. A session that does not verify
(none, expired, flushed, a changed password, a hash of a fallback secret, an account that may
no longer sign in) is the full stack's.

Everything else goes to the full stack, as before: another method, a query string, an
``Authorization`` header, any cookie but the CSRF and session cookies (a language, messages),
a session cookie on a route that does not take signed-in readers,
a host Django would refuse, an HTTP request that would be redirected to HTTPS, a path no
route matches, a route's own refusal (a round that is not published, a refused throttle), a
copy that is not stored yet or is of an older version (the full stack renders it once,
config.published's lock), and any error while looking.

A route (declared by the app that owns the copy, wired in config/wsgi.py) says from the URL
and the database which copy answers and its version (`Found`); the version is read from the
database on every request, as the full stack reads it, so an evicted or stale cache key never
makes a stale copy look fresh.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.storage import default_storage
from django.core import signals
from django.core.exceptions import DisallowedHost
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.http import HttpRequest, HttpResponse, parse_cookie
from django.middleware.csrf import CsrfViewMiddleware
from django.utils import translation
from django.utils.http import http_date

from config import published

logger = logging.getLogger(__name__)

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

# The headers of one answer, not of its kind: each answer sets its own.
OWN_HEADERS = frozenset({"etag", "last-modified", "content-length", "content-encoding"})
# At most this many kinds of answer are kept (routes x 2 statuses x languages x 2 schemes x
# signed in or not).
MAX_KINDS = 512


@dataclass(frozen=True)
class Found:
    """The copy that answers a request, as config.published.serve would be given it."""

    name: str
    version: str
    changed_at: datetime | float | None = None
    max_age: float | None = None


@dataclass(frozen=True)
class Route:
    """A URL whose anonymous GETs may be answered from a stored copy.

    `find(request, **groups)` reads the database and names the copy (None: the full stack
    answers); `admit(request)` is asked only when the copy is there to answer, and counts the
    request against the limits the full stack applies (False: the full stack answers, and
    refuses it). With `signed_in`, a signed-in reader's GET may be answered too: the route
    promises that `find` names the copy the full stack gives that reader (whoever they are,
    staff included), and the answer carries the headers the full stack sends signed-in
    readers (``private``)."""

    name: str
    pattern: re.Pattern[str]
    find: Callable[..., Found | None]
    admit: Callable[[HttpRequest], bool] = lambda request: True
    signed_in: bool = False


@dataclass(frozen=True)
class PageRoute:
    """A page a signed-in reader's GET may get from the fast path: `page(request, **groups)`
    builds the reader's own bytes (the same code the view runs, with the same reads of the
    database) or says None (the full stack answers). The request it is given is the full
    stack's as far as the page reads it: the session and account (as for `Route.signed_in`),
    the language activated, CSRF's cookie read by Django's own CsrfViewMiddleware (which then
    sets the cookie on the answer when the reader had none, as the full stack does), and the
    messages' storage (a page with messages waiting should say None). The headers are the
    full stack's for the same kind of answer, kept as for `Route` but for the CSRF cookie:
    a full-stack answer whose only cookie is a new CSRF cookie is kept without it."""

    name: str
    pattern: re.Pattern[str]
    page: Callable[..., bytes | Encoded | None]


@dataclass(frozen=True)
class Encoded:
    """A page's bytes already compressed for the request (`Content-Encoding: encoding`); the
    full stack's answer must carry the same `Vary: Accept-Encoding` whether compressed or not,
    as the kept headers are those of either."""

    body: bytes
    encoding: str


# The session and account a session cookie signs in, when the cache verifies them cheaply
# (accounts.cached_auth.signed_in, given by config/wsgi.py: config's helpers sit below
# accounts); None leaves the request to the full stack.
SignIn = Callable[[str], tuple[Any, Any] | None]

Kind = tuple[str, int, str, bool, bool]  # route, status, language, HTTPS, signed in


class FastPath:
    """The WSGI application: `application` (Django's handler) behind the fast path."""

    def __init__(
        self,
        application: WSGIApp,
        routes: Sequence[Route | PageRoute],
        sign_in: SignIn | None = None,
    ) -> None:
        self.application = application
        self.routes = tuple(routes)
        self.sign_in = sign_in
        self._headers: dict[Kind, tuple[tuple[str, str], ...]] = {}
        self._lock = threading.Lock()
        self.answered = 0  # requests answered here (tests, the bench)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        matched = self._candidate(environ)
        if matched is None:
            return self.application(environ, start_response)
        route, groups, session_key = matched
        if isinstance(route, PageRoute):
            return self._page(environ, start_response, route, groups, session_key)
        signals.request_started.send(sender=WSGIHandler, environ=environ)
        try:
            request, kind_of = self._request(environ, session_key)
            found = route.find(request, **groups) if request is not None else None
            if found is None or request is None:
                return self.application(environ, start_response)
            response = self._answer(request, route, kind_of, found)
        except Exception:  # the full stack answers (and reports) whatever went wrong
            logger.warning("fast path: %s left to the full stack", route.name, exc_info=True)
            return self.application(environ, start_response)
        if response is None:
            return self.application(environ, self._keeping(route, kind_of, start_response))
        self.answered += 1
        response._handler_class = WSGIHandler  # close() sends request_finished, as Django's
        start_response(f"{response.status_code} {response.reason_phrase}", list(response.items()))
        answer: Iterable[bytes] = response
        return answer

    def _page(
        self,
        environ: dict[str, Any],
        start_response: StartResponse,
        route: PageRoute,
        groups: dict[str, str],
        session_key: str,
    ) -> Iterable[bytes]:
        """A signed-in reader's page (PageRoute), or the full stack's answer."""
        signals.request_started.send(sender=WSGIHandler, environ=environ)
        kind_of: tuple[str, bool, bool] = ("", False, False)
        try:
            request, kind_of = self._request(environ, session_key)
            headers = self._headers.get((route.name, 200, *kind_of))
            if request is None or headers is None:
                return self.application(environ, self._keeping(route, kind_of, start_response))
            if settings.CSRF_USE_SESSIONS:  # a new secret would be written to the session
                return self.application(environ, start_response)
            csrf = CsrfViewMiddleware(_never_called)
            csrf.process_request(request)  # the CSRF cookie's secret, or a new one to set
            request._messages = default_storage(request)
            with translation.override(kind_of[0]):
                request.LANGUAGE_CODE = kind_of[0]
                body = route.page(request, **groups)
            if body is None:
                return self.application(environ, start_response)
            if isinstance(body, Encoded):
                response = _response(200, body.body, headers, None, None, body.encoding)
            else:
                response = _response(200, body, headers, None, None, None)
            response = csrf.process_response(request, response)
        except Exception:  # the full stack answers (and reports) whatever went wrong
            logger.warning("fast path: %s left to the full stack", route.name, exc_info=True)
            return self.application(environ, start_response)
        self.answered += 1
        response._handler_class = WSGIHandler  # close() sends request_finished, as Django's
        headers_out = [  # the cookie CSRF set, written as Django's WSGIHandler writes it
            *response.items(),
            *(("Set-Cookie", c.output(header="")) for c in response.cookies.values()),
        ]
        start_response(f"{response.status_code} {response.reason_phrase}", headers_out)
        answer: Iterable[bytes] = response
        return answer

    # --- which requests --------------------------------------------------------------------

    def _candidate(
        self, environ: dict[str, Any]
    ) -> tuple[Route | PageRoute, dict[str, str], str] | None:
        """A route for a GET without a query string, anonymous or with a session cookie
        alone (no database, no cache), and the session cookie's value ("" without one)."""
        if environ.get("REQUEST_METHOD") != "GET" or environ.get("QUERY_STRING"):
            return None
        if "HTTP_AUTHORIZATION" in environ:
            return None
        session_key = ""
        cookies = environ.get("HTTP_COOKIE")
        if cookies:
            parsed = parse_cookie(cookies)
            if set(parsed) - {settings.CSRF_COOKIE_NAME, settings.SESSION_COOKIE_NAME}:
                return None
            if settings.SESSION_COOKIE_NAME in parsed:
                session_key = parsed[settings.SESSION_COOKIE_NAME]
                if not session_key or self.sign_in is None:
                    return None
        path = environ.get("PATH_INFO", "")
        for route in self.routes:
            match = route.pattern.fullmatch(path)
            if match is not None:
                if isinstance(route, PageRoute):
                    signed_in = bool(session_key)  # a page: signed-in readers only
                else:
                    signed_in = route.signed_in or not session_key
                if not signed_in:
                    return None
                return route, match.groupdict(), session_key
        return None

    def _request(
        self, environ: dict[str, Any], session_key: str = ""
    ) -> tuple[HttpRequest | None, tuple[str, bool, bool]]:
        """The request as the view would see it (anonymous, or signed in by its session
        cookie), and what its headers depend on; None when the full stack would refuse or
        redirect it, or when the session does not verify (the full stack decides: an
        expired session, a changed password, a fallback secret's hash)."""
        request = WSGIRequest(environ)
        try:
            request.get_host()  # ALLOWED_HOSTS, as CommonMiddleware checks it
        except DisallowedHost:
            return None, ("", False, False)
        secure = request.is_secure()
        if settings.SECURE_SSL_REDIRECT and not secure:
            return None, ("", False, False)
        if session_key:
            assert self.sign_in is not None  # _candidate checked it
            found = self.sign_in(session_key)
            if found is None:
                return None, ("", False, False)
            request.session, request.user = found
        else:
            request.user = AnonymousUser()
        language = translation.get_language_from_request(request)
        return request, (language, secure, bool(session_key))

    # --- answering ---------------------------------------------------------------------------

    def _answer(
        self, request: HttpRequest, route: Route, kind_of: tuple[str, bool, bool], found: Found
    ) -> HttpResponse | None:
        etag = published.etag_for(found.version)
        last_modified = published.safe_last_modified(found.changed_at)
        if published.not_modified(request, etag, last_modified):
            headers = self._headers.get((route.name, 304, *kind_of))
            if headers is None or not route.admit(request):
                return None
            return _response(304, b"", headers, etag, last_modified, None)
        headers = self._headers.get((route.name, 200, *kind_of))
        if headers is None:
            return None
        copy = published.existing(found.name, version=found.version, max_age=found.max_age)
        if copy is None or not route.admit(request):
            return None
        if copy.gzipped is not None and published.accepts_gzip(request):
            return _response(200, copy.gzipped, headers, etag, last_modified, "gzip")
        return _response(200, copy.body, headers, etag, last_modified, None)

    def _keeping(
        self,
        route: Route | PageRoute,
        kind_of: tuple[str, bool, bool],
        start_response: StartResponse,
    ) -> StartResponse:
        """start_response, keeping the full stack's headers for answers of this kind: a
        signed-in reader's only when they say ``private``, an anonymous one's only when not;
        a page's (PageRoute) only for a 200 whose one cookie, if any, is CSRF's."""
        signed_in = kind_of[2]
        page = isinstance(route, PageRoute)

        def keep(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            code = int(status.split(" ", 1)[0])
            names = {name.lower(): value for name, value in headers}
            private = "private" in names.get("cache-control", "private")
            if page:
                csrf_cookie = f"{settings.CSRF_COOKIE_NAME}="
                keepable = (
                    code == 200
                    and signed_in
                    and "etag" not in names
                    and all(
                        value.strip().startswith(csrf_cookie)
                        for name, value in headers
                        if name.lower() == "set-cookie"
                    )
                )
            else:
                keepable = (
                    code in (200, 304)
                    and "etag" in names
                    and "set-cookie" not in names
                    and private == signed_in
                )
            kind = (route.name, code, *kind_of)
            if keepable and kind not in self._headers:
                with self._lock:
                    if len(self._headers) < MAX_KINDS:
                        self._headers[kind] = tuple(
                            (name, value)
                            for name, value in headers
                            if name.lower() not in OWN_HEADERS and name.lower() != "set-cookie"
                        )
            return start_response(status, headers, *args)

        return keep


def _never_called(request: HttpRequest) -> HttpResponse:
    raise AssertionError("CsrfViewMiddleware is used for its process_request/response only")


def _response(
    status: int,
    body: bytes,
    headers: tuple[tuple[str, str], ...],
    etag: str | None,
    last_modified: float | None,
    encoding: str | None,
) -> HttpResponse:
    response = HttpResponse(body, status=status)
    for name in list(response.headers):
        del response.headers[name]  # Django's default Content-Type: the kept headers say it
    for name, value in headers:
        response.headers[name] = value
    if etag is not None:
        response.headers["ETag"] = etag
    if last_modified is not None:
        response.headers["Last-Modified"] = http_date(last_modified)
    if encoding is not None:
        response.headers["Content-Encoding"] = encoding
    response.headers["Content-Length"] = str(len(body))
    return response
