"""The words analysis.js and practice.js show, translated on the server.

The pages hand them over with ``json_script``; placeholders like
``%(dice)s`` are filled in by the scripts (as ``learning.words.client_strings``).
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

ANALYSIS_STRINGS: dict[str, Promise] = {
    "light": _("Light"),
    "dark": _("Dark"),
    "on_roll": _("%(side)s on roll"),
    "facts": _(
        "Pip count: light %(light)s, dark %(dark)s · checkers on the board or the bar: "
        "light %(lc)s, dark %(dc)s (the rest are borne off)"
    ),
    "no_dice": _(
        "Choose a roll (or all 21 rolls) to see the best plays, or press Analyse for the "
        "cube action before the roll."
    ),
    "cube_doubler": _("%(side)s, on roll: double or not?"),
    "cube_taker": _("%(side)s, if doubled: take or pass?"),
    "thinking": _("Analysing…"),
    "failed": _("The analysis failed; try again."),
    "queued": _("In the queue: %(ahead)s ahead of this one (%(seconds)s s so far)"),
    "queued_next": _("Waiting in the queue: next in line (%(seconds)s s so far)"),
    "waiting": _("Waiting for the analysis… %(seconds)s s so far"),
    "running": _("Analysing… %(seconds)s s so far"),
    "slow": _("This is taking longer than usual. You can keep waiting or try again."),
    "numbers": _("win %(win)s · gammon %(gammon)s · backgammon %(bg)s · loses a gammon %(lg)s"),
    "best": _("(best)"),
    "average": _("Average over the 21 rolls: equity %(equity)s."),
    "no_move": _("No legal move: the turn passes."),
    "play_this": _("Play this"),
    "variation": _("Variation: %(plays)s"),
    "variation_empty": _(
        "Variation: none yet. Make a play on the board or pick one from the list."
    ),
    "played": _("%(side)s played %(play)s. Now %(other)s is on roll: choose a roll."),
    "to_play": _(
        "%(side)s to play %(dice)s: click a checker, then where it goes (or use the keys)."
    ),
    "steps_left": _("Dice still to play: %(dice)s"),
    "copied": _("Copied."),
    "setup_on": _(
        "Set-up: click a point to add a %(colour)s checker; Shift+click or right-click "
        "removes one. Keys: arrows move, + or Enter adds, - or Delete removes."
    ),
    "setup_colour_light": _("light"),
    "setup_colour_dark": _("dark"),
    "nothing_to_undo": _("Nothing to undo."),
    "rollout_queued": _("Rollout queued: it starts once the study work before it is done…"),
    "rollout_progress": _("Rolling out: %(done)s of %(total)s games…"),
}

PRACTICE_STRINGS: dict[str, Promise] = {
    "task": _("Your roll: %(dice)s. Find the best play and play it on the board."),
    "steps_left": _("Dice still to play: %(dice)s"),
    "best": _("Right: the best play."),
    "within": _("Right: %(play)s is within 0.02 of the best play (%(lost)s behind)."),
    "wrong": _("Not quite: %(play)s gives away %(lost)s against the best play."),
    "wrong_unranked": _("Not quite: %(play)s is not among the best plays of the review."),
    "best_play": _("The best play: %(play)s"),
    "game_play": _("In the game you played %(play)s and gave away %(lost)s."),
    "again_days": _("This position comes back in %(days)s days."),
    "again_tomorrow": _("This position comes back tomorrow."),
    "next": _("Press N or the Next button for the next position."),
    "task_double": _("Your turn, before you roll: double, or roll without doubling?"),
    "task_take": _("The computer doubles: take, or pass?"),
    "cube_best": _("Right: %(action)s is the best cube action."),
    "cube_within": _("Right: %(action)s is within 0.02 of the best action (%(lost)s behind)."),
    "cube_wrong": _("Not quite: %(action)s gives away %(lost)s against the best action."),
    "game_action": _("In the game you chose %(action)s and gave away %(lost)s."),
}
