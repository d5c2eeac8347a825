"""PR in the summaries of the reviews done before it was stored (learning.review.pr).

Computed from each review's stored per-decision losses, as a new review's
summary stores it; the history sorts and filters by that stored figure."""

from __future__ import annotations

from typing import Any

from django.db import migrations

from learning.review.pr import pr_figures


def add_pr(apps: Any, schema_editor: Any) -> None:
    analyses = apps.get_model("learning", "GameAnalysis")
    for row in analyses.objects.filter(state="done").iterator():
        if not row.summary or all("pr" in (row.summary.get(s) or {}) for s in ("light", "dark")):
            continue
        turns = list(row.turns.all())
        cubes = list(row.cube_decisions.all())
        for side in ("light", "dark"):
            if side in row.summary:
                row.summary[side]["pr"] = pr_figures(side, turns, cubes)
        row.save(update_fields=["summary"])


class Migration(migrations.Migration):
    dependencies = [("learning", "0007_lesson_progress")]

    operations = [migrations.RunPython(add_pr, migrations.RunPython.noop)]
