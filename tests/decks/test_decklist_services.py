"""Decklist submission, versions, locks, publishing and check-in gating."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from config.errors import Forbidden, ServiceError
from decks import services
from decks.models import DeckCheck, DecklistVersion
from tests.factories import RegistrationFactory, TournamentFactory, UserFactory, organiser_of
from tournaments import services as tournament_services
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo_catalog(shared_demo_catalog):  # type: ignore[no-untyped-def]
    """tests/conftest.py's demo catalog, loaded once for the module (tests/scenarios.py)."""
    return shared_demo_catalog


def test_a_legal_list_is_saved_as_version_one_with_its_report(legal_list: str) -> None:
    reg = RegistrationFactory()
    version = services.decklist_submit(actor=reg.player, registration=reg, source=legal_list)
    assert (version.number, version.legal) == (1, True)
    assert version.report["violations"] == []
    assert version.statistics["heroes"] == 60 and version.statistics["playbook"] == 30
    assert "Heroes (60)" in version.text
    assert AuditEntry.objects.filter(action="decklist.submitted", registration=reg).exists()


def test_every_submission_is_a_new_version_and_the_latest_is_active(
    legal_list: str, illegal_list: str
) -> None:
    reg = RegistrationFactory()
    services.decklist_submit(actor=reg.player, registration=reg, source=legal_list)
    second = services.decklist_submit(actor=reg.player, registration=reg, source=illegal_list)
    assert second.number == 2 and not second.legal
    assert services.active_version(reg) == second
    assert DecklistVersion.objects.filter(decklist__registration=reg).count() == 2


def test_an_illegal_list_is_saved_with_every_violation_cited(illegal_list: str) -> None:
    reg = RegistrationFactory()
    version = services.decklist_submit(actor=reg.player, registration=reg, source=illegal_list)
    assert not version.legal
    rules = {v["rule"] for v in version.report["violations"]}
    assert any(rule.startswith("hero_deck") for rule in rules)
    assert all(v["citation"] for v in version.report["violations"])


def test_an_unreadable_list_is_refused_with_its_report_and_nothing_is_saved(demo_catalog) -> None:  # type: ignore[no-untyped-def]
    reg = RegistrationFactory()
    with pytest.raises(services.DecklistUnreadable) as excinfo:
        services.decklist_submit(
            actor=reg.player, registration=reg, source="Heroes\n3 Nobody Atall\n"
        )
    assert excinfo.value.field == "decklist"
    assert excinfo.value.report["violations"][0]["rule"].startswith("decklist.")
    assert not DecklistVersion.objects.exists()


@pytest.mark.parametrize(
    "source",
    [b"\xff\xfe\x00garbage", "Heroes\n0 x\n-1 y\n1000000000 z\n", "", "\x00" * 100],
)
def test_junk_never_raises_anything_but_a_clear_refusal(demo_catalog, source) -> None:  # type: ignore[no-untyped-def]
    reg = RegistrationFactory()
    try:
        services.decklist_submit(actor=reg.player, registration=reg, source=source)
    except ServiceError as exc:
        assert exc.field == "decklist"
    else:
        version = services.active_version(reg)
        assert version is not None and not version.legal


def test_a_five_megabyte_paste_is_refused_before_parsing(demo_catalog) -> None:  # type: ignore[no-untyped-def]
    reg = RegistrationFactory()
    with pytest.raises(ServiceError) as excinfo:
        services.decklist_submit(actor=reg.player, registration=reg, source="1 Hero\n" * 800_000)
    assert excinfo.value.code == "too_large"


def test_a_player_cannot_submit_for_someone_else(legal_list: str) -> None:
    reg = RegistrationFactory()
    with pytest.raises(Forbidden):
        services.decklist_submit(actor=UserFactory(), registration=reg, source=legal_list)


def test_waitlisted_players_cannot_submit(legal_list: str) -> None:
    reg = RegistrationFactory(status="waitlisted")
    with pytest.raises(ServiceError):
        services.decklist_submit(actor=reg.player, registration=reg, source=legal_list)


def test_lists_lock_at_the_deadline_until_an_organiser_unlocks_one_player(legal_list: str) -> None:
    event = TournamentFactory(decklist_deadline=timezone.now() - timedelta(minutes=1))
    reg = RegistrationFactory(tournament=event)
    with pytest.raises(ServiceError) as excinfo:
        services.decklist_submit(actor=reg.player, registration=reg, source=legal_list)
    assert excinfo.value.code == "locked"
    services.decklist_unlock(actor=organiser_of(event), registration=reg, unlocked=True)
    assert (
        services.decklist_submit(actor=reg.player, registration=reg, source=legal_list).number == 1
    )
    other = RegistrationFactory(tournament=event)
    with pytest.raises(ServiceError):
        services.decklist_submit(actor=other.player, registration=other, source=legal_list)


def test_lists_lock_when_the_event_starts(legal_list: str) -> None:
    reg = RegistrationFactory(tournament=TournamentFactory(status="running"))
    with pytest.raises(ServiceError) as excinfo:
        services.decklist_submit(actor=reg.player, registration=reg, source=legal_list)
    assert "started" in excinfo.value.message


def test_an_organiser_enters_a_list_for_a_player_even_after_the_lock(legal_list: str) -> None:
    reg = RegistrationFactory(tournament=TournamentFactory(status="running"))
    organiser = organiser_of(reg.tournament)
    version = services.decklist_submit(actor=organiser, registration=reg, source=legal_list)
    assert version.entered_by_staff and version.submitted_by == organiser
    assert version.decklist.registration == reg


def test_only_organisers_unlock(legal_list: str) -> None:
    reg = RegistrationFactory()
    with pytest.raises(Forbidden):
        services.decklist_unlock(actor=reg.player, registration=reg, unlocked=True)


def test_visibility_player_staff_then_everyone_once_published(legal_list: str) -> None:
    event = TournamentFactory(status="finished")
    reg = RegistrationFactory(tournament=event)
    stranger = UserFactory()
    assert services.can_view_decklist(reg.player, reg)
    assert services.can_view_decklist(organiser_of(event), reg)
    assert not services.can_view_decklist(stranger, reg)
    services.decklists_publish(actor=organiser_of(event), tournament=event)
    reg.tournament.refresh_from_db()
    assert services.can_view_decklist(stranger, reg)


def test_lists_publish_only_after_the_event(legal_list: str) -> None:
    event = TournamentFactory(status="running")
    with pytest.raises(ServiceError):
        services.decklists_publish(actor=organiser_of(event), tournament=event)


def test_check_in_needs_a_legal_list_when_the_event_says_so(
    legal_list: str, illegal_list: str
) -> None:
    event = TournamentFactory(require_legal_decklist=True, player_check_in_open=True)
    reg = RegistrationFactory(tournament=event)
    with pytest.raises(ServiceError) as excinfo:
        tournament_services.registration_check_in(actor=reg.player, registration=reg)
    assert excinfo.value.code == "decklist_required"
    services.decklist_submit(actor=reg.player, registration=reg, source=illegal_list)
    with pytest.raises(ServiceError):
        tournament_services.registration_check_in(actor=reg.player, registration=reg)
    services.decklist_submit(actor=reg.player, registration=reg, source=legal_list)
    assert tournament_services.registration_check_in(actor=reg.player, registration=reg).checked_in


def test_check_in_without_a_list_when_the_event_allows_it() -> None:
    event = TournamentFactory(require_legal_decklist=False, player_check_in_open=True)
    reg = RegistrationFactory(tournament=event)
    assert tournament_services.registration_check_in(actor=reg.player, registration=reg).checked_in


def test_custom_format_parameters_apply_to_validation(legal_list: str) -> None:
    event = TournamentFactory(status="draft", format_params={"dbs_cap": 1})
    reg = RegistrationFactory(tournament=event)
    version = services.decklist_submit(actor=reg.player, registration=reg, source=legal_list)
    assert not version.legal
    assert any("dbs" in v["rule"] for v in version.report["violations"])


def test_bad_custom_format_parameters_are_refused_naming_the_field() -> None:
    from tests.factories import OrganiserFactory

    with pytest.raises(ServiceError) as excinfo:
        tournament_services.event_create(
            actor=OrganiserFactory(),
            name="Custom",
            game="boba",
            mode="playmaker",
            format_key="playmaker",
            format_params={"dbs_cap": "lots"},
            starts_at=timezone.now(),
        )
    assert excinfo.value.field == "format_params"


def test_check_my_deck_validates_without_saving(legal_list: str) -> None:
    result = services.decklist_check(game="boba", format_key="spec_playmaker", source=legal_list)
    assert result.report["format"] == "spec_playmaker"
    assert not DecklistVersion.objects.exists()
    with pytest.raises(ServiceError) as excinfo:
        services.decklist_check(game="boba", format_key="nonsense", source=legal_list)
    assert excinfo.value.field == "format"


def test_deck_check_picks_n_active_players_reproducibly_from_its_seed(legal_list: str) -> None:
    event = TournamentFactory(status="running")
    regs = RegistrationFactory.create_batch(8, tournament=event)
    RegistrationFactory(tournament=event, dropped_at=timezone.now())
    for reg in regs[:3]:
        services.decklist_submit(actor=organiser_of(event), registration=reg, source=legal_list)
    judge = UserFactory()
    event.judges.add(judge)

    first = services.deck_check_create(
        actor=judge, tournament=event, round_number=1, count=3, seed=42
    )
    again = services.deck_check_create(
        actor=judge, tournament=event, round_number=1, count=3, seed=42
    )

    picked = [r.registration_id for r in first.results.all()]
    assert len(picked) == 3 and picked == [r.registration_id for r in again.results.all()]
    assert set(picked) <= {r.pk for r in regs}
    assert AuditEntry.objects.filter(action="deck_check.created", data__seed=42).count() == 2


def test_deck_check_outcome_is_recorded_by_staff_only(legal_list: str) -> None:
    event = TournamentFactory(status="running")
    RegistrationFactory.create_batch(2, tournament=event)
    check = services.deck_check_create(
        actor=organiser_of(event), tournament=event, round_number=1, count=1
    )
    result = check.results.get()
    with pytest.raises(Forbidden):
        services.deck_check_record(actor=result.registration.player, result=result, outcome="ok")
    recorded = services.deck_check_record(
        actor=organiser_of(event), result=result, outcome="problem", notes="sleeve marked"
    )
    assert recorded.outcome == "problem" and recorded.checked_by == organiser_of(event)
    with pytest.raises(ServiceError):
        services.deck_check_record(actor=organiser_of(event), result=result, outcome="maybe")


def test_players_cannot_run_deck_checks() -> None:
    event = TournamentFactory(status="running")
    reg = RegistrationFactory(tournament=event)
    with pytest.raises(Forbidden):
        services.deck_check_create(actor=reg.player, tournament=event, round_number=1, count=1)


def test_a_custom_format_that_no_longer_reads_is_a_clear_refusal(legal_list: str) -> None:
    event = TournamentFactory(format_params={"no_such_parameter": 1})
    reg = RegistrationFactory(tournament=event)
    with pytest.raises(ServiceError) as excinfo:
        services.decklist_submit(actor=reg.player, registration=reg, source=legal_list)
    assert excinfo.value.field == "format_params"


def test_judges_see_their_draft_events() -> None:
    from tournaments.models import Tournament

    event = TournamentFactory(status="draft")
    judge = UserFactory()
    event.judges.add(judge)
    assert Tournament.objects.visible_to(judge).filter(pk=event.pk).exists()
    assert not Tournament.objects.visible_to(UserFactory()).filter(pk=event.pk).exists()


def test_a_deck_check_for_a_round_that_is_not_there_is_refused() -> None:
    event = TournamentFactory(status="running")
    RegistrationFactory.create_batch(3, tournament=event)
    with pytest.raises(ServiceError) as excinfo:
        services.deck_check_create(
            actor=organiser_of(event), tournament=event, round_number=42, count=1
        )
    assert excinfo.value.field == "round_number" and "at most 1" in excinfo.value.message
    assert not DeckCheck.objects.exists()
    # The round about to be paired is fine: checks often happen before it starts.
    services.deck_check_create(actor=organiser_of(event), tournament=event, round_number=1, count=1)
