// Arrows on the board: a hint's, the computer's last play, a ranked play's
// (display points, as board.js draws them).
//
//   drawArrows(svgEl, steps, {side, kind, best, keep, label})   clearArrows(svgEl)

import { boardLayout, checkerCentre } from "./geometry.js";
import { clear, el, layer } from "./svg.js";

export function clearArrows(svgEl) {
  const g = layer(svgEl, "arrows");
  clear(g);
  g.removeAttribute("role");
  g.removeAttribute("aria-label");
}

// One head per side, in its arrow's colour and outlined in its casing's
// (css/themes.css), three stroke widths long.
function ensureArrowHeads(svgEl) {
  if (svgEl.querySelector("#b-arrowhead")) return;
  const defs = el("defs", {}, null);
  svgEl.insertBefore(defs, svgEl.firstChild);
  for (const side of ["light", "dark"]) {
    const marker = el("marker", {
      id: arrowHead(side), viewBox: "0 0 10 10", refX: 8, refY: 5, overflow: "visible",
      markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse",
    }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z", class: `b-arrowhead b-arrowhead-${side}` }, marker);
  }
}

const arrowHead = (side) => (side === "dark" ? "b-arrowhead-dark" : "b-arrowhead");

/**
 * Arrows for a sequence of steps [{from, to}] (display points; 25/"bar",
 * 0/"off"), e.g. a hint or the computer's last play. Checkers are assumed to
 * be on the board as it was drawn last by renderBoard. Each arrow lies on a
 * casing of a colour set off from its own, so that it reads on any point,
 * checker or bar under it (tests/browser/test_arrow_contrast.py).
 */
export function drawArrows(svgEl, steps, options = {}) {
  const side = options.side || "light";
  const layout = svgEl.__layout || boardLayout(options.direction || "right");
  ensureArrowHeads(svgEl);
  const g = layer(svgEl, "arrows");
  if (!options.keep) clearArrows(svgEl);
  const kind = options.kind || side;
  const cls = `b-arrow b-arrow-${kind}${options.best ? " b-arrow-best" : ""}`;
  const size = options.best ? "thick" : kind === "hint" ? "thin" : "plain";
  for (const step of steps || []) {
    const a = checkerCentre(layout, step.from, side, 0);
    const b = checkerCentre(layout, step.to, side, 0);
    const ends = { x1: a.x, y1: a.y, x2: b.x, y2: b.y };
    el("line", { class: `b-arrow-casing b-arrow-casing-${side} b-arrow-casing-${size}`, ...ends }, g);
    el("line", {
      class: cls, ...ends, "marker-end": `url(#${arrowHead(side)})`,
      "data-kind": kind, "data-from": step.from, "data-to": step.to,
    }, g);
  }
  // What the arrows show, in words, for a screen reader (options.label).
  if (options.label) {
    g.setAttribute("role", "img");
    g.setAttribute("aria-label", options.label);
  }
}
