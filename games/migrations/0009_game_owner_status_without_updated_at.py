"""The lobby's index of a player's games by status no longer holds ``updated_at``.

Every command writes ``updated_at``; with it in an index, PostgreSQL could
never update the game row in place (a heap-only tuple): each step inserted
a new entry in every index of the table. The lobby reads a player's few
unfinished games by (owner, status) and orders them itself.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_steps_hits"),
    ]

    operations = [
        migrations.RemoveIndex(model_name="game", name="game_owner_status"),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["owner", "status"], name="game_owner_status"),
        ),
    ]
