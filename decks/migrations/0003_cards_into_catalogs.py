"""Existing cards go into the catalog of their origin: the generated demo cards (ids starting
with "demo:") into the game's demo catalog, every other card into its official catalog. Runs on
an empty database (nothing to do) and on one holding both kinds."""

from django.db import migrations

DEMO_ID_PREFIX = "demo:"
NAMES = {"demo": "%s demo cards (fictional)", "official": "%s official cards"}


def forwards(apps, schema_editor):  # type: ignore[no-untyped-def]
    Card = apps.get_model("decks", "Card")
    Catalog = apps.get_model("decks", "Catalog")
    CardImport = apps.get_model("decks", "CardImport")
    games = set(Card.objects.values_list("game", flat=True).distinct())
    for game in sorted(games):
        cards = Card.objects.filter(game=game, catalog__isnull=True)
        for kind, selection in (
            ("demo", cards.filter(external_id__startswith=DEMO_ID_PREFIX)),
            ("official", cards.exclude(external_id__startswith=DEMO_ID_PREFIX)),
        ):
            if not selection.exists():
                continue
            catalog, _ = Catalog.objects.get_or_create(
                game=game,
                kind=kind,
                defaults={"slug": f"{game}-{kind}", "name": NAMES[kind] % game.upper()},
            )
            selection.update(catalog=catalog)
    # Past uploads went into the one shared catalog: the official one.
    for game in sorted(set(CardImport.objects.values_list("game", flat=True).distinct())):
        official = Catalog.objects.filter(game=game, kind="official").first()
        if official is not None:
            CardImport.objects.filter(game=game, catalog__isnull=True).update(catalog=official)


def backwards(apps, schema_editor):  # type: ignore[no-untyped-def]
    apps.get_model("decks", "Card").objects.update(catalog=None)


class Migration(migrations.Migration):
    dependencies = [("decks", "0002_catalogs")]

    operations = [migrations.RunPython(forwards, backwards)]
