"""Demo accounts and the demo event: an organiser, a judge, 32 players, a BoBA Playmaker event.

Idempotent: a second run finds everything in place and changes nothing.
"""

from __future__ import annotations

from datetime import timedelta
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.utils import timezone

from tournaments import services
from tournaments.models import Tournament
from tournaments.status import EventStatus

DEMO_PASSWORD = "battledesk-demo"
DEMO_EVENT_SLUG = "battledesk-demo-open"
PLAYER_COUNT = 32
PLAYER_NAMES = [
    "Avery Stone",
    "Blake Rivera",
    "Casey Morgan",
    "Dakota Lee",
    "Emerson Reyes",
    "Finley Brooks",
    "Gray Patel",
    "Harper Quinn",
    "Indigo Park",
    "Jordan Ellis",
    "Kai Thompson",
    "Logan Fischer",
    "Morgan Diaz",
    "Nico Bauer",
    "Oakley Singh",
    "Parker Nguyen",
    "Quinn Adler",
    "Riley Osei",
    "Sage Kowalski",
    "Taylor Mendes",
    "Umi Sato",
    "Val Romero",
    "Wren Jansen",
    "Xen Okafor",
    "Yael Cohen",
    "Zion Murphy",
    "Ari Lindqvist",
    "Bo Carter",
    "Cam Novak",
    "Drew Haddad",
    "Eden Walsh",
    "Frankie Ito",
]


def _user(username: str, display_name: str, **flags: Any) -> Any:
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        username=username,
        defaults={"display_name": display_name, "email": f"{username}@example.com", **flags},
    )
    if created:
        # One hash for every demo account: hashing 34 passwords one by one takes ~10 s.
        user.password = _demo_password_hash()
        user.save(update_fields=["password"])
    return user


@cache
def _demo_password_hash() -> str:
    return make_password(DEMO_PASSWORD)


def load_demo() -> tuple[Tournament, bool]:
    organiser = _user("organiser", "Olive Organiser", is_organiser=True, is_staff=True)
    judge = _user("judge", "Jules Judge")
    players = [_user(f"player{i:02d}", PLAYER_NAMES[i - 1]) for i in range(1, PLAYER_COUNT + 1)]

    existing = Tournament.objects.filter(slug=DEMO_EVENT_SLUG).first()
    if existing is not None:
        return existing, False

    now = timezone.now().replace(minute=0, second=0, microsecond=0)
    event = services.event_create(
        actor=organiser,
        name="Battledesk Demo Open",
        game="boba",
        mode="playmaker",
        format_key="playmaker",
        match_structure="bo1",
        description="A demo BoBA Playmaker event: 32 players, Swiss rounds, top 8.",
        starts_at=now + timedelta(days=7),
        time_zone="Europe/London",
        venue="Demo Hall, Table Row A",
        capacity=64,
        registration_opens_at=now - timedelta(days=1),
        registration_closes_at=now + timedelta(days=7),
        decklist_deadline=now + timedelta(days=6),
        round_minutes=50,
        top_cut_size=8,
    )
    event.slug = DEMO_EVENT_SLUG
    event.save(update_fields=["slug"])
    services.event_set_judge(actor=organiser, tournament=event, user=judge, assigned=True)
    services.event_transition(actor=organiser, tournament=event, to=EventStatus.REGISTRATION_OPEN)
    for player in players:
        services.registration_register(actor=player, tournament=event)
    return event, True
