"""The service worker (static/js/sw.js) served from the site's root, so its scope covers every
page: a static file's own URL (/static/js/...) could only control /static/. Never cached by
the browser's HTTP cache, so a new version reaches every device on its next page load."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_GET

SCRIPT = "js/sw.js"


def _read() -> str:
    found = finders.find(SCRIPT)
    if isinstance(found, str):
        return Path(found).read_text(encoding="utf-8")
    with staticfiles_storage.open(SCRIPT) as handle:  # collected only (no source tree)
        data: bytes = handle.read()
    return data.decode("utf-8")


@lru_cache(maxsize=1)
def _read_once() -> str:
    return _read()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    script = _read() if settings.DEBUG else _read_once()
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = reverse("home")
    response["Cache-Control"] = "no-cache, max-age=0"
    return response
