// The review page's data and words, and what a turn was: the board, the
// cube blocks (review-cube.js) and the graph (review-graph.js) read them.

export const root = document.getElementById("review");
export const data = JSON.parse(document.getElementById("review-data").textContent);
export const S = JSON.parse(document.getElementById("review-strings").textContent);
export const direction = document.body.dataset.boardDirection || "right";
export const turns = data.turns;

// The graph's value: the chance to win the game, or in a match the match.
export function chance(a) {
  return data.match && a.mwc_light !== null && a.mwc_light !== undefined ? a.mwc_light : a.win_light;
}

export function isError(turn) {
  const cube = (turn.cube || []).some((c) => c.error !== "none");
  return cube || Boolean(turn.analysis && turn.analysis.error && turn.analysis.error !== "none");
}
