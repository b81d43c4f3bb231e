"""Reads of an event shared by its pages and the API (the rounds' own reads are in
matches.selectors)."""

from __future__ import annotations

from typing import Any

from django.db import connections, router
from django.db.models import Count, FilteredRelation, Prefetch, Q, QuerySet
from django.db.models.expressions import RawSQL
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from config import prepared
from config.errors import Forbidden
from tournaments import permissions
from tournaments import stages as stage_rules
from tournaments.models import (
    Registration,
    RegistrationStatus,
    Stage,
    Team,
    TeamMember,
    Tournament,
)
from tournaments.status import PUBLIC, EventFacts, EventStatus, RoundFacts
from tournaments.swiss import recommended_structure


def event_visible(*, user: Any, slug: str) -> Tournament | None:
    """The event with this slug if this person may see it (drafts: its staff only), else None:
    the one rule every page and API endpoint that names an event by its slug follows.

    One indexed lookup for a public event (the pages everyone loads at once); the staff check
    only for a draft."""
    event: Tournament | None = Tournament.objects.filter(slug=slug).first()
    return event if event is not None and may_see(user, event) else None


def may_see(user: Any, event: Tournament) -> bool:
    """The rule itself: a public event, or a draft to its staff."""
    return event.status in PUBLIC or permissions.is_staff_of(user, event)


def visible_event(request: HttpRequest, slug: str) -> Tournament:
    """``event_visible`` for a request, else 404 (pages show their 404 page, the API its 404)."""
    event = event_visible(user=request.user, slug=slug)
    if event is None:
        raise Http404("No such event.")
    return event


def _event(slug: str) -> QuerySet[Tournament]:
    # at most one row (slugs are unique): ``first()`` without its ORDER BY
    return Tournament.objects.filter(slug=slug).order_by()


def _event_with_roles_of(slug: str, user_id: int) -> QuerySet[Tournament]:
    return permissions.with_roles_of_account(user_id, _event(slug))


def _page_event(slug: str) -> QuerySet[Tournament]:
    """The event page's event, with the version of its rows (`page_rows_version`) read in
    the same query on PostgreSQL (annotated as ``ROWS_VERSION_READ``)."""
    return _with_rows_version(_event(slug))


def _page_event_with_roles_of(slug: str, user_id: int) -> QuerySet[Tournament]:
    return _with_rows_version(_event_with_roles_of(slug, user_id))


def _with_rows_version(events: QuerySet[Tournament]) -> QuerySet[Tournament]:
    connection = connections[events.db]
    if connection.vendor != "postgresql":
        return events
    event_id = (
        f"{connection.ops.quote_name(Tournament._meta.db_table)}."
        f"{connection.ops.quote_name(Tournament._meta.pk.column)}"
    )
    sql = _rows_version_sql(connection, event_id)
    table = connection.ops.quote_name(Tournament._meta.db_table)
    # The event's own row, named as `page_rows_version` names the other rows: every change
    # of it (a second one in the same transaction too) writes a new xmin or ctid.
    row = f"({table}.xmin::text || ':' || {table}.ctid::text)"
    return events.annotate(**{ROWS_VERSION_READ: RawSQL(sql, ()), EVENT_ROW_READ: RawSQL(row, ())})


# The reader's registration read with the event (`visible_event_with_roles(...,
# with_registration=True)`): the instance's attribute (absent when they have none), and the
# account it was read for.
READER_REGISTRATION = "reader_registration"
READER_REGISTRATION_OF = "_reader_registration_of"


def _page_event_with_registration_of(slug: str, user_id: int) -> QuerySet[Tournament]:
    # At most one registration an account and event (registration_one_per_player): the join
    # never repeats the event's row.
    reader_registration = FilteredRelation(
        "registrations", condition=Q(registrations__player_id=user_id)
    )
    return (
        _page_event_with_roles_of(slug, user_id)
        .annotate(**{READER_REGISTRATION: reader_registration})
        .select_related(READER_REGISTRATION)
    )


def visible_event_with_roles(
    request: HttpRequest, slug: str, *, with_registration: bool = False
) -> Tournament:
    """``visible_event`` with the reader's roles read in the same query (the event page, which
    everyone loads at once, asks them anyway), and on PostgreSQL the version of the event's
    rounds, stages and organisers (`page_rows_version`, as the instance's
    ``ROWS_VERSION_READ``: `event_rows_version`). With `with_registration`, a signed-in
    reader's registration too, which `registration_for` then answers for them."""
    user = request.user
    signed_in = permissions.is_authenticated(user) and type(user.pk) is int
    # Its SQL compiled once per process (config.prepared): everybody loads the event page.
    if signed_in and with_registration:
        found = prepared.fetch(
            "page-event-with-registration", _page_event_with_registration_of, slug, user.pk
        )
        if found:
            setattr(found[0], READER_REGISTRATION_OF, user.pk)
    elif signed_in:
        found = prepared.fetch("page-event-with-roles", _page_event_with_roles_of, slug, user.pk)
    else:
        found = prepared.fetch("page-event", _page_event, slug)
    event: Tournament | None = found[0] if found else None
    if event is None:
        raise Http404("No such event.")
    permissions.remember_roles(request.user, event)
    if not may_see(request.user, event):
        raise Http404("No such event.")
    return event


# --- the event page's rows, remembered under their version ------------------------------------

# Set on the event instance the event page reads (tournaments.event_page.page_context): the
# version of its rounds, stages and organisers, read once for the request. The readers below
# use it to take their rows from what this process kept (config.prepared's `remember`).
ROWS_VERSION_ATTR = "_page_rows_version"
# The same version read with the event's row (`visible_event_with_roles`, PostgreSQL only).
ROWS_VERSION_READ = "page_rows_version_read"
# The version of the event's own row, read in the same query (`event_row_version`).
EVENT_ROW_READ = "page_event_row_read"


def event_rows_version(tournament: Tournament) -> str | None:
    """`page_rows_version` of the event: the one read with its row when it was (in the same
    query, so of the same moment), else read now."""
    if hasattr(tournament, ROWS_VERSION_READ):
        read: str = getattr(tournament, ROWS_VERSION_READ)
        return read
    return page_rows_version(tournament)


def event_row_version(tournament: Tournament) -> str | None:
    """A value that changes whenever the event's own row does (its ``xmin`` and ``ctid``),
    read with the row by `visible_event_with_roles` on PostgreSQL; None for an instance read
    otherwise (or on another database). Only a row read in that query has one, so it always
    names the values the instance holds (nothing changes the instance after that read)."""
    read: str | None = getattr(tournament, EVENT_ROW_READ, None)
    return read


def page_rows_version(tournament: Tournament) -> str | None:
    """A value that changes whenever any of the event's rounds, stages or organisers (their
    link rows or their accounts) is added, changed or deleted, read in one indexed query;
    None on a database other than PostgreSQL (the page then reads the rows each time).

    Each row is named by its id, the transaction that wrote its current version (``xmin``)
    and where that version lies (``ctid``): every UPDATE writes a new version of the row,
    with the writer's transaction id and a new place (a second change in the same
    transaction too: the earlier version cannot be reclaimed before it ends), so two reads
    give the same value only when no row changed in between. Transaction ids are not
    reused before wraparound, which VACUUM prevents; frozen rows keep theirs."""
    if type(tournament.pk) is not int:
        return None
    connection = connections[router.db_for_read(Tournament)]
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {_rows_version_sql(connection, '%s')}", [tournament.pk] * 3)
        row = cursor.fetchone()
    version: str = row[0]
    return version


def _rows_version_sql(connection: Any, event_id: str) -> str:
    """`page_rows_version`'s SQL expression, for the event whose id is `event_id` (a
    parameter's ``%s``, given three times, or a column of an outer query)."""
    from django.apps import apps

    quote = connection.ops.quote_name
    round_model = apps.get_model("matches", "Round")  # matches sits above tournaments
    links = Tournament.organisers.through
    user_model = Tournament.organisers.field.related_model
    link_user = quote(links._meta.get_field("user").column)

    def rows_of(model: Any, extra: str = "", join: str = "") -> str:
        event = quote(model._meta.get_field("tournament").column)
        return (
            "COALESCE((SELECT string_agg(t.id::text || ':' || t.xmin::text || ':' || t.ctid::text"
            f"{extra}, ',' ORDER BY t.id) FROM {quote(model._meta.db_table)} t{join}"
            f" WHERE t.{event} = {event_id}), '')"
        )

    organisers = rows_of(
        links,
        " || '/' || u.id::text || ':' || u.xmin::text || ':' || u.ctid::text",
        f" JOIN {quote(user_model._meta.db_table)} u ON u.id = t.{link_user}",
    )
    return f"({rows_of(round_model)} || '|' || {rows_of(Stage)} || '|' || {organisers})"


def rows_version(tournament: Tournament) -> str | None:
    """The version the event page read for this event instance (None: read the rows).
    Set by the page (tournaments.event_page.page_context) only: a write in the same request
    would otherwise leave a version older than the rows."""
    version: str | None = getattr(tournament, ROWS_VERSION_ATTR, None)
    return version


def entrant_count(tournament: Tournament, players: int) -> int:
    """Who a Swiss pairs: ``players`` (registered), or a team event's teams."""
    if tournament.is_team_event:
        return Team.objects.filter(tournament=tournament).count()
    return players


def event_facts(tournament: Tournament) -> EventFacts:
    """What tournaments.status needs to say which actions the event offers now: its latest
    round (with how many of its matches are not final) and the Swiss rounds still planned.
    A fixed number of queries, however large the event."""
    latest = (
        tournament.rounds.order_by("-number")
        .annotate(not_final=Count("matches", filter=~Q(matches__status="final")))
        .values("number", "stage", "status", "not_final")
        .first()
    )
    swiss_left = 0
    if tournament.status == EventStatus.RUNNING and tournament.top_cut_size:
        planned = tournament.planned_rounds
        if not planned:
            players = tournament.registrations.filter(status=RegistrationStatus.REGISTERED).count()
            planned = recommended_structure(max(entrant_count(tournament, players), 2))[0]
        played = tournament.rounds.filter(stage="swiss").count()
        swiss_left = max(planned - played, 0)
    return EventFacts(
        status=tournament.status,
        latest_round=RoundFacts(**latest) if latest is not None else None,
        top_cut_size=tournament.top_cut_size or 0,
        swiss_rounds_left=swiss_left,
        registration_opens_at=tournament.registration_opens_at,
        registration_closes_at=tournament.registration_closes_at,
    )


def event_facts_without_rounds(tournament: Tournament) -> EventFacts:
    """The facts that need no query (registration, check-in, walk-ins decide on these)."""
    return EventFacts(
        status=tournament.status,
        top_cut_size=tournament.top_cut_size or 0,
        registration_opens_at=tournament.registration_opens_at,
        registration_closes_at=tournament.registration_closes_at,
    )


# --- registrations ---------------------------------------------------------------------------


def registration_list(*, actor: Any, tournament: Tournament) -> QuerySet[Registration]:
    """Organisers and judges see everyone; a player sees only their own registration."""
    qs = tournament.registrations.select_related("player")
    if permissions.is_staff_of(actor, tournament):
        return qs
    if permissions.is_authenticated(actor):
        return qs.filter(player=actor)
    raise Forbidden(_("Log in to see registrations."))


def _registration_of(tournament_id: int, player_id: int) -> QuerySet[Registration]:
    # As `tournament.registrations.filter(player=user).first()`: the model's order, one row.
    return Registration.objects.filter(tournament_id=tournament_id, player_id=player_id)[:1]


def registration_for(*, user: Any, tournament: Tournament) -> Registration | None:
    if not permissions.is_authenticated(user):
        return None
    if type(user.pk) is int and getattr(tournament, READER_REGISTRATION_OF, None) == user.pk:
        # Read with the event, in the same query (`visible_event_with_roles`).
        read: Registration | None = getattr(tournament, READER_REGISTRATION, None)
        if read is not None:
            read.tournament = tournament  # as the related manager sets it
        return read
    if type(user.pk) is int and type(tournament.pk) is int:
        # Its SQL compiled once per process (config.prepared): every signed-in player loads
        # the event page when a round is published.
        found = prepared.fetch("registration-for", _registration_of, tournament.pk, user.pk)
        registration = found[0] if found else None
        if registration is not None:
            registration.tournament = tournament  # as the related manager sets it
        return registration
    return tournament.registrations.filter(player=user).first()


def registration_counts(tournament: Tournament) -> dict[str, int]:
    counts = {status: 0 for status in RegistrationStatus.values}
    for row in tournament.registrations.values("status").order_by().annotate(n=Count("id")):
        counts[row["status"]] = row["n"]
    counts["checked_in"] = tournament.registrations.filter(
        status=RegistrationStatus.REGISTERED, checked_in_at__isnull=False
    ).count()
    return counts


def event_stages(tournament: Tournament) -> list[dict[str, Any]]:
    """The event's stages as ``GET /api/events/{slug}/stages/`` shows them (event-structures:
    Stages): each definition with its number, status and, once started, its players."""
    return [row.to_json() for row in stage_rows(tournament)]


def _stages_of(tournament_id: int) -> QuerySet[Stage]:
    return Stage.objects.filter(tournament_id=tournament_id).order_by("number")


def stage_rows(tournament: Tournament) -> list[Stage]:
    """The event's stage rows in order. An event made without the services (an old archive's,
    a test's factory) has none yet: its legacy stages (``legacy_stages(top_cut_size)``), unsaved,
    stand in for them."""
    if type(tournament.pk) is int:
        # Its SQL compiled once per process (config.prepared): the event page reads it.
        rows = prepared.fetch(
            "stage-rows", _stages_of, tournament.pk, remember=rows_version(tournament)
        )
        for row in rows:
            row.tournament = tournament  # as the related manager sets it
    else:
        rows = list(tournament.stages.order_by("number"))
    if rows:
        return rows
    return [
        Stage.from_rule(tournament, rule)
        for rule in stage_rules.legacy_stages(tournament.top_cut_size)
    ]


STAGE_KIND_LABELS = {
    "swiss": _("Swiss"),
    "single_elimination": _("Single elimination"),
    "double_elimination": _("Double elimination"),
    "round_robin": _("Round robin"),
}
STAGE_STATUS_LABELS = {
    "pending": _("Not started"),
    "running": _("Running"),
    "finished": _("Finished"),
}


def rounds_per_stage(tournament: Tournament) -> dict[int, int]:
    """Stage number -> how many rounds the event has in it (every round, whatever its status).

    The ORM's ``rounds.values("stage_number").annotate(n=Count("id"))``, as SQL written once:
    everybody loads the event page when a round is published, and building that query cost
    more than the database's answer. On the event page, remembered under the version of the
    event's rows (`page_rows_version`)."""
    version = rows_version(tournament)
    if version is not None and type(tournament.pk) is int:
        return dict(
            prepared.remembered(
                ("rounds-per-stage", tournament.pk),
                version,
                lambda: _rounds_per_stage(tournament),
            )
        )
    return _rounds_per_stage(tournament)


def _rounds_per_stage(tournament: Tournament) -> dict[int, int]:
    model = tournament.rounds.model
    if type(tournament.pk) is not int:
        return dict(
            tournament.rounds.values("stage_number")
            .annotate(n=Count("id"))
            .values_list("stage_number", "n")
        )
    meta = model._meta
    connection = connections[router.db_for_read(model)]
    quote = connection.ops.quote_name
    stage = quote(meta.get_field("stage_number").column)
    event = quote(meta.get_field("tournament").column)
    sql = (
        f"SELECT {stage}, COUNT({quote(meta.pk.column)}) FROM {quote(meta.db_table)} "
        f"WHERE {event} = %s GROUP BY {stage}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [tournament.pk])
        return {number: count for number, count in cursor.fetchall()}


def stage_timeline(tournament: Tournament) -> list[dict[str, Any]]:
    """The event's stages as the dashboard and round control draw them (a timeline): name,
    kind, status, rounds played (and planned once known), and whether it may start now (the
    organiser's start button: pending, the event running, its sources finished). Two queries."""
    rows = stage_rows(tournament)
    played = rounds_per_stage(tournament)
    running = tournament.status in (EventStatus.RUNNING, EventStatus.TOP_CUT)
    finished = {row.number for row in rows if row.status == "finished"}
    out = []
    for row in rows:
        rule = row.to_rule()
        planned = None
        if rule.rounds is not None:
            planned = rule.rounds
        elif rule.number == 1 and rule.kind == "swiss" and tournament.planned_rounds:
            planned = tournament.planned_rounds  # the event's Swiss rounds, as pairing reads
        elif row.players is not None and len(row.players) >= stage_rules.MIN_CUT:
            planned = stage_rules.planned_rounds(rule, len(row.players))
        sources = rule.sources
        out.append(
            {
                "number": row.number,
                "name": row.name,
                "kind": row.kind,
                "kind_label": STAGE_KIND_LABELS.get(row.kind, row.kind),
                "status": row.status,
                "status_label": STAGE_STATUS_LABELS.get(row.status, row.status),
                "played": played.get(row.number, 0),
                "planned": planned,
                "players": len(row.players) if row.players is not None else None,
                "sources": sources,
                "startable": running
                and row.status == "pending"
                and bool(sources)
                and all(s in finished for s in sources),
            }
        )
    return out


# --- teams ---------------------------------------------------------------------------------


def _teams() -> QuerySet[Team]:
    members = TeamMember.objects.select_related("registration__player").order_by("id")
    return Team.objects.prefetch_related(Prefetch("members", queryset=members)).order_by("id")


def event_teams(tournament: Tournament) -> QuerySet[Team]:
    """The event's teams with their rosters (the API's list, the pages)."""
    return _teams().filter(tournament=tournament)


def team_with_members(pk: int) -> Team:
    team: Team = _teams().select_related("tournament").get(pk=pk)
    return team


def team_visible(user: Any, pk: int) -> Team:
    """A team of an event the person may see, else 404."""
    team = Team.objects.select_related("tournament").filter(pk=pk).first()
    if team is None or not may_see(user, team.tournament):
        raise Http404("No such team.")
    return team


def team_of(registration: Registration | None) -> Team | None:
    """The team a registration plays for, if any."""
    if registration is None:
        return None
    membership = TeamMember.objects.select_related("team").filter(registration=registration).first()
    return membership.team if membership is not None else None
