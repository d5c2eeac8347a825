// 精确分析 (a rollout, bgsage's) of one cube decision, asked of the analysis
// board's endpoint (study:analysis_run with rollout=1) and followed there:
// the request is sent once, then read every 500 ms until it is done, failed
// or lost; a <progress> bar and a line say how far it is. The analysis board
// and the review both use it; the server refuses in words (one rollout of a
// visitor's at a time, a daily budget), and the answer carries that message.
//
//   followRollout(url, body, {onProgress, stale})  -> {ok, data}
//   showRolloutProgress(bar, line, progress, S)      queued (null) or done/total
//   withError(value, se)                             "+0.123 ± 0.012"
import { fmt } from "../games/view.js";
import { postJson, getJson } from "./boardinput.js";

const FINISHED = ["done", "failed", "lost"];
const signed = (x) => (x >= 0 ? "+" : "") + x.toFixed(3);

/** Ask for the rollout and wait for it; ``stale()`` true stops the waiting. */
export async function followRollout(url, body, { onProgress, stale = () => false }) {
  let { ok, data } = await postJson(url, body);
  while (ok && !stale() && !FINISHED.includes(data.state)) {
    onProgress(data.progress);
    await new Promise((r) => window.setTimeout(r, 500));
    ({ ok, data } = await getJson(`${url}?${new URLSearchParams(body)}`));
  }
  return { ok, data };
}

/** The bar and its line: indeterminate while queued, then trials done of all. */
export function showRolloutProgress(bar, line, progress, S) {
  if (!progress) {
    bar.removeAttribute("value"); // indeterminate: queued, no trial done yet
    line.textContent = S.rollout_queued;
    return;
  }
  bar.max = progress.total;
  bar.value = progress.done;
  line.textContent = fmt(S.rollout_progress, progress);
}

/** An equity with its standard error; without one, the equity alone. */
export function withError(value, se) {
  return se === undefined || se === null ? signed(value) : `${signed(value)} ± ${se.toFixed(3)}`;
}
