// The person's input: clicks, drags and keys turned into commands. A
// checker is picked up, then put down; the server decides if that is legal.

import { layer } from "./board.js";
import { byId, fmt, say, sentences, SVG_NS } from "./common.js";
import { attachCube, cubeKey, resignKind } from "./cube.js";
import { allowedFrom, canAct, live, own } from "./page.js";
import { focusTarget, neighbour } from "./targets.js";
import { render } from "./render.js";
import * as V from "./view.js";

export function send(page, type, fields = {}) {
  const id = page.conn.send(type, fields);
  if (id) render(page);
  return id;
}

export function refused(page, msg) {
  page.selected = null;
  render(page);
  say("play-live", "");  // the pick's words are no longer true
  say("play-refusal", msg.message || page.S.refused_generic);
}

function activate(page, where) {
  const { S, state } = page;
  if (!canAct(page)) {
    if (live(state) && state.turn !== "light") say("play-refusal", S.wait_turn);
    return;
  }
  if (page.selected === null) {
    if (own(page, where)) select(page, where);
    else say("play-refusal", S.nothing_there);
    return;
  }
  if (where === page.selected) {
    page.selected = null;
    render(page);
    say("play-live", S.put_back);
    return;
  }
  const legal = allowedFrom(page, page.selected).some((s) => s.to === where);
  if (!legal && own(page, where) && allowedFrom(page, where).length) {
    select(page, where);
    return;
  }
  // Not known to be legal: the server answers with the reason in words.
  const from = page.selected;
  page.selected = null;
  send(page, "step", { from, to: where });
}

function select(page, where) {
  const { S } = page;
  page.selected = where;
  render(page);
  const dests = allowedFrom(page, where).map((s) => V.placeName(S, s.to));
  const first = fmt(S.picked, { place: V.placeName(S, where) });
  say("play-live", sentences([first, dests.length ? fmt(S.can_go, { list: dests.join(S.list_sep) }) : S.cannot_go]));
}

function pointOf(node) {
  const target = node && node.closest ? node.closest("[data-point]") : null;
  return target ? Number(target.dataset.point) : null;
}

function svgPoint(svg, event) {
  const pt = svg.createSVGPoint();
  pt.x = event.clientX;
  pt.y = event.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

function onPointerDown(page, event) {
  const where = pointOf(event.target);
  if (where === null || !canAct(page) || !own(page, where) || event.button > 0) return;
  page.drag = { where, x: event.clientX, y: event.clientY, moved: false, ghost: null };
}

function onPointerMove(page, event) {
  const drag = page.drag;
  if (!drag) return;
  if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
  if (!drag.moved) {
    drag.moved = true;
    page.selected = drag.where;
    render(page);
    drag.ghost = document.createElementNS(SVG_NS, "circle");
    drag.ghost.setAttribute("r", "18");
    drag.ghost.setAttribute("class", "b-checker b-light b-ghost");
    layer(page.svg, "moving").appendChild(drag.ghost);
  }
  const p = svgPoint(page.svg, event);
  drag.ghost.setAttribute("cx", String(p.x));
  drag.ghost.setAttribute("cy", String(p.y));
}

function onPointerUp(page, event) {
  const was = page.drag;
  if (!was) return;
  page.drag = null;
  if (!was.moved) return;
  was.ghost.remove();
  // The click that may follow this pointerup belongs to the drag.
  page.suppressClick = true;
  window.setTimeout(() => { page.suppressClick = false; }, 0);
  const where = pointOf(document.elementFromPoint(event.clientX, event.clientY));
  if (where === null || where === was.where) {
    page.selected = null;
    render(page);
    return;
  }
  activate(page, where);
}

function onClick(page, event) {
  if (page.suppressClick) {
    page.suppressClick = false;
    return;
  }
  const where = pointOf(event.target);
  if (where !== null) activate(page, where);
}

/** Keys go to the page, not to a form field or an open dialog. */
export function keyForPage(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return false;
  const t = event.target;
  if (document.querySelector("dialog[open]")) return false;
  return !(t.closest && t.closest("input, textarea, select, [contenteditable]"));
}

function onKeyDown(page, event) {
  if (!keyForPage(event)) return;
  const t = event.target;
  if (cubeKey(page, send, event)) {
    event.preventDefault();
    return;
  }
  const where = pointOf(t);
  if (where !== null && onTargetKey(page, event, where)) return;
  if (event.key === "u" || event.key === "U" || event.key === "Backspace") {
    event.preventDefault();
    undo(page);
  } else if (event.key === "Enter" && !(t.closest && t.closest("button, a"))) {
    if (page.state.can_end_turn) {
      event.preventDefault();
      endTurn(page);
    }
  } else if (event.key === "Escape" && page.selected !== null) {
    page.selected = null;
    render(page);
  }
}

function onTargetKey(page, event, where) {
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    // Enter on the board ends a finished turn only if nothing is picked up
    // and there is nothing to pick up here.
    if (event.key === "Enter" && page.state.can_end_turn && page.selected === null
        && !allowedFrom(page, where).length) endTurn(page);
    else activate(page, where);
    return true;
  }
  if (event.key.startsWith("Arrow")) {
    event.preventDefault();
    const row = where >= 13 ? "top" : where >= 1 ? "bottom" : page.focusRow;
    const next = neighbour(page.svg, where, event.key, row);
    page.focusRow = next.row;
    focusTarget(page.svg, next.where);
    return true;
  }
  return false;
}

function undo(page) {
  const s = page.state;
  if (live(s) && s.turn === "light" && s.can_undo && !page.animating) {
    page.selected = null;
    if (send(page, "undo")) say("play-refusal", "");
  }
}

function endTurn(page) {
  const s = page.state;
  if (live(s) && s.turn === "light" && s.can_end_turn && !page.animating) send(page, "end_turn");
}

function setUpResign(page) {
  const dialog = byId("resign-dialog");
  byId("btn-resign").addEventListener("click", () => {
    // Each offer starts from a single game: the least the person gives away.
    const single = dialog.querySelector('input[name="resign-kind"][value="single"]');
    if (single) single.checked = true;
    dialog.showModal();
  });
  byId("resign-cancel").addEventListener("click", () => dialog.close());
  byId("resign-confirm").addEventListener("click", () => {
    dialog.close();
    send(page, "resign", { kind: resignKind() });
  });
}

export function attachInput(page) {
  const { svg } = page;
  svg.addEventListener("pointerdown", (e) => onPointerDown(page, e));
  window.addEventListener("pointermove", (e) => onPointerMove(page, e));
  window.addEventListener("pointerup", (e) => onPointerUp(page, e));
  svg.addEventListener("click", (e) => onClick(page, e));
  document.addEventListener("keydown", (e) => onKeyDown(page, e));
  byId("btn-undo").addEventListener("click", () => undo(page));
  byId("btn-end").addEventListener("click", () => endTurn(page));
  setUpResign(page);
  attachCube(page, send);
  for (const node of layer(svg, "targets").children) {
    node.addEventListener("focus", () => {
      const where = Number(node.dataset.point);
      if (where >= 1 && where <= 24) page.focusRow = where >= 13 ? "top" : "bottom";
    });
  }
}
