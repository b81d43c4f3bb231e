"""Issue 19: the event page is a stored copy with the reader's own part put in
(tournaments/event_page.py), and it is byte for byte the page rendered whole for that reader:
for every kind of reader (anonymous, registered and not, checked in, waitlisted, dropped,
judge, organiser), after every kind of change (registration, check-in, pairing and publish,
a result, the timer, a status change), and never showing another reader's values."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from config import stand_ins
from matches import services as match_services
from matches.models import Match, Round
from tests.factories import (
    OrganiserFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    logged_in,
)
from tests.support import without_csrf_value
from tournaments import event_page
from tournaments import services as event_services
from tournaments.models import Registration, RegistrationStatus, Tournament
from tournaments.status import EventStatus

pytestmark = pytest.mark.django_db

_STAND_IN = re.compile(rb"bd(name|playerid|qr|now|remaining)x[0-9a-f]{40}")


@pytest.fixture(autouse=True)
def _still_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """One moment for the whole test (the timer's `data-now`, the schedule), moved on by
    hand, so two renders of the same page can be compared byte for byte."""
    frozen = [timezone.now().replace(microsecond=0)]
    monkeypatch.setattr(timezone, "now", lambda: frozen[0])


def assert_same_as_fresh(client: Client, event: Tournament) -> bytes:
    """The page from the copy (made by the first request, read by the second) is the page
    rendered whole for the same request, and holds no stand-in; the page."""
    path = f"/events/{event.slug}/"
    body = b""
    for _ in range(2):
        response = client.get(path)
        assert response.status_code == 200
        fresh = event_page.fresh_page(
            response.wsgi_request, Tournament.objects.get(pk=event.pk)
        ).content
        assert without_csrf_value(response.content) == without_csrf_value(fresh)
        assert _STAND_IN.search(response.content) is None
        for name in ("user", "registration"):
            assert str(stand_ins.number_stand_in(name)).encode() not in response.content
        body = response.content
    return body


def _event(status: EventStatus = EventStatus.RUNNING, **fields: Any) -> tuple[Tournament, Any]:
    organiser = OrganiserFactory()
    event = TournamentFactory(organisers=[organiser], status=status.value, **fields)
    return event, organiser


def _readers(event: Tournament, organiser: Any) -> dict[str, Client]:
    """One client for every kind of reader of `event`."""
    judge = UserFactory()
    event.judges.add(judge)
    registered = RegistrationFactory(tournament=event, player=UserFactory(display_name="Ann <b>"))
    checked_in = RegistrationFactory(tournament=event, checked_in_at=timezone.now())
    waitlisted = RegistrationFactory(tournament=event, status=RegistrationStatus.WAITLISTED)
    removed = RegistrationFactory(tournament=event, status=RegistrationStatus.REMOVED)
    judge_desk = logged_in(UserFactory())
    session = judge_desk.session
    session["judge_desk"] = True
    session.save()
    return {
        "anonymous": Client(),
        "registered": logged_in(registered.player),
        "checked in": logged_in(checked_in.player),
        "waitlisted": logged_in(waitlisted.player),
        "removed": logged_in(removed.player),
        "not registered": logged_in(UserFactory()),
        "with the judge desk": judge_desk,
        "judge": logged_in(judge),
        "organiser": logged_in(organiser),
        "organiser of other events": logged_in(OrganiserFactory()),
    }


def _all_same(readers: dict[str, Client], event: Tournament) -> dict[str, bytes]:
    return {kind: assert_same_as_fresh(client, event) for kind, client in readers.items()}


@pytest.mark.parametrize(
    "status",
    [
        EventStatus.REGISTRATION_OPEN,
        EventStatus.REGISTRATION_CLOSED,
        EventStatus.RUNNING,
        EventStatus.FINISHED,
        EventStatus.CANCELLED,
    ],
)
def test_every_kind_of_reader_gets_the_page_rendered_whole(status: EventStatus) -> None:
    cache.clear()
    event, organiser = _event(status, description="Bring <sleeves> & dice")
    pages = _all_same(_readers(event, organiser), event)
    # The readers' own parts really differ, and each sees their own.
    assert b"Ann &lt;b&gt;" in pages["registered"]
    assert b"Ann &lt;b&gt;" not in pages["checked in"]
    assert b"Organiser dashboard" in pages["organiser"]
    assert b"Organiser dashboard" not in pages["not registered"]


def test_own_values_are_each_readers_own_from_one_copy() -> None:
    cache.clear()
    event, _organiser = _event(EventStatus.RUNNING)
    first, second = (RegistrationFactory(tournament=event) for _ in range(2))
    page_one = assert_same_as_fresh(logged_in(first.player), event)
    page_two = assert_same_as_fresh(logged_in(second.player), event)
    for own, other in ((first, second), (second, first)):
        page = page_one if own is first else page_two
        assert own.player.player_id.encode() in page
        assert other.player.player_id.encode() not in page
        assert f"/registrations/{own.pk}/".encode() in page
        assert f"/registrations/{other.pk}/".encode() not in page
        assert f'content="{own.player.pk}"'.encode() in page


def _pair_and_publish(event: Tournament, organiser: Any) -> Round:
    round_ = match_services.round_pair(actor=organiser, tournament=event)
    return match_services.round_publish(actor=organiser, round_=round_)


def _report_first_result(event: Tournament, organiser: Any) -> None:
    match = Match.objects.filter(round__tournament=event, b__isnull=False).first()
    assert match is not None
    match_services.match_report(actor=organiser, match=match, games=[1, 0, 0])


def _start_timer(event: Tournament, organiser: Any) -> None:
    round_ = Round.objects.get(tournament=event, status="published")
    match_services.round_timer(actor=organiser, round_=round_, action="start")


def _pause_timer(event: Tournament, organiser: Any) -> None:
    _start_timer(event, organiser)
    later = timezone.now() + timedelta(seconds=90)
    timezone.now = lambda: later  # type: ignore[assignment]  # undone by _still_clock
    round_ = Round.objects.get(tournament=event, status="published")
    match_services.round_timer(actor=organiser, round_=round_, action="pause")


def _a_minute_later(event: Tournament, organiser: Any) -> None:
    _start_timer(event, organiser)
    later = timezone.now() + timedelta(minutes=1, seconds=7)
    timezone.now = lambda: later  # type: ignore[assignment]


def _check_in_someone(event: Tournament, organiser: Any) -> None:
    registration = Registration.objects.filter(tournament=event, checked_in_at=None).first()
    assert registration is not None
    event_services.registration_check_in(actor=organiser, registration=registration)


def _finish_event(event: Tournament, organiser: Any) -> None:
    event_services.event_transition(
        actor=organiser, tournament=event, to=EventStatus.CANCELLED.value, confirm=True
    )


def _rename_event(event: Tournament, organiser: Any) -> None:
    Tournament.objects.filter(pk=event.pk).update(name="Renamed Open", venue="Other Hall")


def _round_row_only(event: Tournament, organiser: Any) -> None:
    """A change of the rounds alone (no service, nothing else of the event touched)."""
    Round.objects.filter(tournament=event).update(status="finished", finished_at=timezone.now())


CHANGES: dict[str, Callable[[Tournament, Any], None]] = {
    "publish": lambda event, organiser: None,  # _pair_and_publish below, for every case
    "result": _report_first_result,
    "timer running": _start_timer,
    "timer paused": _pause_timer,
    "timer running a minute later": _a_minute_later,
    "check-in": _check_in_someone,
    "status change": _finish_event,
    "the event's row": _rename_event,
    "a round's row": _round_row_only,
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_after_each_kind_of_change_the_copy_is_still_the_page_rendered_whole(change: str) -> None:
    cache.clear()
    # The timer waits for the organiser: "publish" shows it not started, the others start it.
    event, organiser = _event(
        EventStatus.RUNNING, player_check_in_open=True, start_timer_on_publish=False
    )
    readers = _readers(event, organiser)
    # Once anyone checked in, only those are paired: three more make two matches.
    RegistrationFactory.create_batch(3, tournament=event, checked_in_at=timezone.now())
    before = _all_same(readers, event)
    _pair_and_publish(event, organiser)
    CHANGES[change](event, organiser)
    after = _all_same(readers, event)
    assert after["anonymous"] != before["anonymous"]  # the change shows


def test_a_registration_shows_at_once_to_whoever_registered() -> None:
    cache.clear()
    event, _organiser = _event(EventStatus.REGISTRATION_OPEN)
    player = logged_in(UserFactory())
    before = assert_same_as_fresh(player, event)
    assert b"Log out" in before and b'action="/events/' in before
    response = player.post(f"/events/{event.slug}/register/", follow=True)
    # The page after the redirect carries the message: rendered whole, message and all.
    assert b"You are registered." in response.content
    after = assert_same_as_fresh(player, event)
    assert b"You are registered." in after and b"Withdraw" in after
    assert b"<dd>1" in after


def test_a_withdrawal_and_a_check_in_by_the_player_show_at_once() -> None:
    cache.clear()
    event, _organiser = _event(EventStatus.RUNNING, player_check_in_open=True)
    registration = RegistrationFactory(tournament=event)
    player = logged_in(registration.player)
    before = assert_same_as_fresh(player, event)
    assert b"Your check-in code" in before and b'value="1"><button type="submit">' in before
    player.post(f"/registrations/{registration.pk}/check-in/", {"checked_in": "1"})
    after = assert_same_as_fresh(player, event)
    assert b"Checked in" in after
