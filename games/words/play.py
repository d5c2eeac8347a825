"""The play page's words for its scripts, passed with ``json_script`` and
translated when the page is drawn, so the JavaScript needs no catalogue. The
client fills in ``%(name)s``: the msgids write ``%%(name)s`` (a literal percent
in a python-format string, as the template catalogue has them); ``js`` turns
them back.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.models import Game
from games.words.notation import move_words


def js(text: str) -> str:
    """A translated python-format string with its ``%%`` made ``%`` for the client."""
    return text % {}


def board_words(game: Game) -> dict[str, object]:
    """Every sentence and label static/games/*.js shows on the play page."""
    return {
        "tiers": {game.tier: game.get_tier_display()},
        "your_turn": _("Your turn"),
        "thinking": _("The computer is thinking…"),
        "computer_turn": _("The computer's turn"),
        "computer_moving": js(_("The computer rolled %%(dice)s and plays %%(play)s…")),
        "opening_status": _("Opening roll"),
        "game_over": _("Game over"),
        "failed": _("The game has stopped."),
        "pips": js(_("Pips: you %%(light)s · computer %%(dark)s")),
        "dice_line": js(_("Dice: %%(dice)s")),
        "tier_line": js(_("Tier: %%(tier)s")),
        "refused_generic": _("That step is not allowed."),
        "reconnecting": _("Connection lost; reconnecting…"),
        "forbidden": _(
            "This game belongs to another account, or you were signed out. Reload the page."
        ),
        **board_names(),
        "move_words": move_words(),  # bar and off in a play (playWords)
        "picked": js(_("Picked up a checker on %%(place)s.")),
        "can_go": js(_("It can go to %%(list)s.")),
        "cannot_go": _("It has no legal step now."),
        "nothing_there": _("You have no checker there."),
        "put_back": _("Checker put back."),
        "wait_turn": _("Wait for your turn."),
        "you_moved": js(_("You moved from %%(from)s to %%(to)s.")),
        "hit": _("A hit!"),
        "undone": _("Step undone."),
        # 撤销重走 and the like: what was taken back, when it was more than a step.
        "undone_turn": js(
            _("Your whole move is taken back (%%(count)s steps: %%(steps)s); play the roll again.")
        ),
        "step_pair": js(_("%%(from)s to %%(to)s")),
        "list_separator": pgettext("list separator", ", "),
        "you_rolled": js(_("You rolled %%(dice)s.")),
        "computer_played": js(_("The computer rolled %%(dice)s and played %%(play)s.")),
        "computer_opened": js(_("The computer plays the opening roll: %%(play)s.")),
        "end_turn_hint": _("Dice used: End turn (Enter), or undo to look again."),
        "opening_roll": js(_("Opening roll: you %%(light)s, the computer %%(dark)s.")),
        "opening_tie": js(_("Both rolled %%(n)s: a tie, rolled again.")),
        "you_start": _("You start."),
        "computer_starts": _("The computer starts."),
        "auto_played": js(
            _("You rolled %%(dice)s, which has one legal play: it was played for you, %%(play)s.")
        ),
        "auto_passed": js(_("You rolled %%(dice)s and had no legal move: the turn passed.")),
        "auto_note": js(_("Your last turn: %%(what)s")),
        "auto_moving": js(_("Your only play with %%(dice)s is made for you: %%(play)s…")),
        "last_move_arrows": js(_("Arrows on the board show the computer's last move: %%(play)s.")),
        "win": _("You won!"),
        "loss": _("The computer won."),
        "resigned": _("You resigned; the computer wins."),
        "kind_single": _("Result: single game"),
        "kind_gammon": _("Result: gammon"),
        "kind_backgammon": _("Result: backgammon"),
        "points_line": js(_("Points: %%(points)s")),
        "points_cube_line": js(_("Points: %%(points)s (the cube at %%(cube)s)")),
        "kind_passed_dark": _("Result: the computer passed your double"),
        "kind_passed_light": _("Result: you passed the computer's double"),
        "move_line": js(_("%%(side)s %%(dice)s: %%(play)s")),
        "no_move": _("no legal move"),
        "side_light": _("You"),
        "side_dark": _("Computer"),
        "cube_double_line": js(_("%%(side)s: double to %%(value)s")),
        "cube_take_line": js(_("%%(side)s: take; the cube is at %%(value)s")),
        "cube_pass_line": js(_("%%(side)s: pass; the game ends")),
        "roll_or_double": _("Your turn: roll (R) or double (D)"),
        "roll_or_redouble": _("Your turn: roll (R) or redouble (D)"),
        "double_button": _("Double (D)"),
        "redouble_button": _("Redouble (D)"),
        "take_or_pass": _("The computer doubles: take (T) or pass (P)"),
        "take_or_pass_redouble": _("The computer redoubles: take (T) or pass (P)"),
        "computer_answering": _("The computer is deciding whether to take…"),
        "resign_waiting": _("The computer is answering your resignation…"),
        "cube_line": js(_("Cube: %%(value)s, %%(owner)s")),
        "cube_offered": js(_("Cube: %%(value)s offered")),
        "cube_centre": _("in the middle"),
        "cube_yours": _("yours"),
        "cube_theirs": _("the computer's"),
        "double_title": js(_("The computer doubles to %%(value)s")),
        "redouble_title": js(_("The computer redoubles to %%(value)s")),
        "take_words": _("Take: play on with the cube on your side."),
        "pass_words": _("Pass: the game ends and the computer wins the points before the double."),
        "resign_offer": js(_("%%(kind)s (worth %%(points)s)")),
        "take": pgettext("cube action", "Take"),
        "pass": pgettext("cube action", "Pass"),
        "kind_money": _("Money game"),
        "match_line": js(_("Match to %%(length)s: you %%(light)s, the computer %%(dark)s")),
        "crawford": _("Crawford game"),
        "post_crawford": _("after the Crawford game"),
        "crawford_notice_light": _(
            "The Crawford game: you need one more point to win the match, "
            "so neither side may double in this game."
        ),
        "crawford_notice_dark": _(
            "The Crawford game: the computer needs one more point to win the match, "
            "so neither side may double in this game."
        ),
        "match_won": js(_("You won the %%(length)s-point match!")),
        "match_lost": js(_("The computer won the %%(length)s-point match.")),
        "match_next": js(_("Game %%(game)s of the match is next.")),
    }


def board_names() -> dict[str, str]:
    """The names of the board's points, bar and tray for screen readers (every board page)."""
    return {
        "point_mine": js(_("Point %%(n)s, %%(count)s of yours")),
        "point_theirs": js(_("Point %%(n)s, %%(count)s of the computer's")),
        "point_empty": js(_("Point %%(n)s, empty")),
        "bar_label": js(_("Bar: %%(light)s of yours, %%(dark)s of the computer's")),
        "tray_label": js(_("Borne off: %%(light)s of yours, %%(dark)s of the computer's")),
        "selected_suffix": _("picked up"),
        "dest_suffix": _("legal destination"),
        "list_sep": _(", "),
        "place_point": js(_("point %%(n)s")),
        "place_bar": _("the bar"),
        "place_off": _("off the board"),
        "copied": _("Copied."),
    }
