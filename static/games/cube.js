// The doubling cube and the match on the play page: the choice that begins
// a turn (掷骰 Roll or 加倍 Double), the answer to the computer's double
// (接受 Take or 放弃 Pass), the cube and the score on the status bar, the
// resignation's offer, the match's next game. The server decides; a refused
// command comes back with its reason in words (input.js `refused`).

import { byId, fmt, say } from "./common.js";
import { startFields } from "./dice_seed.js";
import { isIdle, live } from "./page.js";
import * as V from "./view.js";

/** Sends a command of the person's; false if it cannot go now. */
function command(page, send, type, fields = {}) {
  if (!isIdle(page)) return false;
  return Boolean(send(page, type, fields));
}

/** With the cube, on the person's turn: a roll already made is refused in words. */
export function roll(page, send) {
  const s = page.state;
  return Boolean(s.cube) && live(s) && s.turn === "light" && command(page, send, "roll");
}

/**
 * On the person's turn: sent, and the server says why not in words; when
 * the rules keep the cube from them (the Crawford game, the computer's
 * cube), the state's reason is said at once.
 */
export function double(page, send) {
  const s = page.state;
  if (!live(s) || s.turn !== "light") return false;
  if (s.cube && s.cube.why_not && !V.deciding(s)) {
    say("play-refusal", s.cube.why_not);
    return true;
  }
  return command(page, send, "double");
}

export function answer(page, send, type) {
  const s = page.state;
  if (!live(s) || s.turn !== "light") return false;
  const sent = command(page, send, type);
  if (sent) byId("cube-dialog").hidden = true;
  return sent;
}

/** The next game of a match: there already, or asked for (the state brings its id). */
export function nextGame(page, send) {
  const m = page.state.match;
  if (page.state.status !== "finished" || !m || m.over) return false;
  if (m.next_game) {
    goTo(page, m.next_game);
    return true;
  }
  // The commitment the end panel shows and the person's seed (games/dice_seed.js).
  return command(page, send, "next_game", startFields("next"));
}

function goTo(page, gameId) {
  window.location.assign(page.root.dataset.playUrl.replace(/\/0\/$/, `/${gameId}/`));
}

/** The cube's parts of the page, drawn from the state. */
export function renderCube(page) {
  const { state, S } = page;
  byId("play-match").textContent = V.matchText(S, state);
  const crawford = byId("play-crawford");
  const notice = V.crawfordNotice(S, state);
  crawford.hidden = !notice;
  if (crawford.textContent !== notice) crawford.textContent = notice;
  byId("play-cube").textContent = V.cubeText(S, state.cube);
  const choosing = V.deciding(state) && !page.animating;
  byId("play-cube-actions").hidden = !choosing;
  byId("btn-roll").disabled = !choosing;
  const doubleButton = byId("btn-double");
  doubleButton.disabled = !choosing || !(state.cube && state.cube.may_double);
  const label = V.redouble(state) ? S.redouble_button : S.double_button;
  if (doubleButton.textContent !== label) doubleButton.textContent = label;
  renderDialog(page);
  renderResign(page);
}

/** The answer to the computer's double: a panel beside or below the board, never over it. */
function renderDialog(page) {
  const { state, S } = page;
  const panel = byId("cube-dialog");
  const open = V.answering(state) && !page.animating && Boolean(state.cube);
  if (!open) {
    panel.hidden = true;
    return;
  }
  const words = state.cube.dialog || {};
  const title = V.redouble(state) ? S.redouble_title : S.double_title;
  byId("cube-title").textContent = fmt(title, { value: state.cube.value * 2 });
  byId("cube-pips").textContent = V.pipsText(S, state);
  byId("cube-take-words").textContent = words.take || S.take_words;
  byId("cube-pass-words").textContent = words.pass || S.pass_words;
  if (!panel.hidden) return;
  panel.hidden = false;
  // Where the eye goes, with the board still in view; T and P answer from anywhere.
  panel.scrollIntoView({ block: "nearest" });
  byId("cube-title").focus({ preventScroll: true });
}

function renderResign(page) {
  const { state, S } = page;
  const cube = state.cube;
  byId("resign-kinds").hidden = !cube;
  byId("resign-plain").hidden = Boolean(cube);
  if (!cube) return;
  // The points each offer would score, from the server (Jacoby, the cube, the match's cap).
  for (const node of document.querySelectorAll("#resign-kinds [data-kind]")) {
    const points = cube.resign_points[node.dataset.kind];
    node.dataset.points = String(points);
    node.textContent = fmt(S.resign_offer, { kind: node.dataset.word, points });
  }
}

/** The kind of resignation chosen in the dialog ("single" without the cube). */
export function resignKind() {
  const picked = document.querySelector('#resign-kinds input[name="resign-kind"]:checked');
  return byId("resign-kinds").hidden || !picked ? "single" : picked.value;
}

/** Under a finished game of a match: the match's end, or the next game. */
export function renderMatchResult(page) {
  const { state, S } = page;
  const m = state.match;
  byId("over-match").textContent = state.status === "finished" ? V.matchResultText(S, m) : "";
  const goesOn = Boolean(m && !m.over);
  byId("over-next").hidden = !goesOn;
  // The form's dice stay in view: a match's Next game sends them too.
  byId("over-new").hidden = goesOn;
  if (state.status === "finished" && m && m.next_game && page.awaitingNext) goTo(page, m.next_game);
}

/** Keys of the cube (outside a dialog): R or Space roll, D doubles, T/P answer, N next game. */
export function cubeKey(page, send, event) {
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const onButton = event.target.closest && event.target.closest("button, a");
  if (key === "r" || (key === " " && V.deciding(page.state) && !onButton)) return roll(page, send);
  if (key === "d") return double(page, send);
  if (key === "t") return answer(page, send, "take");
  if (key === "p") return answer(page, send, "pass");
  if (key !== "n") return false;
  page.awaitingNext = true;
  return nextGame(page, send);
}

export function attachCube(page, send) {
  byId("btn-roll").addEventListener("click", () => roll(page, send));
  byId("btn-double").addEventListener("click", () => double(page, send));
  byId("btn-take").addEventListener("click", () => answer(page, send, "take"));
  byId("btn-pass").addEventListener("click", () => answer(page, send, "pass"));
  byId("over-next").addEventListener("click", () => {
    page.awaitingNext = true;
    nextGame(page, send);
  });
  // T and P answer the double from anywhere on the page (cubeKey); the hint (H) works meanwhile.
}
