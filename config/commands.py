"""What every project command shares: it says what to run when the database is not ready,
instead of a traceback."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor

NOT_MIGRATED = (
    "The database is not set up yet (or is missing migrations): run `make migrate` (or "
    "`python manage.py migrate`) first, then this command again."
)


def require_migrated(using: str = "default") -> None:
    """CommandError (exit status 2) when the database is unreachable or not migrated."""
    try:
        executor = MigrationExecutor(connections[using])
        pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except DatabaseError as exc:
        raise CommandError(f"Cannot reach the database: {exc}", returncode=2) from None
    if pending:
        raise CommandError(NOT_MIGRATED, returncode=2)


class DatabaseCommand(BaseCommand):
    """A command that reads or writes the database: checked before it runs."""

    def execute(self, *args: Any, **options: Any) -> Any:
        require_migrated(options.get("database") or "default")
        return super().execute(*args, **options)
