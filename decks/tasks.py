from typing import Any

from celery import Task, shared_task
from django.utils.translation import gettext as _

from decks import card_imports

# An import of the whole official list takes about a minute; one still going after this is
# stuck, and is stopped (SoftTimeLimitExceeded) and marked failed rather than left "running".
IMPORT_SOFT_TIME_LIMIT = 15 * 60


class CardImportTask(Task):  # type: ignore[misc]
    def on_failure(
        self, exc: BaseException, task_id: str, args: Any, kwargs: Any, einfo: Any
    ) -> None:
        """Whatever stopped the task outside the service's own handling, the import says so."""
        import_id = kwargs.get("import_id", args[0] if args else None)
        if import_id is not None:
            card_imports.card_import_fail(
                import_id=import_id,
                reason=_("The import stopped (%(error)s); upload the file again.")
                % {"error": type(exc).__name__},
            )


@shared_task(
    name="decks.run_card_import",
    acks_late=True,
    base=CardImportTask,
    soft_time_limit=IMPORT_SOFT_TIME_LIMIT,
)
def run_card_import(import_id: int) -> str:
    """Idempotent: an import already finished is left as it is."""
    return card_imports.card_import_run(import_id=import_id).status


@shared_task(name="decks.sweep_stuck_imports")
def sweep_stuck_imports() -> int:
    """Imports left "running" by workers that all died (celery beat)."""
    return card_imports.card_imports_sweep_stuck()
