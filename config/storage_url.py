"""DJANGO_STORAGE_URL: where the site keeps the files it writes (the archive kept after each
round), read into Django's STORAGES["default"] entry.

    (unset or empty)                      the local folder DJANGO_MEDIA_ROOT (one host)
    s3://BUCKET                           AWS S3, the bucket's root
    s3://BUCKET/PREFIX?endpoint_url=http://minio.internal:9000&region=us-east-1

Options (query string, each at most once): `endpoint_url` (an S3-compatible store: MinIO,
Ceph, Garage, Cloudflare R2...; absent: AWS), `region`, `addressing_style` (`path`, the default
with an endpoint_url, or `virtual` / `auto`, the default on AWS), `signature_version` (e.g.
`s3v4`) and `verify` (`true`, the default, or `false` to accept a self-signed certificate).

Credentials never go in the URL (it is printed by settings dumps and seen in process lists):
django-storages and boto3 read AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and
AWS_SESSION_TOKEN) from the environment, or an instance role / AWS profile.

Pure: no Django import, so the settings module and the tests read it alike.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

VARIABLE = "DJANGO_STORAGE_URL"
S3_BACKEND = "storages.backends.s3.S3Storage"
LOCAL_BACKEND = "django.core.files.storage.FileSystemStorage"

OPTIONS = ("endpoint_url", "region", "addressing_style", "signature_version", "verify")
ADDRESSING_STYLES = ("path", "virtual", "auto")
# S3's bucket naming rules (3 to 63 lowercase letters, digits, dots and hyphens, starting and
# ending with a letter or digit), which MinIO, Ceph, Garage and R2 accept too.
_BUCKET = re.compile(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")
_PREFIX_SEGMENT = re.compile(r"[A-Za-z0-9._-]+")
_REGION = re.compile(r"[a-z0-9-]{1,50}")
_SIGNATURE = re.compile(r"[a-z0-9-]{1,20}")


class StorageURLError(ValueError):
    """A DJANGO_STORAGE_URL the site cannot use; the message names the variable and the part."""

    def __init__(self, problem: str) -> None:
        super().__init__(f"{VARIABLE}: {problem} (see docs/operations.md, 'File storage').")


def storage_from_url(url: str, *, max_memory_size: int = 0) -> dict[str, Any]:
    """The STORAGES["default"] entry for this URL (the local folder when it is empty).

    `max_memory_size`: an object read larger than this is buffered in a temporary file for the
    length of the request instead of in memory (0: always in memory)."""
    url = url.strip()
    if not url:
        return {"BACKEND": LOCAL_BACKEND}
    parts = urlsplit(url)
    if parts.scheme != "s3":
        # The value itself is not repeated: a mistyped URL may hold a secret.
        scheme = f"unknown scheme {parts.scheme}:" if parts.scheme else "no scheme"
        raise StorageURLError(
            f"{scheme}; leave it empty for the local folder DJANGO_MEDIA_ROOT, or give "
            "s3://BUCKET/PREFIX"
        )
    if parts.username is not None or parts.password is not None:
        raise StorageURLError(
            "credentials do not go in the URL; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
        )
    bucket = parts.hostname or ""
    # urlsplit lowercases the host; the bucket rules need it as written.
    written = parts.netloc.split(":", 1)[0]
    if ":" in parts.netloc:
        raise StorageURLError("the bucket name has no port; put the store in ?endpoint_url=")
    if not bucket or written != bucket or not _BUCKET.fullmatch(bucket) or ".." in bucket:
        raise StorageURLError(
            f"bucket {written!r} is not a bucket name (3 to 63 lowercase letters, digits, "
            "dots and hyphens)"
        )
    if parts.fragment:
        raise StorageURLError("the URL has a '#' part; options go in the query (?name=value)")
    location = _prefix(unquote(parts.path))
    options: dict[str, Any] = {
        "bucket_name": bucket,
        "location": location,
        # Archives hold players' names and e-mail addresses: objects get no ACL of their own
        # (the bucket's private default), every URL is signed, and a name already taken gets
        # a new one rather than replacing what is kept.
        "default_acl": None,
        "querystring_auth": True,
        "querystring_expire": 300,
        "file_overwrite": False,
        "max_memory_size": max_memory_size,
    }
    query = _query(parts.query)
    endpoint = query.get("endpoint_url")
    if endpoint is not None:
        options["endpoint_url"] = _endpoint(endpoint)
    if "region" in query:
        if not _REGION.fullmatch(query["region"]):
            raise StorageURLError(f"region {query['region']!r} is not a region name")
        options["region_name"] = query["region"]
    style = query.get("addressing_style", "path" if endpoint is not None else "auto")
    if style not in ADDRESSING_STYLES:
        raise StorageURLError(
            f"addressing_style {style!r} is not one of {', '.join(ADDRESSING_STYLES)}"
        )
    options["addressing_style"] = None if style == "auto" else style
    if "signature_version" in query:
        if not _SIGNATURE.fullmatch(query["signature_version"]):
            raise StorageURLError(
                f"signature_version {query['signature_version']!r} is not a signature version"
            )
        options["signature_version"] = query["signature_version"]
    if "verify" in query:
        if query["verify"] not in ("true", "false"):
            raise StorageURLError(f"verify is true or false, not {query['verify']!r}")
        options["verify"] = query["verify"] == "true"
    return {"BACKEND": S3_BACKEND, "OPTIONS": options}


def _prefix(path: str) -> str:
    """The key prefix every file is stored under ('' for the bucket's root)."""
    segments = [s for s in path.split("/") if s]
    for segment in segments:
        if segment in (".", "..") or not _PREFIX_SEGMENT.fullmatch(segment):
            raise StorageURLError(
                f"prefix segment {segment!r}: letters, digits, '.', '_' and '-' only"
            )
    return "/".join(segments)


def _query(text: str) -> dict[str, str]:
    try:
        pairs = parse_qsl(text, keep_blank_values=True, strict_parsing=bool(text))
    except ValueError:
        raise StorageURLError(f"the query {text!r} is not name=value pairs") from None
    found: dict[str, str] = {}
    for name, value in pairs:
        if name not in OPTIONS:
            raise StorageURLError(f"unknown option {name!r}; known: {', '.join(OPTIONS)}")
        if name in found:
            raise StorageURLError(f"option {name!r} is given twice")
        if not value:
            raise StorageURLError(f"option {name!r} has no value")
        found[name] = value
    return found


def _endpoint(value: str) -> str:
    endpoint = urlsplit(value)
    if endpoint.username is not None or endpoint.password is not None:
        raise StorageURLError(
            "credentials do not go in the URL; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
        )
    try:
        endpoint.port  # noqa: B018 - reading it checks it
    except ValueError:
        raise StorageURLError(f"endpoint_url {value!r} has a bad port") from None
    if endpoint.scheme not in ("http", "https") or not endpoint.hostname:
        raise StorageURLError(f"endpoint_url {value!r} is not an http:// or https:// address")
    if endpoint.path.strip("/") or endpoint.query or endpoint.fragment:
        raise StorageURLError(f"endpoint_url {value!r} is a host (and port), not a path")
    return f"{endpoint.scheme}://{endpoint.netloc}"
