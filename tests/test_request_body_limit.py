"""Security 5: a request body over the cap is refused with a 413 before it is read."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections
from django.test import override_settings
from django.test.client import RequestFactory

pytestmark = pytest.mark.django_db

TWO_HUNDRED_MB = 200 * 1024 * 1024


class WatchedBody(io.RawIOBase):
    """A request body that counts what is read of it (and is endless: `size` bytes)."""

    def __init__(self, size: int, data: bytes = b"x") -> None:
        self.size, self.data, self.read_bytes = size, data, 0

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        left = self.size - self.read_bytes
        n = left if n is None or n < 0 else min(n, left)
        filler = self.data == b"x"
        chunk = b"x" * n if filler else self.data[self.read_bytes : self.read_bytes + n]
        self.read_bytes += len(chunk)
        return chunk

    def readline(self, size: int = -1) -> bytes:  # type: ignore[override]
        return self.read(size)


def _call(path: str, body: WatchedBody, **extra: str) -> tuple[int, dict[str, str], bytes]:
    environ: dict[str, Any] = RequestFactory()._base_environ(
        PATH_INFO=path, REQUEST_METHOD="POST", **extra
    )
    environ["wsgi.input"] = body
    answer: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        answer["status"], answer["headers"] = int(status.split()[0]), dict(headers)

    # As Django's test client does: the request must not close the test's database connection.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        response = WSGIHandler()(environ, start_response)
        content = b"".join(response)
        response.close()
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)
    return answer["status"], answer["headers"], content


def test_security_5_a_declared_200_mb_upload_is_refused_without_reading_it() -> None:
    body = WatchedBody(TWO_HUNDRED_MB)
    status, headers, content = _call(
        "/api/card-imports/",
        body,
        CONTENT_LENGTH=str(TWO_HUNDRED_MB),
        CONTENT_TYPE="multipart/form-data; boundary=BoUnDaRy",
    )
    assert status == 413 and body.read_bytes == 0
    assert json.loads(content)["field"] == "body" and headers["Connection"] == "close"


def test_security_5_a_large_page_upload_is_refused_with_a_page() -> None:
    body = WatchedBody(TWO_HUNDRED_MB)
    status, headers, content = _call(
        "/cards/import/",
        body,
        CONTENT_LENGTH=str(TWO_HUNDRED_MB),
        CONTENT_TYPE="multipart/form-data; boundary=BoUnDaRy",
    )
    assert status == 413 and body.read_bytes == 0
    assert headers["Content-Type"].startswith("text/html") and b"MB" in content


@override_settings(MAX_REQUEST_BODY_BYTES=10_000)
def test_security_5_a_chunked_body_is_read_no_further_than_the_cap() -> None:
    body = WatchedBody(TWO_HUNDRED_MB)
    status, _headers, _content = _call(
        "/api/decklists/check/",
        body,
        HTTP_TRANSFER_ENCODING="chunked",
        CONTENT_TYPE="application/json",
        **{"wsgi.input_terminated": True},  # type: ignore[arg-type]
    )
    assert status == 413 and body.read_bytes == 10_001


@override_settings(MAX_REQUEST_BODY_BYTES=10_000)
def test_a_chunked_body_under_the_cap_is_read_as_usual() -> None:
    payload = json.dumps({"game": "boba", "format": "playmaker", "text": "1 Nobody"}).encode()
    body = WatchedBody(len(payload), payload)
    status, _headers, content = _call(
        "/api/decklists/check/",
        body,
        HTTP_TRANSFER_ENCODING="chunked",
        CONTENT_TYPE="application/json",
        **{"wsgi.input_terminated": True},  # type: ignore[arg-type]
    )
    assert status == 200 and "report" in json.loads(content)


def test_a_content_length_that_is_not_a_number_is_a_400() -> None:
    status, _headers, content = _call(
        "/api/decklists/check/", WatchedBody(10), CONTENT_LENGTH="ten", CONTENT_TYPE="text/plain"
    )
    assert status == 400 and json.loads(content)["field"] == "body"


def test_security_5_the_card_import_api_checks_sizes_before_reading_files(
    api_client,  # type: ignore[no-untyped-def]
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.core.files.uploadedfile import InMemoryUploadedFile, SimpleUploadedFile
    from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart

    from decks import services
    from tests.factories import OrganiserFactory

    def never(*_args: object) -> bytes:
        raise AssertionError("an upload over the limit was read")

    upload = SimpleUploadedFile("c.csv", b"name\n" + b"x" * 200)
    body = encode_multipart(BOUNDARY, {"files": [upload]})
    monkeypatch.setattr(services, "MAX_IMPORT_BYTES", 100)
    monkeypatch.setattr(InMemoryUploadedFile, "read", never)
    api_client.force_authenticate(OrganiserFactory())
    response = api_client.post("/api/card-imports/", body, content_type=MULTIPART_CONTENT)
    assert response.status_code == 400 and response.json()["field"] == "files"
