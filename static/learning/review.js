// The review page: replays a finished game on the shared board renderer,
// shows each turn's analysis, draws the win-probability graph and follows
// the analysis job's progress (progress.js: the game's socket, reconnecting).
import { renderBoard, drawArrows, clearArrows } from "../games/board.js";
import { SVG_NS, byId as $, fmt, pct, sentences, signed } from "../games/common.js";
import { followAnalysis } from "./progress.js";
import { followRollout, showRolloutProgress, withError } from "./rollout.js";

const root = document.getElementById("review");
const data = JSON.parse(document.getElementById("review-data").textContent);
const S = JSON.parse(document.getElementById("review-strings").textContent);
const direction = document.body.dataset.boardDirection || "right";
const turns = data.turns;
// View k < turns.length shows turn k+1 before it is played (with its dice
// and the play's arrows); k === turns.length shows the final position.
let view = 0;

// The graph's value: the chance to win the game, or in a match the match.
function chance(a) {
  return data.match && a.mwc_light !== null && a.mwc_light !== undefined ? a.mwc_light : a.win_light;
}

function isError(turn) {
  const cube = (turn.cube || []).some((c) => c.error !== "none");
  return cube || Boolean(turn.analysis && turn.analysis.error && turn.analysis.error !== "none");
}

// The cube decisions made before a roll (or after the last turn): each a
// block of its own, coloured by its own error, with GNU Backgammon's table of
// equities; a right no-double far from the doubling window is not shown.
function renderCube(cubes) {
  const box = $("rv-cube");
  box.replaceChildren();
  for (const c of (cubes || []).filter((d) => !d.trivial)) {
    const block = document.createElement("section");
    block.className = `cube-block verdict-${c.error}`;
    block.dataset.side = c.side;
    block.dataset.decision = c.decision;
    const heading = document.createElement("h3");
    heading.textContent = S.cube_heading[c.side];
    const verdict = document.createElement("p");
    verdict.className = "cube-verdict";
    const parts = [c.verdict];
    if (c.error !== "none") {
      parts.push(fmt(S.cube_lost, { lost: c.equity_lost.toFixed(3), label: S.errors[c.error], mark: c.mark }));
    }
    if (c.why) parts.push(c.why);
    verdict.textContent = sentences(parts);
    const right = document.createElement("p");
    right.className = "cube-right";
    right.dataset.takePoint = c.table.take_point;
    right.textContent = sentences([c.table.right, c.table.take_point]);
    block.append(heading, verdict, cubeTable(c.table), right);
    if (c.rollout) block.append(...rolloutParts(block, c));
    box.appendChild(block);
  }
}

// ---------------------------------------------------------------- 精确分析

// The rollouts this page has shown, by their request: a block drawn again
// (the person went to another turn and back) shows its rollout again.
const rolled = new Map();

/** The block's 精确分析 button, its progress bar and its note. */
function rolloutParts(block, c) {
  const key = JSON.stringify(c.rollout);
  const button = document.createElement("button");
  button.type = "button";
  button.className = "cube-rollout";
  button.textContent = S.rollout;
  const status = document.createElement("p");
  status.className = "cube-rollout-status";
  status.setAttribute("role", "status");
  status.hidden = true;
  const bar = document.createElement("progress");
  bar.max = 1;
  bar.value = 0;
  const line = document.createElement("span");
  status.append(bar, " ", line);
  const note = document.createElement("p");
  note.className = "note cube-rollout-note";
  const error = document.createElement("p");
  error.className = "error cube-rollout-error";
  error.setAttribute("role", "alert");
  button.addEventListener("click", async () => {
    button.disabled = true;
    error.textContent = "";
    status.hidden = false;
    showRolloutProgress(bar, line, null, S);
    const { ok, data: answer } = await followRollout(root.dataset.rolloutUrl, c.rollout, {
      onProgress: (progress) => showRolloutProgress(bar, line, progress, S),
      stale: () => !block.isConnected, // the person went to another turn
    });
    status.hidden = true;
    button.disabled = false;
    if (!block.isConnected) return;
    if (!ok || answer.state !== "done" || !answer.cube || !answer.cube.rollout) {
      error.textContent = answer.message || (answer.cube && answer.cube.message) || S.failed;
      return;
    }
    rolled.set(key, answer.cube);
    showRollout(block, answer.cube);
  });
  if (rolled.has(key)) window.setTimeout(() => showRollout(block, rolled.get(key)));
  return [button, status, note, error];
}

/** The rollout's figures in place of the review's: no double and double/take
 * with their standard errors, double/pass exact; its right action; its note. */
function showRollout(block, cube) {
  const e = cube.equities;
  const r = cube.rollout;
  const best = Math.max(e.no_double, Math.min(e.double_take, e.double_pass));
  const se = { no_double: r.no_double_se, double_take: r.double_take_se };
  for (const tr of block.querySelectorAll("table.cube-equities tbody tr")) {
    const [equity, difference] = tr.querySelectorAll("td");
    equity.textContent = withError(e[tr.dataset.key], se[tr.dataset.key]);
    difference.textContent = withError(e[tr.dataset.key] - best);
  }
  const right = block.querySelector(".cube-right");
  const takePoint = right.dataset.takePoint || "";
  right.textContent = sentences([fmt(S.rollout_right, { action: cube.action }), takePoint]);
  block.querySelector(".cube-rollout-note").textContent = r.note;
  block.querySelector(".cube-rollout").hidden = true;
  block.dataset.rolledOut = "true";
}

function cubeTable(t) {
  const wrap = document.createElement("div");
  wrap.className = "table-wrap";
  const table = document.createElement("table");
  table.className = "cube-equities";
  const caption = document.createElement("caption");
  caption.textContent = S.cube_caption;
  const head = document.createElement("tr");
  for (const text of [S.cube_action, S.cube_equity, S.cube_difference]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = text;
    head.appendChild(th);
  }
  const thead = document.createElement("thead");
  thead.appendChild(head);
  const body = document.createElement("tbody");
  for (const row of t.rows) {
    const tr = document.createElement("tr");
    tr.dataset.key = row.key;
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = row.label;
    tr.appendChild(th);
    for (const text of [row.equity, row.difference]) {
      const td = document.createElement("td");
      td.className = "num";
      td.textContent = text;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  table.append(caption, thead, body);
  wrap.appendChild(table);
  return wrap;
}

function diceFor(turn) {
  const slot = turn.side === "light" ? "home" : "outer";
  return turn.dice.map((value) => ({ value, used: false, side: turn.side, slot }));
}

function show(k) {
  view = Math.max(0, Math.min(turns.length, k));
  root.dataset.view = String(view);
  const svg = $("review-board");
  const turn = turns[view];
  if (!turn) {
    const last = turns[turns.length - 1];
    renderBoard(svg, last ? last.after : data.start, { direction });
    clearArrows(svg);
    $("rv-turn-title").textContent = S.end;
    $("rv-turn-line").textContent = "";
    renderCube(data.end_cube);
    $("rv-turn-verdict").textContent = "";
    $("rv-alternatives").hidden = true;
    $("rv-rollout-box").hidden = true;
  } else {
    renderBoard(svg, turn.before, { direction, dice: diceFor(turn) });
    drawArrows(svg, turn.steps, { side: turn.side });
    describe(turn);
  }
  // The counter counts turns as the title does; past the last turn, the end.
  const lastNumber = turns.length ? turns[turns.length - 1].number : 0;
  $("rv-position").textContent = turn ? fmt(S.position, { i: turn.number, n: lastNumber }) : S.end;
  markGraph();
}

function describe(turn) {
  $("rv-turn-title").textContent = fmt(S.turn_title, {
    n: turn.number, side: S[turn.side], dice: turn.dice.join("-"),
  });
  $("rv-turn-line").textContent = turn.notation ? fmt(S.played, { play: turn.notation }) : S.no_move;
  $("rv-analyse").href = `${root.dataset.analysisUrl}?game=${root.dataset.game}&turn=${turn.number}`;
  renderCube(turn.cube);
  const a = turn.analysis;
  const verdict = $("rv-turn-verdict");
  verdict.className = a ? `verdict verdict-${a.error}` : "verdict";
  if (!a) {
    verdict.textContent = S.not_analysed;
    $("rv-alternatives").hidden = true;
    $("rv-rollout-box").hidden = true;
    return;
  }
  const parts = [];
  if (!turn.notation) parts.push(S.no_move);
  else if (a.forced) parts.push(S.forced);
  else if (a.error !== "none") {
    parts.push(fmt(S.lost, { lost: a.equity_lost.toFixed(3), label: S.errors[a.error], mark: a.mark }));
  } else if (a.played_rank === 0) parts.push(S.best);
  // The page says the review's depth once; a turn says its own only when
  // it differs (a review stored before every decision was searched alike).
  if (turn.notation && !a.forced && a.ply && a.ply !== data.review_ply) {
    parts.push(fmt(S.depth, { ply: a.ply }));
  }
  if (a.luck !== null) parts.push(fmt(S.luck, { luck: signed(a.luck) }));
  parts.push(fmt(data.match ? S.match_after : S.win_after, { win: pct(chance(a)) }));
  if (turn.side === "dark" && a.played) parts.push(S.computer_why, ...a.played.reasons);
  verdict.textContent = sentences(parts);
  alternatives(turn, a);
  playRollout(turn, a);
}

// 精确分析 of the turn's plays: the analysis board's request, the same bar;
// its figures with ± in place of the review's, ranked by it, and the play
// made judged by it. A turn shown again shows its rollout again (``rolled``).
function playRollout(turn, a) {
  const box = $("rv-rollout-box");
  box.hidden = !a.rollout;
  $("rv-rollout-verdict").textContent = "";
  $("rv-rollout-note").textContent = "";
  $("rv-rollout-error").textContent = "";
  $("rv-rollout-status").hidden = true;
  $("rv-rollout").hidden = false;
  $("rv-rollout").disabled = false;
  if (!a.rollout) return;
  const key = JSON.stringify(a.rollout);
  if (rolled.has(key)) showPlayRollout(turn, rolled.get(key));
}

async function askPlayRollout() {
  const turn = turns[view];
  const a = turn && turn.analysis;
  if (!a || !a.rollout) return;
  const key = JSON.stringify(a.rollout);
  const bar = $("rv-rollout-progress");
  const line = $("rv-rollout-text");
  $("rv-rollout").disabled = true;
  $("rv-rollout-error").textContent = "";
  $("rv-rollout-status").hidden = false;
  showRolloutProgress(bar, line, null, S);
  const { ok, data: answer } = await followRollout(root.dataset.rolloutUrl, a.rollout, {
    onProgress: (progress) => showRolloutProgress(bar, line, progress, S),
    stale: () => turns[view] !== turn, // the person went to another turn
  });
  if (turns[view] !== turn) return;
  $("rv-rollout-status").hidden = true;
  $("rv-rollout").disabled = false;
  if (!ok || answer.state !== "done" || !answer.rollout) {
    $("rv-rollout-error").textContent = answer.message || S.failed;
    return;
  }
  rolled.set(key, answer);
  showPlayRollout(turn, answer);
}

function showPlayRollout(turn, answer) {
  const judged = answer.rollout.played;
  let words = "";
  if (judged && judged.error !== "none") {
    words = fmt(S.rollout_lost, { label: S.errors[judged.error], mark: judged.mark, lost: judged.equity_lost.toFixed(3) });
  } else if (judged && judged.rank === 0) words = S.rollout_best;
  else if (judged) words = fmt(S.rollout_close, { lost: judged.equity_lost.toFixed(3) });
  $("rv-rollout-verdict").textContent = words;
  $("rv-rollout-verdict").className = judged ? `verdict verdict-${judged.error}` : "verdict";
  $("rv-rollout-note").textContent = answer.rollout.note;
  $("rv-rollout").hidden = true;
  const rows = answer.plays.map((c, i) => ({ ...c, rank: i, played: judged !== null && i === judged.rank }));
  fillAlternatives(turn, rows);
  $("rv-alternatives").dataset.rolledOut = "true";
}

function alternatives(turn, a) {
  const rows = a.alternatives.map((c, i) => ({ ...c, rank: i, played: c.notation === turn.notation }));
  if (a.played && (a.played_rank === null || a.played_rank >= rows.length)) {
    rows.push({ ...a.played, rank: a.played_rank ?? rows.length, played: true });
  }
  delete $("rv-alternatives").dataset.rolledOut;
  fillAlternatives(turn, rows);
}

/** The plays' table: each row's rank, play, equity (± its standard error
 * once rolled out) and chances, the play made marked, its reasons under it. */
function fillAlternatives(turn, rows) {
  const table = $("rv-alternatives");
  const body = table.querySelector("tbody");
  body.replaceChildren();
  if (!rows.length) {
    table.hidden = true;
    return;
  }
  rows.forEach((c) => {
    const tr = document.createElement("tr");
    const played = c.played;
    if (played) tr.classList.add("played");
    tr.tabIndex = 0;
    const rank = String(c.rank + 1);
    const equity = c.se === null || c.se === undefined ? c.equity.toFixed(3) : withError(c.equity, c.se);
    const cells = [rank, c.notation + (played ? ` ${S.played_row}` : ""), equity,
      pct(c.probs.win), pct(c.probs.win_gammon), pct(c.probs.win_backgammon)];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.appendChild(td);
    }
    // The reasons get a full-width row of their own under the numbers.
    const why = document.createElement("tr");
    why.className = played ? "reasons played" : "reasons";
    const cell = document.createElement("td");
    cell.colSpan = cells.length;
    const ul = document.createElement("ul");
    for (const r of c.reasons) {
      const li = document.createElement("li");
      li.textContent = r;
      ul.appendChild(li);
    }
    cell.appendChild(ul);
    why.appendChild(cell);
    const pick = () => drawArrows($("review-board"), c.steps, { side: turn.side });
    tr.addEventListener("click", pick);
    tr.addEventListener("focus", pick);
    why.addEventListener("click", pick);
    body.appendChild(tr);
    body.appendChild(why);
  });
  table.hidden = false;
}

function step(delta) {
  show(view + delta);
}

function jumpError(dir) {
  for (let k = view + dir; k >= 0 && k < turns.length; k += dir) {
    if (isError(turns[k])) return show(k);
  }
  return undefined;
}

// ---------------------------------------------------------------- the graph

const GW = 600;
const GH = 160;
const PAD = 24;

function gx(k) {
  return PAD + (turns.length ? (k * (GW - 2 * PAD)) / turns.length : 0);
}

function gy(p) {
  return PAD + (1 - p) * (GH - 2 * PAD);
}

function node(name, attrs, parent) {
  const n = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (parent) parent.appendChild(n);
  return n;
}

function drawGraph() {
  const svg = $("win-graph");
  if (!svg) return;
  svg.setAttribute("viewBox", `0 0 ${GW} ${GH}`);
  node("rect", { x: PAD, y: PAD, width: GW - 2 * PAD, height: GH - 2 * PAD, class: "g-frame" }, svg);
  node("line", { x1: PAD, x2: GW - PAD, y1: gy(0.5), y2: gy(0.5), class: "g-half" }, svg);
  for (const [p, label] of [[1, "100%"], [0.5, "50%"], [0, "0%"]]) {
    const t = node("text", { x: PAD - 4, y: gy(p) + 4, class: "g-label", "text-anchor": "end" }, svg);
    t.textContent = label;
  }
  const pts = [[gx(0), gy(0.5)]];
  turns.forEach((t, k) => {
    if (t.analysis) pts.push([gx(k + 1), gy(chance(t.analysis))]);
  });
  node("polyline", { points: pts.map((p) => p.join(",")).join(" "), class: "g-line" }, svg);
  turns.forEach((t, k) => {
    if (!t.analysis) return;
    const dot = node("circle", {
      cx: gx(k + 1), cy: gy(chance(t.analysis)), r: isError(t) ? 4 : 2.5,
      class: isError(t) ? `g-dot g-error g-${t.side}` : `g-dot g-${t.side}`,
    }, svg);
    const title = node("title", {}, dot);
    title.textContent = fmt(data.match ? S.graph_turn_match : S.graph_turn, { n: t.number, win: pct(chance(t.analysis)) });
  });
  node("line", { class: "g-cursor", x1: 0, x2: 0, y1: PAD, y2: GH - PAD, id: "g-cursor" }, svg);
  svg.addEventListener("click", (ev) => {
    const box = svg.getBoundingClientRect();
    const x = ((ev.clientX - box.left) / box.width) * GW;
    const k = Math.round(((x - PAD) / (GW - 2 * PAD)) * turns.length);
    // Point k on the graph is the chance after turn k: show that turn.
    show(Math.max(0, Math.min(turns.length - 1, k - 1)));
  });
}

function markGraph() {
  const cursor = $("g-cursor");
  if (!cursor) return;
  const x = gx(Math.min(view + 1, turns.length));
  cursor.setAttribute("x1", x);
  cursor.setAttribute("x2", x);
}

// ---------------------------------------------------------------- progress

function showProgress(msg) {
  const box = $("analysis-progress-box");
  if (!box) return;
  box.dataset.state = msg.state || "";
  // The count of reviews ahead was true while this one waited; it runs now.
  if (msg.state === "running" || msg.done) $("analysis-ahead")?.remove();
  if (msg.total) {
    $("analysis-progress").value = msg.done / msg.total;
    $("analysis-count").textContent = `${msg.done}/${msg.total}`;
  }
  $("analysis-failed").hidden = msg.state !== "failed";
  if (msg.state === "failed") $("analysis-again").hidden = false;
  if (msg.state === "done") window.location.reload();
}

// ---------------------------------------------------------------- wiring

const KEYS = {
  ArrowLeft: () => step(-1), ArrowRight: () => step(1),
  Home: () => show(0), End: () => show(turns.length),
  n: () => jumpError(1), p: () => jumpError(-1),
};

document.addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLTextAreaElement) return;
  const action = KEYS[ev.key];
  if (!action) return;
  ev.preventDefault();
  action();
});
$("rv-first").addEventListener("click", () => show(0));
$("rv-last").addEventListener("click", () => show(turns.length));
$("rv-prev").addEventListener("click", () => step(-1));
$("rv-next").addEventListener("click", () => step(1));
$("rv-next-error").addEventListener("click", () => jumpError(1));
$("rv-rollout").addEventListener("click", askPlayRollout);
$("rv-prev-error").addEventListener("click", () => jumpError(-1));

drawGraph();
show(0);
followAnalysis({
  state: root.dataset.state, wsUrl: root.dataset.wsUrl, statusUrl: root.dataset.statusUrl,
  onProgress: showProgress,
  onConnection: (up) => { $("analysis-offline")?.toggleAttribute("hidden", up); },
});
window.__review = { show, get view() { return view; }, turns: turns.length };
