"""The site's file storage: DJANGO_STORAGE_URL read into STORAGES, and the archive kept after
each round on an S3-compatible object store (moto's server mode on a loopback port), written
and downloaded through the site alone, by one process or by a web and a worker that share no
folder."""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from config.storage_url import LOCAL_BACKEND, S3_BACKEND, StorageURLError, storage_from_url
from tests.factories import UserFactory, logged_in
from tests.scenarios import client_for, running_event
from tests.support import REPO_ROOT

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
        ("/srv/media", "no scheme;"),
        ("https://key:secret@s3.example.org/bucket", "unknown scheme https:"),
        ("s3://bucket?endpoint_url=ftp://key:secret@minio:bad", "credentials do not go"),
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
    assert "secret" not in str(refused.value)


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


@pytest.mark.django_db
def test_without_a_storage_url_the_archive_is_kept_in_the_media_folder(
    settings: Any, tmp_path: Path, django_capture_on_commit_callbacks: Any
) -> None:
    from tests.tournaments.archive_scenes import play_round

    settings.MEDIA_ROOT = str(tmp_path / "media")
    settings.STORAGES = {**settings.STORAGES, "default": storage_from_url("")}
    event, organiser, _regs = running_event(2, planned_rounds=3, top_cut_size=0)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(event, organiser, 1)
    kept = tmp_path / "media" / "archives" / event.slug / "round-swiss-1.json"
    assert _files_under(tmp_path) == [kept]
    download = client_for(organiser).get(f"/api/events/{event.slug}/archives/round-swiss-1.json")
    assert b"".join(download.streaming_content) == kept.read_bytes()


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
    bucket: str
    url: str  # DJANGO_STORAGE_URL for the bucket and prefix
    client: Any  # boto3's S3 client, to look at what the site stored

    def keys(self) -> list[str]:
        listed = self.client.list_objects_v2(Bucket=self.bucket, Prefix=f"{PREFIX}/")
        return sorted(o["Key"] for o in listed.get("Contents", []))

    def read(self, key: str) -> bytes:
        body: bytes = self.client.get_object(Bucket=self.bucket, Key=key)["Body"].read()
        return body


@pytest.fixture
def object_store(monkeypatch: pytest.MonkeyPatch) -> Iterator[ObjectStore]:
    """moto's S3 server on a free loopback port, with an empty private bucket (a new name each
    time: moto keeps its buckets in the process, whichever server instance made them)."""
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
        bucket = f"battledesk-{secrets.token_hex(6)}"
        client.create_bucket(Bucket=bucket)
        url = f"s3://{bucket}/{PREFIX}?endpoint_url={endpoint}&region=us-east-1"
        yield ObjectStore(endpoint=endpoint, bucket=bucket, url=url, client=client)
    finally:
        server.stop()


def _files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def _assert_private(store: ObjectStore, key: str) -> None:
    """Only the owner is granted anything: no grant to everyone or to any AWS account."""
    grants = store.client.get_object_acl(Bucket=store.bucket, Key=key)["Grants"]
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
    from tests.tournaments.archive_scenes import play_round
    from tournaments import services as ts

    settings.MEDIA_ROOT = str(tmp_path / "media")
    settings.STORAGES = {**settings.STORAGES, "default": storage_from_url(object_store.url)}
    event, organiser, regs = running_event(4, planned_rounds=3, top_cut_size=0)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = play_round(event, organiser, 1)
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

    assert APIClient().get(download).status_code == 403
    missing = client_for(organiser).get(f"/api/events/{event.slug}/archives/round-swiss-9.json")
    assert missing.status_code == 404
    assert _files_under(tmp_path) == []  # nothing on this host's disk


# -- the web and the worker in two folders ------------------------------------------------------


def _database_url() -> str:
    """The pytest test database (its name at test time), for the subprocesses."""
    from urllib.parse import quote

    from django.conf import settings

    db = settings.DATABASES["default"]
    auth = quote(db.get("USER") or "", safe="")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"], safe="")
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{auth}@{host}:{port}/{quote(db['NAME'], safe='')}"


def _host_env(folder: Path, store: ObjectStore, redis_url: str) -> dict[str, str]:
    """A host as deployed: the production settings module, run from its own folder with its own
    media root, sharing only the database, Redis and the object store."""
    from django.conf import settings

    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_URL", "CELERY_", "AWS_"))
    }
    env.update(
        CREDENTIALS,
        DJANGO_SETTINGS_MODULE="config.settings.base",
        DJANGO_SECRET_KEY=settings.SECRET_KEY,  # the sessions the test signs in with
        DJANGO_MEDIA_ROOT=str(folder / "media"),
        DJANGO_STORAGE_URL=store.url,
        DATABASE_URL=_database_url(),
        # Nothing held open when the test database is flushed and dropped.
        DATABASE_CONN_MAX_AGE="0",
        REDIS_URL=redis_url,
        PYTHONPATH=str(REPO_ROOT),
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env


def _http(
    url: str, *, method: str = "GET", token: str = "", cookie: str = "", body: Any = None
) -> tuple[int, bytes]:
    import urllib.error
    import urllib.request

    headers = {"Accept": "application/json"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Token {token}"
    if cookie:
        headers["Cookie"] = cookie
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with direct.open(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
    except urllib.error.URLError as exc:  # not listening (yet)
        return 0, str(exc.reason).encode()


@dataclass
class Host:
    process: subprocess.Popen[bytes]
    log: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


def _start(command: list[str], folder: Path, env: dict[str, str], log: Path) -> Host:
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=folder, env=env, stdout=out, stderr=out)
    return Host(process=process, log=log)


def _wait_until(what: str, check: Any, timeout: float, *hosts: Host) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for host in hosts:
            assert host.process.poll() is None, f"{host.log.name} stopped:\n{host.log_text()}"
        found = check()
        if found:
            return found
        time.sleep(0.2)
    logs = "\n".join(f"--- {h.log.name}\n{h.log_text()}" for h in hosts)
    pytest.fail(f"{what}: not within {timeout:.0f} s\n{logs}")


@dataclass(frozen=True)
class TwoHosts:
    web: str  # the web host's address
    web_folder: Path
    worker_folder: Path
    worker: Host


@pytest.fixture
def two_hosts(
    require_postgres: None, require_redis: str, object_store: ObjectStore, tmp_path: Path
) -> Iterator[TwoHosts]:
    """gunicorn run from one folder and a Celery worker from another, each with its own media
    root; both stopped whatever the test does."""
    web_folder, worker_folder = tmp_path / "web-host", tmp_path / "worker-host"
    web_folder.mkdir()
    worker_folder.mkdir()
    port = free_port()
    hosts: list[Host] = []
    try:
        hosts.append(
            _start(
                [
                    *(sys.executable, "-m", "gunicorn", "config.wsgi:application"),
                    *("--bind", f"127.0.0.1:{port}", "--workers", "1", "--timeout", "60"),
                ],
                web_folder,
                _host_env(web_folder, object_store, require_redis),
                tmp_path / "web.log",
            )
        )
        hosts.append(
            _start(
                [
                    *(sys.executable, "-m", "celery", "-A", "config", "worker"),
                    *("--loglevel=INFO", "--pool=solo", "--concurrency=1"),
                    *("--without-gossip", "--without-mingle", "--without-heartbeat"),
                ],
                worker_folder,
                _host_env(worker_folder, object_store, require_redis),
                tmp_path / "worker.log",
            )
        )
        web = f"http://127.0.0.1:{port}"
        _wait_until(
            "the web host answering /healthz",
            lambda: _http(f"{web}/healthz")[0] == 200,
            30,
            *hosts,
        )
        _wait_until("the worker ready", lambda: "ready." in hosts[1].log_text(), 30, *hosts)
        yield TwoHosts(web, web_folder, worker_folder, worker=hosts[1])
    finally:
        for host in hosts:
            host.stop()


@pytest.mark.services
# Its Celery worker consumes the shared Redis broker's queue that test_several_hosts.py's hosts
# also use: under pytest-xdist (make test) the two run on the same worker, one after the other.
@pytest.mark.xdist_group("hosts_on_the_shared_redis")
def test_the_archive_the_worker_writes_in_another_folder_is_the_one_the_organiser_downloads(
    two_hosts: TwoHosts, object_store: ObjectStore
) -> None:
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from matches.models import Match

    web = two_hosts.web
    event, organiser, regs = running_event(4, planned_rounds=3, top_cut_size=0)
    token = Token.objects.create(user=organiser).key
    api = f"{web}/api/events/{event.slug}"

    # The whole round through the web host: paired, published, every result entered by staff.
    paired = _http(f"{api}/rounds/", method="POST", token=token)
    assert paired[0] == 201, paired
    published = _http(f"{api}/rounds/1/publish/", method="POST", token=token)
    assert published[0] == 200, published
    for match in Match.objects.filter(round__tournament=event, b__isnull=False):
        entered = _http(
            f"{web}/api/matches/{match.pk}/report/",
            method="POST",
            token=token,
            body={"games": [1, 0, 0], "battles": [[4, 2]]},
        )
        assert entered[0] in (200, 201), entered

    # The worker keeps the archive after the round; the web host lists it from the store.
    def listed() -> list[dict[str, Any]]:
        status, body = _http(f"{api}/archives/", token=token)
        assert status == 200, body
        results: list[dict[str, Any]] = json.loads(body)["results"]
        return results

    kept = _wait_until("the archive kept after round 1", listed, 45)
    assert [k["name"] for k in kept] == ["round-swiss-1.json"]
    key = f"{PREFIX}/archives/{event.slug}/round-swiss-1.json"
    assert object_store.keys() == [key]
    stored = object_store.read(key)
    rounds = json.loads(stored)["rounds"]
    assert [(r["number"], r["status"]) for r in rounds] == [(1, "finished")]
    worker_log = two_hosts.worker.log_text()
    assert "Task tournaments.archive_round[" in worker_log and "succeeded" in worker_log

    # Downloaded through the web host, exactly those bytes: the API and the organiser's page.
    status, through_api = _http(f"{web}{kept[0]['download']}", token=token)
    assert status == 200 and through_api == stored
    browser = Client()
    browser.force_login(organiser)
    cookie = f"sessionid={browser.cookies['sessionid'].value}"
    page_url = f"{web}/events/{event.slug}/manage/archives/round-swiss-1.json"
    status, through_page = _http(page_url, cookie=cookie)
    assert status == 200 and through_page == stored
    player_token = Token.objects.create(user=regs[0].player).key
    assert _http(f"{web}{kept[0]['download']}", token=player_token)[0] == 403

    # Neither host kept a file of its own.
    assert _files_under(two_hosts.web_folder) == []
    assert _files_under(two_hosts.worker_folder) == []
