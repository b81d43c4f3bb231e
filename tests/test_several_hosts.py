"""Two web hosts behind a load balancer, and one of them going away in the middle of the spike.

Two gunicorns (production settings, DEBUG off, each its own port: two hosts) share the test's
PostgreSQL database and Redis; a local nginx from Debian's packages, started by the test with a
configuration of its own (the upstream example of docs/operations.md, "Several hosts"), balances
between them. Players fetch the event page, the published round through the event API and their
own match, at moments spread over the run (open loop: each request is sent when it is due,
whatever happened to the others). In the middle one host is stopped as a deploy stops it
(SIGTERM: gunicorn finishes what it is serving and closes), then started again, and then the
other dies outright (SIGKILL of all its processes): nginx sends each request the dead host
cannot answer to the other one. Not one request fails.
"""

from __future__ import annotations

import http.client
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from rest_framework.authtoken.models import Token

from matches import services
from matches.models import RoundStatus
from tests.factories import OrganiserFactory, RegistrationFactory, TournamentFactory, UserFactory
from tests.nginx_support import Nginx, free_port, nginx_binary, user_line
from tests.support import REPO_ROOT
from tournaments.status import EventStatus

# The hosts share the machine's Redis (cache and Celery broker) with test_file_storage.py's
# worker: under pytest-xdist (make test) the two run on the same worker, one after the other.
pytestmark = [pytest.mark.services, pytest.mark.xdist_group("hosts_on_the_shared_redis")]

PLAYERS = 16
WORKERS_PER_HOST = 2
REQUESTS_PER_SECOND = 20
# Seconds into the run: host A is stopped gracefully (and started again at once); host B is
# killed once A is back, and at the earliest at KILL_B_AT; requests go on AFTER_KILL after that.
STOP_A_AT = 3.0
KILL_B_AT = 8.0
AFTER_KILL = 3.0
MAX_RUN_SECONDS = 45.0
REQUEST_TIMEOUT_S = 30.0


def get(port: int, path: str, headers: dict[str, str]) -> tuple[int, bytes, str]:
    """One GET on its own connection: (status, the whole body, the host that answered as nginx
    names it in X-Upstream). A body cut short raises (http.client.IncompleteRead)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT_S)
    try:
        conn.request("GET", path, headers={"Host": "127.0.0.1", **headers})
        response = conn.getresponse()
        body = response.read()
        return response.status, body, response.getheader("X-Upstream", "")
    finally:
        conn.close()


class WebHost:
    """One web host: gunicorn serving config.wsgi:application as production does."""

    def __init__(self, name: str, port: int, env: dict[str, str], logs: Path) -> None:
        self.name = name
        self.port = port
        self.env = env
        self.logs = logs
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        log = (self.logs / f"gunicorn-{self.name}-{self.starts}.log").open("wb")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi:application",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(WORKERS_PER_HOST),
                "--timeout",
                "30",
                "--graceful-timeout",
                "20",
            ],
            cwd=REPO_ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: killed as one host
        )
        log.close()

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise AssertionError(f"gunicorn {self.name} exited:\n{self.log_tail()}")
            try:
                if get(self.port, "/healthz", {"Accept": "application/json"})[0] == 200:
                    return
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.1)
        raise AssertionError(f"gunicorn {self.name} never answered /healthz:\n{self.log_tail()}")

    def terminate(self) -> None:
        """A graceful stop (a deploy): the master closes its socket, the workers finish the
        requests they are serving."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        """The host dies: every one of its processes, at once."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def wait_stopped(self, timeout: float = 30.0) -> None:
        assert self.process is not None
        self.process.wait(timeout=timeout)

    def log_tail(self, lines: int = 30) -> str:
        text = "\n".join(
            path.read_text(errors="replace")
            for path in sorted(self.logs.glob(f"gunicorn-{self.name}-*.log"))
        )
        return "\n".join(text.splitlines()[-lines:])


NGINX_CONF = """\
{user}worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    log_format upstreams '$msec $status "$request" $upstream_addr $upstream_status';
    access_log {tmp}/access.log upstreams;
    client_body_temp_path {tmp}/client_body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;

    upstream battledesk {{
        server 127.0.0.1:{port_a} max_fails=1 fail_timeout=1s;
        server 127.0.0.1:{port_b} max_fails=1 fail_timeout=1s;
        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{port};
        client_max_body_size 21m;
        location / {{
            proxy_pass http://battledesk;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_connect_timeout 2s;
            proxy_read_timeout 30s;
            # A host that refuses the connection, drops it or answers 502/503 (stopping, or
            # gone): the request goes to the next host. nginx never resends a POST this way.
            proxy_next_upstream error timeout http_502 http_503;
            proxy_next_upstream_tries 3;
            proxy_next_upstream_timeout 10s;
            add_header X-Upstream $upstream_addr always;
        }}
    }}
}}
"""


class Balancer(Nginx):
    """nginx balancing over the two hosts (NGINX_CONF)."""

    def __init__(self, binary: str, folder: Path, port_a: int, port_b: int) -> None:
        super().__init__(binary, folder)
        (folder / "nginx.conf").write_text(
            NGINX_CONF.format(
                user=user_line(), tmp=folder, port=self.port, port_a=port_a, port_b=port_b
            )
        )


@dataclass
class Site:
    balancer: Balancer
    host_a: WebHost
    host_b: WebHost
    # (path, headers) a player sends
    requests: list[tuple[str, dict[str, str]]]


def published_round_with_players() -> tuple[str, list[tuple[str, dict[str, str]]]]:
    """A running event, round 1 paired and published; the requests its players send: the event
    page (signed in or not), the round through the event API and their own match (token), their
    match page (session)."""
    organiser = OrganiserFactory()
    event = TournamentFactory(
        slug=f"hosts-{uuid.uuid4().hex[:8]}",
        organisers=[organiser],
        status=EventStatus.RUNNING.value,
    )
    players = [UserFactory() for _ in range(PLAYERS)]
    for player in players:
        RegistrationFactory(tournament=event, player=player)
    round_ = services.round_publish(
        actor=organiser, round_=services.round_pair(actor=organiser, tournament=event)
    )
    assert round_.status == RoundStatus.PUBLISHED
    slug = event.slug
    requests: list[tuple[str, dict[str, str]]] = []
    html = {"Accept": "text/html"}
    for player in players:
        client = Client()
        client.force_login(player)
        session = {**html, "Cookie": f"sessionid={client.cookies['sessionid'].value}"}
        token = {
            "Accept": "application/json",
            "Authorization": f"Token {Token.objects.create(user=player).key}",
        }
        requests += [
            (f"/events/{slug}/", html),
            (f"/events/{slug}/", session),
            (f"/api/events/{slug}/rounds/{round_.number}/", token),
            (f"/api/events/{slug}/my-match/", token),
            (f"/events/{slug}/my-match/", session),
        ]
    return slug, requests


@pytest.fixture
def site(require_postgres: None, require_redis: str, tmp_path: Path) -> Iterator[Site]:
    nginx = nginx_binary()
    _, requests = published_round_with_players()

    s = connection.settings_dict
    database_url = (
        f"postgres://{quote(s['USER'], safe='')}:{quote(s['PASSWORD'], safe='')}"
        f"@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="tests.several_hosts_settings",
        SEVERAL_HOSTS_CACHE_PREFIX=f"hosts-{os.getpid()}-{time.time_ns()}",
        DATABASE_URL=database_url,
        REDIS_URL=require_redis,
        DJANGO_DEBUG="0",
        # The same key on every host, and the one this process signed the sessions with.
        DJANGO_SECRET_KEY=settings.SECRET_KEY,
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_NUM_PROXIES="1",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SESSION_COOKIE_SECURE="0",
        DJANGO_CSRF_COOKIE_SECURE="0",
        DJANGO_LOG_LEVEL="WARNING",
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
    )
    # What every host's build does: the static files WhiteNoise serves.
    collected = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert collected.returncode == 0, collected.stderr

    hosts = [WebHost(name, free_port(), env, tmp_path) for name in ("a", "b")]
    balancer = Balancer(nginx, tmp_path, hosts[0].port, hosts[1].port)
    try:
        for host in hosts:
            host.start()
        for host in hosts:
            host.wait_ready()
        balancer.start()
        yield Site(balancer, hosts[0], hosts[1], requests)
    finally:
        # Before the test database is emptied: nothing may still be connected to it.
        balancer.stop()
        for host in hosts:
            host.kill()


@dataclass
class Answer:
    due: float  # seconds into the run
    path: str
    status: int | None
    upstream: str  # the host that answered (the last nginx tried)
    answered: float  # seconds into the run
    problem: str = ""


def test_a_host_stopped_or_killed_in_the_middle_of_the_spike_fails_no_request(
    site: Site,
) -> None:
    balancer, host_a, host_b = site.balancer, site.host_a, site.host_b
    for path, headers in site.requests[:5]:  # every kind of request answers before the spike
        status, body, _ = get(balancer.port, path, headers)
        assert status == 200, (path, status, body[:500])

    rng = random.Random(19)
    started = time.monotonic()
    answers: list[Answer] = []
    lock = threading.Lock()

    def send(due: float, path: str, headers: dict[str, str]) -> None:
        try:
            status, _, upstream = get(balancer.port, path, headers)
            answer = Answer(
                due, path, status, upstream.split(",")[-1].strip(), time.monotonic() - started
            )
        except (OSError, http.client.HTTPException) as exc:
            problem = f"{type(exc).__name__}: {exc}"
            answer = Answer(due, path, None, "", time.monotonic() - started, problem)
        with lock:
            answers.append(answer)

    events: dict[str, float] = {}
    a = f"127.0.0.1:{host_a.port}"

    def operator() -> None:
        """Stops host A gracefully and starts it again; once the balancer sends A requests
        again (as a rolling deploy waits for the balancer's health check), kills host B."""
        time.sleep(max(0.0, started + STOP_A_AT - time.monotonic()))
        events["a stopped"] = time.monotonic() - started
        host_a.terminate()
        host_a.wait_stopped()
        host_a.start()
        host_a.wait_ready()
        events["a back"] = time.monotonic() - started
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with lock:
                if any(x.upstream == a and x.answered > events["a back"] for x in answers):
                    break
            time.sleep(0.05)
        events["a serving"] = time.monotonic() - started
        time.sleep(max(0.0, started + max(KILL_B_AT, events["a serving"] + 0.5) - time.monotonic()))
        events["b killed"] = time.monotonic() - started
        host_b.kill()

    # Open loop: requests at random moments (a Poisson stream), each sent when it is due from a
    # pool of threads, whether or not earlier ones have been answered.
    operations = threading.Thread(target=operator, daemon=True)
    operations.start()
    due = 0.0
    with ThreadPoolExecutor(max_workers=48) as pool:
        while due < MAX_RUN_SECONDS and (
            "b killed" not in events or due < events["b killed"] + AFTER_KILL
        ):
            due += rng.expovariate(REQUESTS_PER_SECOND)
            time.sleep(max(0.0, started + due - time.monotonic()))
            path, headers = rng.choice(site.requests)
            pool.submit(send, due, path, headers)
    operations.join(timeout=30)
    count = len(answers)

    assert events.keys() == {"a stopped", "a back", "a serving", "b killed"}, "operator unfinished"
    failed = [x for x in answers if x.status not in (200, 304)]
    assert failed == [], (
        f"{len(failed)} of {count} failed, e.g. {failed[:5]}; {events}; nginx's error log ends:\n"
        + balancer.error_log()[-3000:]
    )
    b = f"127.0.0.1:{host_b.port}"
    before_stop = {x.upstream for x in answers if x.due < events["a stopped"] - 0.5}
    assert before_stop == {a, b}, "both hosts serve while both are up"
    after_kill = {x.upstream for x in answers if x.due > events["b killed"] + 0.5}
    assert after_kill == {a}, "once B is dead, A (started again) serves everything"
    # Requests did reach the hosts while each went away (else nothing was tested).
    assert any(events["a stopped"] <= x.due <= events["a back"] for x in answers)
    assert any(x.due >= events["b killed"] for x in answers)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"\n{count} requests over {due:.0f} s through nginx to two gunicorns: A stopped "
        f"at {events['a stopped']:.1f} s and back at {events['a back']:.1f} s, B killed at "
        f"{events['b killed']:.1f} s; none failed; load average {load}"
    )
