"""Games stored before ``Game.last_turn`` was kept with each turn get it now,
so a state is built from the row alone (``games.live.state.build_state``)."""

from typing import Any

from django.db import migrations


def fill_last_turn(apps: Any, schema_editor: Any) -> None:
    from games.migrations._hits import add_hits
    from games.steps import turn_json  # reads only the Turn's stored fields

    add_hits(apps, schema_editor)  # turn_json reads each step's hit

    Game = apps.get_model("games", "Game")
    Turn = apps.get_model("games", "Turn")
    for game in Game.objects.filter(last_turn__isnull=True).iterator():
        last = Turn.objects.filter(game=game).order_by("-number").first()
        if last is not None:
            game.last_turn = turn_json(last)
            game.save(update_fields=["last_turn"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_remove_game_failure_message"),
    ]

    operations = [
        migrations.RunPython(fill_last_turn, migrations.RunPython.noop),
    ]
