"""factory_boy factories for the Django models."""

from __future__ import annotations

from datetime import timedelta

import factory
from django.test import Client
from django.utils import timezone

from accounts.models import User
from tournaments.models import Registration, RegistrationStatus, Tournament
from tournaments.status import EventStatus


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    display_name = factory.Faker("name")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.PostGenerationMethodCall("set_password", "correct-horse-battery")

    @factory.post_generation
    def saved(self, create: bool, extracted: object, **kwargs: object) -> None:
        if create:
            self.save()


class OrganiserFactory(UserFactory):
    is_organiser = True


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Test Open {n}")
    slug = factory.Sequence(lambda n: f"test-open-{n}")
    game = "boba"
    mode = "playmaker"
    format_key = "playmaker"
    match_structure = "bo1"
    starts_at = factory.LazyFunction(lambda: timezone.now() + timedelta(days=3))
    time_zone = "UTC"
    venue = "Test Hall"
    capacity = None
    status = EventStatus.REGISTRATION_OPEN.value
    require_legal_decklist = False

    @factory.post_generation
    def organisers(self, create: bool, extracted: object, **kwargs: object) -> None:
        if not create:
            return
        for organiser in extracted or [OrganiserFactory()]:  # type: ignore[attr-defined]
            self.organisers.add(organiser)


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(UserFactory)
    status = RegistrationStatus.REGISTERED


def organiser_of(tournament: Tournament) -> User:
    return tournament.organisers.first()


def logged_in(user: User) -> Client:
    """A test client with this user logged in."""
    client = Client()
    client.force_login(user)
    return client


def bos_event(**fields: object) -> Tournament:
    """A BOS event (competitive, best of 3) reading the invented BOS demo cards."""
    from decks.services import demo_catalog_load, demo_event_catalog

    for key, value in (
        ("game", "bos"),
        ("mode", "competitive"),
        ("format_key", "competitive"),
        ("match_structure", "bo3"),
    ):
        fields.setdefault(key, value)
    event: Tournament = TournamentFactory(**fields)
    demo_catalog_load(game="bos")
    demo_event_catalog(event=event)
    return event


def register_decklist(registration: Registration, text: str | None = None) -> object:
    """Submit a list for a player as the event's organiser (BOS: the demo SAMPLE_DECKLIST)."""
    from decks.services import decklist_submit
    from engine.bos.demo_catalog import SAMPLE_DECKLIST

    return decklist_submit(
        actor=organiser_of(registration.tournament),
        registration=registration,
        source=text if text is not None else SAMPLE_DECKLIST,
    )
