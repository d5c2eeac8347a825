// A board one step later or earlier, in display points: the play page
// animates a play step by step, and takes a step back, with these.

import { placeOf } from "./geometry.js";

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
