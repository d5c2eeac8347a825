"""An imported file's two players (as its games are stored) and whether the
owner named their side: a file imported before this is a study object."""

from __future__ import annotations

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0012_dice_commitments")]

    operations = [
        migrations.AddField(
            model_name="importedfile",
            name="light_player",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="importedfile",
            name="dark_player",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="importedfile",
            name="claimed",
            field=models.BooleanField(default=False),
        ),
    ]
