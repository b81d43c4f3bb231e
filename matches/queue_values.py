"""The judge queue's calls as plain values (`values_list`), not model instances.

The queue's list shows 50 calls, each with its match, round, event, holder and players: read
as model instances that is about 400 objects a look, which the ORM building them made most of
what a look cost. Each row here is one tuple of columns turned into small frozen objects with
the attributes the queue's templates and `judge_views.queue_rows` read, named as the model's
(`call.match.a.name`, `call.holder.public_name`, `call.get_kind_display`...), so the rows are
written exactly as from the models (tests/matches/test_judge_pages.py compares the two).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import QuerySet

from accounts.names import display_safe, public_name_of
from matches.models import OPEN_CALL_STATUSES, JudgeCall

_PERSON = ("display_name", "first_name", "last_name", "username")
_KIND_LABELS = dict(JudgeCall._meta.get_field("kind").flatchoices)


@dataclass(frozen=True)
class Person:
    public_name: str


@dataclass(frozen=True)
class Side:
    name: str


@dataclass(frozen=True)
class RoundNumber:
    number: int


@dataclass(frozen=True)
class MatchShown:
    table: int | None
    round: RoundNumber
    a: Side
    b: Side | None


@dataclass(frozen=True)
class EventName:
    name: str


@dataclass(frozen=True)
class QueueCall:
    """What the queue shows of a call, named as JudgeCall's attributes."""

    pk: int
    kind: str
    status: str
    question: str
    notes: str
    escalated: bool
    opened_at: datetime
    resolved_at: datetime | None
    holder_id: int | None
    holder: Person | None
    tournament: EventName
    match: MatchShown

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_CALL_STATUSES

    def get_kind_display(self) -> Any:
        return _KIND_LABELS.get(self.kind, self.kind)


_COLUMNS = (
    "pk",
    "kind",
    "status",
    "question",
    "notes",
    "escalated",
    "opened_at",
    "resolved_at",
    "holder_id",
    *(f"holder__{f}" for f in _PERSON),
    "tournament__name",
    "match__table",
    "match__round__number",
    "match__a__player_id",
    "match__a__walk_in_name",
    *(f"match__a__player__{f}" for f in _PERSON),
    "match__b_id",
    "match__b__player_id",
    "match__b__walk_in_name",
    *(f"match__b__player__{f}" for f in _PERSON),
)


def _side(player_id: int | None, walk_in_name: str, person: tuple[Any, ...]) -> Side:
    """Registration.name: the player's public name, else the walk-in's name."""
    if player_id:
        return Side(public_name_of(*person))
    return Side(display_safe(walk_in_name))


def _call(row: tuple[Any, ...]) -> QueueCall:
    (pk, kind, status, question, notes, escalated, opened_at, resolved_at, holder_id) = row[:9]
    holder = row[9:13]
    event_name, table, round_number, a_player, a_walk_in = row[13:18]
    a_person = row[18:22]
    b_id, b_player, b_walk_in = row[22:25]
    b_person = row[25:29]
    return QueueCall(
        pk=pk,
        kind=kind,
        status=status,
        question=question,
        notes=notes,
        escalated=escalated,
        opened_at=opened_at,
        resolved_at=resolved_at,
        holder_id=holder_id,
        holder=Person(public_name_of(*holder)) if holder_id is not None else None,
        tournament=EventName(event_name),
        match=MatchShown(
            table=table,
            round=RoundNumber(round_number),
            a=_side(a_player, a_walk_in, a_person),
            b=_side(b_player, b_walk_in, b_person) if b_id is not None else None,
        ),
    )


class QueueCalls:
    """A queue's calls (selectors.queue_calls) read as values: counted and sliced as the
    queryset (django.core.paginator), each row a QueueCall."""

    def __init__(self, calls: QuerySet[JudgeCall]) -> None:
        self._calls = calls
        self._rows = calls.values_list(*_COLUMNS)

    def count(self) -> int:
        return self._calls.count()  # the calls' rows alone, no join (as the queryset's count)

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index: slice) -> list[QueueCall]:
        return [_call(row) for row in self._rows[index]]
