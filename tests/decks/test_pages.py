"""Pages of the decks app: who sees what, and that every change goes through the services."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from decks import services
from decks.models import Card, CardImport, DeckCheck, DeckCheckResult, Decklist, DecklistVersion
from tests.factories import (
    OrganiserFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    logged_in,
    organiser_of,
)
from tests.scenarios import own_copy
from tests.support import one_hero_short
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


# The demo catalog (loaded once for the module) and BoBA's deck rules are tests/conftest.py's
# fixtures; these pages use their own seed of the sample list.
@pytest.fixture
def catalog(shared_demo_catalog):  # type: ignore[no-untyped-def]
    return shared_demo_catalog


@pytest.fixture
def rules(deck_rules):  # type: ignore[no-untyped-def]
    return deck_rules


@pytest.fixture
def legal_text(catalog, rules) -> str:  # type: ignore[no-untyped-def]
    fmt = rules.resolve_format("playmaker")
    return rules.export(rules.sample(catalog, fmt, 11), catalog)


@pytest.fixture
def short_text(legal_text: str) -> str:
    """Readable but illegal: one Hero short of 60."""
    return one_hero_short(legal_text)


@pytest.fixture(scope="module")
def setup_once(demo_catalog_once: None) -> dict[str, Any]:
    """`setup`'s event and people, built once for the module (tests/scenarios.py)."""
    event = TournamentFactory(name="Deck Cup")
    judge = UserFactory(display_name="Judy Judge")
    event.judges.add(judge)
    reg = RegistrationFactory(tournament=event, player=UserFactory(display_name="Pat Player"))
    other = RegistrationFactory(tournament=event, player=UserFactory(display_name="Otto Other"))
    return {
        "event": event,
        "organiser": organiser_of(event),
        "judge": judge,
        "reg": reg,
        "player": reg.player,
        "other": other.player,
        "other_reg": other,
    }


@pytest.fixture
def setup(setup_once: dict[str, Any], catalog):  # type: ignore[no-untyped-def]
    """An event with its organiser, a judge, a registered player and a second player (the
    test's own copies of the instances; its changes are rolled back)."""
    return own_copy(setup_once)


def submit(reg, text: str):  # type: ignore[no-untyped-def]
    return services.decklist_submit(actor=reg.player, registration=reg, source=text)


# --- check a deck -------------------------------------------------------------------------


def test_check_page_is_open_to_anonymous_visitors(catalog) -> None:  # type: ignore[no-untyped-def]
    html = Client().get("/check-deck/").content.decode()
    assert "<h1>Check a deck</h1>" in html
    assert 'for="id_decklist"' in html and 'id="id_decklist"' in html
    assert 'value="playmaker" selected' in html and "SPEC Playmaker" in html


def test_check_reports_unknown_cards_with_line_numbers_and_suggestions(
    legal_text: str,
) -> None:
    hero_line = next(line for line in legal_text.splitlines() if line.startswith("1 "))
    name = re.match(r"1 (.+?) \(", hero_line).group(1)  # type: ignore[union-attr]
    misspelt = hero_line.replace(name, name[:-1], 1)
    response = Client().post(
        "/check-deck/", {"format": "playmaker", "decklist": f"Heroes\n{misspelt}\n"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Not legal" in html and "decklist.unknown_card" in html
    assert (
        '<a class="short-link" href="#line-2">2</a>' in html
        and 'id="line-2" value="2" class="line-error"' in html
    )
    assert "Did you mean" in html and name in html
    assert "hero_deck.size" in html and "CR 1.2, CR 4.1.1" in html  # rule id and citation
    assert not DecklistVersion.objects.exists()


def test_check_of_a_legal_list_shows_legal_and_the_charts(legal_text: str) -> None:
    html = (
        Client()
        .post("/check-deck/", {"format": "playmaker", "decklist": legal_text})
        .content.decode()
    )
    assert "verdict-legal" in html
    assert html.count('role="img"') == 4 and 'data-cap="6"' in html and 'data-cap="1000"' in html


def test_a_huge_paste_is_refused_with_a_message_not_a_500(catalog) -> None:  # type: ignore[no-untyped-def]
    response = Client().post(
        "/check-deck/", {"format": "playmaker", "decklist": "1 Hot Dog\n" * 30_000}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "message-error" in html and "a decklist is at most 200 KB" in html


def test_an_unknown_format_is_a_form_error(catalog) -> None:  # type: ignore[no-untyped-def]
    response = Client().post("/check-deck/", {"format": "nope", "decklist": "1 Hot Dog"})
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()


# --- submission page ----------------------------------------------------------------------


def test_submission_page_is_for_the_player_and_the_events_staff(setup) -> None:  # type: ignore[no-untyped-def]
    url = f"/registrations/{setup['reg'].pk}/decklist/"
    assert Client().get(url).status_code == 302
    assert logged_in(setup["other"]).get(url).status_code == 403
    assert logged_in(OrganiserFactory()).get(url).status_code == 403  # organiser of another event
    player_html = logged_in(setup["player"]).get(url).content.decode()
    assert "My decklist" in player_html and "Submit the list" in player_html
    organiser_html = logged_in(setup["organiser"]).get(url).content.decode()
    assert (
        "Decklist of Pat Player" in organiser_html
        and "entering this list for the player" in organiser_html
    )
    judge_html = logged_in(setup["judge"]).get(url).content.decode()
    assert "Version history" in judge_html and "Submit the list" not in judge_html


def test_submitting_a_legal_list_saves_a_version_and_shows_it(setup, legal_text: str) -> None:  # type: ignore[no-untyped-def]
    client = logged_in(setup["player"])
    url = f"/registrations/{setup['reg'].pk}/decklist/"
    response = client.post(url, {"decklist": legal_text}, follow=True)
    version = DecklistVersion.objects.get()
    assert (version.number, version.legal, version.entered_by_staff) == (1, True, False)
    html = response.content.decode()
    assert "Version 1 saved: the list is legal." in html
    assert f'href="/decklists/{version.pk}/"' in html and "badge-legal" in html
    assert "Heroes (60)" in html  # the textarea is prefilled with the active version


def test_an_unreadable_list_is_shown_with_its_report_and_nothing_is_saved(setup) -> None:  # type: ignore[no-untyped-def]
    response = logged_in(setup["player"]).post(
        f"/registrations/{setup['reg'].pk}/decklist/", {"decklist": "Heroes\n3 Nobody Atall\n"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert not DecklistVersion.objects.exists()
    assert "nothing was saved" in html.lower() and "decklist.unknown_card" in html
    assert "Nobody Atall" in html  # the pasted text is kept in the form


def test_invalid_utf8_bytes_in_the_form_do_not_cause_a_500(setup) -> None:  # type: ignore[no-untyped-def]
    client = logged_in(setup["player"])
    response = client.generic(
        "POST",
        f"/registrations/{setup['reg'].pk}/decklist/",
        b"decklist=%FF%FE%00garbage",
        content_type="application/x-www-form-urlencoded",
    )
    # The NUL byte is refused before the view (config.middleware): a 400 naming the field.
    assert response.status_code == 400
    assert "decklist: NUL characters are not allowed." in response.content.decode()
    assert not DecklistVersion.objects.exists()


def test_an_illegal_list_is_saved_and_shown_with_its_report(setup, short_text: str) -> None:  # type: ignore[no-untyped-def]
    response = logged_in(setup["player"]).post(
        f"/registrations/{setup['reg'].pk}/decklist/", {"decklist": short_text}, follow=True
    )
    version = DecklistVersion.objects.get()
    assert not version.legal
    html = response.content.decode()
    assert "Version 1 saved, but the list is not legal" in html
    assert "hero_deck.size" in html and "badge-illegal" in html


def test_after_the_lock_the_player_is_refused_until_an_organiser_unlocks(
    setup, legal_text: str
) -> None:  # type: ignore[no-untyped-def]
    event, reg = setup["event"], setup["reg"]
    event.decklist_deadline = timezone.now() - timedelta(minutes=1)
    event.save()
    player = logged_in(setup["player"])
    url = f"/registrations/{reg.pk}/decklist/"
    page = player.get(url).content.decode()
    assert "the deadline has passed" in page and "Submit the list" not in page
    response = player.post(url, {"decklist": legal_text}, follow=True)
    assert "Decklists are locked" in response.content.decode()
    assert not DecklistVersion.objects.exists()

    assert (
        player.post(f"/registrations/{reg.pk}/decklist/unlock/", {"unlocked": "1"}).status_code
        == 403
    )
    logged_in(setup["organiser"]).post(
        f"/registrations/{reg.pk}/decklist/unlock/", {"unlocked": "1"}
    )
    assert Decklist.objects.get(registration=reg).unlocked
    assert "Unlocked" in player.get(url).content.decode()
    player.post(url, {"decklist": legal_text})
    assert DecklistVersion.objects.filter(decklist__registration=reg).count() == 1


def test_an_organiser_entering_a_list_flags_the_version(setup, legal_text: str) -> None:  # type: ignore[no-untyped-def]
    url = f"/registrations/{setup['reg'].pk}/decklist/"
    response = logged_in(setup["organiser"]).post(url, {"decklist": legal_text}, follow=True)
    version = DecklistVersion.objects.get()
    assert version.entered_by_staff and version.submitted_by == setup["organiser"]
    assert "entered by organiser" in response.content.decode()


def test_a_judge_cannot_submit_a_list(setup, legal_text: str) -> None:  # type: ignore[no-untyped-def]
    response = logged_in(setup["judge"]).post(
        f"/registrations/{setup['reg'].pk}/decklist/", {"decklist": legal_text}
    )
    assert response.status_code == 403
    assert not DecklistVersion.objects.exists()


def test_version_history_lists_every_version_newest_first(
    setup, legal_text: str, short_text: str
) -> None:  # type: ignore[no-untyped-def]
    reg = setup["reg"]
    first = submit(reg, legal_text)
    second = submit(reg, short_text)
    html = logged_in(setup["player"]).get(f"/registrations/{reg.pk}/decklist/").content.decode()
    assert html.index(f"/decklists/{second.pk}/") < html.index(f"/decklists/{first.pk}/")
    assert html.count("badge-legal") == 1 and "not legal" in html


def test_my_decklist_sends_a_player_to_their_registration(setup) -> None:  # type: ignore[no-untyped-def]
    event = setup["event"]
    response = logged_in(setup["player"]).get(f"/events/{event.slug}/decklist/")
    assert response.status_code == 302
    assert response["Location"] == f"/registrations/{setup['reg'].pk}/decklist/"
    stranger = logged_in(UserFactory()).get(f"/events/{event.slug}/decklist/", follow=True)
    assert "You are not registered for this event." in stranger.content.decode()
    assert Client().get(f"/events/{event.slug}/decklist/").status_code == 302


# --- deck page ----------------------------------------------------------------------------


def test_deck_page_shows_the_grouped_list_and_the_charts_with_caps(setup, legal_text: str) -> None:  # type: ignore[no-untyped-def]
    version = submit(setup["reg"], legal_text)
    html = logged_in(setup["player"]).get(f"/decklists/{version.pk}/").content.decode()
    for heading in (
        "Heroes per Power value",
        "Heroes per weapon type",
        "Play cost curve",
        "Deck Balancing Score",
    ):
        assert heading in html
    assert html.count("<svg") == 4 and html.count('role="img"') == 4
    assert 'class="cap-line" data-cap="6"' in html  # per-Power cap on the histogram
    assert 'class="cap-line" data-cap="1000"' in html  # DBS cap on the meter
    assert "max 6 per Power" in html
    assert f"DBS {version.statistics['dbs_total']} of 1000" in html
    headings = re.findall(r'<h3 class="h-small">([^<]+) <span class="meta">\((\d+)\)', html)
    stats = version.statistics
    expected = [("Heroes", "60"), ("Playbook", "30")]
    if stats["bonus_plays"]:
        expected.append(("Bonus Plays", str(stats["bonus_plays"])))
    assert headings == [*expected, ("Hot Dogs", "10")]
    # print sheet: event, player, player id and a signature line
    assert "Deck registration sheet" in html and "Deck Cup" in html
    assert setup["player"].player_id in html and "signature-line" in html


def test_deck_page_heroes_are_sorted_by_power_highest_first(setup, legal_text: str) -> None:  # type: ignore[no-untyped-def]
    version = submit(setup["reg"], legal_text)
    html = logged_in(setup["player"]).get(f"/decklists/{version.pk}/").content.decode()
    heroes = html.split("Heroes <span", 1)[1].split("</table>", 1)[0]
    powers = [int(p) for p in re.findall(r'<td class="num">(\d+)</td>\s*</tr>', heroes)]
    assert len(powers) >= 50 and powers == sorted(powers, reverse=True)


def test_deck_page_visibility_before_and_after_publishing(setup, legal_text: str) -> None:  # type: ignore[no-untyped-def]
    event = setup["event"]
    version = submit(setup["reg"], legal_text)
    url = f"/decklists/{version.pk}/"
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert logged_in(setup["other"]).get(url).status_code == 403
    assert logged_in(setup["judge"]).get(url).status_code == 200
    assert logged_in(setup["organiser"]).get(url).status_code == 200
    event.status = "finished"
    event.save()
    services.decklists_publish(actor=setup["organiser"], tournament=event)
    assert Client().get(url).status_code == 200
    assert logged_in(setup["other"]).get(url).status_code == 200


def test_an_older_version_points_to_the_active_one(setup, legal_text: str, short_text: str) -> None:  # type: ignore[no-untyped-def]
    old = submit(setup["reg"], short_text)
    new = submit(setup["reg"], legal_text)
    html = logged_in(setup["player"]).get(f"/decklists/{old.pk}/").content.decode()
    assert "This is an older version" in html and f'href="/decklists/{new.pk}/"' in html


def test_deck_page_flags_a_power_value_over_the_cap(setup) -> None:  # type: ignore[no-untyped-def]
    decklist = Decklist.objects.create(registration=setup["reg"])
    version = DecklistVersion.objects.create(
        decklist=decklist,
        number=1,
        text="",
        data={
            "heroes": [
                {"count": 1, "id": "x", "name": "<b>Bold</b>", "weapon": "Fire", "power": 100}
            ]
        },
        format_key="playmaker",
        legal=False,
        report={"legal": False, "format": "playmaker", "violations": [], "warnings": []},
        statistics={"heroes": 8, "hero_power_histogram": {"100": 7, "110": 1}, "dbs_total": 1200},
    )
    html = logged_in(setup["player"]).get(f"/decklists/{version.pk}/").content.decode()
    assert html.count('data-over-cap="true"') == 1 and ">7!<" in html
    assert "Over the limit at Power 100." in html
    assert "DBS 1200 of 1000 Over the cap." in html  # the meter's description
    assert "&lt;b&gt;Bold&lt;/b&gt;" in html and "<b>Bold</b>" not in html


def test_missing_version_is_a_404() -> None:
    assert Client().get("/decklists/999999/").status_code == 404


# --- event decklists overview -------------------------------------------------------------


def test_overview_is_for_staff_until_published(setup, legal_text: str, short_text: str) -> None:  # type: ignore[no-untyped-def]
    event = setup["event"]
    submit(setup["reg"], legal_text)
    submit(setup["other_reg"], short_text)
    RegistrationFactory(tournament=event, player=UserFactory(display_name="Nell Nolist"))
    url = f"/events/{event.slug}/decklists/"
    assert Client().get(url).status_code == 302
    assert logged_in(setup["player"]).get(url).status_code == 403
    judge_html = logged_in(setup["judge"]).get(url).content.decode()
    assert "Pat Player" in judge_html and "Nell Nolist" in judge_html
    assert (
        "Legal: <strong>1</strong>" in judge_html and "Not legal: <strong>1</strong>" in judge_html
    )
    assert "No list: <strong>1</strong>" in judge_html
    assert "Unlock" not in judge_html  # judges see, organisers act
    organiser = logged_in(setup["organiser"])
    organiser_html = organiser.get(url).content.decode()
    assert "Enter a list for Pat Player" in organiser_html and "Unlock" not in organiser_html
    event.decklist_deadline = timezone.now() - timedelta(minutes=1)
    event.save()
    locked_html = organiser.get(url).content.decode()
    assert "the deadline has passed" in locked_html
    assert "Unlock the list of Pat Player" in locked_html


def test_publishing_waits_for_the_end_of_the_event(setup, legal_text: str) -> None:  # type: ignore[no-untyped-def]
    event = setup["event"]
    version = submit(setup["reg"], legal_text)
    organiser = logged_in(setup["organiser"])
    url = f"/events/{event.slug}/decklists/"
    response = organiser.post(f"{url}publish/", {"published": "1"}, follow=True)
    assert "once the event has finished" in response.content.decode()
    event.refresh_from_db()
    assert event.decklists_published_at is None

    assert logged_in(setup["judge"]).post(f"{url}publish/", {"published": "1"}).status_code == 403
    event.status = "finished"
    event.save()
    response = organiser.post(f"{url}publish/", {"published": "1"}, follow=True)
    assert "The decklists are public." in response.content.decode()
    public = Client().get(url).content.decode()
    assert f'href="/decklists/{version.pk}/"' in public and "Unlock" not in public
    assert "Decklists of this event" in Client().get(f"/events/{event.slug}/").content.decode()

    organiser.post(f"{url}publish/", {"published": "0"})
    assert Client().get(url).status_code == 302


def test_publish_and_unlock_need_post_and_a_login(setup) -> None:  # type: ignore[no-untyped-def]
    anonymous = Client().post(
        f"/events/{setup['event'].slug}/decklists/publish/", {"published": "1"}
    )
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    organiser = logged_in(setup["organiser"])
    assert organiser.get(f"/events/{setup['event'].slug}/decklists/publish/").status_code == 405
    assert organiser.get(f"/registrations/{setup['reg'].pk}/decklist/unlock/").status_code == 405


def test_unlock_ignores_an_offsite_next(setup) -> None:  # type: ignore[no-untyped-def]
    response = logged_in(setup["organiser"]).post(
        f"/registrations/{setup['reg'].pk}/decklist/unlock/",
        {"unlocked": "1", "next": "https://evil.example/"},
    )
    assert response["Location"] == f"/events/{setup['event'].slug}/decklists/"


# --- deck checks --------------------------------------------------------------------------


def test_deck_checks_are_for_the_events_staff(setup) -> None:  # type: ignore[no-untyped-def]
    url = f"/events/{setup['event'].slug}/deck-checks/"
    assert Client().get(url).status_code == 302
    assert logged_in(setup["player"]).get(url).status_code == 403
    assert logged_in(setup["organiser"]).get(url).status_code == 200
    assert "Pick players at random" in logged_in(setup["judge"]).get(url).content.decode()


def test_a_judge_picks_n_players_and_the_sheet_shows_their_lists(
    setup, legal_text: str, short_text: str
) -> None:  # type: ignore[no-untyped-def]
    event = setup["event"]
    submit(setup["reg"], legal_text)
    submit(setup["other_reg"], short_text)
    RegistrationFactory(tournament=event)
    judge = logged_in(setup["judge"])
    response = judge.post(
        f"/events/{event.slug}/deck-checks/", {"round_number": "1", "count": "2", "seed": "42"}
    )
    check = DeckCheck.objects.get()
    assert response["Location"] == f"/deck-checks/{check.pk}/"
    assert (check.round_number, check.seed, check.requested) == (1, 42, 2)
    results = list(check.results.select_related("registration", "version"))
    assert len(results) == 2
    html = judge.get(f"/deck-checks/{check.pk}/").content.decode()
    assert "Deck check, round 1" in html and "<code>42</code>" in html
    for result in results:
        assert result.registration.name in html
        if result.version:
            assert f"Decklist version {result.version.number}" in html
        else:
            assert "No decklist submitted." in html
    assert html.count('class="deck-list"') == sum(1 for r in results if r.version)
    listing = judge.get(f"/events/{event.slug}/deck-checks/").content.decode()
    assert "Round 1" in listing and "<code>42</code>" in listing


def test_the_same_seed_picks_the_same_players(setup) -> None:  # type: ignore[no-untyped-def]
    RegistrationFactory.create_batch(4, tournament=setup["event"])
    judge = logged_in(setup["judge"])
    for _ in range(2):
        judge.post(
            f"/events/{setup['event'].slug}/deck-checks/",
            {"round_number": "1", "count": "3", "seed": "7"},
        )
    first, second = DeckCheck.objects.order_by("pk")
    picked = [set(c.results.values_list("registration_id", flat=True)) for c in (first, second)]
    assert picked[0] == picked[1] and len(picked[0]) == 3


def test_deck_check_sheet_is_for_the_events_staff(setup) -> None:  # type: ignore[no-untyped-def]
    check = services.deck_check_create(
        actor=setup["organiser"], tournament=setup["event"], round_number=1, count=1, seed=3
    )
    url = f"/deck-checks/{check.pk}/"
    assert Client().get(url).status_code == 302
    assert logged_in(setup["player"]).get(url).status_code == 403
    assert logged_in(OrganiserFactory()).get(url).status_code == 403
    assert logged_in(setup["organiser"]).get(url).status_code == 200
    assert logged_in(setup["judge"]).get(url).status_code == 200


def test_bad_deck_check_input_is_a_form_error(setup) -> None:  # type: ignore[no-untyped-def]
    response = logged_in(setup["judge"]).post(
        f"/events/{setup['event'].slug}/deck-checks/", {"round_number": "0", "count": "x"}
    )
    assert response.status_code == 200 and not DeckCheck.objects.exists()
    assert "errorlist" in response.content.decode()


def test_recording_an_outcome(setup, legal_text: str) -> None:  # type: ignore[no-untyped-def]
    submit(setup["reg"], legal_text)
    check = services.deck_check_create(
        actor=setup["judge"], tournament=setup["event"], round_number=1, count=1, seed=1
    )
    result = check.results.get()
    url = f"/deck-checks/{check.pk}/results/{result.pk}/"
    prefix = f"result-{result.pk}"
    data = {
        f"{prefix}-outcome": "problem",
        f"{prefix}-notes": "Two copies of a Play",
        f"{prefix}-penalty_reference": "P-12",
    }
    assert logged_in(setup["player"]).post(url, data).status_code == 403
    response = logged_in(setup["judge"]).post(url, data, follow=True)
    result.refresh_from_db()
    assert (result.outcome, result.notes, result.penalty_reference) == (
        "problem",
        "Two copies of a Play",
        "P-12",
    )
    assert result.checked_by == setup["judge"]
    html = response.content.decode()
    assert "recorded" in html and "badge-outcome-problem" in html
    assert AuditEntry.objects.filter(action="deck_check.recorded").exists()

    logged_in(setup["judge"]).post(url, {f"{prefix}-outcome": "maybe"})
    result.refresh_from_db()
    assert result.outcome == "problem"


def test_a_result_of_another_deck_check_is_a_404(setup) -> None:  # type: ignore[no-untyped-def]
    check = services.deck_check_create(
        actor=setup["judge"], tournament=setup["event"], round_number=1, count=1, seed=1
    )
    result = check.results.get()
    url = f"/deck-checks/{check.pk + 1}/results/{result.pk}/"
    assert logged_in(setup["judge"]).post(url, {}).status_code == 404
    assert DeckCheckResult.objects.get().outcome == "pending"


# --- card imports -------------------------------------------------------------------------

CSV = (
    "name,kind,set,card_number,weapon,power\n"
    "Test Hero,hero,Test Set,1,Fire,120\n"
    "Broken Row,hero,Test Set,2,Fire,not-a-number\n"
)


def test_import_pages_are_for_organisers(db) -> None:  # type: ignore[no-untyped-def]
    assert Client().get("/cards/import/").status_code == 302
    assert logged_in(UserFactory()).get("/cards/import/").status_code == 403
    html = logged_in(OrganiserFactory()).get("/cards/import/").content.decode()
    assert 'enctype="multipart/form-data"' in html and 'for="id_files"' in html
    card_import = CardImport.objects.create(game="boba")
    assert logged_in(UserFactory()).get(f"/cards/import/{card_import.pk}/").status_code == 403
    assert Client().get(f"/cards/import/{card_import.pk}/").status_code == 302
    upload = SimpleUploadedFile("cards.csv", CSV.encode(), content_type="text/csv")
    player_post = logged_in(UserFactory()).post(
        "/cards/import/", {"game": "boba", "files": [upload]}
    )
    assert player_post.status_code == 403 and CardImport.objects.count() == 1


def test_uploading_a_csv_runs_the_import_and_shows_counts_and_rejections(
    db, django_capture_on_commit_callbacks
) -> None:  # type: ignore[no-untyped-def]
    client = logged_in(OrganiserFactory())
    upload = SimpleUploadedFile("cards.csv", CSV.encode(), content_type="text/csv")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/cards/import/", {"game": "boba", "files": [upload]})
    card_import = CardImport.objects.get()
    assert response["Location"] == f"/cards/import/{card_import.pk}/"
    html = client.get(response["Location"]).content.decode()
    card_import.refresh_from_db()
    assert card_import.status == "done"
    assert 'value="100"' in html and "badge-import-done" in html
    assert "Created: <strong>1</strong>" in html and "Rejected: <strong>1</strong>" in html
    assert '<td data-label="Row" class="num">3</td>' in html and "power" in html
    assert 'http-equiv="refresh"' not in html
    assert Card.objects.filter(name="Test Hero").exists()


def test_a_running_import_refreshes_itself(db) -> None:  # type: ignore[no-untyped-def]
    organiser = OrganiserFactory()
    card_import = CardImport.objects.create(
        game="boba", status="running", total=200, processed=50, uploaded_by=organiser
    )
    html = logged_in(organiser).get(f"/cards/import/{card_import.pk}/").content.decode()
    assert '<meta http-equiv="refresh" content="2">' in html
    assert '<progress id="import-progress" max="100" value="25">' in html
    assert "js/import-progress.js" in html and 'data-running="true"' in html


def test_an_unrecognised_file_fails_the_import_with_its_reason(
    db, django_capture_on_commit_callbacks
) -> None:  # type: ignore[no-untyped-def]
    client = logged_in(OrganiserFactory())
    upload = SimpleUploadedFile("notes.txt", b"\xff\xfe not a card list", content_type="text/plain")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/cards/import/", {"game": "boba", "files": [upload]})
    response = client.get(response["Location"])
    html = response.content.decode()
    assert response.status_code == 200
    assert CardImport.objects.get().status == "failed"
    assert "The import failed" in html and "unrecognised file" in html


def test_upload_without_files_is_a_form_error(db) -> None:  # type: ignore[no-untyped-def]
    response = logged_in(OrganiserFactory()).post("/cards/import/", {"game": "boba"})
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert not CardImport.objects.exists()


def test_importing_a_slice_of_the_real_card_lists(
    db, shared_data: Path, tmp_path: Path, django_capture_on_commit_callbacks
) -> None:  # type: ignore[no-untyped-def]
    cards = json.loads((shared_data / "boba" / "cards.json").read_text())[:300]
    cards.append({"Card ID": "broken", "Name": "", "Set": None})
    cards_file = tmp_path / "cards.json"
    cards_file.write_text(json.dumps(cards))
    plays_file = shared_data / "boba" / "plays.json"
    client = logged_in(OrganiserFactory())
    with (
        cards_file.open("rb") as c,
        plays_file.open("rb") as p,
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = client.post("/cards/import/", {"game": "boba", "files": [c, p]})
    response = client.get(response["Location"])
    card_import = CardImport.objects.get()
    html = response.content.decode()
    assert card_import.status == "done" and card_import.created_count > 0
    assert f"Created: <strong>{card_import.created_count}</strong>" in html
    assert card_import.rejected_count >= 1 and "Rejected rows" in html
    assert card_import.file_names == ["cards.json", "plays.json"]


# --- navigation ---------------------------------------------------------------------------


def test_navigation_links_lead_to_the_deck_pages(setup) -> None:  # type: ignore[no-untyped-def]
    event = setup["event"]
    anonymous = Client().get("/").content.decode()
    assert 'href="/check-deck/"' in anonymous and 'href="/cards/import/"' not in anonymous
    assert 'href="/cards/import/"' in logged_in(setup["organiser"]).get("/").content.decode()
    player_event = logged_in(setup["player"]).get(f"/events/{event.slug}/").content.decode()
    assert f'href="/events/{event.slug}/decklist/"' in player_event
    assert f'href="/events/{event.slug}/decklists/"' not in player_event
    staff_event = logged_in(setup["judge"]).get(f"/events/{event.slug}/").content.decode()
    assert f'href="/events/{event.slug}/decklists/"' in staff_event
    dashboard = logged_in(setup["organiser"]).get(f"/events/{event.slug}/manage/").content.decode()
    assert f'href="/events/{event.slug}/decklists/"' in dashboard
    assert f'href="/events/{event.slug}/deck-checks/"' in dashboard


def test_tournament_registration_routes_still_work_beside_the_decklist_route(setup) -> None:  # type: ignore[no-untyped-def]
    reg = setup["reg"]
    response = logged_in(setup["player"]).post(f"/registrations/{reg.pk}/withdraw/")
    assert response.status_code == 302
    reg.refresh_from_db()
    assert reg.status == "withdrawn"


def test_deck_page_of_an_event_whose_custom_format_no_longer_reads_still_renders(
    legal_list: str,
) -> None:
    from decks import services as deck_services

    event = TournamentFactory()
    reg = RegistrationFactory(tournament=event)
    version = deck_services.decklist_submit(actor=reg.player, registration=reg, source=legal_list)
    event.format_params = {"no_such_parameter": 1}
    event.save()
    response = logged_in(reg.player).get(f"/decklists/{version.pk}/")
    assert response.status_code == 200
