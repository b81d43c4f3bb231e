"""Hot read queries compiled once per process: a queryset's SQL kept and run with new values.

Django compiles a queryset into SQL every time it is evaluated: the joins, the select list and
the WHERE tree are built again, then the rows turned into model instances. For the one-row
lookups that every request of a publish spike makes (the round and its event, by slug and
number) the compiling is most of the query's CPU time; the database answers in a fraction of
it. `fetch` compiles a queryset once per process and database connection, with stand-in
values in place of its arguments, keeps the SQL, where each argument goes among its
parameters and the compiler (its select list, converters and related-object layout), and
then runs that SQL with each call's values, building the instances as Django's own
`ModelIterable` does (`Model.from_db`, the `select_related` objects, annotations).

Anything it cannot prove it reproduces exactly is run through the ORM as before: a stand-in
that does not appear, as it is (or as the backend's subclass of its type), among the
compiled parameters, or anything else that differs between two compilations (a lookup that
transforms its value, such as ``contains``), an argument that is not a ``str`` or an ``int``
(or a number its column cannot hold), a queryset that sets related objects it already knows.
The instances are the ORM's (tests/test_prepared.py compares every field with the
queryset's own answer).

`fetch(..., remember=version)` also keeps the rows it read (converted, before they become
instances) in this process under the name, the arguments and ``version``, a value the caller
read from the database that changes whenever any of those rows does (the event page's
`tournaments.selectors.page_rows_version`): a later call with the same version builds new
instances from the kept rows without asking the database. The instances are new for every
call; the values they hold (a JSON field's list, say) are shared between calls, so a caller
that remembers must only read them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.models.sql.compiler import SQLCompiler

M = TypeVar("M", bound=Model)

# Stand-ins: two sets (the query is compiled with each, and must differ exactly where the
# arguments go); the whole numbers fit every integer column, a small one included.
_TEXT_STAND_INS = ("\x00prepared-a{}\x00", "\x00prepared-b{}\x00")
_INT_STAND_INS = (31_000, 32_000)
# What a whole number's column holds, by the type the backend gives the parameter (psycopg 3
# on PostgreSQL: Int2, Int4, Int8); a plain int: 64 bits (SQLite). A value outside is the
# ORM's to answer (no row), never a database error.
_BITS = {"Int2": 16, "Int4": 32, "Int8": 64}


def _fits(value: int, kind: type[Any]) -> bool:
    bits = _BITS.get(kind.__name__, 64)
    return -(2 ** (bits - 1)) <= value < 2 ** (bits - 1)


@dataclass
class _Prepared:
    connection: Any  # the DatabaseWrapper it was compiled for
    sql: str
    params: tuple[Any, ...]  # with the stand-ins
    positions: tuple[tuple[int, ...], ...]  # each argument's places among params
    # the type each argument is given as there (the backend's own: psycopg 3's Int2 for a
    # small integer field on PostgreSQL, a subclass of int)
    kinds: tuple[type[Any], ...]
    compiler: SQLCompiler
    init_list: list[str]
    fields_start: int
    fields_end: int
    populators: list[Any]
    annotations: dict[str, int]
    # What results_iter would work out again for every call: the columns' converters (the
    # connection's, fixed for this compiler), and whether a composite field needs its own step.
    converters: dict[int, Any]
    composite: bool


_local = threading.local()


def _preparable(args: tuple[Any, ...]) -> bool:
    return all(type(v) is str or type(v) is int for v in args)


def _stand_ins(which: int, args: tuple[Any, ...]) -> list[str | int]:
    return [
        _TEXT_STAND_INS[which].format(i) if type(v) is str else _INT_STAND_INS[which] + i
        for i, v in enumerate(args)
    ]


def _compiled(
    build: Callable[..., QuerySet[M]], stand_ins: list[str | int]
) -> tuple[SQLCompiler, str, tuple[Any, ...], str] | None:
    queryset = build(*stand_ins)
    if queryset._known_related_objects:  # what ModelIterable sets besides select_related
        return None
    compiler = queryset.query.get_compiler(using=queryset.db)
    sql, params = compiler.as_sql()
    return compiler, sql, tuple(params), queryset.db


def _prepare(build: Callable[..., QuerySet[M]], args: tuple[Any, ...]) -> _Prepared | None:
    first, second = _stand_ins(0, args), _stand_ins(1, args)
    try:
        one, other = _compiled(build, first), _compiled(build, second)
    except Exception:  # a stand-in the query refuses (a text for a number...): the ORM's
        return None
    if one is None or other is None:
        return None
    compiler, sql, params, db = one
    if other[1] != sql or len(other[2]) != len(params):
        return None
    # each argument appears among the parameters (once or more), as it was given, and nothing
    # else differs between the two compilations
    positions: list[tuple[int, ...]] = []
    kinds: list[type[Any]] = []
    for a, b in zip(first, second, strict=True):
        found = [
            i
            for i, (p, q) in enumerate(zip(params, other[2], strict=True))
            if isinstance(p, type(a)) and p == a and type(q) is type(p) and q == b
        ]
        if not found or len({type(params[i]) for i in found}) != 1:
            return None
        positions.append(tuple(found))
        kinds.append(type(params[found[0]]))
    differing = {i for i, (p, q) in enumerate(zip(params, other[2], strict=True)) if p != q}
    if differing != {i for places in positions for i in places}:
        return None
    klass_info = compiler.klass_info
    if klass_info is None:
        return None
    select = compiler.select
    columns = [s[0] for s in select[0 : compiler.col_count]]
    select_fields = klass_info["select_fields"]
    start, end = select_fields[0], select_fields[-1] + 1
    return _Prepared(
        connection=connections[db],
        sql=sql,
        params=params,
        positions=tuple(positions),
        kinds=tuple(kinds),
        compiler=compiler,
        init_list=[f[0].target.attname for f in select[start:end]],
        fields_start=start,
        fields_end=end,
        populators=get_related_populators(klass_info, select, db),
        annotations=dict(compiler.annotation_col_map or {}),
        converters=compiler.get_converters(columns),
        composite=compiler.has_composite_fields(columns),
    )


_NOT_PREPARABLE = object()


# Rows kept by `fetch(..., remember=...)`: at most this many answers a process (least recently
# used dropped first); each is a few rows of one event.
REMEMBERED_MAX = 256
_remembered: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
_remembered_lock = threading.Lock()


def forget_remembered() -> None:
    """Drop every kept answer (tests)."""
    with _remembered_lock:
        _remembered.clear()


def remembered(key: tuple[Any, ...], version: str, load: Callable[[], Any]) -> Any:
    """`load()`'s answer, kept in this process under `key` and `version` as `fetch` keeps its
    rows (for an answer that is not a queryset's). Callers must only read it."""
    full = ("value", *key, version)
    with _remembered_lock:
        if full in _remembered:
            _remembered.move_to_end(full)
            return _remembered[full]
    value = load()
    with _remembered_lock:
        _remembered[full] = value
        while len(_remembered) > REMEMBERED_MAX:
            _remembered.popitem(last=False)
    return value


def fetch(
    name: str, build: Callable[..., QuerySet[M]], *args: str | int, remember: str | None = None
) -> list[M]:
    """``list(build(*args))``, with the SQL compiled once per process and thread for
    ``name`` (one name per ``build``, whose queryset's shape must not depend on the values of
    ``args``): strings and whole numbers (any other value, or a number its column cannot
    hold, goes through the ORM). With `remember` (a version: the module's docstring), the
    rows read are kept under it and a later call with the same version reads none."""
    if not _preparable(args):
        return list(build(*args))
    cache: dict[str, Any] = _local.__dict__.setdefault("prepared", {})
    prepared = cache.get(name)
    if prepared is _NOT_PREPARABLE:
        return list(build(*args))
    if prepared is None or prepared.connection is not connections[prepared.compiler.using]:
        prepared = _prepare(build, args)
        cache[name] = _NOT_PREPARABLE if prepared is None else prepared
        if prepared is None:
            return list(build(*args))
    if not all(
        type(v) is str or _fits(v, kind) for v, kind in zip(args, prepared.kinds, strict=True)
    ):
        return list(build(*args))
    compiler = prepared.compiler
    key = (name, compiler.using, args, remember)
    converted: Any = None
    if remember is not None:
        with _remembered_lock:
            converted = _remembered.get(key)
            if converted is not None:
                _remembered.move_to_end(key)
    if converted is None:
        converted = _read(prepared, args)
        if remember is not None:
            converted = list(converted)
            with _remembered_lock:
                _remembered[key] = converted
                while len(_remembered) > REMEMBERED_MAX:
                    _remembered.popitem(last=False)
    model = compiler.klass_info["model"]
    db = compiler.using
    start, end = prepared.fields_start, prepared.fields_end
    found: list[M] = []
    for row in converted:
        obj = model.from_db(db, prepared.init_list, row[start:end])
        for populator in prepared.populators:
            populator.populate(row, obj)
        for attr, column in prepared.annotations.items():
            setattr(obj, attr, row[column])
        found.append(obj)
    return found


def _read(prepared: _Prepared, args: tuple[Any, ...]) -> Any:
    """The rows of the prepared SQL for `args`, through the columns' converters."""
    params = list(prepared.params)
    for places, kind, value in zip(prepared.positions, prepared.kinds, args, strict=True):
        for place in places:
            params[place] = value if type(value) is kind else kind(value)
    with prepared.connection.cursor() as cursor:
        cursor.execute(prepared.sql, params)
        rows = cursor.fetchall()
    compiler = prepared.compiler
    if prepared.composite:
        return compiler.results_iter(results=[rows])
    if prepared.converters:
        return compiler.apply_converters(rows, prepared.converters)
    return rows
