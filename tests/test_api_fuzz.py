"""Schemathesis over the whole API: the OpenAPI schema tells the truth, and no request,
however odd, is answered with a 5xx.

The OpenAPI schema is drf-spectacular's, generated in-process; every operation is a test, run
twice (as an anonymous user and as an organiser) against the Django app in-process over WSGI on
the test database. A world deep enough to reach every endpoint is seeded once:
- event A is running: round 1 finished (so standings, the cut calculator and player lines
  exist), round 2 published with one result reported by a player, a judge call and a penalty;
- event B is running with round 1 paired but not published (the review endpoints: checks,
  swap, re-pair, publish, delete).
Path parameters are pointed at these objects (schemathesis still generates every query
string and body). Each answer is checked: not a server error, a documented status code, the
documented response shape, an invalid request refused and a valid one accepted. The valid
requests the API refuses by a rule the schema cannot express (an object's state, a name that
must name an existing object) are listed below with their reasons, and only that check is
skipped for those operations. Hypothesis runs derandomized with a fixed number of examples per
operation, so a CI run is repeatable and takes a few minutes.
"""

from __future__ import annotations

import json
import os
import re
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
from hypothesis import strategies as st
from hypothesis.internal.intervalsets import IntervalSet
from hypothesis.strategies._internal import regex as hypothesis_regex
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
from tests.scenarios import running_event

# CI's figure; API_FUZZ_EXAMPLES=200 API_FUZZ_COVERAGE=1 searches much deeper (tens of minutes).
EXAMPLES_PER_OPERATION = int(os.environ.get("API_FUZZ_EXAMPLES", "8"))
COVERAGE_PHASE = os.environ.get("API_FUZZ_COVERAGE") == "1"


def _schema() -> dict[str, Any]:
    raw = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(raw))


schema = schemathesis.openapi.from_dict(
    _schema(),
    config=schemathesis.config.SchemathesisConfig.from_dict(
        {
            "seed": 10,
            "generation": {
                "deterministic": True,
                "max-examples": EXAMPLES_PER_OPERATION,
                # A NUL is refused everywhere (a 400 naming the field: tests/test_input_limits.py
                # and tests/test_api_errors.py); the schema does not spell that out per string.
                "allow-x00": False,
            },
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


_from_regex = st.from_regex


def _from_regex_once(
    regex: Any, *, fullmatch: bool = False, alphabet: Any = None
) -> st.SearchStrategy[str]:
    """`hypothesis.strategies.from_regex`, built once per pattern, match mode and alphabet.
    The schema's name pattern (every character but the invisible ones) costs hypothesis
    minutes to build, and schemathesis asks for it again for each operation and phase with an
    equal alphabet of its own; the strategy is the same, so it draws the same values."""
    key = (regex, fullmatch, repr(alphabet))
    if key not in _REGEX_STRATEGIES:
        _REGEX_STRATEGIES[key] = _from_regex(regex, fullmatch=fullmatch, alphabet=alphabet)
    return _REGEX_STRATEGIES[key]


_REGEX_STRATEGIES: dict[tuple[Any, bool, str], st.SearchStrategy[str]] = {}
_plain_regex_part = hypothesis_regex._strategy


def _character_class_once(
    codes: Any, context: Any, is_unicode: bool, *, alphabet: Any
) -> st.SearchStrategy[Any]:
    """Hypothesis's strategy for one part of a parsed pattern, a character class built once
    per class, flags and alphabet, from its ranges. Hypothesis builds a class one code point
    at a time, and the name pattern's classes name a million unassigned code points: about 4
    CPU seconds each. Schemathesis folds each field's length limits into the pattern, so every
    name field is a new pattern with the same classes; without the cache every one of them
    paid again (seven operations took 440 CPU seconds between them). A class's strategy is a
    value: the same class gives the same strategy."""
    if not (is_unicode and isinstance(codes, tuple) and codes[0] == hypothesis_regex.sre.IN):
        return _plain_regex_part(codes, context, is_unicode, alphabet=alphabet)
    key = (tuple(codes[1]), int(context.flags), repr(alphabet))
    if key not in _CHARACTER_CLASSES:
        built = _class_from_ranges(codes[1], context, alphabet)
        if built is None:
            built = _plain_regex_part(codes, context, is_unicode, alphabet=alphabet)
        _CHARACTER_CLASSES[key] = built
    return _CHARACTER_CLASSES[key]


def _class_from_ranges(members: Any, context: Any, alphabet: Any) -> st.SearchStrategy[Any] | None:
    """The strategy hypothesis's CharactersBuilder makes for a class of single characters and
    ranges (no category, no IGNORECASE), given its code points as intervals at once instead of
    one character at a time: the same intervals, so the same strategy and the same examples
    (milliseconds instead of seconds). None for any other class (hypothesis builds those)."""
    if context.flags & re.IGNORECASE:
        return None
    spans: list[tuple[int, int]] = []
    for code, value in members:
        if code == hypothesis_regex.sre.LITERAL:
            spans.append((value, value))
        elif code == hypothesis_regex.sre.RANGE:
            spans.append((value[0], value[1]))
        elif code != hypothesis_regex.sre.NEGATE:
            return None
    builder = hypothesis_regex.CharactersBuilder(
        flags=context.flags,
        negate=members[0][0] == hypothesis_regex.sre.NEGATE,
        alphabet=alphabet,
    )
    whole = IntervalSet(sorted(spans))
    builder._intervals = whole.union(whole)  # merged, as IntervalSet.from_string leaves them
    strategy: st.SearchStrategy[Any] = builder.strategy
    return strategy


_CHARACTER_CLASSES: dict[tuple[Any, int, str], st.SearchStrategy[Any]] = {}


@pytest.fixture(scope="module", autouse=True)
def regex_strategies_built_once() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(st, "from_regex", _from_regex_once)
        patch.setattr(hypothesis_regex, "_strategy", _character_class_once)
        yield


@pytest.fixture(scope="module", autouse=True)
def push_is_on() -> Iterator[None]:
    """The site has VAPID keys (without them subscribing is a deliberate 503, docs/push.md,
    which tests/notifications/test_push.py checks)."""
    from django.test import override_settings

    from notifications.management.commands.vapid_keys import new_key_pair

    public, private = new_key_pair()
    with override_settings(VAPID_PUBLIC_KEY=public, VAPID_PRIVATE_KEY=private):
        yield


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

# Valid requests (by the schema) that the API refuses with a 400 naming the field, by a rule
# the schema cannot express: positive_data_acceptance is not checked for these operations.
_STATE = "the object's state decides (a 400 naming it): "
_EXISTING = "must name an existing object, which no schema can list: "
REFUSED_BY_RULES_THE_SCHEMA_CANNOT_EXPRESS: dict[str, str] = {
    "POST /api/auth/token/": "the username and password must be an account's (a 400)",
    "GET /api/cards/": _EXISTING + "`catalog` and `event` slugs; and `kind`, `set_name`, "
    "`weapon` must be values some card of the pool has, `power_min` at most `power_max`, and "
    "`text` only for a game whose cards carry rules text",
    "POST /api/events/{slug}/registrations/import/": "the roster is exactly one of `csv` or "
    "`file`; every row must read (its problems are the 400); players join only while the "
    "event takes them",
    "POST /api/card-imports/": _EXISTING + "`catalog`",
    "GET /api/calendar/": _EXISTING + "`organisation` slug",
    "POST /api/organisations/{slug}/members/": _EXISTING + "`user`",
    "PATCH /api/organisations/{slug}/members/{user_id}/": _EXISTING + "`user`; and an "
    "organisation keeps one owner",
    "DELETE /api/organisations/{slug}/members/{user_id}/": _EXISTING + "`user` among the "
    "members; and an organisation keeps one owner",
    "POST /api/organisations/{slug}/suspensions/": _EXISTING + "`player`; and `until` after "
    "the start, a reason not blank",
    "POST /api/organisations/{slug}/events/": _EXISTING + "`event` slug",
    "POST /api/decklists/check/": _EXISTING + "`catalog` and `event` slugs; and a list is "
    "sent as exactly one of `text` or `data`",
    "POST /api/events/": "`mode`, `format_key` and `match_structure` must be the chosen "
    "game's own (engine.games plugins), and times in order",
    "PATCH /api/events/{slug}/": _STATE + "game, mode, format and match structure are fixed "
    "once the event has started",
    "POST /api/events/{slug}/catalog/": _EXISTING + "`catalog`",
    "POST /api/push/subscriptions/": "a browser's subscription: `endpoint` an https address "
    "on a public host, `p256dh` a P-256 point and `auth` 16 bytes, in base64url",
    "POST /api/events/{slug}/check-in/": "exactly one of `registrations` or `code`, and the "
    "code must name someone in the event",
    "POST /api/events/{slug}/deck-checks/": _STATE + "`round_number` is one of the event's "
    "rounds so far or the next",
    "POST /api/events/{slug}/decklists/publish/": _STATE + "only once the event has finished",
    "POST /api/events/{slug}/decklists/publish-top/": _STATE + "only once the event has "
    "finished and its placings are final",
    "POST /api/events/{slug}/judges/": _EXISTING + "`player_id`",
    **dict.fromkeys(
        ["PUT /api/events/{slug}/notifications/", "PATCH /api/events/{slug}/notifications/"],
        "`webhook_url` must be an https URL on a public host",
    ),
    "POST /api/events/{slug}/register/": _STATE + "registration must be open",
    "POST /api/events/{slug}/lottery/draw/": _STATE + "only a lottery event, after its "
    "deadline, once, with `confirm`",
    "POST /api/registrations/{id}/fee/": _STATE + "the status must differ from the current one",
    "DELETE /api/events/{slug}/rounds/{number}/": "deleting a paired round is irreversible: "
    "it needs `confirm` (which a DELETE's schema has no body to carry)",
    "POST /api/events/{slug}/rounds/{number}/swap/": "`first` and `second` must be two "
    "different players of that round",
    "POST /api/events/{slug}/rounds/{number}/timer/": _STATE + "start, pause and resume "
    "follow the timer's state; `add` needs non-zero `minutes`",
    "POST /api/events/{slug}/transition/": _STATE + "the allowed moves depend on the event's "
    "status; cancelling needs `confirm`",
    "POST /api/matches/{id}/clock/": "a press's `kind` decides which `side` and `payload` "
    "keys it needs (docs/match-clock.md)",
    "POST /api/matches/{id}/correction-preview/": "`games` within the match's best-of and "
    "its game's draw rules (tournaments.results.check_result)",
    "POST /api/matches/{id}/report/": "`games` within the match's best-of and its game's "
    "draw rules (tournaments.results.check_result)",
    "POST /api/matches/{id}/penalties/": "`registration` must be a player of the match",
    "POST /api/calls/{id}/ruling/": "`citations` cite a rule by document and section",
    "POST /api/me/erase/": "`password` must be the account's own, and erasing needs " "`confirm`",
    "POST /api/registrations/claim/": _EXISTING + "`claim_code` of an unclaimed walk-in",
    "POST /api/registrations/{id}/decklist/": "a list is exactly one of `text` or `data`, "
    "its cards must be in the event's catalog",
    "POST /api/registrations/{id}/drop/": _STATE + "a player drops once, while the event runs",
    "POST /api/registrations/{id}/reactivate/": _STATE + "only a withdrawn or removed "
    "registration",
    "POST /api/registrations/{id}/reinstate/": _STATE + "only a dropped player",
    "POST /api/registrations/{id}/remove/": _STATE + "only before the event runs, with "
    "`confirm`",
    "POST /api/registrations/{id}/withdraw/": _STATE + "only while registration is open",
    "POST /api/events/{slug}/teams/": _EXISTING + "`members` registration ids of the event, "
    "in no other team, as many as the roster allows",
    "POST /api/weekends/": "`ends_on` on or after `starts_on`",
    "POST /api/series/": '`points` is a table of places or ranges of places (`"3"`, '
    '`"5-8"`), none overlapping (tournaments.series), or a league\'s win/draw/played',
    "POST /api/series/{slug}/events/": _EXISTING + "`event` slug of an event in no other " "series",
    "POST /api/series/{slug}/qualifications/": _EXISTING + "`event` slug of an event that has "
    "not started; `bye_top` within `invite_top`, rounds named with byes",
    "POST /api/series/{slug}/close/": _STATE + "closing is irreversible: it needs `confirm`",
    "POST /api/events/{slug}/notifications/webhook-secret/": "`overlap_hours` whole hours "
    "from 0 to 168",
    **dict.fromkeys(
        ["POST /api/events/{slug}/archetypes/", "PATCH /api/archetypes/{id}/"],
        "`rule` must be a rule of the archetype rule language (docs/metagame.md), and `name` "
        'not "Other"',
    ),
    "POST /api/archetypes/": _EXISTING + "`event`, `series` or `organisation` slug (at most "
    "one), `game` unless an event is given; `rule` must be a rule of the archetype rule "
    'language (docs/metagame.md), and `name` not "Other"',
    "POST /api/events/{slug}/metagame/suggestions/": '`name` may not be "Other"',
    "POST /api/replay/boba/": "the record must be a readable game record of the game (the "
    "engine's replay, a 400 with its JSON)",
    "POST /api/replay/bos/": "the record must be a readable game record of the game (the "
    "engine's replay, a 400 with its JSON)",
}
# Invalid requests (by the schema) that the API accepts on purpose: negative_data_rejection
# is not checked for these operations.
ACCEPTED_ON_PURPOSE: dict[str, str] = {
    "GET /api/events/{slug}/notifications/deliveries/": "a blank filter (`?status=`) is no "
    "filter",
    "GET /api/catalogs/": "a blank filter (`?game=`) is no filter",
    "GET /api/archetypes/": "a blank filter (`?game=`) is no filter",
    "GET /api/calendar/": "a blank filter (`?game=`) is no filter",
    **dict.fromkeys(
        [
            "GET /api/events/{slug}/archives/",
            "GET /api/events/{slug}/standings/{registration}/",
            "GET /api/events/{slug}/placings/",
            "GET /api/events/{slug}/overlays/standings/",
            "GET /api/events/{slug}/overlays/pairings/",
        ],
        "a query parameter it does not read is ignored, as by the API's other endpoints (the "
        "generator sends one for these)",
    ),
    **dict.fromkeys(
        [
            "GET /api/events/{slug}/results.csv",
            "GET /api/events/{slug}/pairings.csv",
            "GET /api/events/{slug}/standings.csv",
            "GET /api/events/{slug}/penalties.csv",
            "GET /api/events/{slug}/penalties/",
        ],
        "DRF reads a blank `?format=` as no format (the default renderer)",
    ),
}
REPORT = os.environ.get("API_FUZZ_REPORT")


def _checks(operation: str) -> list[Any]:
    skipped = set()
    if operation in REFUSED_BY_RULES_THE_SCHEMA_CANNOT_EXPRESS:
        skipped.add(positive_data_acceptance)
    if operation in ACCEPTED_ON_PURPOSE:
        skipped.add(negative_data_rejection)
    return [check for check in CHECKS if check not in skipped]


def _run(case: Any, world: World, role: str) -> None:
    for name in list(case.path_parameters or {}):
        value = world.path_value(case.path, name)
        if value is not None:
            case.path_parameters[name] = value
    headers = {"Authorization": f"Token {world.token}"} if role == "organiser" else {}
    # The in-process client says it accepts gzip but does not decode it (a real client
    # does): ask for the identity body, which config.published sends then.
    headers["Accept-Encoding"] = "identity"
    response = case.call(headers=headers)
    operation = f"{case.method} {case.path}"
    try:
        case.validate_response(response, checks=_checks(operation), headers=headers)
    except FailureGroup as group:
        if not REPORT:
            raise
        # API_FUZZ_REPORT=file.jsonl: every failure is written down instead, for a survey.
        with open(REPORT, "a") as out:
            for failure in group.exceptions:
                row = {"role": role, "operation": operation, "kind": type(failure).__name__}
                row |= {"status": response.status_code, "message": failure.message[:600]}
                row |= {"body": response.text[:300], "sent": repr(case.body)[:300]}
                out.write(json.dumps(row) + "\n")


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


@pytest.mark.parametrize(
    "pattern", ["[a-z0-9_]", "[^a-cx\u0100-\u0200]", "[^\u0000-\u001f\u007f\U00010000-\U0010ffff]"]
)
def test_a_class_built_from_its_ranges_has_the_characters_hypothesis_builds(pattern: str) -> None:
    """_class_from_ranges stands in for hypothesis's own build of a class (the examples stay
    the same only while it gives the same characters, whatever hypothesis's version)."""
    [(code, members)] = hypothesis_regex.sre_parse.parse(pattern)
    assert code == hypothesis_regex.sre.IN
    context = hypothesis_regex.Context(flags=0)
    alphabet = st.characters(codec="utf-8")
    ours = _class_from_ranges(members, context, alphabet)
    theirs = _plain_regex_part((code, members), context, True, alphabet=alphabet)
    assert ours is not None
    assert ours.intervals.intervals == theirs.intervals.intervals  # type: ignore[attr-defined]
