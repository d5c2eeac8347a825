// Clicks and keys on a study board (analysis, practice): the board's
// focusable targets from the play page's targets.js, one handler for a
// click, Enter or Space on a point, and the arrow keys between points.
//
//   wireBoard(svg, {direction, onPick(where, ev), onKey(ev)})
//   toTarget(where)   a step's "bar"/"off" as the targets' 25/0
//   pickPoint(state, where, {walk, draw})  one pick while entering a play
//   postJson(url, body)  fetch with the page's CSRF token

import { buildTargets, focusTarget, neighbour } from "../games/targets.js";

export function toTarget(where) {
  if (where === "bar") return 25;
  if (where === "off") return 0;
  return Number(where);
}

/**
 * A pick on `where` while entering a play (`state.turn.allowed`,
 * `state.selected`, `state.steps`): the allowed step from the selected
 * checker to `where` is taken (then `walk()`), else the checker on `where`
 * is selected, or dropped when picked again (then `draw()`).
 */
export function pickPoint(state, where, { walk, draw }) {
  const allowed = state.turn ? state.turn.allowed : [];
  if (state.selected !== null && allowed.some((s) => s.from === state.selected && s.to === where)) {
    state.steps.push([state.selected, where]);
    state.selected = null;
    walk();
    return;
  }
  state.selected = allowed.some((s) => s.from === where) && state.selected !== where ? where : null;
  draw();
}

/** Call after the first renderBoard, so the targets lie above the board. */
export function wireBoard(svg, { direction, onPick, onKey }) {
  let row = "top";
  buildTargets(svg, direction);
  const pick = (node, ev) => {
    const where = Number(node.dataset.point);
    onPick(where, ev);
    // Re-rendering may replace nodes; keep the keyboard where it was.
    focusTarget(svg, where);
  };
  svg.addEventListener("click", (ev) => {
    const node = ev.target.closest("[data-point]");
    if (node) pick(node, ev);
  });
  svg.addEventListener("contextmenu", (ev) => {
    const node = ev.target.closest("[data-point]");
    if (!node) return;
    ev.preventDefault();
    onPick(Number(node.dataset.point), { ...ev, shiftKey: true, remove: true });
  });
  svg.addEventListener("keydown", (ev) => {
    const node = ev.target.closest("[data-point]");
    if (!node) return;
    const where = Number(node.dataset.point);
    if (ev.key.startsWith("Arrow")) {
      ev.preventDefault();
      // The bar (25) and the tray (0) span both rows: keep the row they were reached from.
      if (where >= 13 && where <= 24) row = "top";
      else if (where >= 1 && where <= 12) row = "bottom";
      const next = neighbour(svg, where, ev.key, row);
      row = next.row;
      focusTarget(svg, next.where);
      return;
    }
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      pick(node, ev);
      return;
    }
    if (onKey && onKey(ev, where)) ev.preventDefault();
  });
}

function csrfToken() {
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

export async function postJson(url, body) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), Accept: "application/json" },
    body: JSON.stringify(body),
  });
  let data = {};
  try {
    data = await res.json();
  } catch (_err) {
    data = {};
  }
  return { ok: res.ok, status: res.status, data };
}

export async function getJson(url) {
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  return { ok: res.ok, status: res.status, data: res.ok ? await res.json() : {} };
}
