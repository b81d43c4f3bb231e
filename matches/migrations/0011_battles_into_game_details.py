"""BoBA's trophies move from the `battles` columns of matches and reports into their per-game
details (`game_details`: one `{"trophies": [a, b]}` per game, engine.boba.trophies), the one
place every game's per-game details live; then the columns go.

A result version keeps its result as the event API shows it (`{"games", "battles"}` for
BoBA), which is still what the services write, so versions need no change. A row with both
(never written: BoBA recorded no other details) keeps its details and loses nothing else.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations


def trophies_as_details(battles: Any) -> list[dict[str, Any]] | None:
    """`[[a, b], ...]` as per-game details; None for anything that is not such a list."""
    if not isinstance(battles, list):
        return None
    return [{"trophies": [int(g[0]), int(g[1])]} for g in battles]


def details_as_trophies(details: Any) -> list[list[int]] | None:
    """The inverse, for a migration backwards: trophies only when every game has them."""
    if not isinstance(details, list) or not details:
        return None
    if not all(isinstance(g, dict) and set(g) == {"trophies"} for g in details):
        return None
    return [list(g["trophies"]) for g in details]


def forwards(apps: Any, schema_editor: Any) -> None:
    for name in ("Match", "Report"):
        model = apps.get_model("matches", name)
        rows = model.objects.filter(battles__isnull=False, game_details__isnull=True)
        for row in rows.only("pk", "battles").iterator():
            model.objects.filter(pk=row.pk).update(game_details=trophies_as_details(row.battles))


def backwards(apps: Any, schema_editor: Any) -> None:
    for name in ("Match", "Report"):
        model = apps.get_model("matches", name)
        for row in model.objects.filter(game_details__isnull=False).only("pk", "game_details"):
            trophies = details_as_trophies(row.game_details)
            if trophies is not None:
                model.objects.filter(pk=row.pk).update(battles=trophies, game_details=None)


class Migration(migrations.Migration):
    dependencies = [("matches", "0010_standings_snapshot_tiebreakers")]

    operations = [
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(model_name="match", name="battles"),
        migrations.RemoveField(model_name="report", name="battles"),
    ]
