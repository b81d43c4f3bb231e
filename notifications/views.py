"""The organiser's notification page: the event's settings and its delivery log.

Thin, like the other staff pages: saving calls notifications.services.settings_update (the same
call as the API), which decides who may do what. Organisers of the event only (403 for others,
404 for an event they cannot see).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from config.pages import attempt
from notifications import push, selectors, services
from notifications.delivery import MAX_ATTEMPTS
from notifications.models import DeliveryStatus, Kind
from tournaments import permissions as perms
from tournaments.selectors import visible_event

PAGE_SIZE = 50


@login_required
def event_notifications(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    if not perms.is_organiser_of(request.user, event):
        raise PermissionDenied(_("Only this event's organisers may see this page."))
    prefs = selectors.settings_for(event)
    form: dict[str, Any] = {
        "webhook_url": prefs.webhook_url,
        "email_kinds": list(prefs.email_kinds or []),
        "webhook_kinds": list(prefs.webhook_kinds or []),
        "push_kinds": list(prefs.push_kinds or []),
    }
    if request.method == "POST":
        form = {
            "webhook_url": request.POST.get("webhook_url", ""),
            "email_kinds": request.POST.getlist("email_kinds"),
            "webhook_kinds": request.POST.getlist("webhook_kinds"),
            "push_kinds": request.POST.getlist("push_kinds"),
        }
        if attempt(
            request,
            lambda: services.settings_update(actor=request.user, tournament=event, **form),
            _("Notification settings saved."),
        ):
            return redirect(reverse("event_notifications", args=[event.slug]))
    status = request.GET.get("status", "")
    if status not in DeliveryStatus.values:
        status = ""
    counts = selectors.delivery_counts(event)
    page = Paginator(selectors.deliveries_of_event(event, status=status or None), PAGE_SIZE)
    return render(
        request,
        "notifications/event_notifications.html",
        {
            "event": event,
            "form": form,
            "kinds": Kind.choices,
            "statuses": DeliveryStatus.choices,
            "status_filter": status,
            "counts": [(label, counts[value]) for value, label in DeliveryStatus.choices],
            "page": page.get_page(request.GET.get("page")),
            "max_attempts": MAX_ATTEMPTS,
            "push_enabled": push.enabled(),
        },
    )
