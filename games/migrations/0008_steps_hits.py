"""Each stored step says whether it hit: ``[src, dst, die, hit]``.

Turn rows and the steps of a turn in progress were stored as ``[src, dst,
die]`` and their hits re-derived on every read; now the writer stores the
engine's own ``Step.hit`` (``games.steps.stored_steps``). This fills the hit
in for the rows stored before (``_hits``).
"""

from django.db import migrations

from games.migrations._hits import add_hits, drop_hits


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_game_computer_attempts"),
    ]

    operations = [
        migrations.RunPython(add_hits, drop_hits),
    ]
