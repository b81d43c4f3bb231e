"""Load the demo: an organiser, a judge, 32 players and a BoBA Playmaker event.

Idempotent: a second run finds everything in place and changes nothing. Later features add
their own demo data through `DEMO_EXTENSIONS` (a list of callables taking the demo event).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
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

DEMO_EXTENSIONS: list[Any] = []


class Command(BaseCommand):
    help = "Load the demo data (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            event, created = load_demo()
        for extend in DEMO_EXTENSIONS:
            extend(event)
        verb = "Loaded" if created else "Demo already loaded:"
        self.stdout.write(self.style.SUCCESS(f"{verb} {event.name} at /events/{event.slug}/"))
        self.stdout.write(
            f"Logins (password '{DEMO_PASSWORD}'): organiser, judge, player01 ... player{PLAYER_COUNT:02d}"
        )


def _user(username: str, display_name: str, **flags: Any) -> Any:
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(
        username=username,
        defaults={"display_name": display_name, "email": f"{username}@example.com", **flags},
    )
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save()
    return user


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
