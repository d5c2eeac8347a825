"""What the course says about a play and its figures, in words a beginner has
been taught by then.

Before the notation lesson a play is said in words, checker by checker
("一枚棋子从 24 点走到 13 点"), as the person made it; from that lesson on
its notation follows in brackets, in the reader's language (吧台, 移出).
The engine's reasons about a play are shown only when every term they use
has been taught, so a lesson never answers in words it has not taught yet.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.engine import BAR, OFF
from games.words.notation import notation_words
from learning.glossary.marks import uses


def _chains(steps: Iterable[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """The steps grouped by checker: a step from where the last chain ended
    goes on with that checker."""
    chains: list[list[Mapping[str, Any]]] = []
    for step in steps:
        last = chains[-1] if chains else None
        going_on = last is not None and last[-1]["to"] == step["from"]
        # Borne off from a point it only just reached: said apart, as it may
        # be another checker that was there.
        if going_on and step["from"] not in (BAR, OFF) and step["to"] != OFF:
            last.append(step)  # type: ignore[union-attr]
        else:
            chains.append([step])
    return chains


def _count(n: int) -> str:
    words = {
        1: pgettext("checkers", "a checker"),
        2: pgettext("checkers", "two checkers"),
        3: pgettext("checkers", "three checkers"),
        4: pgettext("checkers", "four checkers"),
    }
    return words[n]


def _chain_words(chain: Sequence[Mapping[str, Any]], n: int) -> str:
    src, dst = chain[0]["from"], chain[-1]["to"]
    who = _count(n)
    if src == BAR and dst == OFF:  # never in a lesson: a checker entering cannot bear off
        raise ValueError("a checker from the bar cannot be borne off in one turn")
    if src == BAR:
        entered = chain[0]["to"]
        if dst == entered:
            words = _("%(who)s enters from the bar on point %(dst)s")
        else:
            words = _("%(who)s enters from the bar on point %(entered)s and goes on to %(dst)s")
    elif dst == OFF:
        words = _("%(who)s from point %(src)s borne off")
    else:
        words = _("%(who)s from point %(src)s to point %(dst)s")
    text = words % {"who": who, "src": src, "dst": dst, "entered": chain[0]["to"]}
    hits = [str(s["to"]) for s in chain if s.get("hit")]
    if hits:
        text = _("%(move)s, hitting on point %(points)s") % {
            "move": text,
            "points": pgettext("list separator", ", ").join(hits),
        }
    return text


def play_words(steps: Sequence[Mapping[str, Any]]) -> str:
    """What a play did, checker by checker, as the steps were made (board
    targets: 25 the bar, 0 off). Checkers moved alike are counted together."""
    chains = _chains(steps)
    said: list[tuple[tuple[tuple[int, int, bool], ...], int]] = []
    for chain in chains:
        key = tuple((int(s["from"]), int(s["to"]), bool(s.get("hit"))) for s in chain)
        for i, (seen, n) in enumerate(said):
            if seen == key and not any(hit for _a, _b, hit in key):
                said[i] = (seen, n + 1)
                break
        else:
            said.append((key, 1))
    parts = [
        _chain_words([{"from": a, "to": b, "hit": hit} for a, b, hit in key], n) for key, n in said
    ]
    return pgettext("clauses", "; ").join(parts)


def right_play(steps: Sequence[Mapping[str, Any]], notation: str, known: Collection[str]) -> str:
    """ "Right:" and the play: in words, with its notation once it is taught."""
    words = play_words(steps)
    if "notation" in known and notation:
        words = _("%(words)s (%(notation)s)") % {
            "words": words,
            "notation": notation_words(notation),
        }
    return _("Right: %(play)s.") % {"play": words}


def taught_only(lines: Iterable[str], known: Collection[str]) -> list[str]:
    """The lines whose every term (``learning.glossary``) is taught by now,
    read in the language of the moment."""
    language = translation.get_language() or "zh-hans"
    return [line for line in lines if all(key in known for _at, key, _link in uses(line, language))]


def percent(value: float) -> str:
    """A chance as every line of one screen writes it: one decimal."""
    return f"{100 * value:.1f}%"
