// 学棋: one lesson's tasks on the play page's board (games/board.js, the
// targets and keys of games/targets.js through boardinput.js). Every step,
// right or wrong, goes to the server: the engine walks it and says why a
// refused step is refused; a complete play or an answer is judged against
// the task's goal, and the run's misses give the lesson's stars.
import { renderBoard, drawArrows, clearArrows } from "../games/board.js";
import { focusTarget } from "../games/targets.js";
import { fmt, rollValues, markUsed, targetName } from "../games/view.js";
import { wireBoard, postJson } from "./boardinput.js";

const data = JSON.parse(document.getElementById("lesson-data").textContent);
const S = JSON.parse(document.getElementById("lesson-strings").textContent);
const direction = document.body.dataset.boardDirection || "right";
const $ = (id) => document.getElementById(id);
const svg = $("ls-board");
const start = data.run.task < data.tasks.length ? data.run.task : 0;
const state = { index: start, steps: [], turn: null, selected: null, done: false, busy: false, finished: false, run: data.run };

const task = () => data.tasks[state.index];
const board = () => (state.turn ? state.turn.board : task().board);
const stars = (n) => "★".repeat(n) + "☆".repeat(3 - n);

function own(b, where) {
  if (where === 25) return b.bar.light > 0;
  return where >= 1 && where <= 24 && b.points[where - 1] > 0;
}

function draw() {
  const t = task();
  const values = rollValues(t.dice);
  const remaining = state.turn ? state.turn.remaining : values;
  const dice = markUsed(values, remaining).map((d) => ({ ...d, side: "light", slot: "home" }));
  const allowed = state.turn && !state.done ? state.turn.allowed : [];
  const destinations = state.selected === null ? [] : allowed.filter((s) => s.from === state.selected).map((s) => s.to);
  renderBoard(svg, board(), {
    direction, dice, selected: state.selected, cube: t.cube,
    sources: [...new Set(allowed.map((s) => s.from))], destinations,
  });
  const dests = new Set(destinations);
  for (const node of svg.querySelectorAll("[data-point]")) {
    const where = Number(node.dataset.point);
    node.setAttribute("aria-label", targetName(S, board(), where, { selected: where === state.selected, destination: dests.has(where) }));
  }
  svg.dataset.task = String(state.index);
  svg.dataset.steps = String(state.steps.length);
  svg.dataset.ready = String(t.question || state.turn !== null);
}

function say(id, text) {
  $(id).textContent = text || "";
}

function list(reasons) {
  const ul = $("ls-reasons");
  ul.replaceChildren();
  for (const r of reasons || []) {
    const li = document.createElement("li");
    li.textContent = r;
    ul.appendChild(li);
  }
}

// The task line and the misses: on each verdict, and for each new task
// (a question's has no check before its answer).
function showRun(run = state.run) {
  state.run = run;
  const quiz = state.index >= data.quiz_from;
  const where = quiz
    ? fmt(S.quiz_of, { n: state.index - data.quiz_from + 1, total: data.tasks.length - data.quiz_from })
    : fmt(S.task_of, { n: state.index + 1, total: data.quiz_from });
  say("ls-count", `${where} · ${fmt(S.tries, { n: run.misses })}`);
}

function showTask() {
  const t = task();
  Object.assign(state, { steps: [], turn: null, selected: null, done: false });
  say("ls-prompt", t.prompt);
  say("ls-dice", t.dice.length ? fmt(S.dice, { dice: t.dice.join("-") }) : "");
  for (const id of ["ls-status", "ls-error", "ls-right"]) say(id, "");
  list([]);
  $("ls-next-task").hidden = true;
  $("ls-play").hidden = t.question;
  $("ls-count-form").hidden = t.goal !== "count";
  $("ls-answer").value = "";
  const choices = $("ls-choices");
  choices.replaceChildren();
  choices.hidden = !t.choices.length;
  for (const c of t.choices) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "button";
    b.dataset.answer = c.key;
    b.textContent = c.label;
    b.addEventListener("click", () => answer(c.key));
    // A pick between two plays: the play under the pointer or the focus is
    // drawn on the board as arrows.
    const play = (t.plays || []).find((p) => p.key === c.key);
    if (play) {
      const show = () => drawArrows(svg, play.steps, { side: "light" });
      b.addEventListener("mouseenter", show);
      b.addEventListener("focus", show);
      b.addEventListener("mouseleave", () => clearArrows(svg));
      b.addEventListener("blur", () => clearArrows(svg));
    }
    choices.appendChild(b);
  }
  draw();
  showRun();
  if (!t.question) send([]);
}

async function check(body) {
  state.busy = true;
  const { ok, data: r } = await postJson(task().check, body);
  state.busy = false;
  if (!ok) {
    say("ls-error", r.message || S.failed);
    return null;
  }
  showRun(r.run);
  list(r.reasons);
  say("ls-error", r.state === "refused" || r.state === "miss" ? r.message : "");
  return r;
}

async function send(steps) {
  const r = await check({ steps });
  if (!r) return;
  state.turn = r.turn;
  state.steps = r.turn.steps.map((s) => [s.from, s.to]);
  if (r.state === "miss") {
    // Back to the task's start, with the reasons still shown.
    state.turn = null;
    state.steps = [];
    say("ls-status", S.again);
    const again = await postJson(task().check, { steps: [] });
    if (again.ok) state.turn = again.data.turn;
  } else if (r.state === "done") {
    finishTask(r);
  } else {
    say("ls-status", r.turn.remaining.length ? fmt(S.steps_left, { dice: r.turn.remaining.join("-") }) : "");
  }
  draw();
}

async function answer(value) {
  if (state.done || state.busy) return;
  const r = await check({ answer: value });
  if (r && r.state === "done") finishTask(r);
  draw();
}

function finishTask(r) {
  state.done = true;
  say("ls-status", "");
  say("ls-right", r.message);
  if (r.run.finished) {
    state.finished = true;
    say("ls-finished-title", fmt(S.finished, { stars: r.run.run_stars }));
    const shown = $("ls-stars");
    shown.textContent = stars(r.run.run_stars);
    shown.setAttribute("aria-label", fmt(S.star_label, { n: r.run.run_stars }));
    shown.dataset.stars = String(r.run.run_stars);
    $("ls-finished").hidden = false;
    ($("ls-next-lesson") || $("ls-map")).focus();
    return;
  }
  $("ls-next-task").hidden = false;
  $("ls-next-task").focus();
}

function nextTask() {
  if (!state.done || state.finished) return;
  state.index += 1;
  showTask();
  const t = task();
  if (t.goal === "count") $("ls-answer").focus();
  else if (t.question) $("ls-choices").querySelector("button").focus();
  else focusTarget(svg, 24);
}

function pick(where) {
  if (state.done || state.busy || task().question || !state.turn) return;
  say("ls-error", "");
  if (state.selected === null || where === state.selected) {
    if (where === state.selected) state.selected = null;
    else if (own(board(), where)) state.selected = where;
    else say("ls-error", S.pick_own);
    draw();
    return;
  }
  const from = state.selected;
  const allowedHere = state.turn.allowed.some((s) => s.from === from && s.to === where);
  if (!allowedHere && own(board(), where)) {
    state.selected = where; // another of one's own checkers: pick it instead
    draw();
    return;
  }
  state.selected = null;
  send([...state.steps, [from, where]]);
}

function undo() {
  if (state.done || state.busy || task().question) return;
  if (!state.steps.length) {
    say("ls-error", S.nothing_to_undo);
    return;
  }
  state.selected = null;
  send(state.steps.slice(0, -1));
}

document.addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.target instanceof HTMLInputElement) return;
  const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  if (key === "u" || key === "Backspace") {
    ev.preventDefault();
    undo();
  } else if (key === "n") {
    if (state.finished && $("ls-next-lesson")) {
      ev.preventDefault();
      window.location.assign($("ls-next-lesson").href);
    } else if (state.done) {
      ev.preventDefault();
      nextTask();
    }
  }
});
$("ls-undo").addEventListener("click", undo);
$("ls-next-task").addEventListener("click", nextTask);
$("ls-count-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  answer($("ls-answer").value.trim());
});
renderBoard(svg, task().board, { direction, dice: [] });
wireBoard(svg, { direction, onPick: pick });
showTask();
