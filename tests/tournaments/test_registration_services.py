"""Registration use cases: who may, when, capacity and waitlist, walk-ins, check-in, drops."""

from datetime import timedelta

import pytest
from django.utils import timezone

from config.errors import Forbidden, ServiceError
from tests.factories import (
    OrganiserFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    organiser_of,
)
from tournaments import selectors, services
from tournaments.models import AuditEntry, Registration, RegistrationStatus
from tournaments.status import EventStatus

pytestmark = pytest.mark.django_db


def test_a_player_registers_and_the_change_is_audited() -> None:
    event = TournamentFactory()
    player = UserFactory()

    registration = services.registration_register(actor=player, tournament=event)

    assert registration.status == RegistrationStatus.REGISTERED
    entry = AuditEntry.objects.get(registration=registration)
    assert (entry.actor, entry.action) == (player, "registration.registered")


def test_registering_twice_is_refused_naming_the_field() -> None:
    event = TournamentFactory()
    player = UserFactory()
    services.registration_register(actor=player, tournament=event)

    with pytest.raises(ServiceError) as excinfo:
        services.registration_register(actor=player, tournament=event)

    assert excinfo.value.field == "tournament"
    assert excinfo.value.code == "already_registered"
    assert Registration.objects.filter(tournament=event).count() == 1


@pytest.mark.parametrize(
    "status", ["draft", "registration_closed", "running", "finished", "top_cut"]
)
def test_registering_when_registration_is_not_open_is_refused(status: str) -> None:
    event = TournamentFactory(status=status)
    with pytest.raises(ServiceError) as excinfo:
        services.registration_register(actor=UserFactory(), tournament=event)
    assert excinfo.value.code == "registration_closed"
    assert not Registration.objects.exists()


def test_registering_for_a_cancelled_event_says_so() -> None:
    event = TournamentFactory(status="cancelled")
    with pytest.raises(ServiceError) as excinfo:
        services.registration_register(actor=UserFactory(), tournament=event)
    assert excinfo.value.code == "cancelled"


def test_registration_window_times_are_enforced() -> None:
    now = timezone.now()
    not_yet = TournamentFactory(registration_opens_at=now + timedelta(hours=1))
    closed = TournamentFactory(
        registration_opens_at=now - timedelta(days=2),
        registration_closes_at=now - timedelta(hours=1),
    )
    for event in (not_yet, closed):
        with pytest.raises(ServiceError):
            services.registration_register(actor=UserFactory(), tournament=event)


def test_registering_without_an_account_is_forbidden() -> None:
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(Forbidden):
        services.registration_register(actor=AnonymousUser(), tournament=TournamentFactory())


def test_beyond_capacity_players_join_the_waitlist_in_order_and_are_promoted_in_order() -> None:
    event = TournamentFactory(capacity=2)
    first, second, third, fourth = (UserFactory() for _ in range(4))
    regs = [
        services.registration_register(actor=p, tournament=event)
        for p in (first, second, third, fourth)
    ]
    assert [r.status for r in regs] == ["registered", "registered", "waitlisted", "waitlisted"]

    services.registration_withdraw(actor=first, registration=regs[0])

    statuses = dict(Registration.objects.filter(tournament=event).values_list("player", "status"))
    assert statuses[third.pk] == "registered"
    assert statuses[fourth.pk] == "waitlisted"
    assert AuditEntry.objects.filter(action="registration.promoted", registration=regs[2]).exists()


def test_raising_capacity_promotes_the_waitlist() -> None:
    event = TournamentFactory(capacity=2)
    regs = [services.registration_register(actor=UserFactory(), tournament=event) for _ in range(3)]
    services.event_update(actor=organiser_of(event), tournament=event, capacity=3)
    regs[2].refresh_from_db()
    assert regs[2].status == "registered"


def test_lowering_capacity_below_registered_count_is_refused() -> None:
    event = TournamentFactory(capacity=4)
    for _ in range(3):
        services.registration_register(actor=UserFactory(), tournament=event)
    with pytest.raises(ServiceError) as excinfo:
        services.event_update(actor=organiser_of(event), tournament=event, capacity=2)
    assert excinfo.value.field == "capacity"
    event.refresh_from_db()
    assert event.capacity == 4


def test_a_withdrawn_player_can_register_again() -> None:
    event = TournamentFactory()
    player = UserFactory()
    reg = services.registration_register(actor=player, tournament=event)
    services.registration_withdraw(actor=player, registration=reg)
    again = services.registration_register(actor=player, tournament=event)
    assert again.pk == reg.pk and again.status == "registered"


def test_a_player_cannot_withdraw_someone_else() -> None:
    reg = RegistrationFactory()
    with pytest.raises(Forbidden):
        services.registration_withdraw(actor=UserFactory(), registration=reg)
    reg.refresh_from_db()
    assert reg.status == "registered"


def test_players_cannot_withdraw_after_registration_closes() -> None:
    reg = RegistrationFactory(tournament=TournamentFactory(status="registration_closed"))
    with pytest.raises(ServiceError):
        services.registration_withdraw(actor=reg.player, registration=reg)


def test_organiser_removes_a_registration_and_a_removed_player_cannot_re_register() -> None:
    reg = RegistrationFactory()
    organiser = organiser_of(reg.tournament)
    services.registration_remove(
        actor=organiser, registration=reg, reason="duplicate account", confirm=True
    )
    reg.refresh_from_db()
    assert reg.status == "removed"
    with pytest.raises(Forbidden):
        services.registration_register(actor=reg.player, tournament=reg.tournament)
    entry = AuditEntry.objects.get(action="registration.removed")
    assert entry.data["reason"] == "duplicate account"


def test_only_the_events_organisers_manage_it() -> None:
    reg = RegistrationFactory()
    other_organiser = OrganiserFactory()
    with pytest.raises(Forbidden):
        services.registration_remove(actor=other_organiser, registration=reg)
    with pytest.raises(Forbidden):
        services.registration_add_walk_in(
            actor=other_organiser, tournament=reg.tournament, name="X"
        )
    with pytest.raises(Forbidden):
        services.event_transition(actor=other_organiser, tournament=reg.tournament, to="cancelled")


def test_walk_in_is_added_and_later_claimed_by_an_account() -> None:
    event = TournamentFactory(status="registration_closed")
    walk_in = services.registration_add_walk_in(
        actor=organiser_of(event), tournament=event, name="  Sam   Walker "
    )
    assert walk_in.name == "Sam Walker" and walk_in.is_walk_in and walk_in.claim_code

    account = UserFactory()
    claimed = services.registration_claim(actor=account, claim_code=walk_in.claim_code.lower())

    assert claimed.player == account and claimed.claim_code is None
    with pytest.raises(ServiceError) as excinfo:
        services.registration_claim(actor=UserFactory(), claim_code=walk_in.claim_code)
    assert excinfo.value.field == "claim_code"


def test_claiming_when_already_registered_is_refused() -> None:
    event = TournamentFactory()
    player = UserFactory()
    services.registration_register(actor=player, tournament=event)
    walk_in = services.registration_add_walk_in(
        actor=organiser_of(event), tournament=event, name="Me"
    )
    with pytest.raises(ServiceError):
        services.registration_claim(actor=player, claim_code=walk_in.claim_code)


def test_walk_in_respects_capacity_unless_the_organiser_confirms() -> None:
    event = TournamentFactory(capacity=2)
    for _ in range(2):
        services.registration_register(actor=UserFactory(), tournament=event)
    with pytest.raises(ServiceError) as excinfo:
        services.registration_add_walk_in(actor=organiser_of(event), tournament=event, name="Late")
    assert excinfo.value.field == "capacity"
    reg = services.registration_add_walk_in(
        actor=organiser_of(event), tournament=event, name="Late", over_capacity=True
    )
    assert reg.status == "registered"


@pytest.mark.parametrize("name", ["", "   ", "x" * 81])
def test_walk_in_name_is_validated(name: str) -> None:
    event = TournamentFactory()
    with pytest.raises(ServiceError) as excinfo:
        services.registration_add_walk_in(actor=organiser_of(event), tournament=event, name=name)
    assert excinfo.value.field == "name"


def test_players_check_themselves_in_only_once_the_organiser_opens_it() -> None:
    reg = RegistrationFactory(tournament=TournamentFactory(status="registration_closed"))
    with pytest.raises(ServiceError) as excinfo:
        services.registration_check_in(actor=reg.player, registration=reg)
    assert excinfo.value.code == "check_in_closed"

    services.event_set_player_check_in(
        actor=organiser_of(reg.tournament), tournament=reg.tournament, open=True
    )
    reg = services.registration_check_in(actor=reg.player, registration=reg)
    assert reg.checked_in
    with pytest.raises(Forbidden):
        services.registration_check_in(actor=reg.player, registration=reg, checked_in=False)


def test_organiser_checks_in_and_undoes_it_with_audit() -> None:
    reg = RegistrationFactory()
    organiser = organiser_of(reg.tournament)
    services.registration_check_in(actor=organiser, registration=reg)
    services.registration_check_in(actor=organiser, registration=reg, checked_in=False)
    reg.refresh_from_db()
    assert not reg.checked_in
    actions = list(AuditEntry.objects.filter(registration=reg).values_list("action", flat=True))
    assert "registration.checked_in" in actions and "registration.check_in_undone" in actions


def test_waitlisted_players_cannot_check_in() -> None:
    reg = RegistrationFactory(status=RegistrationStatus.WAITLISTED)
    with pytest.raises(ServiceError):
        services.registration_check_in(actor=organiser_of(reg.tournament), registration=reg)


def test_drop_and_reinstate_while_running() -> None:
    reg = RegistrationFactory(tournament=TournamentFactory(status=EventStatus.RUNNING))
    services.registration_drop(actor=reg.player, registration=reg, round_number=3)
    reg.refresh_from_db()
    assert reg.dropped and reg.drop_round == 3
    with pytest.raises(ServiceError):
        services.registration_drop(actor=reg.player, registration=reg)
    with pytest.raises(Forbidden):
        services.registration_reinstate(actor=reg.player, registration=reg)
    services.registration_reinstate(actor=organiser_of(reg.tournament), registration=reg)
    reg.refresh_from_db()
    assert not reg.dropped


def test_dropping_before_the_event_runs_is_refused() -> None:
    reg = RegistrationFactory()
    with pytest.raises(ServiceError):
        services.registration_drop(actor=reg.player, registration=reg)


def test_removing_during_the_event_is_refused_so_results_stay() -> None:
    reg = RegistrationFactory(tournament=TournamentFactory(status=EventStatus.RUNNING))
    with pytest.raises(ServiceError):
        services.registration_remove(
            actor=organiser_of(reg.tournament), registration=reg, confirm=True
        )


def test_registration_list_shows_players_only_their_own() -> None:
    event = TournamentFactory()
    mine = RegistrationFactory(tournament=event)
    RegistrationFactory(tournament=event)
    assert list(selectors.registration_list(actor=mine.player, tournament=event)) == [mine]
    assert selectors.registration_list(actor=organiser_of(event), tournament=event).count() == 2
