"""The larger puzzle bank (issue 47: at least 2,000 rated puzzles) in a
database that had the first one.

Migration 0010 reads the shipped file when it runs: a fresh database gets
whatever bank is shipped then, and this migration finds nothing to change.
A database migrated before the file grew (production) gets the new puzzles
here, with no step to remember at deploy time; a puzzle already answered
keeps the rating it has earned (``learning.puzzles.bank.load``). A later
bank needs a migration like this one (or ``manage.py puzzles load``).
"""

from __future__ import annotations

from typing import Any

from django.db import migrations


def load_bank(apps: Any, schema_editor: Any) -> None:
    from learning.puzzles.bank import load

    load(model=apps.get_model("learning", "Puzzle"))


class Migration(migrations.Migration):
    dependencies = [("learning", "0011_lesson_task_misses")]

    operations = [migrations.RunPython(load_bank, migrations.RunPython.noop)]
