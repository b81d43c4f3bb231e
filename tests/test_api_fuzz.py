"""Schemathesis over the whole API: no request, however odd, is answered with a 5xx.

The OpenAPI schema is drf-spectacular's, generated in-process; every operation is a test, run
against the Django app in-process over WSGI on the test database. Each test seeds a world deep
enough to reach every endpoint, and every generated request is made by its organiser:
- event A is running: round 1 finished (so standings, the cut calculator and player lines
  exist), round 2 published with one result reported by a player, a judge call and a penalty;
- event B is running with round 1 paired but not published (the review endpoints: checks,
  swap, re-pair, publish, delete).
Path parameters are pointed at these objects (schemathesis still generates every query
string and body). Hypothesis runs derandomized with a fixed number of examples per operation,
so a CI run is repeatable and takes a few minutes; the check is only "not a server error".
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import (
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)

from decks.services import demo_catalog_load
from matches import services
from matches.models import Match
from tests.factories import UserFactory
from tests.matches.conftest import running_event

# CI's figure; API_FUZZ_EXAMPLES=200 API_FUZZ_COVERAGE=1 searches much deeper (tens of minutes).
EXAMPLES_PER_OPERATION = int(os.environ.get("API_FUZZ_EXAMPLES", "12"))
COVERAGE_PHASE = os.environ.get("API_FUZZ_COVERAGE") == "1"


def _schema() -> dict[str, Any]:
    raw = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(raw))


schema = schemathesis.openapi.from_dict(
    _schema(),
    config=schemathesis.config.SchemathesisConfig.from_dict(
        {
            "seed": 10,
            "generation": {"deterministic": True, "max-examples": EXAMPLES_PER_OPERATION},
            # The coverage phase enumerates every boundary of every parameter: thousands of
            # requests per operation, too many for CI; examples and fuzzing remain.
            "phases": {"coverage": {"enabled": COVERAGE_PHASE}},
        }
    ),
)
schema.app = WSGIHandler()


@dataclass
class World:
    token: str
    running: Any  # event A: round 1 finished, round 2 published
    review: Any  # event B: round 1 paired, not published
    registration: int
    match: int
    call: int

    def path_value(self, path: str, name: str) -> Any:
        """The seeded object a path parameter should name (None: leave it generated)."""
        if name == "slug":
            return self.review.slug if _is_review(path) else self.running.slug
        if name == "number":
            return 1 if _is_review(path) else 2
        if name == "registration":
            return self.registration
        if name == "id":
            if path.startswith("/api/matches/"):
                return self.match
            if path.startswith("/api/registrations/"):
                return self.registration
            if path.startswith("/api/calls/"):
                return self.call
        return None


def _is_review(path: str) -> bool:
    return path.startswith("/api/events/{slug}/rounds/{number}/") and "timer" not in path


@pytest.fixture(scope="module")
def in_process_wsgi() -> Iterator[None]:
    """What Django's test client does: no connection is closed between requests, so the
    in-process requests run inside the test's transaction."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture(scope="module")
def seeded(django_db_setup: None, django_db_blocker: Any, in_process_wsgi: None) -> Iterator[World]:
    """The world, made once for the module inside a transaction that is rolled back at the
    end; each test runs in a savepoint inside it (pytest-django's ``db``), so every operation
    starts from the same world and nothing is left for other tests."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            yield _seed()
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture
def world(seeded: World, db: None) -> World:
    return seeded


def _seed() -> World:
    demo_catalog_load(game="boba")
    event, organiser, regs = running_event(8)
    judge = UserFactory()
    event.judges.add(judge)
    first = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=first)
    for match in first.matches.filter(b__isnull=False):
        services.match_report(actor=organiser, match=match, games=[1, 0, 0])
    second = services.round_pair(actor=organiser, tournament=event)
    services.round_publish(actor=organiser, round_=second)
    played = list(second.matches.filter(b__isnull=False).select_related("a__player"))
    services.match_report(actor=played[0].a.player, match=played[0], games=[1, 0, 0])
    call, _new = services.call_open(actor=played[1].a.player, match=played[1], question="?")
    services.penalty_give(
        actor=organiser, match=played[1], registration=played[1].a_id, infraction="slow_play"
    )
    review, _other, _regs = running_event(6)
    review.organisers.add(organiser)
    services.round_pair(actor=organiser, tournament=review)
    token, _created = Token.objects.get_or_create(user=organiser)
    return World(
        token=token.key,
        running=event,
        review=review,
        registration=regs[0].pk,
        match=played[1].pk,
        call=call.pk,
    )


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    response_schema_conformance,
    negative_data_rejection,
    positive_data_acceptance,
]
REPORT = os.environ.get("API_FUZZ_REPORT")


def _run(case: Any, world: World, role: str) -> None:
    for name in list(case.path_parameters or {}):
        value = world.path_value(case.path, name)
        if value is not None:
            case.path_parameters[name] = value
    headers = {"Authorization": f"Token {world.token}"} if role == "organiser" else {}
    response = case.call(headers=headers)
    try:
        case.validate_response(response, checks=CHECKS, headers=headers)
    except FailureGroup as group:
        if not REPORT:
            raise
        with open(REPORT, "a") as out:
            for failure in group.exceptions:
                out.write(
                    json.dumps(
                        {
                            "role": role,
                            "op": f"{case.method} {case.path}",
                            "kind": type(failure).__name__,
                            "title": failure.title,
                            "message": failure.message[:600],
                            "status": response.status_code,
                            "body": response.text[:300],
                            "query": repr(case.query)[:200],
                            "req": repr(case.body)[:300],
                        }
                    )
                    + "\n"
                )


_SETTINGS = settings(
    max_examples=EXAMPLES_PER_OPERATION,
    derandomize=True,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,  # the world is seeded once per operation on purpose
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
    ],
)


@schema.parametrize()
@_SETTINGS
def test_api_as_an_organiser(case: Any, world: World) -> None:
    _run(case, world, "organiser")


@schema.parametrize()
@_SETTINGS
def test_api_as_anonymous(case: Any, world: World) -> None:
    _run(case, world, "anonymous")


def test_the_seeded_world_reaches_the_deep_endpoints(world: World) -> None:
    """The fuzz test is only worth its time if its requests reach the real objects."""
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {world.token}")
    slug, review = world.running.slug, world.review.slug
    assert client.get(f"/api/events/{slug}/standings/").status_code == 200
    assert client.get(f"/api/events/{slug}/rounds/2/").status_code == 200
    assert client.get(f"/api/matches/{world.match}/").status_code == 200
    assert client.get(f"/api/calls/{world.call}/").status_code == 200
    assert client.get(f"/api/events/{slug}/penalties/").json()["count"] == 1
    assert client.get(f"/api/events/{review}/rounds/1/checks/").status_code == 200
    assert Match.objects.filter(round__tournament=world.running, status="final").count() >= 4
