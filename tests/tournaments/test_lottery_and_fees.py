"""Registration at capacity through the REST API and the pages: a lottery for a sold-out
event (entries until the deadline, a committed seed, a draw anyone can re-run, the waitlist in
draw order) and the entry-fee status of each registration (history, audit, the desk's view)."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from tests.factories import (
    OrganiserFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    logged_in,
    organiser_of,
)
from tests.scenarios import client_for
from tournaments import lottery
from tournaments.models import AuditEntry, FeeChange, Registration, Tournament

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]


def lottery_event(capacity: int = 3, entrants: int = 7) -> tuple[Tournament, object, list[int]]:
    """A lottery event made through the API, opened, with ``entrants`` entries."""
    organiser = OrganiserFactory()
    api = client_for(organiser)
    deadline = (timezone.now() + timedelta(days=1)).isoformat()
    response = api.post(
        "/api/events/",
        {
            "name": "Sold Out Open",
            "starts_at": (timezone.now() + timedelta(days=5)).isoformat(),
            "capacity": capacity,
            "registration_mode": "lottery",
            "lottery_deadline": deadline,
            "entry_fee": "15.00",
            "entry_fee_currency": "EUR",
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    slug = response.json()["slug"]
    assert len(response.json()["lottery_commitment"]) == 64
    opened = api.post(f"/api/events/{slug}/transition/", {"to": "registration_open"}, format="json")
    assert opened.status_code == 200, opened.json()
    ids = []
    for _ in range(entrants):
        entered = client_for(UserFactory()).post(f"/api/events/{slug}/register/")
        assert entered.status_code == 201, entered.json()
        assert entered.json()["status"] == "entered"
        ids.append(entered.json()["id"])
    return Tournament.objects.get(slug=slug), organiser, ids


def past_deadline(event: Tournament) -> None:
    Tournament.objects.filter(pk=event.pk).update(
        lottery_deadline=timezone.now() - timedelta(minutes=1)
    )


def test_a_lottery_needs_a_capacity_and_a_deadline() -> None:
    api = client_for(OrganiserFactory())
    base = {"name": "L", "starts_at": "2030-05-01T10:00:00Z", "registration_mode": "lottery"}
    no_capacity = api.post("/api/events/", {**base, "lottery_deadline": "2030-04-01T10:00:00Z"})
    assert no_capacity.status_code == 400 and no_capacity.json()["field"] == "capacity"
    no_deadline = api.post("/api/events/", {**base, "capacity": 8}, format="json")
    assert no_deadline.status_code == 400 and no_deadline.json()["field"] == "lottery_deadline"
    bad_currency = api.post(
        "/api/events/",
        {
            **base,
            "capacity": 8,
            "lottery_deadline": "2030-04-01T10:00:00Z",
            "entry_fee_currency": "eur",
        },
        format="json",
    )
    assert bad_currency.status_code == 400
    assert bad_currency.json()["field"] == "entry_fee_currency"
    assert Tournament.objects.count() == 0


def test_the_seed_stays_secret_until_the_draw_and_matches_its_commitment(api_client) -> None:  # type: ignore[no-untyped-def]
    event, organiser, ids = lottery_event()
    before = api_client.get(f"/api/events/{event.slug}/lottery/").json()
    assert before["seed"] is None and before["entries"] == len(ids) and before["places"] == 3
    assert before["commitment"] == event.lottery_commitment
    page = api_client.get(f"/events/{event.slug}/").content.decode()
    assert event.lottery_commitment in page and event.lottery_seed not in page
    assert "15.00 EUR" in page
    # Too early: the deadline is named; nothing changes.
    api = client_for(organiser)
    early = api.post(f"/api/events/{event.slug}/lottery/draw/", {"confirm": True}, format="json")
    assert early.status_code == 400 and early.json()["field"] == "lottery_deadline"
    past_deadline(event)
    # After the deadline nobody enters any more.
    late = client_for(UserFactory()).post(f"/api/events/{event.slug}/register/")
    assert late.status_code == 400 and late.json()["code"] == "lottery_closed"
    unconfirmed = api.post(f"/api/events/{event.slug}/lottery/draw/", {}, format="json")
    assert unconfirmed.status_code == 400 and unconfirmed.json()["field"] == "confirm"
    assert not Registration.objects.filter(tournament=event, status="registered").exists()
    players = client_for(UserFactory())
    assert (
        players.post(f"/api/events/{event.slug}/lottery/draw/", {"confirm": True}).status_code
        == 403
    )
    drawn = api.post(f"/api/events/{event.slug}/lottery/draw/", {"confirm": True}, format="json")
    assert drawn.status_code == 200, drawn.json()
    body = drawn.json()
    assert lottery.commitment(body["seed"]) == before["commitment"]
    assert len(body["winners"]) == 3 and len(body["waitlist"]) == 4
    assert body["entry_ids"] == sorted(ids)
    again = api.post(f"/api/events/{event.slug}/lottery/draw/", {"confirm": True}, format="json")
    assert again.status_code == 409
    change = api.patch(f"/api/events/{event.slug}/", {"lottery_deadline": None}, format="json")
    assert change.status_code == 409 and change.json()["field"] == "lottery_deadline"
    assert event.lottery_seed in api_client.get(f"/events/{event.slug}/").content.decode()


def test_anyone_reruns_the_draw_with_the_cli_and_gets_the_same_winners(
    api_client,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    event, organiser, _ids = lottery_event(capacity=4, entrants=9)
    past_deadline(event)
    client_for(organiser).post(f"/api/events/{event.slug}/lottery/draw/", {"confirm": True})
    published = api_client.get(f"/api/events/{event.slug}/lottery/").json()
    path = tmp_path / "draw.json"
    path.write_text(
        json.dumps(
            {
                "entries": published["entry_ids"],
                "seed": published["seed"],
                "places": published["places"],
                "commitment": published["commitment"],
            }
        )
    )
    done = subprocess.run(
        [sys.executable, "-m", "tournaments.lottery", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    rerun = json.loads(done.stdout)
    assert rerun["winners"] == published["winners"]
    assert rerun["waitlist"] == published["waitlist"]
    registered = set(
        Registration.objects.filter(tournament=event, status="registered").values_list(
            "pk", flat=True
        )
    )
    assert registered == set(rerun["winners"])


def test_the_waitlist_follows_the_draw_order() -> None:
    event, organiser, _ids = lottery_event(capacity=3, entrants=7)
    past_deadline(event)
    body = (
        client_for(organiser)
        .post(f"/api/events/{event.slug}/lottery/draw/", {"confirm": True})
        .json()
    )
    waitlist = body["waitlist"]
    # A later registration (the lottery is over) joins behind the whole drawn waitlist.
    late = client_for(UserFactory()).post(f"/api/events/{event.slug}/register/").json()
    assert late["status"] == "waitlisted"
    for winner in body["winners"][:2]:
        player = Registration.objects.get(pk=winner).player
        assert client_for(player).post(f"/api/registrations/{winner}/withdraw/").status_code == 200
    statuses = dict(Registration.objects.filter(tournament=event).values_list("pk", "status"))
    assert statuses[waitlist[0]] == statuses[waitlist[1]] == "registered"
    assert statuses[waitlist[2]] == "waitlisted" and statuses[late["id"]] == "waitlisted"
    actions = list(AuditEntry.objects.filter(tournament=event).values_list("action", flat=True))
    assert actions.count("lottery.drawn") == 1
    assert actions.count("registration.drawn") == 7


def test_the_dashboard_draws_the_lottery_after_a_second_confirmation() -> None:
    event, organiser, _ids = lottery_event()
    past_deadline(event)
    client = logged_in(organiser)
    dashboard = client.get(f"/events/{event.slug}/manage/").content.decode()
    assert "Draw the lottery" in dashboard
    url = f"/events/{event.slug}/manage/lottery/"
    confirm = client.post(url)
    assert confirm.status_code == 200 and 'name="confirm"' in confirm.content.decode()
    event.refresh_from_db()
    assert event.lottery_drawn_at is None
    done = client.post(url, {"confirm": "yes"})
    assert done.status_code == 302
    event.refresh_from_db()
    assert event.lottery_drawn_at is not None
    assert Registration.objects.filter(tournament=event, status="registered").count() == 3
    assert logged_in(UserFactory()).post(url, {"confirm": "yes"}).status_code == 403


# --- entry fees -------------------------------------------------------------------------------


def test_an_organiser_sets_the_fee_status_and_the_history_keeps_who_and_when() -> None:
    event = TournamentFactory(entry_fee="10.00", entry_fee_currency="USD")
    registration = RegistrationFactory(tournament=event)
    organiser = organiser_of(event)
    api = client_for(organiser)
    url = f"/api/registrations/{registration.pk}/fee/"
    paid = api.post(url, {"status": "paid", "note": "cash"}, format="json")
    assert paid.status_code == 201, paid.json()
    assert paid.json()["was"] == "unpaid" and paid.json()["by"] == organiser.public_name
    assert api.post(url, {"status": "refunded"}, format="json").status_code == 201
    history = api.get(url).json()
    assert history["count"] == 2
    assert [row["status"] for row in history["results"]] == ["refunded", "paid"]
    registration.refresh_from_db()
    assert registration.fee_status == "refunded"
    assert (
        AuditEntry.objects.filter(registration=registration, action="registration.fee").count() == 2
    )
    staff_view = api.get(f"/api/events/{event.slug}/registrations/").json()["results"][0]
    assert staff_view["fee_status"] == "refunded"


def test_bad_fee_input_names_the_field_and_changes_nothing() -> None:
    registration = RegistrationFactory()
    api = client_for(organiser_of(registration.tournament))
    url = f"/api/registrations/{registration.pk}/fee/"
    bad = api.post(url, {"status": "maybe"}, format="json")
    assert bad.status_code == 400 and "status" in bad.json()
    same = api.post(url, {"status": "unpaid"}, format="json")
    assert same.status_code == 400 and same.json()["field"] == "status"
    long_note = api.post(url, {"status": "paid", "note": "x" * 201}, format="json")
    assert long_note.status_code == 400 and "note" in long_note.json()
    assert FeeChange.objects.count() == 0


def test_only_organisers_set_fees_and_strangers_see_no_registration() -> None:
    registration = RegistrationFactory()
    url = f"/api/registrations/{registration.pk}/fee/"
    assert client_for(registration.player).post(url, {"status": "paid"}).status_code == 404
    judge = UserFactory()
    registration.tournament.judges.add(judge)
    assert client_for(judge).get(url).status_code == 200
    assert client_for(judge).post(url, {"status": "paid"}).status_code == 403
    registration.refresh_from_db()
    assert registration.fee_status == "unpaid"


def test_the_check_in_desk_filters_by_fee_and_shows_a_badge() -> None:
    event = TournamentFactory(status="running")
    paid = RegistrationFactory(tournament=event, fee_status="paid")
    comped = RegistrationFactory(tournament=event, fee_status="comped")
    unpaid = RegistrationFactory(tournament=event)
    client = logged_in(organiser_of(event))
    url = f"/events/{event.slug}/manage/check-in/"
    owing = client.get(url, {"show": "all", "fee": "unpaid"}).content.decode()
    assert unpaid.name in owing and paid.name not in owing and comped.name not in owing
    assert "badge-fee-unpaid" in owing and "Mark paid" in owing
    settled = client.get(url, {"show": "all", "fee": "paid"}).content.decode()
    assert paid.name in settled and comped.name in settled and unpaid.name not in settled
    assert "badge-fee-comped" in settled
    marked = client.post(f"/events/{event.slug}/manage/check-in/do/", {"fee_paid": unpaid.pk})
    assert marked.status_code == 302
    unpaid.refresh_from_db()
    assert unpaid.fee_status == "paid"
    assert unpaid.fee_changes.get().actor == organiser_of(event)
