"""The page config.fast_path may answer before Django's middleware (config/wsgi.py): a
signed-in reader's event page (`/events/{slug}/`), which every player loads when a round is
published. It is built by tournaments.event_page as the view builds it (the same reads, the
stored copy of the page with the reader's own values put in); whatever the view would answer
otherwise (an event the reader may not see, messages waiting, a copy not stored yet) is left
to the full stack."""

from __future__ import annotations

import re

from config.fast_path import PageRoute
from tournaments.event_page import fast_event_page

EVENT_PAGE_ROUTE = PageRoute(
    name="event-page",
    pattern=re.compile(r"/events/(?P<slug>[-a-zA-Z0-9_]+)/"),
    page=fast_event_page,
)

ROUTES: tuple[PageRoute, ...] = (EVENT_PAGE_ROUTE,)
