"""Issue 19: the event page's state (its digest and its rounds section) is kept per process
for what it is made of (tournaments.event_page._state_key): the version of the event's own
row and of its rounds, stages and organisers (read with the event on PostgreSQL), the counts,
the reader's staff role and every other value of the page's context. A request whose state is
kept computes neither the rounds section nor the state's digest. Every change of what the
state is made of must make another key, so the page after it is the page computed whole:
each kind of change here is checked against the page with nothing kept, for the organiser
(who sees every round) and a player. On SQLite there are no versions: nothing is kept."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection, transaction
from django.test import Client, RequestFactory
from django.utils import timezone

from config import shared_copies
from matches import services as match_services
from matches.models import Round, RoundStatus
from tests.factories import (
    OrganiserFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    logged_in,
)
from tests.scenarios import RunningTopCut
from tests.support import missing_service, without_csrf_value
from tournaments import event_page, extensions, selectors
from tournaments.audit import EVENT_COPIES
from tournaments.models import Tournament
from tournaments.status import EventStatus

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _still_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """One moment for the whole test (the timer's `data-now`), so two renders of the same
    page can be compared byte for byte."""
    frozen = timezone.now().replace(microsecond=0)
    monkeypatch.setattr(timezone, "now", lambda: frozen)


@pytest.fixture(autouse=True)
def _nothing_kept_before() -> Iterator[None]:
    event_page.forget_kept_states()
    yield
    event_page.forget_kept_states()


@pytest.fixture
def postgres(db: None) -> None:
    if connection.vendor != "postgresql":
        missing_service("needs PostgreSQL: set DATABASE_URL")


@pytest.fixture
def sections_computed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each computation of the rounds section, by event id."""
    computed: list[int] = []
    provider = extensions.rounds_pages()
    original = provider.rounds_section

    def counting(request: Any, event: Tournament, registered: int) -> dict[str, Any]:
        computed.append(event.pk)
        return original(request, event, registered)

    monkeypatch.setattr(provider, "rounds_section", counting)
    return computed


def _row_version(event: Tournament) -> str | None:
    request = RequestFactory().get(f"/events/{event.slug}/")
    request.user = AnonymousUser()
    return selectors.event_row_version(selectors.visible_event_with_roles(request, event.slug))


def test_every_change_of_the_events_row_moves_its_version(
    postgres: None, running_top_cut: RunningTopCut
) -> None:
    event = running_top_cut.event
    seen = {_row_version(event)}
    assert None not in seen
    assert _row_version(event) in seen  # nothing changed: the same version
    Tournament.objects.filter(pk=event.pk).update(name="Renamed")
    seen.add(_row_version(event))
    Tournament.objects.get(pk=event.pk).save()  # the same values written again
    seen.add(_row_version(event))
    with transaction.atomic():
        for venue in ("One hall", "Another hall"):
            Tournament.objects.filter(pk=event.pk).update(venue=venue)
            seen.add(_row_version(event))
    assert len(seen) == 5
    # another event's change, or a registration's, leaves it
    TournamentFactory(organisers=[OrganiserFactory()]).save()
    RegistrationFactory(tournament=event)
    assert _row_version(event) in seen and len(seen) == 5


def test_an_instance_read_otherwise_has_no_row_version(running_top_cut: RunningTopCut) -> None:
    assert selectors.event_row_version(Tournament.objects.get(pk=running_top_cut.event.pk)) is None


def test_the_state_is_computed_once_per_version(
    postgres: None, running_top_cut: RunningTopCut, sections_computed: list[int]
) -> None:
    event = running_top_cut.event
    path = f"/events/{event.slug}/"
    player = logged_in(running_top_cut.registrations[0].player)
    other = logged_in(running_top_cut.registrations[1].player)
    for client in (player, other, player):
        assert client.get(path).status_code == 200
    assert sections_computed == [event.pk]  # the two players share the state
    organiser = logged_in(running_top_cut.organiser)
    organiser.get(path)
    organiser.get(path)
    assert sections_computed == [event.pk] * 2  # staff: a state of their own
    Tournament.objects.filter(pk=event.pk).update(name="Renamed")
    assert b"Renamed" in player.get(path).content
    assert sections_computed == [event.pk] * 3


def _page(client: Client, path: str) -> bytes:
    return without_csrf_value(client.get(path).content)


def _page_with_nothing_kept(monkeypatch: pytest.MonkeyPatch, client: Client, path: str) -> bytes:
    with monkeypatch.context() as patched:
        patched.setattr(event_page, "_state_key", lambda request, context: None)
        return _page(client, path)


def _pause_timer(scene: RunningTopCut) -> None:
    match_services.round_timer(actor=scene.organiser, round_=scene.cut, action="pause")


def _register_someone(scene: RunningTopCut) -> None:
    RegistrationFactory(tournament=scene.event)
    shared_copies.changed(EVENT_COPIES, scene.event.pk)  # as the registration service does


def _unpublish_the_round(scene: RunningTopCut) -> None:
    """Staff see a paired round before it is published; players do not."""
    Round.objects.filter(pk=scene.cut.pk).update(status=RoundStatus.PAIRED)


CHANGES: dict[str, Callable[[RunningTopCut], None]] = {
    "the event's name": lambda s: Tournament.objects.filter(pk=s.event.pk).update(
        name="Renamed <Open>"
    ),
    "the event's round length": lambda s: Tournament.objects.filter(pk=s.event.pk).update(
        round_minutes=35
    ),
    "the event's status": lambda s: Tournament.objects.filter(pk=s.event.pk).update(
        status=EventStatus.CANCELLED
    ),
    "a registration (the counts)": _register_someone,
    "a round's row": lambda s: Round.objects.filter(pk=s.cut.pk).update(
        status=RoundStatus.FINISHED
    ),
    "the timer paused": _pause_timer,
    "a round unpublished": _unpublish_the_round,
    "an organiser's name": lambda s: (
        setattr(o := s.event.organisers.get(), "display_name", "Other name") or o.save()
    ),
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_a_change_of_what_the_state_is_made_of_shows_at_once(
    postgres: None,
    running_top_cut: RunningTopCut,
    monkeypatch: pytest.MonkeyPatch,
    change: str,
) -> None:
    event = running_top_cut.event
    path = f"/events/{event.slug}/"
    readers = {
        "organiser": logged_in(running_top_cut.organiser),
        "player": logged_in(running_top_cut.registrations[0].player),
        "anonymous": Client(),
    }
    before = {name: _page(client, path) for name, client in readers.items()}  # kept
    CHANGES[change](running_top_cut)
    for name, client in readers.items():
        kept = _page(client, path)
        assert kept == _page_with_nothing_kept(monkeypatch, client, path), name
    assert _page(readers["organiser"], path) != before["organiser"]


def test_staff_and_players_never_share_a_rounds_section(
    postgres: None, running_top_cut: RunningTopCut
) -> None:
    _unpublish_the_round(running_top_cut)
    path = f"/events/{running_top_cut.event.slug}/"
    player = logged_in(running_top_cut.registrations[0].player)
    organiser = logged_in(running_top_cut.organiser)
    pairings = f"/rounds/{running_top_cut.cut.number}/pairings/".encode()
    for _ in range(2):
        assert pairings not in player.get(path).content
        assert pairings in organiser.get(path).content


@pytest.mark.parametrize("kind", ["a finished event", "a team event"])
def test_nothing_is_kept_for_what_has_no_version(
    postgres: None, sections_computed: list[int], kind: str
) -> None:
    """A finished event's placings and a team event's teams are read from rows the versions
    do not name: their state is computed for every request."""
    if kind == "a finished event":
        event = TournamentFactory(organisers=[OrganiserFactory()], status=EventStatus.FINISHED)
    else:
        event = TournamentFactory(
            organisers=[OrganiserFactory()], status=EventStatus.RUNNING, team={"players": 3}
        )
        assert event.is_team_event
    client = logged_in(UserFactory())
    for _ in range(2):
        assert client.get(f"/events/{event.slug}/").status_code == 200
    assert sections_computed == [event.pk] * 2


def test_without_versions_nothing_is_kept(
    running_top_cut: RunningTopCut, sections_computed: list[int]
) -> None:
    """On PostgreSQL the second request takes the kept state; elsewhere (no versions) each
    request computes it."""
    client = logged_in(running_top_cut.registrations[0].player)
    for _ in range(2):
        client.get(f"/events/{running_top_cut.event.slug}/")
    computed = 1 if connection.vendor == "postgresql" else 2
    assert sections_computed == [running_top_cut.event.pk] * computed
