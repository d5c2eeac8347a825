// The review page: replays a finished game on the shared board renderer,
// shows each turn's analysis, draws the win-probability graph and follows
// the analysis job's progress (progress.js: the game's socket, reconnecting).
// Its parts: review-data.js (the page's data), review-cube.js (the cube
// blocks), review-graph.js (the graph).
import { renderBoard, drawArrows, clearArrows } from "../games/board.js";
import { byId as $, fmt, pct, playWords, sentences, signed } from "../games/common.js";
import { followAnalysis } from "./progress.js";
import { followRollout, showRolloutProgress, withError } from "./rollout.js";
import { S, chance, data, direction, isError, root, turns } from "./review-data.js";
import { renderCube, rolled } from "./review-cube.js";
import { drawGraph, markGraph } from "./review-graph.js";
import { putWords } from "./terms.js";

// View k < turns.length shows turn k+1 before it is played (with its dice
// and the play's arrows); k === turns.length shows the final position.
let view = 0;

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
  markGraph(view);
}

// A change of the chance to win the match, signed: "+1.2%".
const signedPct = (x) => (x >= 0 ? "+" : "") + pct(x);

function describe(turn) {
  $("rv-turn-title").textContent = fmt(S.turn_title, {
    n: turn.number, side: data.sides[turn.side], dice: turn.dice.join("-"),
  });
  $("rv-turn-line").textContent = turn.notation ? fmt(S.played, { play: playWords(S, turn.notation) }) : S.no_move;
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
  if (a.luck !== null && a.luck_mwc !== null && a.luck_mwc !== undefined) {
    parts.push(fmt(S.luck_mwc, { luck: signed(a.luck), mwc: signedPct(a.luck_mwc) }));
  } else if (a.luck !== null) parts.push(fmt(S.luck, { luck: signed(a.luck) }));
  parts.push(fmt(data.match ? data.sides.after_match : data.sides.after, { win: pct(chance(a)) }));
  if (turn.side === "dark" && a.played) parts.push(data.sides.why_dark, ...a.played.reasons);
  putWords(verdict, sentences(parts));  // the reasons' terms linked
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
    const cells = [rank, playWords(S, c.notation) + (played ? ` ${S.played_row}` : ""), equity,
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
      putWords(li, r);  // the glossary's terms it names, linked
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

drawGraph(show);
show(0);
followAnalysis({
  state: root.dataset.state, wsUrl: root.dataset.wsUrl, statusUrl: root.dataset.statusUrl,
  onProgress: showProgress,
  onConnection: (up) => { $("analysis-offline")?.toggleAttribute("hidden", up); },
});
window.__review = { show, get view() { return view; }, turns: turns.length };
