// The board's geometry in viewBox units, and where each checker sits: the
// renderer (board.js), its arrows (arrows.js) and the play page's hit
// targets (targets.js) place everything from here.
//
// Points are display points (LIGHT's numbering): 1..24, 25 or "bar" for a
// bar, 0 or "off" for the bear-off tray. LIGHT (the person) moves 24 → 1 with
// its home board bottom right ("right") or bottom left ("left").

// Geometry in viewBox units. 5 checkers of 2R fit in a point's height.
const F = 12;   // frame
const LBL = 22; // point-number strip above and below
const PW = 48;  // point width
const BW = 50;  // bar width: 33 px to tap on an upright board at 375 px (board.css)
const TW = 56;  // bear-off tray width
const PH = 200; // point height
const MID = 56; // gap between the two rows, where dice sit
const R = 19;   // checker radius
const QW = 6 * PW;
export const WIDTH = F + QW + BW + QW + F + TW + F;
export const HEIGHT = LBL + F + PH + MID + PH + F + LBL;
const SLAB = 12; // a borne-off checker, seen edge on
export const GEOM = Object.freeze({ F, LBL, PW, BW, TW, PH, MID, R, QW, SLAB });

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

export { countOn };
