"""Games stored before the computer's dice were rolled as its turn passed:
roll them now, once, so the computer's turn only reads them."""

import secrets
from typing import Any

from django.db import migrations


def roll_missing_dice(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("games", "Game")
    waiting = Game.objects.filter(turn="dark", status__in=("opening", "playing"), dice__isnull=True)
    for game in waiting.iterator():
        game.dice = [secrets.randbelow(6) + 1, secrets.randbelow(6) + 1]
        game.save(update_fields=["dice"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_game_last_turn"),
    ]

    operations = [
        migrations.RunPython(roll_missing_dice, migrations.RunPython.noop),
    ]
