// Focusable, clickable targets over the board: 24 points, the person's bar
// (25) and the bear-off tray (0). One roving tab stop; arrow keys move focus
// the way the eye reads the board (left/right along a row, up/down between
// the rows).

import { HEIGHT, GEOM, boardLayout, layer } from "./board.js";
import { SVG_NS } from "./common.js";

const { PW, BW, TW, PH, LBL, F } = GEOM;

function rect(g, attrs) {
  const node = document.createElementNS(SVG_NS, "rect");
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  g.appendChild(node);
  return node;
}

/** Builds (or rebuilds, when the direction changes) the target layer. */
export function buildTargets(svgEl, direction) {
  const g = layer(svgEl, "targets");
  if (g.dataset.direction === direction) return g;
  while (g.firstChild) g.removeChild(g.firstChild);
  g.dataset.direction = direction;
  const layout = boardLayout(direction);
  const common = { class: "b-target", role: "button", tabindex: "-1" };
  for (let p = 1; p <= 24; p += 1) {
    const pt = layout.points[p];
    const y = pt.upper ? pt.base : pt.base - PH;
    rect(g, { ...common, "data-point": p, x: pt.x - PW / 2, y, width: PW, height: PH });
  }
  rect(g, { ...common, "data-point": 25, x: layout.barX - BW / 2, y: LBL, width: BW, height: HEIGHT - 2 * LBL });
  rect(g, { ...common, "data-point": 0, x: layout.trayX - TW / 2, y: LBL + F, width: TW, height: HEIGHT - 2 * (LBL + F) });
  const first = g.querySelector('[data-point="24"]');
  first.setAttribute("tabindex", "0");
  g.__rows = rowsOf(layout);
  return g;
}

function rowsOf(layout) {
  const xOf = (p) => (p === 25 ? layout.barX : p === 0 ? layout.trayX : layout.points[p].x);
  const top = [25, 0];
  const bottom = [25, 0];
  for (let p = 1; p <= 24; p += 1) (p >= 13 ? top : bottom).push(p);
  const byX = (a, b) => xOf(a) - xOf(b);
  return { top: top.sort(byX), bottom: bottom.sort(byX), xOf };
}

export function targetFor(svgEl, where) {
  return layer(svgEl, "targets").querySelector(`[data-point="${where}"]`);
}

/** Moves the roving tab stop to `where` and focuses it. */
export function focusTarget(svgEl, where) {
  const g = layer(svgEl, "targets");
  const next = targetFor(svgEl, where);
  if (!next) return;
  for (const node of g.querySelectorAll('[tabindex="0"]')) node.setAttribute("tabindex", "-1");
  next.setAttribute("tabindex", "0");
  next.focus();
}

/**
 * The target an arrow key leads to from `where`. `row` says which row the
 * bar or tray was reached from, since they span both rows.
 */
export function neighbour(svgEl, where, key, row) {
  const rows = layer(svgEl, "targets").__rows;
  const inTop = where === 25 || where === 0 ? row === "top" : where >= 13;
  const current = inTop ? rows.top : rows.bottom;
  const i = current.indexOf(where);
  if (key === "ArrowLeft") return { where: current[Math.max(i - 1, 0)], row: inTop ? "top" : "bottom" };
  if (key === "ArrowRight") return { where: current[Math.min(i + 1, current.length - 1)], row: inTop ? "top" : "bottom" };
  const other = key === "ArrowUp" ? rows.top : rows.bottom;
  const x = rows.xOf(where);
  let best = other[0];
  for (const p of other) if (Math.abs(rows.xOf(p) - x) < Math.abs(rows.xOf(best) - x)) best = p;
  return { where: best, row: key === "ArrowUp" ? "top" : "bottom" };
}
