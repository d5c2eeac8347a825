// The play page: one game against the computer, live over a WebSocket.
// The server decides everything; this module shows the state it sends,
// turns clicks, drags and keys into commands, and animates the computer.

import { renderBoard, animateChecker, applyStep, sameBoard, clearArrows, layer, SVG_NS } from "./board.js";
import { buildTargets, focusTarget, neighbour, targetFor } from "./targets.js";
import { GameSocket } from "./socket.js";
import * as V from "./view.js";

const SPEEDS = { slow: 900, normal: 500, fast: 220, instant: 0 };

function readJson(id) {
  const node = document.getElementById(id);
  if (!node) return {};
  let value = JSON.parse(node.textContent);
  // The view may hand over a JSON string (then json_script wraps it again).
  if (typeof value === "string") value = JSON.parse(value);
  return value || {};
}

function pick(obj, keys, fallback) {
  for (const key of keys) if (obj[key] !== undefined && obj[key] !== null && obj[key] !== "") return obj[key];
  return fallback;
}

export function readPrefs(raw) {
  const speed = pick(raw, ["animation_ms", "animation_speed", "speed"], "normal");
  const direction = String(pick(raw, ["board_direction", "direction", "home_board"], "right"));
  return {
    autoEndTurn: Boolean(pick(raw, ["auto_end_turn", "auto_end"], true)),
    showPips: Boolean(pick(raw, ["show_pips", "show_pip_count", "pip_count"], true)),
    highlight: Boolean(pick(raw, ["highlight_moves", "highlight_legal", "highlight_destinations", "highlight"], true)),
    direction: direction.includes("left") ? "left" : "right",
    stepMs: Number.isFinite(Number(speed)) ? Number(speed) : (SPEEDS[speed] ?? SPEEDS.normal),
  };
}

const root = document.getElementById("play");
const svg = document.getElementById("board");
const S = readJson("board-strings");
const prefs = readPrefs(readJson("game-prefs"));
const $ = (id) => document.getElementById(id);

let state = readJson("game-state");
let selected = null;        // the source the person picked up (display point, 25 = bar)
let animating = false;
let queue = Promise.resolve();
let focusRow = "top";
let drag = null;
let suppressClick = false;
let animatedPlays = 0;      // how many computer plays were shown step by step

const conn = new GameSocket({
  wsUrl: root.dataset.wsUrl,
  stateUrl: root.dataset.stateUrl,
  getVersion: () => state.version,
  onState: (next) => enqueue(next),
  onRefused: (msg) => refused(msg),
  onError: (msg) => { if (msg.code !== "stale") say("play-refusal", msg.message || S.refused_generic); },
  onStatus: (status) => connectionChanged(status),
  onOther: (msg) => document.dispatchEvent(new CustomEvent("shuanglu:message", { detail: msg })),
});

function say(id, text) {
  const node = $(id);
  // Re-setting the same words would not be announced again; blank first.
  node.textContent = "";
  if (text) window.setTimeout(() => { node.textContent = text; }, 30);
}

// The starter's first turn has status "opening" and is played like any other.
const live = (s) => s.status === "playing" || s.status === "opening";

function canAct() {
  return live(state) && state.turn === "light" && !state.thinking
    && !animating && conn.connected && !conn.busy;
}

function own(where) {
  if (where === 25) return state.board.bar.light > 0;
  if (where === 0) return false;
  return state.board.points[where - 1] > 0;
}

function allowedFrom(where) {
  return (state.allowed || []).filter((s) => s.from === where);
}

function render() {
  const sources = prefs.highlight && canAct() && selected === null
    ? [...new Set((state.allowed || []).map((s) => s.from))] : [];
  const destinations = prefs.highlight && selected !== null ? allowedFrom(selected).map((s) => s.to) : [];
  renderBoard(svg, state.board, { direction: prefs.direction, dice: V.diceFor(state), selected, sources, destinations });
  buildTargets(svg, prefs.direction);
  const dests = new Set(destinations);
  for (const node of layer(svg, "targets").children) {
    const where = Number(node.dataset.point);
    node.setAttribute("aria-label", V.targetName(S, state.board, where, { selected: where === selected, destination: dests.has(where) }));
    node.setAttribute("aria-pressed", where === selected ? "true" : "false");
  }
  renderPanels();
}

function renderPanels() {
  const turn = $("play-turn");
  turn.textContent = V.turnText(S, state);
  turn.classList.toggle("play-thinking", live(state) && (state.thinking || state.turn === "dark"));
  $("play-dice-text").textContent = state.turn === "light" && state.dice && live(state)
    ? V.fmt(S.dice_line, { dice: V.diceText(state.dice) }) : "";
  const pips = $("play-pips");
  pips.hidden = !prefs.showPips;
  pips.textContent = prefs.showPips ? V.pipsText(S, state) : "";
  $("play-tier").textContent = V.fmt(S.tier_line, { tier: (S.tiers || {})[state.tier] || state.tier || "" });
  $("play-opening").textContent = V.isOpeningTurn(state) ? V.openingText(S, state) : "";
  const mine = live(state) && state.turn === "light" && !animating;
  $("btn-undo").disabled = !(mine && state.can_undo);
  $("btn-end").disabled = !(mine && state.can_end_turn);
  $("btn-end").hidden = prefs.autoEndTurn && !state.can_end_turn;
  $("btn-resign").disabled = state.status === "finished" || state.status === "failed";
  renderResult();
  root.dataset.version = String(state.version);
  root.dataset.turn = state.turn || "";
  root.dataset.status = state.status || "";
  root.dataset.idle = String(isIdle());
}

function renderResult() {
  const panel = $("play-over");
  if (state.status !== "finished" || !state.result) {
    panel.hidden = true;
    return;
  }
  const t = V.resultTexts(S, state.result);
  $("over-title").textContent = t.title;
  $("over-kind").textContent = t.kind;
  $("over-points").textContent = t.points;
  panel.hidden = false;
}

function isIdle() {
  return !animating && conn.connected && !conn.busy;
}

// ---- states from the server, in order, animating the computer's play ----

function enqueue(next) {
  queue = queue.then(() => show(next)).catch((err) => console.error(err));
}

function computerPlayToAnimate(prev, next) {
  const t = next.last_turn;
  if (!prev || !t || t.side !== "dark" || !(t.steps || []).length) return null;
  if (JSON.stringify(prev.last_turn) === JSON.stringify(t)) return null;
  // Animate only when the play leads exactly from what is on screen.
  let board = prev.board;
  for (const step of t.steps) board = applyStep(board, step, "dark");
  return sameBoard(board, next.board) ? t : null;
}

async function show(next) {
  if (next.version < state.version) return;
  const prev = state;
  const play = computerPlayToAnimate(prev, next);
  if (play && prefs.stepMs > 0) await animateComputer(prev, play);
  selected = next.turn === prev.turn && next.version === prev.version ? selected : null;
  state = next;
  render();
  const words = V.announcement(S, prev, next);
  if (words) say("play-live", words);
  if (next.version !== prev.version) {
    say("play-refusal", "");
    clearArrows(svg);  // a hint's arrows belong to the position they were drawn on
  }
  exposeDebug();
}

function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

async function animateComputer(prev, play) {
  animating = true;
  animatedPlays += 1;
  root.dataset.idle = "false";
  // It has stopped thinking: say what it is playing while the checkers move.
  const turn = $("play-turn");
  turn.textContent = V.fmt(S.computer_moving, { dice: V.diceText(play.dice), play: play.notation });
  turn.classList.remove("play-thinking");
  let board = prev.board;
  try {
    for (let i = 0; i < play.steps.length; i += 1) {
      const step = play.steps[i];
      renderBoard(svg, board, { direction: prefs.direction, dice: V.computerDice(play, i) });
      // Reduced motion: the steps still come one by one, without the glide.
      await animateChecker(svg, board, step, "dark", reducedMotion() ? 0 : prefs.stepMs);
      board = applyStep(board, step, "dark");
      renderBoard(svg, board, { direction: prefs.direction, dice: V.computerDice(play, i + 1) });
      await new Promise((resolve) => window.setTimeout(resolve, reducedMotion() ? prefs.stepMs : prefs.stepMs * 0.3));
    }
  } finally {
    animating = false;
  }
}

// A tied opening roll is shown before the roll that decided, once per tab.
async function replayOpeningTies() {
  const rolls = (state.opening && state.opening.rolls) || [];
  if (!V.isOpeningTurn(state) || rolls.length < 2 || (state.steps || []).length || prefs.stepMs <= 0) return;
  const key = `shuanglu-opening-${state.game}`;
  try {
    if (window.sessionStorage.getItem(key)) return;
    window.sessionStorage.setItem(key, "1");
  } catch (err) {
    // No storage: show the ties every time, which is harmless.
  }
  animating = true;
  try {
    for (const [light, dark] of rolls.slice(0, -1)) {
      const dice = [{ value: light, side: "light", slot: "left" }, { value: dark, side: "dark", slot: "right" }];
      renderBoard(svg, state.board, { direction: prefs.direction, dice });
      await new Promise((resolve) => window.setTimeout(resolve, Math.max(prefs.stepMs, 300) * 3));
    }
  } finally {
    animating = false;
    render();
  }
}

function refused(msg) {
  selected = null;
  render();
  say("play-refusal", msg.message || S.refused_generic);
}

function connectionChanged(status) {
  const note = $("play-connection");
  if (status === "closed" || status === "forbidden") {
    note.textContent = status === "closed" ? S.reconnecting : S.forbidden;
    note.hidden = false;
  } else if (status === "open") {
    note.hidden = true;
  }
  if (state.board) render();
}

// ---- the person's input: pick up, put down ----

function send(type, fields = {}) {
  const id = conn.send(type, fields);
  if (id) render();
  return id;
}

function activate(where) {
  if (!canAct()) {
    if (live(state) && state.turn !== "light") say("play-refusal", S.wait_turn);
    return;
  }
  if (selected === null) {
    if (!own(where)) {
      say("play-refusal", S.nothing_there);
      return;
    }
    select(where);
    return;
  }
  if (where === selected) {
    selected = null;
    render();
    say("play-live", S.put_back);
    return;
  }
  const legal = allowedFrom(selected).some((s) => s.to === where);
  if (!legal && own(where) && allowedFrom(where).length) {
    select(where);
    return;
  }
  // Not known to be legal: the server answers with the reason in words.
  const from = selected;
  selected = null;
  send("step", { from, to: where });
}

function select(where) {
  selected = where;
  render();
  const dests = allowedFrom(where).map((s) => V.placeName(S, s.to));
  const first = V.fmt(S.picked, { place: V.placeName(S, where) });
  say("play-live", dests.length ? `${first} ${V.fmt(S.can_go, { list: dests.join(S.list_sep) })}` : `${first} ${S.cannot_go}`);
}

function pointOf(node) {
  const target = node && node.closest ? node.closest("[data-point]") : null;
  return target ? Number(target.dataset.point) : null;
}

function svgPoint(event) {
  const pt = svg.createSVGPoint();
  pt.x = event.clientX;
  pt.y = event.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

function onPointerDown(event) {
  const where = pointOf(event.target);
  if (where === null || !canAct() || !own(where) || event.button > 0) return;
  drag = { where, x: event.clientX, y: event.clientY, moved: false, ghost: null };
}

function onPointerMove(event) {
  if (!drag) return;
  if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
  if (!drag.moved) {
    drag.moved = true;
    selected = drag.where;
    render();
    drag.ghost = document.createElementNS(SVG_NS, "circle");
    drag.ghost.setAttribute("r", "18");
    drag.ghost.setAttribute("class", "b-checker b-light b-ghost");
    layer(svg, "moving").appendChild(drag.ghost);
  }
  const p = svgPoint(event);
  drag.ghost.setAttribute("cx", String(p.x));
  drag.ghost.setAttribute("cy", String(p.y));
}

function onPointerUp(event) {
  if (!drag) return;
  const was = drag;
  drag = null;
  if (!was.moved) return;
  was.ghost.remove();
  // The click that may follow this pointerup belongs to the drag.
  suppressClick = true;
  window.setTimeout(() => { suppressClick = false; }, 0);
  const where = pointOf(document.elementFromPoint(event.clientX, event.clientY));
  if (where === null || where === was.where) {
    selected = null;
    render();
    return;
  }
  activate(where);
}

function onClick(event) {
  if (suppressClick) {
    suppressClick = false;
    return;
  }
  const where = pointOf(event.target);
  if (where !== null) activate(where);
}

// ---- keyboard ----

function onKeyDown(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const t = event.target;
  if (t.closest && (t.closest("input, textarea, select, [contenteditable]") || t.closest("dialog[open]"))) return;
  const where = pointOf(t);
  if (where !== null && onTargetKey(event, where)) return;
  if (event.key === "u" || event.key === "U" || event.key === "Backspace") {
    event.preventDefault();
    undo();
  } else if (event.key === "Enter" && !(t.closest && t.closest("button, a"))) {
    if (state.can_end_turn) {
      event.preventDefault();
      endTurn();
    }
  } else if (event.key === "Escape" && selected !== null) {
    selected = null;
    render();
  }
}

function onTargetKey(event, where) {
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    // Enter on the board ends a finished turn only if nothing is picked up
    // and there is nothing to pick up here.
    if (event.key === "Enter" && state.can_end_turn && selected === null && !allowedFrom(where).length) endTurn();
    else activate(where);
    return true;
  }
  if (event.key.startsWith("Arrow")) {
    event.preventDefault();
    const next = neighbour(svg, where, event.key, where >= 13 ? "top" : where >= 1 ? "bottom" : focusRow);
    focusRow = next.row;
    focusTarget(svg, next.where);
    return true;
  }
  return false;
}

function undo() {
  if (live(state) && state.turn === "light" && state.can_undo && !animating) {
    selected = null;
    if (send("undo")) say("play-refusal", "");
  }
}

function endTurn() {
  if (live(state) && state.turn === "light" && state.can_end_turn && !animating) send("end_turn");
}

function setUpResign() {
  const dialog = $("resign-dialog");
  $("btn-resign").addEventListener("click", () => dialog.showModal());
  $("resign-cancel").addEventListener("click", () => dialog.close());
  $("resign-confirm").addEventListener("click", () => {
    dialog.close();
    send("resign");
  });
}

function exposeDebug() {
  // For browser tests and curious players: read-only view of the truth.
  window.__shuanglu = {
    get state() { return state; },
    get idle() { return isIdle(); },
    get selected() { return selected; },
    get animatedPlays() { return animatedPlays; },
    prefs,
    get connected() { return conn.connected; },
    setStepMs(ms) { prefs.stepMs = ms; },
    // Closes the socket as a network drop would; the client reconnects.
    dropSocket() { if (conn.ws) conn.ws.close(); },
    target: (where) => targetFor(svg, where),
  };
}

function start() {
  render();
  exposeDebug();
  svg.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  svg.addEventListener("click", onClick);
  document.addEventListener("keydown", onKeyDown);
  $("btn-undo").addEventListener("click", undo);
  $("btn-end").addEventListener("click", endTurn);
  setUpResign();
  for (const node of layer(svg, "targets").children) {
    node.addEventListener("focus", () => {
      const where = Number(node.dataset.point);
      if (where >= 1 && where <= 24) focusRow = where >= 13 ? "top" : "bottom";
    });
  }
  queue = queue.then(replayOpeningTies);
  conn.start();
  // What the page says on arrival: the opening, a pass, a result, the roll.
  const opening = V.isOpeningTurn(state) ? V.openingText(S, state) : "";
  say("play-live", [opening, V.announcement(S, null, state)].filter(Boolean).join(" "));
}

start();
