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

import { SVG_NS } from "./common.js";

export { SVG_NS };

// Geometry in viewBox units. 5 checkers of 2R fit in a point's height.
const F = 12;   // frame
const LBL = 22; // point-number strip above and below
const PW = 48;  // point width
const BW = 44;  // bar width
const TW = 56;  // bear-off tray width
const PH = 200; // point height
const MID = 56; // gap between the two rows, where dice sit
const R = 19;   // checker radius
const QW = 6 * PW;
export const WIDTH = F + QW + BW + QW + F + TW + F;
export const HEIGHT = LBL + F + PH + MID + PH + F + LBL;
const SLAB = 12; // a borne-off checker, seen edge on
export const GEOM = Object.freeze({ F, LBL, PW, BW, TW, PH, MID, R });

/** Normalises 25/"bar" → "bar", 0/"off" → "off", others to numbers. */
export function placeOf(where) {
  if (where === 25 || where === "bar") return "bar";
  if (where === 0 || where === "off") return "off";
  return Number(where);
}

/** Every coordinate the renderer and the hit targets need. */
export function boardLayout(direction = "right") {
  const mirror = direction === "left";
  const mx = (x) => (mirror ? WIDTH - x : x);
  const colX = (c) => (c < 6 ? F + c * PW + PW / 2 : F + QW + BW + (c - 6) * PW + PW / 2);
  const top = LBL + F;
  const bottom = HEIGHT - LBL - F;
  const points = {};
  for (let p = 1; p <= 24; p += 1) {
    const upper = p >= 13;
    const col = upper ? p - 13 : 12 - p;
    points[p] = { x: mx(colX(col)), base: upper ? top : bottom, dir: upper ? 1 : -1, upper };
  }
  const barX = mx(F + QW + BW / 2);
  const trayX = mx(WIDTH - F - TW / 2);
  const leftHalfX = mx(F + QW / 2);
  const rightHalfX = mx(F + QW + BW + QW / 2);
  return {
    direction, mirror, mx, points, top, bottom, barX, trayX,
    // The person's dice sit on their right (the home half), the computer's
    // on the other half; opening dice: the person's left, the computer's right.
    homeHalfX: rightHalfX, outerHalfX: leftHalfX,
    screenLeftX: Math.min(leftHalfX, rightHalfX), screenRightX: Math.max(leftHalfX, rightHalfX),
    midY: HEIGHT / 2,
  };
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  if (parent) parent.appendChild(node);
  return node;
}

/** A named layer <g> inside the svg, created once and reused. */
export function layer(svgEl, name) {
  let g = svgEl.querySelector(`:scope > g.b-${name}`);
  if (!g) g = el("g", { class: `b-${name}` }, svgEl);
  return g;
}

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

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

/** Centre of checker `i` (0 = the first) on `where` for `side`. */
export function checkerCentre(layout, where, side, i) {
  const place = placeOf(where);
  if (place === "bar") {
    // LIGHT's bar checkers above the middle, DARK's below: each near the
    // half of the board where it has to enter.
    const step = Math.min(i, 3) * 2 * R;
    return side === "light"
      ? { x: layout.barX, y: layout.midY - MID / 2 - R - step }
      : { x: layout.barX, y: layout.midY + MID / 2 + R + step };
  }
  if (place === "off") {
    const slabY = side === "light" ? layout.bottom - SLAB / 2 - i * SLAB : layout.top + SLAB / 2 + i * SLAB;
    return { x: layout.trayX, y: slabY };
  }
  const pt = layout.points[place];
  return { x: pt.x, y: pt.base + pt.dir * (R + Math.min(i, 4) * 2 * R) };
}

function countOn(board, where, side) {
  const place = placeOf(where);
  if (place === "bar") return board.bar[side] || 0;
  if (place === "off") return board.off[side] || 0;
  const n = board.points[place - 1] || 0;
  return side === "light" ? Math.max(n, 0) : Math.max(-n, 0);
}

/** Where the next checker moving onto / the top one leaving `where` sits. */
export function anchorOf(layout, where, side, board, leaving = true) {
  const n = board ? countOn(board, where, side) : 0;
  const i = leaving ? Math.max(n - 1, 0) : n;
  return checkerCentre(layout, where, side, i);
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

/**
 * The board after one step of `side`, from display points. A hit sends the
 * other side's blot to its bar. Used to animate a play step by step.
 */
export function applyStep(board, step, side) {
  const next = {
    points: board.points.slice(), bar: { ...board.bar }, off: { ...board.off },
  };
  const sign = side === "light" ? 1 : -1;
  const other = side === "light" ? "dark" : "light";
  const src = placeOf(step.from);
  const dst = placeOf(step.to);
  if (src === "bar") next.bar[side] -= 1;
  else next.points[src - 1] -= sign;
  if (dst === "off") {
    next.off[side] += 1;
  } else {
    if (next.points[dst - 1] === -sign) {
      next.points[dst - 1] = 0;
      next.bar[other] += 1;
    }
    next.points[dst - 1] += sign;
  }
  return next;
}

/** The board before one step of `side` (applyStep undone, hit included). */
export function unapplyStep(board, step, side) {
  const next = {
    points: board.points.slice(), bar: { ...board.bar }, off: { ...board.off },
  };
  const sign = side === "light" ? 1 : -1;
  const other = side === "light" ? "dark" : "light";
  const src = placeOf(step.from);
  const dst = placeOf(step.to);
  if (dst === "off") {
    next.off[side] -= 1;
  } else {
    next.points[dst - 1] -= sign;
    if (step.hit) {
      next.points[dst - 1] = -sign;
      next.bar[other] -= 1;
    }
  }
  if (src === "bar") next.bar[side] += 1;
  else next.points[src - 1] += sign;
  return next;
}

export function sameBoard(a, b) {
  return JSON.stringify([a.points, a.bar.light, a.bar.dark, a.off.light, a.off.dark])
    === JSON.stringify([b.points, b.bar.light, b.bar.dark, b.off.light, b.off.dark]);
}

export { countOn };
