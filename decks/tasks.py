from celery import shared_task

from decks import services


@shared_task(name="decks.run_card_import", acks_late=True)
def run_card_import(import_id: int) -> str:
    """Idempotent: an import already finished is left as it is."""
    return services.card_import_run(import_id=import_id).status
