"""What the event schedules for later, through the outbox (config/outbox.py)."""

from __future__ import annotations

from config.outbox import send_after_commit

# The task that keeps an event's archive after each round: eventdata.tasks.archive_round_task.
# Sent by name, so the apps below the archive's app never import it (the name is a public
# contract: queued outbox rows and workers know the task by it).
ARCHIVE_ROUND_TASK = "tournaments.archive_round"


def schedule_round_archive(round_id: int) -> None:
    """After the transaction that finished a round commits, archive the event in a task.

    Through the outbox: a broker that is down delays the archive and never turns the result
    that finished the round into an error."""
    send_after_commit(ARCHIVE_ROUND_TASK, round_id)
