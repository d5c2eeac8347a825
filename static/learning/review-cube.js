// The review's cube decisions: each a block with GNU Backgammon's table of
// equities, and its 精确分析 (rollout.js) shown in place of the review's.

import { byId as $, fmt, sentences } from "../games/common.js";
import { followRollout, showRolloutProgress, withError } from "./rollout.js";
import { S, data, root } from "./review-data.js";


// The cube decisions made before a roll (or after the last turn): each a
// block of its own, coloured by its own error, with GNU Backgammon's table of
// equities; a right no-double far from the doubling window is not shown.
export function renderCube(cubes) {
  const box = $("rv-cube");
  box.replaceChildren();
  for (const c of (cubes || []).filter((d) => !d.trivial)) {
    const block = document.createElement("section");
    block.className = `cube-block verdict-${c.error}`;
    block.dataset.side = c.side;
    block.dataset.decision = c.decision;
    const heading = document.createElement("h3");
    heading.textContent = data.sides.cube_heading[c.side];
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
export const rolled = new Map();

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
