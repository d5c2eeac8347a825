// The analysis board's results: the wait for a job (its place in the queue,
// a retry), the ranked plays' table with their reasons and arrows, the cube
// action (analysis-cube.js) and 精确分析 (rollout.js).

import { drawArrows } from "../games/board.js";
import { fmt } from "../games/view.js";
import { toTarget } from "./boardinput.js";
import { putWords } from "./terms.js";
import { settingBody, showCube } from "./analysis-cube.js";
import { followRollout, showRolloutProgress, withError } from "./rollout.js";
import { $, S, say, singleRoll, state, status, svg, urls } from "./analysis-page.js";

const pct = (x) => `${(x * 100).toFixed(1)}%`;
const signed = (x) => (x >= 0 ? "+" : "") + x.toFixed(3);

// What "play this" on a row does: analysis.js walks the play on the board.
let playChosen = () => {};

export function onPlayChosen(walkPlay) {
  playChosen = walkPlay;
}

// While a job waits: what for (its place in the queue, or running) and for
// how long, from the server's answer; a retry offered once the wait is long.
export function waiting(answer) {
  if (!answer) {
    showRetry(null);
    return;
  }
  const seconds = answer.seconds ?? 0;
  let words = S.waiting;
  if (answer.state === "running") words = S.running;
  else if (answer.ahead === 0) words = S.queued_next;
  else if (answer.ahead > 0) words = S.queued;
  status(fmt(words, { ahead: answer.ahead, seconds }));
  showRetry(seconds >= S.retry_after ? S.slow : null);
}

export function showRetry(words) {
  $("ab-wait").hidden = words === null;
  $("ab-wait-words").textContent = words || "";
  $("ab-retry").hidden = words === null;
}

function row(cells) {
  const tr = document.createElement("tr");
  for (const text of cells) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.appendChild(td);
  }
  return tr;
}

function reasonsRow(reasons, span) {
  const tr = document.createElement("tr");
  tr.className = "reasons";
  const td = document.createElement("td");
  td.colSpan = span;
  const ul = document.createElement("ul");
  for (const r of reasons) {
    const li = document.createElement("li");
    putWords(li, r);
    ul.appendChild(li);
  }
  td.appendChild(ul);
  tr.appendChild(td);
  return tr;
}

function chances(p) {
  return fmt(S.numbers, { win: pct(p.win), gammon: pct(p.win_gammon), bg: pct(p.win_backgammon), lg: pct(p.lose_gammon) });
}

function addPlay(body, i, play, dice, extra) {
  // A rolled-out play's equity carries its standard error (rollout.js).
  const equity = play.se === null || play.se === undefined ? play.equity.toFixed(3) : withError(play.equity, play.se);
  const tr = row([String(i + 1), dice.join("-"), play.notation, `${equity} ${extra}`, chances(play.probs), ""]);
  tr.tabIndex = 0;
  tr.className = "ab-play";
  tr.dataset.notation = play.notation;
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = S.play_this;
  button.addEventListener("click", (ev) => {
    ev.stopPropagation();
    playChosen(play, dice.join(""));
  });
  tr.lastChild.appendChild(button);
  const show = () => drawArrows(svg, play.steps.map((s) => ({ from: toTarget(s.from), to: toTarget(s.to) })), { side: state.facts.side });
  tr.addEventListener("click", show);
  tr.addEventListener("focus", show);
  body.appendChild(tr);
  body.appendChild(reasonsRow(play.reasons, 6));
  if (i === 0) show();
}

/** 精确分析: the cube action or the roll's plays rolled out, its progress
 * shown while it runs (rollout.js). */
export async function rollout() {
  if (state.setup || (state.dice && !singleRoll())) return;
  const token = ++state.token;
  const query = {
    id: state.facts.position_id, dice: state.dice, side: state.facts.side, ...settingBody(state.setting), rollout: "1",
  };
  const bar = $("ab-rollout-progress");
  const line = $("ab-rollout-text");
  $("ab-rollout").disabled = true;
  $("ab-rollout-status").hidden = false;
  showRolloutProgress(bar, line, null, S);
  const { ok, data: answer } = await followRollout(urls.run, query, {
    onProgress: (progress) => showRolloutProgress(bar, line, progress, S),
    stale: () => token !== state.token,
  });
  $("ab-rollout").disabled = false;
  $("ab-rollout-status").hidden = true;
  if (token !== state.token) return;
  if (!ok || answer.state !== "done") {
    say(answer.message || S.failed, true);
    return;
  }
  say("");
  showResults(answer);
}

export function showResults(answer) {
  const table = $("ab-plays");
  const body = table.querySelector("tbody");
  body.replaceChildren();
  $("ab-average").textContent = "";
  // What the plays' figures are in (the board's cube and score) and at which depth.
  $("ab-unit").textContent = answer && answer.unit ? answer.unit : "";
  state.results = answer;
  $("ab-results-title").dataset.state = answer ? "done" : "";
  showCube(answer && answer.cube ? answer.cube : null, S, state.facts.side);
  // 精确分析 is offered for a cube action and for a roll with plays to
  // compare; once done, its note says what it was.
  const rolled = answer ? (answer.cube ? answer.cube.rollout : answer.rollout) : null;
  const offered = Boolean(answer) && ((answer.cube && !answer.cube.refusal) || (answer.plays && answer.plays.length > 1));
  $("ab-rollout-note").textContent = rolled ? rolled.note : "";
  $("ab-rollout").hidden = !offered || Boolean(rolled);
  if (!answer || answer.cube) {
    table.hidden = true;
    return;
  }
  if (answer.plays) {
    const roll = [Number(answer.dice[0]), Number(answer.dice[1])];
    answer.plays.forEach((p, i) => addPlay(body, i, p, roll, i === 0 ? S.best : `(${signed(p.difference)})`));
    if (!answer.plays.length) say(S.no_move);
  } else {
    $("ab-average").textContent = fmt(S.average, { equity: signed(answer.average) });
    answer.rolls.forEach((r, i) => {
      if (r.play) addPlay(body, i, r.play, r.dice, "");
      else body.appendChild(row([String(i + 1), r.dice.join("-"), r.no_move, r.equity.toFixed(3), "", ""]));
    });
  }
  table.hidden = false;
}

