// The board renderer: draws a §4 `board` object into an <svg>, with no
// network and no game logic, so the play page and the review page share it.
//
//   renderBoard(svgEl, board, {direction, dice, selected, sources,
//                              destinations, lastPlays, cube})
//   drawArrows(svgEl, steps, {side})      clearArrows(svgEl)
//   anchorOf(layout, where, side, board)  where a checker on `where` sits
//
// Points are display points (LIGHT's numbering): 1..24, 25 or "bar" for a
// bar, 0 or "off" for the bear-off tray. LIGHT (the person) moves 24 → 1 with
// its home board bottom right ("right") or bottom left ("left").
//
// Its parts: geometry.js (where everything sits), svg.js (elements and
// layers), arrows.js, steps.js (a board one step later or earlier); this
// module re-exports them, so a page imports the board from here.

import { SVG_NS } from "./common.js";
import { GEOM, HEIGHT, WIDTH, anchorOf, boardLayout, checkerCentre, placeOf } from "./geometry.js";
import { clear, el, layer } from "./svg.js";

export { SVG_NS };
export { GEOM, HEIGHT, WIDTH, anchorOf, boardLayout, checkerCentre, countOn, placeOf } from "./geometry.js";
export { layer } from "./svg.js";
export { clearArrows, drawArrows } from "./arrows.js";
export { applyStep, sameBoard, unapplyStep } from "./steps.js";

const { F, LBL, PW, BW, TW, PH, MID, R, QW, SLAB } = GEOM;

function ensureFrame(svgEl, layout) {
  if (svgEl.dataset.direction === layout.direction && svgEl.querySelector("g.b-frame")) return;
  svgEl.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  // Layers in paint order; targets (added by the play page) come last.
  for (const name of ["frame", "marks", "checkers", "dice", "doubling", "arrows", "moving"]) layer(svgEl, name);
  const g = layer(svgEl, "frame");
  clear(g);
  svgEl.dataset.direction = layout.direction;
  el("rect", { class: "b-wood", x: 0, y: LBL, width: WIDTH, height: HEIGHT - 2 * LBL, rx: 6 }, g);
  const fieldLeft = layout.mx(F);
  const fieldRight = layout.mx(F + 2 * QW + BW);
  el("rect", {
    class: "b-field", x: Math.min(fieldLeft, fieldRight), y: LBL + F,
    width: 2 * QW + BW, height: HEIGHT - 2 * (LBL + F),
  }, g);
  el("rect", { class: "b-bar", x: layout.barX - BW / 2, y: LBL, width: BW, height: HEIGHT - 2 * LBL }, g);
  el("rect", { class: "b-tray", x: layout.trayX - TW / 2 + 4, y: LBL + F, width: TW - 8, height: PH }, g);
  el("rect", { class: "b-tray", x: layout.trayX - TW / 2 + 4, y: HEIGHT - LBL - F - PH, width: TW - 8, height: PH }, g);
  for (let p = 1; p <= 24; p += 1) drawTriangle(g, layout.points[p], p);
}

function drawTriangle(g, pt, p) {
  const tip = pt.base + pt.dir * (PH - 8);
  const pts = `${pt.x - PW / 2 + 1},${pt.base} ${pt.x + PW / 2 - 1},${pt.base} ${pt.x},${tip}`;
  el("polygon", { class: `b-point ${p % 2 ? "b-point-odd" : "b-point-even"}`, points: pts }, g);
  const labelY = pt.upper ? LBL - 5 : HEIGHT - 4;
  const label = el("text", { class: "b-label", x: pt.x, y: labelY, "text-anchor": "middle" }, g);
  label.textContent = String(p);
}

function drawChecker(g, c, side, label) {
  el("circle", { class: `b-checker b-${side}`, cx: c.x, cy: c.y, r: R - 1 }, g);
  el("circle", { class: "b-checker-rim", cx: c.x, cy: c.y, r: R - 6 }, g);
  if (label) {
    const t = el("text", { class: `b-count b-count-${side}`, x: c.x, y: c.y + 5, "text-anchor": "middle" }, g);
    t.textContent = label;
  }
}

function drawStack(g, layout, where, side, n, max) {
  for (let i = 0; i < Math.min(n, max); i += 1) {
    const label = n > max && i === max - 1 ? String(n) : "";
    drawChecker(g, checkerCentre(layout, where, side, i), side, label);
  }
}

function drawOff(g, layout, side, n) {
  for (let i = 0; i < n; i += 1) {
    const c = checkerCentre(layout, "off", side, i);
    el("rect", { class: `b-slab b-${side}`, x: c.x - TW / 2 + 9, y: c.y - SLAB / 2 + 1, width: TW - 18, height: SLAB - 2, rx: 2 }, g);
  }
}

function drawCheckers(svgEl, layout, board) {
  const g = layer(svgEl, "checkers");
  clear(g);
  board.points.forEach((n, idx) => {
    if (n > 0) drawStack(g, layout, idx + 1, "light", n, 5);
    if (n < 0) drawStack(g, layout, idx + 1, "dark", -n, 5);
  });
  drawStack(g, layout, "bar", "light", board.bar.light || 0, 4);
  drawStack(g, layout, "bar", "dark", board.bar.dark || 0, 4);
  drawOff(g, layout, "light", board.off.light || 0);
  drawOff(g, layout, "dark", board.off.dark || 0);
}

const PIPS = {
  1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

function drawDie(g, x, y, die) {
  const size = 34;
  const cls = `b-die b-die-${die.side || "light"}${die.used ? " b-die-used" : ""}`;
  const d = el("g", { class: cls, "data-value": die.value, "data-used": die.used ? "1" : "0" }, g);
  el("rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, rx: 6 }, d);
  for (const [px, py] of PIPS[die.value] || []) {
    el("circle", { class: "b-pip", cx: x + px * 9, cy: y + py * 9, r: 3.4 }, d);
  }
}

/**
 * Dice: a list of {value, used, side, slot}. slot "home"/"outer" puts a group
 * on the half where the person or the computer rolls; "left"/"right" places
 * a single opening die on that half of the screen.
 */
function drawDice(svgEl, layout, dice) {
  const g = layer(svgEl, "dice");
  clear(g);
  if (!dice || !dice.length) return;
  const slots = {};
  for (const die of dice) (slots[die.slot || "home"] ||= []).push(die);
  for (const [slot, group] of Object.entries(slots)) {
    const cx = { home: layout.homeHalfX, outer: layout.outerHalfX, left: layout.screenLeftX, right: layout.screenRightX }[slot];
    group.forEach((die, i) => drawDie(g, cx + (i - (group.length - 1) / 2) * 42, layout.midY, die));
  }
}

function drawMarks(svgEl, layout, board, opts) {
  const g = layer(svgEl, "marks");
  clear(g);
  const mark = (where, cls) => {
    const place = placeOf(where);
    if (place === "bar") {
      el("rect", { class: cls, x: layout.barX - BW / 2 + 2, y: LBL + F, width: BW - 4, height: PH + MID / 2 }, g);
    } else if (place === "off") {
      el("rect", { class: cls, x: layout.trayX - TW / 2 + 4, y: HEIGHT - LBL - F - PH, width: TW - 8, height: PH }, g);
    } else {
      const pt = layout.points[place];
      const y = pt.upper ? pt.base : pt.base - PH;
      el("rect", { class: cls, x: pt.x - PW / 2 + 1, y, width: PW - 2, height: PH }, g);
    }
  };
  for (const play of opts.lastPlays || []) markLastPlay(g, layout, play);
  for (const where of opts.sources || []) mark(where, "b-mark-source");
  for (const where of opts.destinations || []) mark(where, "b-mark-dest");
  if (opts.selected !== null && opts.selected !== undefined) mark(opts.selected, "b-mark-selected");
}

/**
 * The last play of a side, marked on the frame beside each point it left
 * (hollow) and each it reached (filled): {side, steps} in display points.
 */
function markLastPlay(g, layout, play) {
  const froms = new Set(play.steps.map((s) => placeOf(s.from)));
  const tos = new Set(play.steps.map((s) => placeOf(s.to)));
  const hits = new Set(play.steps.filter((s) => s.hit).map((s) => placeOf(s.to)));
  // A checker passing through a point (13/7/2) neither left nor reached it.
  for (const where of froms) {
    if (!tos.has(where)) lastMark(g, layout, where, `b-last b-last-from b-last-${play.side}`, play.side);
  }
  for (const where of tos) {
    if (froms.has(where)) continue;
    const hit = hits.has(where) ? " b-last-hit" : "";
    lastMark(g, layout, where, `b-last b-last-to b-last-${play.side}${hit}`, play.side);
  }
}

function lastMark(g, layout, where, cls, side) {
  const strip = F - 4;
  let x;
  let y;
  const width = where === "off" ? TW - 16 : PW - 8;
  if (where === "bar" || where === "off") {
    // The bar and the tray: on the side of the board that side plays from.
    x = (where === "bar" ? layout.barX : layout.trayX) - width / 2;
    y = side === "dark" ? LBL + 2 : HEIGHT - LBL - F + 2;
  } else {
    const pt = layout.points[where];
    x = pt.x - width / 2;
    y = pt.upper ? LBL + 2 : HEIGHT - LBL - F + 2;
  }
  el("rect", { class: cls, x, y, width, height: strip, rx: 2, "data-last": where, "data-side": side }, g);
}

/**
 * The doubling cube on the bar: in the middle while no one owns it, at the
 * owner's edge (the person's at the bottom) once taken. A double on offer
 * shows the new value in the middle. A cube in the middle at 1 shows 64, as
 * every board does (its `data-value` stays 1). As wide as the bar; a narrow
 * screen draws it larger (board.css) so that it stays readable and tappable.
 * `cube`: {value, owner, offered} or null.
 */
function drawCube(svgEl, layout, cube) {
  const g = layer(svgEl, "doubling");
  clear(g);
  if (!cube) return;
  const size = BW;
  const offered = Boolean(cube.offered);
  const owner = offered ? "centre" : cube.owner || "centre";
  const y = { light: layout.bottom - size / 2 - 4, dark: layout.top + size / 2 + 4 }[owner] ?? layout.midY;
  const value = offered ? cube.value * 2 : cube.value;
  const c = el("g", {
    class: `b-cube b-cube-${owner}${offered ? " b-cube-offered" : ""}`,
    "data-value": value, "data-owner": owner, "data-offered": offered ? cube.offered : "",
  }, g);
  el("rect", { x: layout.barX - size / 2, y: y - size / 2, width: size, height: size, rx: 6 }, c);
  const t = el("text", {
    class: "b-cube-value", x: layout.barX, y, "text-anchor": "middle", "dominant-baseline": "central",
  }, c);
  t.textContent = String(owner === "centre" && value === 1 ? 64 : value);
}

/** Draws `board` (a §4 board object). Returns the layout used. */
export function renderBoard(svgEl, board, options = {}) {
  const layout = boardLayout(options.direction || "right");
  ensureFrame(svgEl, layout);
  drawMarks(svgEl, layout, board, options);
  drawCheckers(svgEl, layout, board);
  drawDice(svgEl, layout, options.dice || []);
  drawCube(svgEl, layout, options.cube || null);
  svgEl.__layout = layout;
  svgEl.__board = board;
  return layout;
}

/** Moves one checker of `side` from `from` to `to` over `ms`; resolves when done. */
export function animateChecker(svgEl, board, step, side, ms) {
  const layout = svgEl.__layout || boardLayout("right");
  const a = anchorOf(layout, step.from, side, board, true);
  const b = anchorOf(layout, step.to, side, board, false);
  const g = layer(svgEl, "moving");
  clear(g);
  if (!ms || ms <= 0 || typeof g.animate !== "function") return Promise.resolve();
  const mover = el("g", {}, g);
  drawChecker(mover, { x: 0, y: 0 }, side, "");
  const frames = [
    { transform: `translate(${a.x}px, ${a.y}px)` },
    { transform: `translate(${b.x}px, ${b.y}px)` },
  ];
  const anim = mover.animate(frames, { duration: ms, easing: "ease-in-out", fill: "forwards" });
  return anim.finished.then(() => clear(g), () => clear(g));
}
