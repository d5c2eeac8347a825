"""Dice you can prove (issue 36): the seeds and the roll count of a game,
the roll number of a turn, and the next game's server seed.

Every game stored before has no seeds: ``dice_source`` "before" (its pages
say it was started before the commitments); games started from now on
default to "seeds".
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_game_failure"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="dice_commitment",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="game",
            name="dice_source",
            field=models.CharField(
                choices=[
                    ("seeds", "Committed seeds"),
                    ("before", "Started before dice commitments"),
                    ("imported", "Imported from a match file"),
                ],
                default="before",
                max_length=8,
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="dice_source",
            field=models.CharField(
                choices=[
                    ("seeds", "Committed seeds"),
                    ("before", "Started before dice commitments"),
                    ("imported", "Imported from a match file"),
                ],
                default="seeds",
                max_length=8,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="person_seed",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="game",
            name="rolls_drawn",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="game",
            name="server_seed",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="turn",
            name="roll",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.CreateModel(
            name="NextDiceSeed",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seed", models.CharField(max_length=64)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "owner",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="next_dice_seed",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
    ]
