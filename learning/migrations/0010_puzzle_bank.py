"""The shipped puzzle bank (learning/puzzles/data/bank.json.gz) in the
database: a fresh clone has it without computing it. A later bank is
loaded by ``manage.py puzzles load`` (ratings earned are kept)."""

from __future__ import annotations

from typing import Any

from django.db import migrations


def load_bank(apps: Any, schema_editor: Any) -> None:
    from learning.puzzles.bank import load

    load(model=apps.get_model("learning", "Puzzle"))


class Migration(migrations.Migration):
    dependencies = [("learning", "0009_puzzles")]

    operations = [migrations.RunPython(load_bank, migrations.RunPython.noop)]
