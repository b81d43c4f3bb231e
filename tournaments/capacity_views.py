"""The organiser's lottery draw from the dashboard: a button, then a second, explicit
confirmation page (tournaments.capacity.lottery_draw does the work)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.pages import attempt
from tournaments import capacity
from tournaments import permissions as perms
from tournaments.selectors import visible_event
from tournaments.views import _confirm_page


@require_POST
@login_required
def event_lottery_draw(request: HttpRequest, slug: str) -> HttpResponse:
    event = visible_event(request, slug)
    if not perms.is_organiser_of(request.user, event):
        raise PermissionDenied(_("Only this event's organisers may draw its lottery."))
    if request.POST.get("confirm") != "yes":
        refusal = capacity.draw_refusal(event)
        if not refusal:
            return _confirm_page(
                request,
                event,
                title=_("Draw the lottery of %(name)s?") % {"name": event.name},
                consequences=capacity.draw_consequences(event),
                hidden=[],
                checkbox_label=_("Yes, draw the lottery now; the result is final."),
                button_label=_("Draw the lottery"),
                action=request.path,
            )
    attempt(
        request,
        lambda: capacity.lottery_draw(
            actor=request.user, tournament=event, confirm=request.POST.get("confirm") == "yes"
        ),
        _("The lottery is drawn; the seed is published on the event page."),
    )
    return redirect("event_dashboard", slug=slug)
