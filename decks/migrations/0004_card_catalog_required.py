import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("decks", "0003_cards_into_catalogs")]

    operations = [
        migrations.RemoveConstraint(model_name="card", name="card_unique_per_game"),
        migrations.AlterField(
            model_name="card",
            name="catalog",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="cards",
                to="decks.catalog",
            ),
        ),
        migrations.AddConstraint(
            model_name="card",
            constraint=models.UniqueConstraint(
                fields=("catalog", "external_id"), name="card_unique_per_catalog"
            ),
        ),
    ]
