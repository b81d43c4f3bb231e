"""The site's file storage: DJANGO_STORAGE_URL read into STORAGES, and the archive kept after
each round on an S3-compatible object store (moto's server mode on a loopback port), written
and downloaded through the site alone, by one process or by a web and a worker that share no
folder."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from config.storage_url import LOCAL_BACKEND, S3_BACKEND, StorageURLError, storage_from_url
from tests.factories import UserFactory, logged_in
from tests.matches.conftest import client_for, running_event
from tests.support import REPO_ROOT

BUCKET = "battledesk-files"
PREFIX = "site-a"
# moto accepts any credentials; these are what a deployment puts in the environment.
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "test-access-key", "AWS_SECRET_ACCESS_KEY": "test-secret-key"}


# -- DJANGO_STORAGE_URL -------------------------------------------------------------------------


def test_no_storage_url_is_the_local_media_folder() -> None:
    assert storage_from_url("") == {"BACKEND": LOCAL_BACKEND}
    assert storage_from_url("   ") == {"BACKEND": LOCAL_BACKEND}


def test_an_s3_url_names_the_bucket_prefix_endpoint_and_region() -> None:
    storage = storage_from_url(
        "s3://battledesk-files/site-a/archives-v1?endpoint_url=http://minio.internal:9000"
        "&region=eu-central-1",
        max_memory_size=1024,
    )
    assert storage["BACKEND"] == S3_BACKEND
    options = storage["OPTIONS"]
    assert options["bucket_name"] == "battledesk-files"
    assert options["location"] == "site-a/archives-v1"
    assert options["endpoint_url"] == "http://minio.internal:9000"
    assert options["region_name"] == "eu-central-1"
    assert options["addressing_style"] == "path"  # the default with an endpoint
    assert options["max_memory_size"] == 1024
    # Private, signed, and never replacing a kept file.
    assert options["default_acl"] is None
    assert options["querystring_auth"] is True
    assert options["file_overwrite"] is False
    assert "access_key" not in options and "secret_key" not in options


def test_aws_itself_needs_only_the_bucket() -> None:
    options = storage_from_url("s3://battledesk-files")["OPTIONS"]
    assert options["location"] == ""
    assert "endpoint_url" not in options and "region_name" not in options
    assert options["addressing_style"] is None  # boto3 chooses


def test_the_optional_settings_are_read() -> None:
    options = storage_from_url(
        "s3://b.example-1/x/?endpoint_url=https://s3.example.org"
        "&addressing_style=virtual&signature_version=s3v4&verify=false"
    )["OPTIONS"]
    assert options["location"] == "x"
    assert options["endpoint_url"] == "https://s3.example.org"
    assert options["addressing_style"] == "virtual"
    assert options["signature_version"] == "s3v4"
    assert options["verify"] is False


@pytest.mark.parametrize(
    ("url", "names"),
    [
        ("ftp://bucket/prefix", "unknown scheme ftp:"),
        ("/srv/media", "unknown scheme in '/srv/media'"),
        ("s3://", "bucket ''"),
        ("s3://ab", "bucket 'ab'"),
        ("s3://My_Bucket", "bucket 'My_Bucket'"),
        ("s3://bucket:9000", "the bucket name has no port"),
        ("s3://key:secret@bucket", "credentials do not go in the URL"),
        ("s3://bucket?endpoint_url=http://key:secret@minio:9000", "credentials do not go"),
        ("s3://bucket/a/../b", "prefix segment '..'"),
        ("s3://bucket/a b", "prefix segment 'a b'"),
        ("s3://bucket?region=", "option 'region' has no value"),
        ("s3://bucket?bucket=other", "unknown option 'bucket'"),
        ("s3://bucket?region=a&region=b", "option 'region' is given twice"),
        ("s3://bucket?region=EU WEST", "region 'EU WEST'"),
        ("s3://bucket?endpoint_url=minio:9000", "endpoint_url 'minio:9000'"),
        ("s3://bucket?endpoint_url=http://minio:notaport", "has a bad port"),
        ("s3://bucket?endpoint_url=http://minio:9000/bucket", "is a host (and port)"),
        ("s3://bucket?addressing_style=sideways", "addressing_style 'sideways'"),
        ("s3://bucket?verify=maybe", "verify is true or false"),
        ("s3://bucket#frag", "has a '#' part"),
        ("s3://bucket?novalue", "the query 'novalue' is not name=value pairs"),
    ],
)
def test_a_bad_storage_url_is_refused_naming_the_variable_and_the_part(
    url: str, names: str
) -> None:
    with pytest.raises(StorageURLError) as refused:
        storage_from_url(url)
    assert str(refused.value).startswith("DJANGO_STORAGE_URL: ")
    assert names in str(refused.value)


def _settings_probe(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "AWS_"))}
    clean.update(env)
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings.base';"
            "django.setup(); from django.conf import settings as s;"
            "print(s.STORAGES['default']['BACKEND'])",
        ],
        cwd=REPO_ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_site_does_not_start_with_a_bad_storage_url() -> None:
    started = _settings_probe(DJANGO_STORAGE_URL="s3://Not_A_Bucket/x")
    assert started.returncode != 0
    assert "ImproperlyConfigured: DJANGO_STORAGE_URL: bucket 'Not_A_Bucket'" in started.stderr


def test_the_settings_read_the_storage_url() -> None:
    local = _settings_probe()
    assert local.stdout.strip() == LOCAL_BACKEND, local.stderr
    s3 = _settings_probe(DJANGO_STORAGE_URL="s3://battledesk-files/a?region=us-east-1")
    assert s3.stdout.strip() == S3_BACKEND, s3.stderr


# -- a local S3-compatible server ---------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass(frozen=True)
class ObjectStore:
    endpoint: str
    url: str  # DJANGO_STORAGE_URL for the bucket and prefix
    client: Any  # boto3's S3 client, to look at what the site stored

    def keys(self) -> list[str]:
        listed = self.client.list_objects_v2(Bucket=BUCKET, Prefix=f"{PREFIX}/")
        return sorted(o["Key"] for o in listed.get("Contents", []))

    def read(self, key: str) -> bytes:
        body: bytes = self.client.get_object(Bucket=BUCKET, Key=key)["Body"].read()
        return body


@pytest.fixture
def object_store(monkeypatch: pytest.MonkeyPatch) -> Iterator[ObjectStore]:
    """moto's S3 server on a free loopback port, with an empty private bucket."""
    import boto3
    from moto.server import ThreadedMotoServer

    for name, value in CREDENTIALS.items():
        monkeypatch.setenv(name, value)
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        endpoint = f"http://127.0.0.1:{port}"
        client = boto3.client(
            "s3",
            endpoint_url=endpoint,
            region_name="us-east-1",
            aws_access_key_id=CREDENTIALS["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
        )
        client.create_bucket(Bucket=BUCKET)
        url = f"s3://{BUCKET}/{PREFIX}?endpoint_url={endpoint}&region=us-east-1"
        yield ObjectStore(endpoint=endpoint, url=url, client=client)
    finally:
        server.stop()


def _files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def _assert_private(store: ObjectStore, key: str) -> None:
    """Only the owner is granted anything: no grant to everyone or to any AWS account."""
    grants = store.client.get_object_acl(Bucket=BUCKET, Key=key)["Grants"]
    assert grants, "the object has no ACL at all"
    for grant in grants:
        assert grant["Grantee"].get("Type") == "CanonicalUser", grant


@pytest.mark.django_db
def test_the_archive_after_a_round_is_kept_in_the_object_store_for_organisers_only(
    object_store: ObjectStore,
    settings: Any,
    tmp_path: Path,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from tests.tournaments.test_archive import _play_round
    from tournaments import services as ts

    settings.MEDIA_ROOT = str(tmp_path / "media")
    settings.STORAGES = {**settings.STORAGES, "default": storage_from_url(object_store.url)}
    event, organiser, regs = running_event(4, planned_rounds=3, top_cut_size=0)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = _play_round(event, organiser, 1)
    assert round_.status == "finished"

    key = f"{PREFIX}/archives/{event.slug}/round-swiss-1.json"
    assert object_store.keys() == [key]
    stored = object_store.read(key)
    assert json.loads(stored)["event"]["slug"] == event.slug
    _assert_private(object_store, key)

    listed = client_for(organiser).get(f"/api/events/{event.slug}/archives/")
    assert listed.status_code == 200
    download = f"/api/events/{event.slug}/archives/round-swiss-1.json"
    assert listed.json()["results"] == [
        {"name": "round-swiss-1.json", "size": len(stored), "download": download}
    ]
    # Streamed through the site (a 200 with the bytes), never a redirect to the store.
    api = client_for(organiser).get(download)
    assert api.status_code == 200
    assert b"".join(api.streaming_content) == stored
    assert api["Content-Disposition"].startswith("attachment")
    page = logged_in(organiser).get(f"/events/{event.slug}/manage/archives/round-swiss-1.json")
    assert page.status_code == 200
    assert b"".join(page.streaming_content) == stored
    archive_page = logged_in(organiser).get(f"/events/{event.slug}/manage/archive/")
    assert b"round-swiss-1.json" in archive_page.content

    judge = UserFactory()
    ts.event_set_judge(actor=organiser, tournament=event, user=judge, assigned=True)
    for someone in (judge, regs[0].player):
        assert client_for(someone).get(download).status_code == 403
        assert client_for(someone).get(f"/api/events/{event.slug}/archives/").status_code == 403
        refused = logged_in(someone).get(f"/events/{event.slug}/manage/archives/round-swiss-1.json")
        assert refused.status_code == 403
    from rest_framework.test import APIClient

    assert APIClient().get(download).status_code in (401, 403)
    missing = client_for(organiser).get(f"/api/events/{event.slug}/archives/round-swiss-9.json")
    assert missing.status_code == 404
    assert _files_under(tmp_path) == []  # nothing on this host's disk
