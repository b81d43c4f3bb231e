"""``{% push_control %}``: the "Notify me on this phone" control on a player's pages (their
match, their event), driven by static/js/push.js through the service worker."""

from __future__ import annotations

from typing import Any

from django import template

from notifications import push

register = template.Library()


@register.inclusion_tag("notifications/_push_control.html", takes_context=True)
def push_control(context: template.Context) -> dict[str, Any]:
    request = context.get("request")
    # The template's own `user`: the event page's stored copy renders with a stand-in reader
    # (tournaments.event_page), whose request carries no account.
    user = context.get("user", getattr(request, "user", None))
    on = push.enabled()
    return {
        "request": request,
        "show": bool(getattr(user, "is_authenticated", False)),
        "enabled": on,
        "public_key": push.vapid().public_key if on else "",
        "csrf_token": context.get("csrf_token"),
    }
