"""The organisers' pages for a series' and an organisation's archetypes (define, edit,
delete): the same service as the API (metagame.services, which checks who may), the same
rule language and the same audit. An event's own archetypes are on its metagame page
(metagame/views.py).

/series/<slug>/archetypes/ and /orgs/<slug>/archetypes/: a series' organisers, or an
organisation's owners and organisers (and site administrators); anyone else gets a 403.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.pages import attempt
from engine.games import GAMES
from metagame import services
from metagame.models import Archetype
from metagame.views import RULE_EXAMPLE, archetype_form
from organisations.models import Organisation
from series.models import Series

SCOPES = {"series": Series, "organisation": Organisation}
PAGE = {"series": "metagame:series_archetypes", "organisation": "metagame:organisation_archetypes"}


def _owner(kind: str, slug: str) -> Any:
    return get_object_or_404(SCOPES[kind], slug=slug)


def _require(request: HttpRequest, kind: str, owner: Any) -> None:
    if not services.may_manage(request.user, **{kind: owner}):
        raise PermissionDenied(
            _("Only the organisers of this series or organisation may change its archetypes.")
        )


@login_required
def archetypes_page(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    owner = _owner(kind, slug)
    _require(request, kind, owner)
    found = Archetype.objects.filter(**{kind: owner}).order_by("game", "priority", "name", "pk")
    archetypes = [
        {
            "archetype": a,
            "rule_text": json.dumps(a.rule),
            "prefix": f"archetype-{a.pk}-",
            "change_url": reverse(f"metagame:{kind}_archetype_change", args=[slug, a.pk]),
        }
        for a in found
    ]
    context = {
        "kind": kind,
        "owner": owner,
        "owner_url": reverse(
            "series_detail" if kind == "series" else "organisations:manage", args=[slug]
        ),
        "archetypes": archetypes,
        "games": [(g.key, g.name) for g in GAMES.values()],
        "rule_example": RULE_EXAMPLE,
        "add_url": reverse(f"metagame:{kind}_archetype_add", args=[slug]),
    }
    return render(request, "metagame/scope_archetypes.html", context)


@require_POST
@login_required
def archetype_add(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    owner = _owner(kind, slug)
    _require(request, kind, owner)
    fields = archetype_form(request)
    if fields is not None:
        attempt(
            request,
            lambda: services.archetype_create(
                actor=request.user, game=request.POST.get("game", ""), **fields, **{kind: owner}
            ),
            _("Archetype added."),
            name_field=True,
        )
    return redirect(PAGE[kind], slug=slug)


@require_POST
@login_required
def archetype_change(request: HttpRequest, slug: str, kind: str, pk: int) -> HttpResponse:
    """Change an archetype (its name, rule and priority), or delete it (``delete``)."""
    owner = _owner(kind, slug)
    _require(request, kind, owner)
    archetype = get_object_or_404(Archetype, pk=pk, **{kind: owner})
    if request.POST.get("delete"):
        attempt(
            request,
            lambda: services.archetype_delete(actor=request.user, archetype=archetype),
            _("Archetype deleted."),
        )
    elif (fields := archetype_form(request)) is not None:
        attempt(
            request,
            lambda: services.archetype_update(actor=request.user, archetype=archetype, **fields),
            _("Archetype changed."),
            name_field=True,
        )
    return redirect(PAGE[kind], slug=slug)
