// Practice: the position and roll of one of the person's marked decisions;
// the person plays it on the board (steps checked by the engine through the
// analysis board's step endpoint), then the server judges the play. A cube
// decision shows the board and the cube as they were; the person answers by
// button or key (D double, R roll, T take, P pass) and the server judges it.
import { renderBoard, drawArrows } from "../games/board.js";
import { fmt, rollValues, markUsed } from "../games/view.js";
import { wireBoard, toTarget, pickPoint, postJson } from "./boardinput.js";
import { putWords } from "./terms.js";

const item = JSON.parse(document.getElementById("practice-item").textContent);
const urls = JSON.parse(document.getElementById("practice-urls").textContent);
const S = JSON.parse(document.getElementById("practice-strings").textContent);
const direction = document.body.dataset.boardDirection || "right";
const $ = (id) => document.getElementById(id);
const svg = $("pr-board");
const cubeItem = item.kind === "cube";
const dice = cubeItem ? "" : `${item.dice[0]}${item.dice[1]}`;
const state = { steps: [], turn: null, selected: null, answered: false, walks: 0 };

function draw() {
  if (cubeItem) {
    renderBoard(svg, item.board, { direction, dice: [], cube: item.cube });
    return;
  }
  const board = state.turn ? state.turn.board : item.board;
  const allowed = state.turn && !state.answered ? state.turn.allowed : [];
  const values = rollValues(item.dice);
  const remaining = state.turn ? state.turn.remaining : values;
  const shown = markUsed(values, remaining).map((d) => ({ ...d, side: "light", slot: "home" }));
  renderBoard(svg, board, {
    direction, dice: shown, selected: state.selected,
    sources: [...new Set(allowed.map((s) => s.from))],
    destinations: state.selected === null ? [] : allowed.filter((s) => s.from === state.selected).map((s) => s.to),
  });
  // The count of steps the board has taken, once the server's turn is here:
  // a key pressed before then would pick from no allowed steps.
  if (state.turn) svg.dataset.steps = String(state.steps.length);
  else delete svg.dataset.steps;
}

async function walk() {
  const token = ++state.walks;
  const body = { id: item.position_id, dice, side: "light", steps: state.steps };
  const { ok, data } = await postJson(urls.step, body);
  if (token !== state.walks) return;
  if (!ok) {
    $("pr-error").textContent = data.message || "";
    return;
  }
  state.turn = data;
  state.steps = data.steps.map((s) => [s.from, s.to]);
  $("pr-error").textContent = data.refusal || "";
  $("pr-status").textContent = data.complete ? "" : fmt(S.steps_left, { dice: data.remaining.join("-") });
  draw();
  if (data.complete) answer();
}

function list(id, reasons) {
  const ul = $(id);
  ul.replaceChildren();
  for (const r of reasons || []) {
    const li = document.createElement("li");
    putWords(li, r);
    ul.appendChild(li);
  }
}

async function answer() {
  state.answered = true;
  const { ok, data } = await postJson(urls.answer, { steps: state.steps });
  if (!ok) {
    state.answered = false;
    $("pr-error").textContent = data.message || "";
    return;
  }
  const lost = data.lost === null ? "" : data.lost.toFixed(3);
  const title = $("pr-verdict-title");
  title.className = `practice-verdict ${data.right ? "right" : "wrong"}`;
  title.dataset.right = String(data.right);
  if (data.best) title.textContent = S.best;
  else if (data.right) title.textContent = fmt(S.within, { play: data.notation, lost });
  else if (data.lost === null) title.textContent = fmt(S.wrong_unranked, { play: data.notation });
  else title.textContent = fmt(S.wrong, { play: data.notation, lost });
  if (data.best_play) {
    $("pr-best").textContent = fmt(S.best_play, { play: data.best_play.notation });
    list("pr-best-reasons", data.best_play.reasons);
    renderBoard(svg, item.board, { direction, dice: [] });
    drawArrows(svg, data.best_play.steps.map((s) => ({ from: toTarget(s.from), to: toTarget(s.to) })), { side: "light" });
  }
  if (data.game_play) {
    $("pr-game").textContent = fmt(S.game_play, { play: data.game_play.notation, lost: data.game_lost.toFixed(3) });
    list("pr-game-reasons", data.game_play.reasons);
  }
  $("pr-unit").textContent = data.unit || "";  // what the figures are in, at which depth
  $("pr-again").textContent = data.days === 1 ? S.again_tomorrow : fmt(S.again_days, { days: data.days });
  $("pr-status").textContent = S.next;
  $("pr-verdict").hidden = false;
  $("pr-next").hidden = false;
}

async function answerCube(action) {
  if (state.answered) return;
  state.answered = true;
  const { ok, data } = await postJson(urls.answer, { action });
  if (!ok) {
    state.answered = false;
    $("pr-error").textContent = data.message || "";
    return;
  }
  for (const b of document.querySelectorAll(".pr-action")) {
    b.disabled = true;
    b.setAttribute("aria-pressed", String(b.dataset.action === action));
  }
  const lost = data.lost.toFixed(3);
  const title = $("pr-verdict-title");
  title.className = `practice-verdict ${data.right ? "right" : "wrong"}`;
  title.dataset.right = String(data.right);
  if (data.best) title.textContent = fmt(S.cube_best, { action: data.notation });
  else if (data.right) title.textContent = fmt(S.cube_within, { action: data.notation, lost });
  else title.textContent = fmt(S.cube_wrong, { action: data.notation, lost });
  $("pr-best").textContent = data.best_action;
  list("pr-best-reasons", data.reasons);
  $("pr-game").textContent = fmt(S.game_action, { action: data.game_action, lost: data.game_lost.toFixed(3) });
  $("pr-unit").textContent = data.unit || "";  // what the figures are in, at which depth
  $("pr-again").textContent = data.days === 1 ? S.again_tomorrow : fmt(S.again_days, { days: data.days });
  $("pr-status").textContent = S.next;
  $("pr-verdict").hidden = false;
  $("pr-next").hidden = false;
}

const CUBE_KEYS = { d: "double", r: "no_double", t: "take", p: "pass" };

function pick(where) {
  if (state.answered) return;
  pickPoint(state, where, { walk, draw });
}

function undo() {
  if (state.answered || !state.steps.length) return;
  state.steps.pop();
  state.selected = null;
  walk();
}

function nextPosition(ev) {
  if (!state.answered) return false;
  ev.preventDefault();
  window.location.assign($("pr-next").href);
  return true;
}

draw();
document.addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
  const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  if (key === "n") {
    nextPosition(ev);
    return;
  }
  if (cubeItem) {
    const action = CUBE_KEYS[key];
    if (action && item.answers.includes(action)) {
      ev.preventDefault();
      answerCube(action);
    }
  } else if (key === "u" || key === "Backspace") {
    ev.preventDefault();
    undo();
  }
});
if (cubeItem) {
  for (const b of document.querySelectorAll(".pr-action")) {
    b.addEventListener("click", () => answerCube(b.dataset.action));
  }
  $("pr-task").textContent = item.decision === "double" ? S.task_double : S.task_take;
} else {
  wireBoard(svg, { direction, onPick: pick });
  $("pr-undo").addEventListener("click", undo);
  $("pr-task").textContent = fmt(S.task, { dice: item.dice.join("-") });
  walk();
}
