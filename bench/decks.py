"""Benchmark BoBA deck validation in-process (issue 4).

Usage: ``python bench/decks.py [--lists N] [--seed S] [--demo]``.

Uses the real card data from ../shared/data/boba when present (else the generated demo
catalog; say --demo to force it). Lists are generated with `sample_decklist` and exported to
text first (not timed). Timings are CPU time of this process (one core).
Goals: validating one Playmaker list < 2 ms; 2,000 lists < 5 s.

Sections are functions in `SECTIONS`, each taking the shared `Context` and printing its own
lines, so another section (the Django catalog import) can be added without touching these.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.boba.deckbuilding import (  # noqa: E402
    Catalog,
    Decklist,
    demo_catalog,
    export_decklist,
    get_format,
    parse_community_catalog,
    parse_decklist,
    sample_decklist,
    validate_decklist,
)

SHARED_DATA = ROOT.parent / "shared" / "data" / "boba"
ONE_LIST_GOAL_MS = 2.0
MANY_LISTS_GOAL_S = 5.0


@dataclass
class Context:
    args: argparse.Namespace
    catalog: Catalog
    source: str
    lists: list[Decklist] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)


def _cpu(fn: Callable[[], object], repeat: int) -> float:
    """Median CPU seconds of one call over `repeat` calls."""
    samples = []
    for _ in range(repeat):
        start = time.process_time_ns()
        fn()
        samples.append((time.process_time_ns() - start) / 1e9)
    return statistics.median(samples)


def _verdict(value: float, goal: float) -> str:
    return f"goal < {goal:g}: {'ok' if value < goal else 'MISSED'} ({goal / value:,.1f}x headroom)"


def load_catalog(args: argparse.Namespace) -> tuple[Catalog, str]:
    cards, plays = SHARED_DATA / "cards.json", SHARED_DATA / "plays.json"
    if args.demo or not cards.exists():
        start = time.process_time()
        catalog = demo_catalog()
        return (
            catalog,
            f"demo catalog ({len(catalog):,} cards, {time.process_time() - start:.2f} s)",
        )
    start = time.process_time()
    result = parse_community_catalog(
        json.loads(cards.read_text(encoding="utf-8")), json.loads(plays.read_text(encoding="utf-8"))
    )
    parsed = time.process_time() - start
    catalog = Catalog(result.entries)
    built = time.process_time() - start - parsed
    return catalog, (
        f"real cards ({len(catalog):,} entries, {len(result.rejections)} rejected rows; "
        f"rows parsed in {parsed:.2f} s, indexes built in {built:.2f} s)"
    )


def section_one_list(ctx: Context) -> None:
    fmt = get_format("playmaker")
    decklist, text = ctx.lists[0], ctx.texts[0]
    assert validate_decklist(decklist, ctx.catalog, fmt).legal
    validate_ms = _cpu(lambda: validate_decklist(decklist, ctx.catalog, fmt), 500) * 1e3
    parse_ms = _cpu(lambda: parse_decklist(text, ctx.catalog), 300) * 1e3
    both_ms = _cpu(lambda: validate_decklist(text, ctx.catalog, fmt), 300) * 1e3
    print("one Playmaker list (60 heroes + 30 plays + 10 hot dogs), median CPU time:")
    print(
        f"  validate parsed list   {validate_ms:8.3f} ms   {_verdict(validate_ms, ONE_LIST_GOAL_MS)}"
    )
    print(f"  parse text             {parse_ms:8.3f} ms")
    print(f"  parse text + validate  {both_ms:8.3f} ms   {_verdict(both_ms, ONE_LIST_GOAL_MS)}")


def section_many_lists(ctx: Context) -> None:
    fmt = get_format("playmaker")
    start = time.process_time()
    illegal = sum(not validate_decklist(t, ctx.catalog, fmt).legal for t in ctx.texts)
    elapsed = time.process_time() - start
    n = len(ctx.texts)
    print(f"{n:,} Playmaker lists as text, parse + validate each:")
    print(f"  total                  {elapsed:8.3f} s    {_verdict(elapsed, MANY_LISTS_GOAL_S)}")
    print(f"  per list               {elapsed / n * 1e3:8.3f} ms   ({illegal} illegal lists)")


IMPORT_GOAL_S = 30.0


def section_catalog_import(ctx: Context) -> None:
    """The organiser's path: the whole real list through the Django import into a database.

    Uses DATABASE_URL when set (PostgreSQL in production), else a fresh SQLite file; the first
    run creates every card, the second finds them all unchanged.
    """
    import os
    import tempfile

    cards, plays = SHARED_DATA / "cards.json", SHARED_DATA / "plays.json"
    if not cards.exists():
        print("catalog import: skipped (../shared/data is absent)")
        return
    tmp = tempfile.TemporaryDirectory()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp.name}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django
    from django.core.management import call_command

    django.setup()
    from decks.models import Card
    from decks.services import import_cards

    call_command("migrate", verbosity=0)
    Card.objects.filter(game="boba").delete()
    files = [("cards.json", cards.read_bytes()), ("plays.json", plays.read_bytes())]
    print(f"full real card list into {os.environ['DATABASE_URL'].split(':')[0]}, wall time:")
    for label in ("first import", "second import"):
        start = time.perf_counter()
        counts, rejections = import_cards(game="boba", files=files)
        elapsed = time.perf_counter() - start
        print(
            f"  {label:<22} {elapsed:8.3f} s    {_verdict(elapsed, IMPORT_GOAL_S)}  "
            f"(created {counts['created']:,}, updated {counts['updated']:,}, "
            f"unchanged {counts['unchanged']:,}, rejected {len(rejections)})"
        )
    tmp.cleanup()


SECTIONS: list[tuple[str, Callable[[Context], None]]] = [
    ("one list", section_one_list),
    ("many lists", section_many_lists),
    ("catalog import", section_catalog_import),
]
"""Benchmark sections in run order; append to add one (e.g. the catalog import timing)."""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lists", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--demo", action="store_true", help="use the generated demo catalog")
    args = parser.parse_args(argv)
    catalog, source = load_catalog(args)
    print(f"catalog: {source}")
    fmt = get_format("playmaker")
    ctx = Context(args, catalog, source)
    ctx.lists = [sample_decklist(catalog, fmt, seed=args.seed + i) for i in range(args.lists)]
    ctx.texts = [export_decklist(d, catalog) for d in ctx.lists]
    for _name, run in SECTIONS:
        run(ctx)


if __name__ == "__main__":
    main()
