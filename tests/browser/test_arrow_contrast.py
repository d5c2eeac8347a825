"""Browser: the board's arrows are readable in each of the three themes on a
375 px phone, measured from the pixels, and said in words.

For each theme (``static/css/themes.css``) the computer's last move and then
a hint's three plays are drawn as arrows on the play page, 375 px wide (at a
phone's two device pixels to the CSS pixel). The board is photographed with
the arrows and again with the arrows' layer hidden (what lies under them),
and each arrow is sampled along its shaft, from its geometry in the SVG
(``getScreenCTM``; the head, the ``marker-end``, left out). At every sample
(WCAG 2.2, 1.4.11 non-text contrast, 3:1):

- the arrow's colour against the pixels drawn just beside it, on both sides
  (its casing, or the board when it has none): the arrow's shape reads;
- and on each side, the arrow (its colour, or its casing's) against the
  board's pixels there, in the photo without the arrows: it stands out
  from the points, checkers and bar under and around it.

A step two plays share is judged once (the arrow drawn last is the one
seen), and an arrow lying wholly on another (6/5 inside 8/5) is not judged
apart.

The hint's best arrow must be told from the others: its measured width at
least 1.5 times theirs. What a screen reader is given for the arrows is
checked in Chinese and English. Real daphne and Chromium; with REDIS_URL the
hint is computed by a real Celery worker.
"""

from __future__ import annotations

import base64
import math
from statistics import median
from typing import Any

import pytest

from games import services
from games.engine import Position, Side
from games.models import Game
from tests.browser import helpers as play
from tests.browser.helpers import LOCALES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

THEMES = ("wood", "contrast", "dark")
WIDTH = 375
SCALE = 2  # device pixels to the CSS pixel, as a phone has
CONTRAST = 3.0  # WCAG 1.4.11, non-text contrast
# The casing is sampled this many device pixels outside the arrow's edge;
# the arrow's own colour this many device pixels inside its centre line.
BESIDE = 2.0
STEP = 3.0  # device pixels between samples along a shaft

WORDS = {
    "zh-hans": {
        "last": "棋盘上的箭头是电脑的上一步：",
        "hint": "棋盘上的箭头：粗的是最佳走法",
        "ready": "最佳走法已用箭头画在棋盘上",
    },
    "en": {
        "last": "Arrows on the board show the computer's last move: ",
        "hint": "Arrows on the board: the best play, ",
        "ready": "The best plays are drawn on the board as arrows",
    },
}

# Each arrow's line: its ends, width and dashes in the board photo's device
# pixels, and its head's length back from the end and half width (from its
# marker's own geometry).
GEOMETRY_JS = """(scale) => {
  const svg = document.querySelector("#board");
  const box = svg.getBoundingClientRect();
  return [...svg.querySelectorAll("g.b-arrows line.b-arrow")].map((line) => {
    const m = line.getScreenCTM();
    const at = (x, y) => {
      const p = new DOMPoint(x, y).matrixTransform(m);
      return [(p.x - box.left) * scale, (p.y - box.top) * scale];
    };
    const unit = Math.hypot(m.a, m.b) * scale;
    const style = getComputedStyle(line);
    const width = parseFloat(style.strokeWidth) * unit;
    const dashes = style.strokeDasharray === "none" ? []
      : style.strokeDasharray.split(/[ ,]+/).map((d) => parseFloat(d) * unit);
    const id = (line.getAttribute("marker-end") || "").replace(/^url\\(#|\\)$/g, "");
    const marker = id && svg.querySelector(`marker[id="${id}"]`);
    let back = 0, half = 0;
    if (marker) {
      const vb = marker.viewBox.baseVal;
      const perUnit = (marker.markerWidth.baseVal.value / vb.width) * width;
      back = marker.refX.baseVal.value * perUnit;
      half = (marker.markerHeight.baseVal.value / 2) * width;
    }
    const a = at(+line.getAttribute("x1"), +line.getAttribute("y1"));
    const b = at(+line.getAttribute("x2"), +line.getAttribute("y2"));
    return {
      kind: line.dataset.kind, best: line.classList.contains("b-arrow-best"),
      from: line.dataset.from, to: line.dataset.to, a, b, width, dashes, back, half,
    };
  });
}"""

# Decodes a PNG (the board's photo) in a blank page: width, height, RGBA in base64.
DECODE_JS = """async (b64) => {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/png" }),
    { colorSpaceConversion: "none", premultiplyAlpha: "none" });
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext("2d");
  ctx.drawImage(bitmap, 0, 0);
  const data = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
  let text = "";
  for (let i = 0; i < data.length; i += 0x8000) {
    text += String.fromCharCode.apply(null, data.subarray(i, i + 0x8000));
  }
  return [bitmap.width, bitmap.height, btoa(text)];
}"""


class Photo:
    """A photo of the board: its pixels' colours by device pixel."""

    def __init__(self, decoder: Any, png: bytes) -> None:
        width, height, data = decoder.evaluate(DECODE_JS, base64.b64encode(png).decode())
        self.width, self.height, self.data = width, height, base64.b64decode(data)

    def at(self, x: float, y: float) -> tuple[int, int, int]:
        i = (min(self.height - 1, max(0, round(y))) * self.width) + min(
            self.width - 1, max(0, round(x))
        )
        return (self.data[4 * i], self.data[4 * i + 1], self.data[4 * i + 2])


def luminance(rgb: tuple[int, int, int]) -> float:
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: tuple[int, int, int], other: tuple[int, int, int]) -> float:
    hi, lo = sorted((luminance(one), luminance(other)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _distance(p: tuple[float, float], arrow: dict[str, Any]) -> float:
    """From ``p`` to ``arrow``'s line (its head's tip included)."""
    (ax, ay), (bx, by) = arrow["a"], arrow["b"]
    length = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / length, (by - ay) / length
    t = max(0.0, min(length + arrow["width"], (p[0] - ax) * ux + (p[1] - ay) * uy))
    return math.hypot(p[0] - (ax + t * ux), p[1] - (ay + t * uy))


def _covered(p: tuple[float, float], arrow: dict[str, Any]) -> bool:
    """Whether ``p`` is under ``arrow`` or its casing, head included."""
    reach = max(arrow["width"], 2 * arrow["half"]) / 2 + 4 * BESIDE + 4
    return _distance(p, arrow) < reach


def samples(arrow: dict[str, Any], others: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Points along ``arrow``'s shaft, where its stroke is drawn (between
    dashes' gaps), clear of its head and of every other arrow."""
    (ax, ay), (bx, by) = arrow["a"], arrow["b"]
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    nx, ny = -uy, ux
    edge = arrow["width"] / 2 + BESIDE
    period = sum(arrow["dashes"]) * (2 if len(arrow["dashes"]) % 2 else 1)
    found = []
    s = 1.0
    while s < length - arrow["back"] - arrow["width"] / 2:
        on = not period or (s % period) < arrow["dashes"][0] - arrow["width"] / 2
        centre = (ax + s * ux, ay + s * uy)
        sides = [(centre[0] + k * edge * nx, centre[1] + k * edge * ny) for k in (1, -1)]
        if on and not any(_covered(p, o) for o in others for p in (centre, *sides)):
            found.append({"centre": centre, "sides": sides, "normal": (nx, ny)})
        s += STEP
    return found


def judge(
    arrow: dict[str, Any], points: list[dict[str, Any]], drawn: Photo, under: Photo
) -> dict[str, Any]:
    """The contrast of ``arrow`` at each of its ``points``: the worst, and how many pass."""
    passed, worst_edge, worst_board = 0, math.inf, math.inf
    widths = []
    for point in points:
        colour = drawn.at(*point["centre"])
        beside = [drawn.at(*p) for p in point["sides"]]
        board = [under.at(*p) for p in point["sides"]]
        # The arrow's own colour against what is drawn next to it (its casing).
        edge = min(contrast(colour, b) for b in beside)
        # On each side, the arrow (its colour, or its casing's) against the board there.
        against = min(
            max(contrast(colour, u), contrast(b, u)) for b, u in zip(beside, board, strict=True)
        )
        worst_edge, worst_board = min(worst_edge, edge), min(worst_board, against)
        passed += edge >= CONTRAST and against >= CONTRAST
        widths.append(_width(drawn, under, point, colour))
    return {
        "samples": len(points),
        "passed": passed,
        "edge": round(worst_edge, 2),
        "under": round(worst_board, 2),
        "width": median(widths) if widths else 0.0,
    }


def _width(
    drawn: Photo, under: Photo, point: dict[str, Any], colour: tuple[int, int, int]
) -> float:
    """The arrow's drawn width at ``point``: the run across it of pixels of its
    own colour that are not the board's own there."""
    (cx, cy), (nx, ny) = point["centre"], point["normal"]

    def its_own(x: float, y: float) -> bool:
        seen = drawn.at(x, y)
        changed = sum(abs(a - b) for a, b in zip(seen, under.at(x, y), strict=True)) > 30
        return changed and contrast(seen, colour) < 1.3

    run = 1
    for k in (1, -1):
        step = 1
        while step < 60 and its_own(cx + k * step * nx, cy + k * step * ny):
            step += 1
        run += step - 1
    return float(run)


def measure(page: Any, decoder: Any) -> list[dict[str, Any]]:
    """Every arrow on the board, judged against the board under it."""
    arrows = page.evaluate(GEOMETRY_JS, SCALE)
    board = page.locator("#board")
    drawn = Photo(decoder, board.screenshot(animations="disabled"))
    page.add_style_tag(content="#board g.b-arrows { visibility: hidden; }")
    under = Photo(decoder, board.screenshot(animations="disabled"))
    page.evaluate("() => document.querySelector('style:last-of-type').remove()")
    judged = []
    for i, arrow in enumerate(arrows):
        same = [o for o in arrows[i + 1 :] if _ends(o) == _ends(arrow)]
        if same:
            continue  # a step two plays share: the one drawn last is seen
        others = [o for o in arrows if _ends(o) != _ends(arrow)]
        found = samples(arrow, others)
        # Clear of every arrow but those it lies on: it is hidden only by them.
        hidden = not found and bool(samples(arrow, [o for o in others if not _on(arrow, o)]))
        judged.append({**arrow, **judge(arrow, found, drawn, under), "hidden": hidden})
    return judged


def _on(arrow: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether ``arrow`` lies wholly on ``other``'s line (a step inside a longer one)."""
    return all(_distance(p, other) < 1.5 for p in (arrow["a"], arrow["b"]))


def _ends(arrow: dict[str, Any]) -> tuple[str, str]:
    return (arrow["from"], arrow["to"])


def readable(judged: list[dict[str, Any]]) -> list[str]:
    """What is wrong with the arrows judged, in words (empty: all readable)."""
    wrong = []
    for a in judged:
        name = f"{a['kind']} {a['from']}->{a['to']}"
        if a["samples"] == 0 and a["hidden"]:
            continue  # wholly on another arrow: judged as that one
        if a["samples"] < 3:
            wrong.append(f"{name}: only {a['samples']} samples clear of the others")
        elif a["passed"] != a["samples"]:
            wrong.append(
                f"{name}: {a['passed']}/{a['samples']} samples at 3:1 "
                f"(worst beside {a['edge']}:1, against the board {a['under']}:1)"
            )
    return wrong


def after_the_computers_move(user: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """The computer has played 6-5 from the start; the person rolled 3-1."""
    game = services.start_game_from(user, "casual", Position.start(), Side.DARK, dice=[6, 5])
    play.fixed_dice(monkeypatch, 3, 1)
    play.play_computer_turn(game)
    game.refresh_from_db()
    assert (game.turn, game.dice) == (Side.LIGHT.value, [3, 1])
    return game


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_arrows_read_in_every_theme_on_a_phone(
    browser: Any,
    play_server: str,
    user: Any,
    language: str,
    monkeypatch: pytest.MonkeyPatch,
    held_computer_turns: list,
) -> None:
    context = browser.new_context(
        base_url=play_server,
        locale=LOCALES[language],
        viewport={"width": WIDTH, "height": 800},
        device_scale_factor=SCALE,
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    play.sign_in(page, play_server, user)
    decoder = context.new_page()
    words = WORDS[language]
    problems: dict[str, list[str]] = {}
    figures: dict[str, Any] = {}
    for theme in THEMES:
        play.set_prefs(user, board_theme=theme, language=language, animation_speed="off")
        game = after_the_computers_move(user, monkeypatch)
        page.goto(f"/games/{game.pk}/")
        play.wait_idle(page)
        assert page.locator("body").get_attribute("data-board-theme") == theme
        # The computer's last move, as arrows, and in words.
        last = play.state(page)["last_turn"]
        assert page.locator("#board line.b-arrow-last").count() == len(last["steps"]) > 0
        label = page.locator("#board g.b-arrows").get_attribute("aria-label")
        assert label == words["last"] + last["notation"] + ("。" if language == "zh-hans" else ".")
        assert last["notation"] in page.locator("#play-live").inner_text()
        judged = measure(page, decoder)
        problems[f"{theme} last"] = readable(judged)
        figures[f"{theme} last"] = [(a["edge"], a["under"], a["samples"]) for a in judged]
        # The hint's three best plays: the best thick, the others thinner.
        page.locator("#btn-hint").click()
        page.wait_for_function(
            "() => document.querySelectorAll('#board line.b-arrow-hint:not(.b-arrow-best)').length"
            " > 0",
            timeout=60_000,
        )
        best = page.locator("#hint-list li.best strong").inner_text()
        label = page.locator("#board g.b-arrows").get_attribute("aria-label") or ""
        assert label.startswith(words["hint"]) and best in label
        assert words["ready"] in page.locator("#hint-status").inner_text()
        assert page.locator("#hint-status").get_attribute("aria-live") == "polite"
        judged = measure(page, decoder)
        problems[f"{theme} hint"] = readable(judged)
        figures[f"{theme} hint"] = [
            (a["edge"], a["under"], a["samples"], a["width"]) for a in judged
        ]
        thick = [a["width"] for a in judged if a["best"] and a["samples"]]
        thin = [a["width"] for a in judged if not a["best"] and a["samples"]]
        assert thick and thin, f"{theme}: the best and the other plays both measured"
        problems[f"{theme} best"] = (
            [] if min(thick) >= 1.5 * max(thin) else [f"best {thick} against others {thin}"]
        )
    print(figures)
    assert problems == {name: [] for name in problems}, problems
    context.close()
