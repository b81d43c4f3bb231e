"""Demo decks: the generated catalog (fictional names) and a legal list for every demo player.

The demo event reads the demo catalog only, so importing the real card list beside it changes
neither the demo's lists nor, in the other direction, any real event's."""

from __future__ import annotations

from django.utils import timezone

from decks import services
from decks.catalog import catalog_for_event
from decks.models import Decklist, DecklistVersion
from engine.games import get_game
from tournaments.models import RegistrationStatus, Tournament


def load_demo(event: Tournament) -> dict[str, int]:
    catalog_counts = services.demo_catalog_load(game=event.game)
    services.demo_event_catalog(event=event)
    rules = get_game(event.game).deck_rules()
    catalog = catalog_for_event(event)
    fmt = services.event_format(event)
    submitted = 0
    registrations = event.registrations.filter(
        status=RegistrationStatus.REGISTERED, player__isnull=False
    ).select_related("player")
    for seed, registration in enumerate(registrations.order_by("pk"), start=1):
        if DecklistVersion.objects.filter(decklist__registration=registration).exists():
            continue
        text = rules.export(rules.sample(catalog, fmt, seed), catalog)
        services.decklist_submit(actor=registration.player, registration=registration, source=text)
        submitted += 1
    return {**catalog_counts, "decklists": submitted}


def publish_lists(event: Tournament) -> int:
    """Make the demo event's lists public, so its coverage page shows a metagame while it runs.

    A real event's lists are published through the decks services once it has finished (they
    refuse before); the demo is fictional and shows coverage mid-event, so its loader marks
    each list published here, as it sets the event's slug and pairing seed. Lists already
    published keep their time: loading the demo again changes nothing."""
    return Decklist.objects.filter(
        registration__tournament=event, published_at__isnull=True
    ).update(published_at=timezone.now())
