"""Use cases for events and registrations: the only code that writes to these models.

Every public function takes keyword-only arguments, checks who may act and in what state,
writes inside one transaction holding the event's row lock (so two requests for the last place
queue up instead of both taking it), and appends an AuditEntry for every change. One module per
subject; this package re-exports their public names, so callers import
``tournaments.services`` whichever module holds a function:

- ``locks``: the event's row lock, then a registration's (the site's lock order)
- ``stages``: an event's stages: parsed for its game, written, replaced, started, finished
- ``events``: creating and changing an event, its statuses, judges, organisers, check-in switch
- ``registrations``: registering, withdrawing, removing, walk-ins and claim codes, the
  waitlist, dropping out of a running event and back in
- ``check_in``: checking players in (one, several, by a scanned code) and the desk's search
- ``teams``: forming, editing and dissolving teams, and each member's deck format
"""

from __future__ import annotations

from tournaments.services.check_in import (
    MAX_BULK_CHECK_IN,
    BulkCheckIn,
    check_in_locked,
    desk_search,
    find_for_check_in,
    player_id_candidates,
    registration_check_in,
    registration_check_in_by_code,
    registrations_check_in,
)
from tournaments.services.events import (
    EDITABLE_FIELDS,
    FIXED_AFTER_DRAFT,
    FIXED_AFTER_DRAW,
    NAME_FIELDS,
    NO_SHOW_CHOICES,
    cancel_consequences,
    event_add_organiser,
    event_create,
    event_set_judge,
    event_set_player_check_in,
    event_transition,
    event_update,
    no_shows,
)
from tournaments.services.locks import (
    event_locked,
    locked_registration,
)
from tournaments.services.registrations import (
    has_room,
    new_claim_code,
    promote_waitlist,
    registered_count,
    registration_add_walk_in,
    registration_claim,
    registration_drop,
    registration_is_open,
    registration_reactivate,
    registration_register,
    registration_reinstate,
    registration_remove,
    registration_withdraw,
    remove_consequences,
)
from tournaments.services.stages import (
    STAGES_EDITABLE,
    finish_running_stages,
    has_legacy_stages,
    parse_event_stages,
    regenerate_legacy_stages,
    replace_stages,
    stage_rows_written,
    stage_rules_of,
    start_first_stages,
    write_stages,
)
from tournaments.services.teams import (
    TEAM_FORMING_STATUSES,
    is_team_member,
    team_create,
    team_delete,
    team_role_format,
    team_update,
)

__all__ = [
    "EDITABLE_FIELDS",
    "FIXED_AFTER_DRAFT",
    "FIXED_AFTER_DRAW",
    "MAX_BULK_CHECK_IN",
    "NAME_FIELDS",
    "NO_SHOW_CHOICES",
    "STAGES_EDITABLE",
    "TEAM_FORMING_STATUSES",
    "BulkCheckIn",
    "cancel_consequences",
    "check_in_locked",
    "desk_search",
    "event_add_organiser",
    "event_create",
    "event_locked",
    "event_set_judge",
    "event_set_player_check_in",
    "event_transition",
    "event_update",
    "find_for_check_in",
    "finish_running_stages",
    "has_legacy_stages",
    "has_room",
    "is_team_member",
    "locked_registration",
    "new_claim_code",
    "no_shows",
    "parse_event_stages",
    "player_id_candidates",
    "promote_waitlist",
    "regenerate_legacy_stages",
    "registered_count",
    "registration_add_walk_in",
    "registration_check_in",
    "registration_check_in_by_code",
    "registration_claim",
    "registration_drop",
    "registration_is_open",
    "registration_reactivate",
    "registration_register",
    "registration_reinstate",
    "registration_remove",
    "registration_withdraw",
    "registrations_check_in",
    "remove_consequences",
    "replace_stages",
    "stage_rows_written",
    "stage_rules_of",
    "start_first_stages",
    "team_create",
    "team_delete",
    "team_role_format",
    "team_update",
    "write_stages",
]
