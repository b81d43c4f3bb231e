"""Organisations for the tests: made through the service, as an organiser would."""

from __future__ import annotations

from typing import Any

from organisations import services
from organisations.models import Organisation
from tests.factories import OrganiserFactory, UserFactory


def organisation(name: str = "Corner Store", **members: list[Any]) -> Organisation:
    """An organisation owned by a new organiser (``owner``); ``members`` maps roles to
    people (``organiser=[...]``, ``judge=[...]``, ``scorekeeper=[...]``)."""
    owner = OrganiserFactory()
    org = services.organisation_create(actor=owner, name=name)
    for role, people in members.items():
        for person in people:
            services.member_set(actor=owner, organisation=org, user=person, role=role)
    return org


def owner_of(org: Organisation) -> Any:
    return org.memberships.get(role="owner").user


def member(org: Organisation, role: str) -> Any:
    person = UserFactory()
    services.member_set(actor=owner_of(org), organisation=org, user=person, role=role)
    return person
