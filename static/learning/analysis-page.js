// The analysis board's page: its data and words, its board and the state
// every part of the page reads (analysis.js, analysis-results.js), and the
// lines where it speaks.

export const data = JSON.parse(document.getElementById("analysis-data").textContent);
export const S = JSON.parse(document.getElementById("analysis-strings").textContent);
export const urls = data.urls;
export const direction = document.body.dataset.boardDirection || "right";
export const $ = (id) => document.getElementById(id);
export const svg = $("ab-board");

export const state = {
  facts: data,          // board, position_id, xgid, pips, checkers, side
  setting: data.setting, // the cube and the score, as the server read them
  dice: data.dice || "",
  steps: [],            // this turn's steps, as board targets [from, to]
  turn: null,           // the server's answer for those steps
  selected: null,
  variation: [],        // finished plays: {facts, dice, steps, notation}
  setup: false,
  results: null,
  token: 0,             // the analysis the page is waiting for
  walks: 0,             // the step answer the page is waiting for
};

export function say(text, error = false) {
  $("ab-error").textContent = error ? text : "";
  if (!error) status(text);
}

// A job's progress: it leaves an error said meanwhile (a refused setting)
// on the screen.
export function status(text) {
  $("ab-status").textContent = text;
}

export function singleRoll() {
  return /^[1-6]{2}$/.test(state.dice) ? [Number(state.dice[0]), Number(state.dice[1])] : null;
}

