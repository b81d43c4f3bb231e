"""`{% kept_archives event as stored %}`: the archives kept after each round, for the
dashboard's download list (eventdata.archive_store.stored_archives)."""

from __future__ import annotations

from django import template

from eventdata.archive_store import StoredArchive, stored_archives
from tournaments.models import Tournament

register = template.Library()


@register.simple_tag
def kept_archives(event: Tournament) -> list[StoredArchive]:
    return stored_archives(event)
