// 学棋: one lesson's tasks on the play page's board (games/board.js, the
// targets and keys of games/targets.js through boardinput.js). Every click
// goes to the server: the engine walks it (a click on the point two dice
// reach together is the checker's two steps), says why a refused step is
// refused (not a mistake: nothing moved) and why a tapped checker cannot
// move; a complete play or an answer is judged against the task's goal,
// and only a play or an answer that misses it is a mistake. Words come
// with the glossary's marks, linked where a term first appears (terms.js).
import { renderBoard, drawArrows, clearArrows } from "../games/board.js";
import { focusTarget } from "../games/targets.js";
import { fmt, rollValues, markUsed, targetName } from "../games/view.js";
import { wireBoard, postJson } from "./boardinput.js";
import { putWords } from "./terms.js";

const data = JSON.parse(document.getElementById("lesson-data").textContent);
const S = JSON.parse(document.getElementById("lesson-strings").textContent);
const direction = document.body.dataset.boardDirection || "right";
const $ = (id) => document.getElementById(id);
const svg = $("ls-board");
const start = data.run.task < data.tasks.length ? data.run.task : 0;
const state = { index: start, steps: [], turn: null, selected: null, done: false, busy: false, finished: false, run: data.run, hint: null };
// The terms linked so far on this page: a term is linked where it first appears.
const seen = new Set([...document.querySelectorAll("#ls-intro a.term")].map((a) => a.dataset.term));

const task = () => data.tasks[state.index];
const board = () => (state.turn ? state.turn.board : task().board);
const stars = (n) => "★".repeat(n) + "☆".repeat(3 - n);
const say = (id, text) => putWords($(id), text || "", seen);
const touch = window.matchMedia("(pointer: coarse)").matches || navigator.maxTouchPoints > 0;
if (touch) $("ls-keys").hidden = true;

function own(b, where) {
  if (where === 25) return b.bar.light > 0;
  return where >= 1 && where <= 24 && b.points[where - 1] > 0;
}

const open = () => (state.turn && !state.done && !state.turn.complete ? state.turn : null);
const allowed = () => (open() ? [...open().allowed, ...(open().reach || [])] : []);

function draw() {
  const t = task();
  const values = rollValues(t.dice);
  const remaining = state.turn ? state.turn.remaining : values;
  const dice = markUsed(values, remaining).map((d) => ({ ...d, side: "light", slot: "home" }));
  const moves = allowed();
  const destinations = state.selected === null ? t.marks : moves.filter((s) => s.from === state.selected).map((s) => s.to);
  renderBoard(svg, board(), {
    direction, dice, selected: state.selected, cube: t.cube,
    sources: [...new Set((open() ? open().allowed : []).map((s) => s.from))], destinations,
  });
  if (t.shown.length && !state.done) drawArrows(svg, t.shown, { side: "light" });
  // A hint, once given, stays with the task: its words and its arrows.
  else if (state.hint && state.hint.arrows.length && !state.done) drawArrows(svg, state.hint.arrows, { side: "light", kind: "hint" });
  const dests = new Set(destinations);
  for (const node of svg.querySelectorAll("[data-point]")) {
    const where = Number(node.dataset.point);
    node.setAttribute("aria-label", targetName(S, board(), where, { selected: where === state.selected, destination: dests.has(where) }));
  }
  svg.dataset.task = String(state.index);
  svg.dataset.steps = String(state.steps.length);
  svg.dataset.ready = String(!state.busy && (t.question || state.turn !== null));
}

function list(reasons) {
  const ul = $("ls-reasons");
  ul.replaceChildren();
  for (const r of reasons || []) {
    const li = document.createElement("li");
    putWords(li, r, seen);
    ul.appendChild(li);
  }
}

// The words after a move in view beside the board: on a wide screen they
// stand beside it; on a phone the board is upright and the page brings the
// prompt to the top, so the board and the words under it fit the screen.
const narrow = window.matchMedia("(max-width: 600px)");
function reveal() {
  if (narrow.matches) $("ls-prompt").scrollIntoView({ block: "start" });
  else $("ls-feedback").scrollIntoView({ block: "nearest" });
}

function showRun(run = state.run) {
  state.run = run;
  const quiz = state.index >= data.quiz_from;
  const where = quiz
    ? fmt(S.quiz_of, { n: state.index - data.quiz_from + 1, total: data.tasks.length - data.quiz_from })
    : fmt(S.task_of, { n: state.index + 1, total: data.quiz_from });
  $("ls-count").textContent = `${where} · ${fmt(S.tries, { n: run.misses })}`;
}

function clearWords() {
  for (const id of ["ls-status", "ls-error", "ls-right"]) say(id, "");
  list([]);
}

function showTask() {
  const t = task();
  Object.assign(state, { steps: [], turn: null, selected: null, done: false, hint: null });
  say("ls-prompt", t.prompt);
  say("ls-hint", "");
  say("ls-why", t.why);
  $("ls-dice").textContent = t.dice.length ? fmt(S.dice, { dice: t.dice.join("-") }) : "";
  clearWords();
  clearArrows(svg);
  $("ls-next-task").hidden = true;
  $("ls-play").hidden = t.question;
  $("ls-count-form").hidden = !t.number;
  $("ls-answer-label").textContent = t.goal === "shots" ? S.shots_label : S.count_label;
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
    choices.appendChild(b);
  }
  draw();
  showRun();
  if (!t.question) send([]);
}

async function check(body) {
  state.busy = true;
  draw();
  const { ok, data: r } = await postJson(task().check, body);
  state.busy = false;
  if (!ok) {
    say("ls-error", r.message || S.failed);
    draw();
    return null;
  }
  showRun(r.run);
  return r;
}

// A verdict's words: the message, the reasons, the hint after two misses.
function showVerdict(r) {
  clearWords();
  list(r.reasons);
  if (r.state === "refused" || r.state === "miss") say("ls-error", r.message);
  else if (r.state === "partial" && r.message) say("ls-status", r.message);
  if (r.hint && !state.hint) {
    state.hint = r.hint;
    say("ls-hint", r.hint.text);
    draw();
  }
}

async function send(steps, probe = null) {
  const r = await check(probe === null ? { steps } : { steps, probe });
  if (!r) return;
  state.turn = r.turn;
  state.steps = r.turn.steps.map((s) => [s.from, s.to]);
  draw();
  showVerdict(r);
  if (r.state === "miss") {
    say("ls-status", S.try_again);
  } else if (r.state === "done") {
    finishTask(r);
  } else if (r.state === "partial" && !r.message) {
    say("ls-status", r.turn.remaining.length ? fmt(S.steps_left, { dice: r.turn.remaining.join("-") }) : "");
  }
  if (r.state !== "partial" || r.message) reveal();
}

async function answer(value) {
  if (state.done || state.busy) return;
  const r = await check({ answer: value });
  if (!r) return;
  showVerdict(r);
  if (r.state === "done") finishTask(r);
  draw();
  // A pick's better play, drawn once the person has chosen.
  if (r.arrows && r.arrows.length) drawArrows(svg, r.arrows, { side: "light", kind: "hint" });
  reveal();
}

function finishTask(r) {
  state.done = true;
  say("ls-status", "");
  say("ls-error", "");
  say("ls-right", r.message);
  if (r.run.finished) {
    state.finished = true;
    $("ls-finished-title").textContent = fmt(S.finished, { stars: r.run.run_stars });
    const shown = $("ls-stars");
    shown.textContent = stars(r.run.run_stars);
    shown.setAttribute("aria-label", fmt(S.star_label, { n: r.run.run_stars }));
    shown.dataset.stars = String(r.run.run_stars);
    $("ls-finished").hidden = false;
    $("ls-finished").scrollIntoView({ block: "nearest" });
    ($("ls-next-lesson") || $("ls-map")).focus();
    return;
  }
  // A play shown only to be read goes straight on to the next one.
  if (task().goal === "show") {
    nextTask();
    return;
  }
  $("ls-next-task").hidden = false;
  $("ls-next-task").focus({ preventScroll: true });
}

function nextTask() {
  if (!state.done || state.finished) return;
  state.index += 1;
  showTask();
  const t = task();
  if (t.number) $("ls-answer").focus({ preventScroll: true });
  else if (t.question) $("ls-choices").querySelector("button").focus({ preventScroll: true });
  else focusTarget(svg, 24);
  reveal();
}

function pick(where) {
  if (state.busy || !open()) return;
  say("ls-error", "");
  const moves = allowed();
  // On the bar, entering comes first: a tap on the point to enter on is the
  // bar's checker going there (the bar itself is a narrow target on a phone).
  if (state.selected === null && board().bar.light > 0 && moves.some((s) => s.from === 25 && s.to === where)) {
    send([...state.steps, [25, where]]);
    return;
  }
  if (state.selected === null || where === state.selected) {
    if (where === state.selected) state.selected = null;
    else if (moves.some((s) => s.from === where)) state.selected = where;
    else if (own(board(), where)) send(state.steps, where); // it cannot move: say why
    else say("ls-error", S.pick_own);
    draw();
    return;
  }
  const from = state.selected;
  const reachable = moves.some((s) => s.from === from && s.to === where);
  if (!reachable && moves.some((s) => s.from === where)) {
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

function restart() {
  if (state.done || state.busy || task().question) return;
  state.selected = null;
  send([]);
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
$("ls-restart").addEventListener("click", restart);
$("ls-next-task").addEventListener("click", nextTask);
$("ls-count-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  answer($("ls-answer").value.trim());
});
renderBoard(svg, task().board, { direction, dice: [] });
wireBoard(svg, { direction, onPick: pick });
showTask();
