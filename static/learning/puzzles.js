// 练习题: one puzzle on the play page's board (games/board.js, the targets
// and keys of games/targets.js through boardinput.js, the points named for
// screen readers as on every board page). A checker puzzle: the person plays
// the roll step by step (each step checked by the engine through the
// analysis board's step endpoint), then the server judges the whole play and
// rates the first answer. A cube puzzle: a button or a key.
import { renderBoard, drawArrows } from "../games/board.js";
import { fmt, rollValues, markUsed, targetName } from "../games/view.js";
import { wireBoard, toTarget, pickPoint, postJson } from "./boardinput.js";
import { putWords } from "./terms.js";

const puzzle = JSON.parse(document.getElementById("puzzle-data").textContent);
const answered = JSON.parse(document.getElementById("puzzle-answered").textContent);
const filters = JSON.parse(document.getElementById("puzzle-filters").textContent);
const urls = JSON.parse(document.getElementById("puzzle-urls").textContent);
const S = JSON.parse(document.getElementById("puzzle-strings").textContent);
const direction = document.body.dataset.boardDirection || "right";
const $ = (id) => document.getElementById(id);
const svg = $("pz-board");
const cube = puzzle.kind === "cube";
const dice = cube ? "" : `${puzzle.dice[0]}${puzzle.dice[1]}`;
const state = { steps: [], turn: null, selected: null, answered: false, walks: 0 };
const seen = new Set(); // a glossary term linked where it first appears

function board() {
  return state.turn ? state.turn.board : puzzle.board;
}

function draw() {
  if (cube) {
    renderBoard(svg, puzzle.board, { direction, dice: [], cube: puzzle.cube });
    return;
  }
  const allowed = state.turn && !state.answered ? state.turn.allowed : [];
  const values = rollValues(puzzle.dice);
  const remaining = state.turn ? state.turn.remaining : values;
  const shown = markUsed(values, remaining).map((d) => ({ ...d, side: "light", slot: "home" }));
  const destinations = state.selected === null ? [] : allowed.filter((s) => s.from === state.selected).map((s) => s.to);
  renderBoard(svg, board(), {
    direction, dice: shown, selected: state.selected,
    sources: [...new Set(allowed.map((s) => s.from))], destinations,
  });
  const dests = new Set(destinations);
  for (const node of svg.querySelectorAll("[data-point]")) {
    const where = Number(node.dataset.point);
    node.setAttribute("aria-label", targetName(S, board(), where, { selected: where === state.selected, destination: dests.has(where) }));
  }
  if (state.turn) svg.dataset.steps = String(state.steps.length);
  else delete svg.dataset.steps;
}

async function walk() {
  const token = ++state.walks;
  const body = { id: puzzle.position_id, dice, side: "light", steps: state.steps };
  const { ok, data } = await postJson(urls.step, body);
  if (token !== state.walks) return;
  if (!ok) {
    $("pz-error").textContent = data.message || "";
    return;
  }
  state.turn = data;
  state.steps = data.steps.map((s) => [s.from, s.to]);
  $("pz-error").textContent = data.refusal || "";
  $("pz-status").textContent = data.complete ? "" : fmt(S.steps_left, { dice: data.remaining.join("-") });
  draw();
  if (data.complete) send({ steps: state.steps });
}

function list(id, reasons) {
  const ul = $(id);
  ul.replaceChildren();
  for (const r of reasons || []) {
    const li = document.createElement("li");
    putWords(li, r, seen);
    ul.appendChild(li);
  }
}

async function send(body) {
  if (state.answered) return;
  state.answered = true;
  const { ok, data } = await postJson(urls.answer, { ...body, theme: filters.theme || "" });
  if (!ok) {
    state.answered = false;
    $("pz-error").textContent = data.message || "";
    return;
  }
  show(data);
}

function show(data) {
  const title = $("pz-verdict-title");
  title.className = `practice-verdict ${data.solved ? "right" : "wrong"}`;
  title.dataset.solved = String(data.solved);
  const play = data.your_play ? data.your_play.notation : data.your_action || data.answer;
  if (data.solved) title.textContent = fmt(S.right, { play });
  else if (data.lost !== null && data.lost !== undefined) {
    const words = data.best_action ? S.wrong_lost_cube : S.wrong_lost;
    title.textContent = fmt(words, { play, lost: data.lost.toFixed(3), unit: data.unit });
  }
  else title.textContent = fmt(S.wrong, { play });
  const diff = data.diff > 0 ? `+${data.diff}` : String(data.diff);
  $("pz-change").textContent = data.rated
    ? `${fmt(S.rating_change, { before: data.rating_before, after: data.rating_after, diff })} ${fmt(S.puzzle_rating, { rating: data.puzzle_rating })}`
    : data.note || S.unrated;
  $("pz-change").dataset.diff = String(data.diff);
  if (data.best_play) {
    $("pz-best").textContent = fmt(S.best_play, { play: data.best_play.notation });
    list("pz-best-reasons", data.best_play.reasons);
    renderBoard(svg, puzzle.board, { direction, dice: [] });
    drawArrows(svg, data.best_play.steps.map((s) => ({ from: toTarget(s.from), to: toTarget(s.to) })), { side: "light" });
  } else if (data.best_action) {
    $("pz-best").textContent = data.best_action;
    list("pz-best-reasons", data.reasons);
  }
  if (data.your_play && !data.solved) {
    $("pz-mine").textContent = fmt(S.your_play, { play: data.your_play.notation });
    list("pz-mine-reasons", data.your_play.reasons);
  }
  putWords($("pz-rollout"), data.rollout, seen);
  $("pz-status").textContent = S.next;
  for (const b of document.querySelectorAll(".pz-action")) b.disabled = true;
  $("pz-verdict").hidden = false;
  $("pz-next").hidden = false;
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

draw();
document.addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
  const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  if (key === "n" && !$("pz-next").hidden) {
    ev.preventDefault();
    window.location.assign($("pz-next").href);
  } else if (cube && CUBE_KEYS[key] && puzzle.answers.includes(CUBE_KEYS[key])) {
    ev.preventDefault();
    send({ action: CUBE_KEYS[key] });
  } else if (!cube && (key === "u" || key === "Backspace")) {
    ev.preventDefault();
    undo();
  }
});
if (cube) {
  for (const b of document.querySelectorAll(".pz-action")) b.addEventListener("click", () => send({ action: b.dataset.action }));
  $("pz-task").textContent = puzzle.question === "double" ? S.task_double : S.task_take;
} else {
  wireBoard(svg, { direction, onPick: pick });
  $("pz-undo").addEventListener("click", undo);
  $("pz-task").textContent = fmt(S.task, { dice: puzzle.dice.join("-") });
  draw();
  walk();
}
if (answered) {
  state.answered = true;
  $("pz-status").textContent = S.next;
  $("pz-next").hidden = false;
}
