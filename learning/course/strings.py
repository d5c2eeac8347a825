"""The words static/learning/course.js shows, translated on the server.

The lesson page hands them over with ``json_script``; placeholders like
``%(dice)s`` are filled in by the script.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine import Refusal, RefusalCode
from games.words.play import board_names
from games.words.refusals import describe_refusal


def course_strings() -> dict[str, Any]:
    return {
        **board_names(),
        "task_of": _("Task %(n)s of %(total)s"),
        "quiz_of": _("Quiz: fresh position %(n)s of %(total)s"),
        "dice": _("Your roll: %(dice)s"),
        "steps_left": _("Dice still to play: %(dice)s"),
        "pick_own": _("Tap one of your own (light) checkers first."),
        "nothing_to_undo": describe_refusal(Refusal(RefusalCode.NOTHING_TO_UNDO)),
        "tries": _("Mistakes so far in this lesson: %(n)s"),
        "try_again": _("Undo the last step and try another, or start the task over."),
        "finished": _("Lesson finished: %(stars)s of 3 stars."),
        "star_label": _("%(n)s of 3 stars"),
        "failed": _("The check failed; try again."),
        "count_label": _("Your pip count"),
        "shots_label": _("Rolls that hit"),
    }
