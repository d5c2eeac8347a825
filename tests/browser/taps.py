"""What a thumb can tap on a board: the size on the screen of every target
of a board (its 24 points, the bar, the tray) and of the target a tap on
each drawn checker lands on. Used by the course's and the play page's
browser tests at 375 px (issue 45: checkers and the tray/bar 32 px or more)."""

from __future__ import annotations

from typing import Any

# The smallest side of a tap target, in CSS pixels.
TAP = 32

TAPS_JS = """(selector) => {
  const svg = document.querySelector(selector);
  svg.scrollIntoView({ block: "center" });
  const sides = (node) => {
    const r = node.getBoundingClientRect();
    return [r.width, r.height];
  };
  const targets = {};
  for (const node of svg.querySelectorAll("[data-point]")) {
    targets[node.dataset.point] = sides(node);
  }
  const checkers = [...svg.querySelectorAll(".b-checker")].map((circle) => {
    const r = circle.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const target = hit && hit.closest ? hit.closest("[data-point]") : null;
    return {
      drawn: [r.width, r.height],
      point: target ? target.dataset.point : null,
      target: target ? sides(target) : null,
    };
  });
  const box = svg.getBoundingClientRect();
  return { targets, checkers, board: [box.left, box.top, box.right, box.bottom] };
}"""


def phone(browser: Any, base_url: str, locale: str = "zh-CN") -> Any:
    """A browser context as a 375 px phone held upright, tapped by a thumb."""
    return browser.new_context(
        base_url=base_url,
        locale=locale,
        viewport={"width": 375, "height": 812},
        has_touch=True,
        is_mobile=True,
    )


def taps(page: Any, selector: str) -> dict[str, Any]:
    """The board ``selector``'s targets and checkers, as a thumb meets them."""
    return dict(page.evaluate(TAPS_JS, selector))


def too_small(found: dict[str, Any]) -> list[Any]:
    """Every target under 32 px on a side, and every checker whose tap lands
    on no target or on one under 32 px."""
    small: list[Any] = [
        (point, sides) for point, sides in found["targets"].items() if min(sides) < TAP
    ]
    for checker in found["checkers"]:
        if checker["target"] is None or min(checker["target"]) < TAP:
            small.append(checker)
    return small
