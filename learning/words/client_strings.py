"""The words hint.js and review.js show, translated on the server.

The pages hand them over with ``json_script`` (see learning_tags'
``hint_strings`` / ``review_strings``); placeholders like ``%(dice)s`` are
filled in by the script.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.words.notation import MOVE_WORDS
from learning.words.labels import ERROR_LABELS
from learning.words.study_strings import ANALYSIS_STRINGS

HINT_STRINGS: dict[str, Promise | dict[str, Promise]] = {
    "thinking": _("Working out the best plays…"),
    "queued": _("Waiting in the queue… %(seconds)s s so far"),
    "running": _("Working out the best plays… %(seconds)s s so far"),
    "slow": _("This is taking longer than usual. You can keep waiting or try again."),
    "lost": _("The hint was lost on its way (the server took too long). Try again."),
    "retry": _("Try again"),
    "unavailable": _("A hint is only available on your turn, after the roll."),
    "failed": _("No hint this time; try again."),
    "ready": _(
        "The best plays are drawn on the board as arrows: the best one thick, the others "
        "dashed. Click a play to see it alone."
    ),
    "arrows": _("Arrows on the board: the best play, %(play)s, thick; the next ones dashed."),
    "arrows_one": _("Arrows on the board: %(play)s."),
    "numbers": _("equity %(equity)s · win %(win)s · gammon %(gammon)s · backgammon %(bg)s"),
    "move_words": MOVE_WORDS,  # bar and off in a play (playWords)
}

REVIEW_STRINGS: dict[str, Promise | dict[str, Promise]] = {
    "start": _("Start of the game"),
    "end": _("End of the game"),
    "turn_title": _("Turn %(n)s: %(side)s rolled %(dice)s"),
    "position": _("%(i)s / %(n)s"),
    "played": _("Played: %(play)s"),
    "no_move": _("No legal move: the turn passed."),
    "forced": _("Only one way to play this roll (a forced move)."),
    "best": _("The best play."),
    "lost": _("%(label)s (%(mark)s): gave away %(lost)s equity against the best play."),
    "luck": _("Luck of the roll: %(luck)s."),
    "luck_mwc": _("Luck of the roll: %(luck)s (%(mwc)s of the chance to win the match)."),
    "depth": _("Analysed at %(ply)s-ply."),
    "cube_caption": _("Equities for the side that doubles, in units of the cube now"),
    "cube_action": _("Action"),
    "cube_equity": _("Equity"),
    "cube_difference": _("Difference"),
    "cube_lost": _("%(label)s (%(mark)s): gave away %(lost)s equity against the right action."),
    "not_analysed": _("Not analysed yet."),
    "played_row": _("(played)"),
    "move_words": MOVE_WORDS,
    "errors": {code: ERROR_LABELS[code] for code in ("doubtful", "bad", "very_bad")},
    # 精确分析 of a cube decision: the analysis board's request, bar and words.
    "rollout": _("Rollout (precise analysis)"),
    "rollout_right": _("The rollout's right action: %(action)s."),
    # ... and of a roll's plays: the play made judged by the rollout.
    "rollout_lost": _(
        "By the rollout: %(label)s (%(mark)s), gave away %(lost)s equity against the best play."
    ),
    "rollout_close": _("By the rollout: no error, %(lost)s equity behind the best play."),
    "rollout_best": _("By the rollout: the best play."),
    **{k: ANALYSIS_STRINGS[k] for k in ("rollout_queued", "rollout_progress", "failed")},
}
