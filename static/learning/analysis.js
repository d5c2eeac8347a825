// The analysis board: open a position from an ID or a set-up, choose a roll
// (or all 21), see the ranked plays with reasons and arrows, and play a
// variation out step by step with undo; with no roll, the cube action at the
// cube and the score of the form (analysis-cube.js). The server reads every ID, checks
// every set-up and step, and ranks the plays; this script only draws. The
// page's state: analysis-page.js; the results and the wait: analysis-results.js.
import { renderBoard, clearArrows } from "../games/board.js";
import { fmt, rollValues, markUsed } from "../games/view.js";
import { wireBoard, toTarget, pickPoint, postJson, getJson } from "./boardinput.js";
import { readSetting, fillSetting, settingBody, settingQuery, cubeOnBoard } from "./analysis-cube.js";
import { $, S, data, direction, say, singleRoll, state, status, svg, urls } from "./analysis-page.js";
import { onPlayChosen, rollout, showResults, showRetry, waiting } from "./analysis-results.js";

const other = (side) => (side === "light" ? "dark" : "light");

// ---------------------------------------------------------------- drawing

function diceOnBoard() {
  const roll = singleRoll();
  if (!roll || state.setup) return [];
  const values = rollValues(roll);
  const remaining = state.turn ? state.turn.remaining : values;
  const slot = state.facts.side === "light" ? "home" : "outer";
  return markUsed(values, remaining).map((d) => ({ ...d, side: state.facts.side, slot }));
}

function draw() {
  const board = state.turn ? state.turn.board : state.facts.board;
  const allowed = state.turn && !state.setup ? state.turn.allowed : [];
  const sources = [...new Set(allowed.map((s) => s.from))];
  const destinations = state.selected === null ? []
    : allowed.filter((s) => s.from === state.selected).map((s) => s.to);
  renderBoard(svg, board, {
    direction, dice: diceOnBoard(), selected: state.selected, sources, destinations,
    cube: cubeOnBoard(state.setting),
  });
  svg.dataset.side = state.facts.side;
  // The count of steps the board has taken, once the server's turn is here:
  // a key pressed before then would pick from no allowed steps.
  if (state.turn) svg.dataset.steps = String(state.steps.length);
  else delete svg.dataset.steps;
  const f = state.turn || state.facts;
  $("ab-pid").textContent = state.facts.position_id;
  $("ab-xgid").textContent = state.facts.xgid;
  $("ab-facts").textContent = fmt(S.facts, {
    light: f.pips.light, dark: f.pips.dark, lc: f.checkers.light, dc: f.checkers.dark,
  });
  $("ab-turn").textContent = fmt(S.on_roll, { side: S[state.facts.side] });
  $("ab-dice").value = state.dice;
  $("ab-setting-words").textContent = state.facts.setting_words || "";
  $("ab-variation").textContent = state.variation.length
    ? fmt(S.variation, { plays: state.variation.map((v, i) => `${i + 1}. ${v.dice[0]}-${v.dice[1]} ${v.notation}`).join("  ") })
    : S.variation_empty;
}

function writeAddress() {
  const q = new URLSearchParams({ id: state.facts.position_id });
  if (state.dice) q.set("dice", state.dice);
  if (state.facts.side !== "light") q.set("side", state.facts.side);
  for (const [k, v] of Object.entries(settingQuery(state.setting))) q.set(k, v);
  if (!state.dice && state.results && state.results.cube) q.set("show", "cube");
  window.history.replaceState(null, "", `${urls.page}?${q}`);
}

// ---------------------------------------------------------------- position

function setPosition(facts, dice, steps = []) {
  state.facts = facts;
  if (facts.setting) state.setting = facts.setting;
  fillSetting(state.setting);
  state.dice = dice;
  state.steps = steps;
  state.turn = null;
  state.selected = null;
  state.results = null;
  clearArrows(svg);
  showResults(null);
  writeAddress();
  draw();
  if (dice) analyse();
  if (singleRoll()) walk();
}

const isXgid = (text) => text.includes(":") || /^\s*XGID=/i.test(text);

async function openId(text, side = "light") {
  // An XGID holds its own cube and score; a Position ID keeps the form's.
  const setting = isXgid(text) ? {} : settingBody(state.setting);
  const { ok, data: answer } = await postJson(urls.position, { id: text, side, ...setting });
  if (!ok) {
    say(answer.message || S.failed, true);
    return false;
  }
  say("");
  state.variation = [];
  setPosition(answer, answer.dice || "");
  return true;
}

// ---------------------------------------------------------------- steps

async function walk() {
  const roll = singleRoll();
  if (!roll) return;
  const body = { id: state.facts.position_id, dice: state.dice, side: state.facts.side, steps: state.steps };
  const token = ++state.walks;
  const { ok, data: answer } = await postJson(urls.step, body);
  if (token !== state.walks) return; // a newer step or position came since
  if (!ok) {
    say(answer.message || S.failed, true);
    return;
  }
  state.turn = answer;
  state.steps = answer.steps.map((s) => [s.from, s.to]);
  if (answer.refusal) say(answer.refusal, true);
  if (answer.complete && answer.steps.length) {
    finishPlay(answer);
    return;
  }
  if (answer.complete) say(S.no_move);
  else if (!answer.refusal) {
    say(state.steps.length ? fmt(S.steps_left, { dice: answer.remaining.join("-") })
      : fmt(S.to_play, { side: S[state.facts.side], dice: roll.join("-") }));
  }
  draw();
}

async function finishPlay(answer) {
  const played = { facts: state.facts, dice: state.dice, steps: state.steps.slice(), notation: answer.notation };
  const next = other(state.facts.side);
  const body = { id: answer.next_id, side: next, ...settingBody(state.setting) };
  const { ok, data: facts } = await postJson(urls.position, body);
  if (!ok) return;
  state.variation.push(played);
  setPosition(facts, "");
  say(fmt(S.played, { side: S[played.facts.side], play: played.notation, other: S[next] }));
}

function pickStep(where) {
  pickPoint(state, where, { walk, draw });
}

function undo() {
  if (state.setup) return;
  if (state.steps.length) {
    state.steps.pop();
    state.selected = null;
    walk();
    return;
  }
  const last = state.variation.pop();
  if (!last) {
    say(S.nothing_to_undo);
    return;
  }
  setPosition(last.facts, last.dice, last.steps.slice(0, -1));
}

function playCandidate(play, dice) {
  if (dice) {
    state.dice = dice;
    state.turn = null;
  }
  state.steps = play.steps.map((s) => [toTarget(s.from), toTarget(s.to)]);
  state.selected = null;
  walk();
}

// ---------------------------------------------------------------- set-up

function setupCounts() {
  const b = state.facts.board;
  const light = b.points.map((n) => Math.max(n, 0));
  const dark = b.points.map((n) => Math.max(-n, 0));
  light.push(b.bar.light);
  dark.push(b.bar.dark);
  return { light, dark };
}

async function sendSetup(counts, side) {
  const body = { setup: counts, side, ...settingBody(state.setting) };
  const { ok, data: answer } = await postJson(urls.position, body);
  if (!ok) {
    say(answer.message || S.failed, true);
    return;
  }
  say("");
  state.variation = [];
  setPosition(answer, "");
}

function colour() {
  return document.querySelector("input[name=ab-colour]:checked").value;
}

function placeChecker(where, remove) {
  if (where === 0) return;
  const counts = setupCounts();
  const half = counts[colour()];
  const i = where === 25 ? 24 : where - 1;
  if (remove) {
    if (!half[i]) return;
    half[i] -= 1;
  } else half[i] += 1;
  sendSetup(counts, $("ab-setup-side").value);
}

function toggleSetup() {
  state.setup = !state.setup;
  $("ab-setup").setAttribute("aria-pressed", String(state.setup));
  $("ab-setup-box").hidden = !state.setup;
  $("ab-setup-side").value = state.facts.side;
  state.selected = null;
  if (state.setup) {
    state.dice = "";
    state.turn = null;
    state.steps = [];
    showResults(null);
    writeAddress();
  }
  setupHelp();
  draw();
}

function setupHelp() {
  $("ab-setup-help").textContent = fmt(S.setup_on, { colour: S[`setup_colour_${colour()}`] });
}

// ---------------------------------------------------------------- cube and score

/** The form changed: the server checks the new cube and score; refused, the form goes back. */
async function changeSetting() {
  const body = { id: state.facts.position_id, side: state.facts.side, ...readSetting() };
  if (singleRoll()) body.dice = state.dice;
  const { ok, data: answer } = await postJson(urls.position, body);
  if (!ok) {
    say(answer.message || S.failed, true);
    fillSetting(state.setting);
    return;
  }
  say("");
  state.setting = answer.setting;
  state.facts = { ...state.facts, xgid: answer.xgid, setting: answer.setting, setting_words: answer.setting_words };
  fillSetting(state.setting);
  writeAddress();
  draw();
  if (!state.dice && state.results) analyse(); // the cube action shown: at the new cube and score
}

// ---------------------------------------------------------------- analysis

async function analyse() {
  if (state.setup) return;
  const token = ++state.token;
  const query = { id: state.facts.position_id, dice: state.dice, side: state.facts.side, ...settingBody(state.setting) };
  $("ab-results-title").dataset.state = "pending";
  say(S.thinking);
  waiting(null);
  let { ok, data: answer } = await postJson(urls.run, query);
  while (ok && token === state.token && !["done", "failed", "lost"].includes(answer.state)) {
    waiting(answer);
    await new Promise((r) => window.setTimeout(r, 500));
    ({ ok, data: answer } = await getJson(`${urls.run}?${new URLSearchParams(query)}`));
  }
  if (token !== state.token) return;
  if (!ok || answer.state !== "done") {
    say("");
    say(answer.message || S.failed, true);
    showRetry("");  // failed or lost: asking again queues it anew
    return;
  }
  waiting(null);
  status("");
  showResults(answer);
  writeAddress(); // a cube action shown: the address says so (show=cube)
}

// ---------------------------------------------------------------- wiring

draw(); // the board's layers first: the click targets go on top of them
onPlayChosen(playCandidate);
wireBoard(svg, {
  direction,
  onPick: (where, ev) => {
    if (state.setup) placeChecker(where, ev.shiftKey || ev.remove);
    else if (singleRoll()) pickStep(where);
  },
  onKey: (ev, where) => {
    if (!state.setup) return false;
    if (ev.key === "+" || ev.key === "=") placeChecker(where, false);
    else if (ev.key === "-" || ev.key === "Delete" || ev.key === "Backspace") placeChecker(where, true);
    else return false;
    return true;
  },
});

$("ab-open").addEventListener("submit", (ev) => {
  ev.preventDefault();
  openId($("ab-input").value);
});
$("ab-dice").addEventListener("change", () => {
  if (state.setup) toggleSetup();
  const keep = state.facts;
  setPosition(keep, $("ab-dice").value);
});
$("ab-analyse").addEventListener("click", analyse);
$("ab-rollout").addEventListener("click", rollout);
$("ab-retry").addEventListener("click", analyse);
for (const id of ["ab-cube", "ab-owner", "ab-match", "ab-score-light", "ab-score-dark", "ab-crawford", "ab-jacoby"]) {
  $(id).addEventListener("change", changeSetting);
}
$("ab-undo").addEventListener("click", undo);
$("ab-setup").addEventListener("click", toggleSetup);
$("ab-clear").addEventListener("click", () => {
  const empty = new Array(25).fill(0);
  sendSetup({ light: empty, dark: empty }, $("ab-setup-side").value);
});
$("ab-start").addEventListener("click", () => openId("4HPwATDgc/ABMA", $("ab-setup-side").value));
$("ab-setup-side").addEventListener("change", () => sendSetup(setupCounts(), $("ab-setup-side").value));
for (const radio of document.querySelectorAll("input[name=ab-colour]")) radio.addEventListener("change", setupHelp);
for (const button of document.querySelectorAll("[data-copy]")) {
  button.addEventListener("click", async () => {
    const text = $(button.dataset.copy).textContent;
    try {
      await navigator.clipboard.writeText(text);
      say(S.copied);
    } catch (_err) {
      window.getSelection().selectAllChildren($(button.dataset.copy));
    }
  });
}
document.addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
  if (ev.target.closest && ev.target.closest("[data-point]") && state.setup) return;
  const keys = { a: analyse, u: undo, Backspace: undo, s: toggleSetup };
  const action = keys[ev.key];
  if (!action) return;
  ev.preventDefault();
  action();
});

setPosition(state.facts, state.dice);
if (data.error) say(data.error, true);
else if (data.show_cube) analyse();
else if (!state.dice) say(S.no_dice);

