// The play page's one state object, and the questions asked of it. Every
// other module of the page reads and changes this object, never globals.

import { live, stepping } from "./view.js";

/** The board preferences the server sent (accounts.preferences.board_prefs). */
export function readPrefs(raw) {
  return {
    autoEndTurn: raw.auto_end_turn ?? true,
    showPips: raw.show_pips ?? true,
    highlight: raw.highlight_legal ?? true,
    direction: raw.board_direction === "left" ? "left" : "right",
    // Milliseconds per checker step: accounts.preferences.ANIMATION_MS.
    stepMs: Number(raw.animation_ms ?? 0),
    // The computer's last move drawn as arrows until the person's next step.
    lastMoveArrows: raw.last_move_arrows ?? true,
  };
}

export function createPage({ root, svg, S, prefs, state }) {
  return {
    root, svg, S, prefs,
    state,               // the state on screen (the newest once animations end)
    conn: null,          // the GameSocket
    selected: null,      // the source the person picked up (display point, 25 = bar)
    animating: false,
    queue: Promise.resolve(),
    focusRow: "top",     // the row the bar or tray was reached from by keys
    drag: null,
    suppressClick: false,
    animatedPlays: 0,    // computer plays shown step by step
    moves: [],           // the move list: every turn so far (games.steps.turn_json)
    cubeActions: [],     // every cube action so far (games.cube_state.cube_actions_json)
  };
}

// The starter's first turn has status "opening" and is played like any other.
export { live };

/** The tutor's warning of a play, while it waits at the state's version. */
function warnedPlay(s) {
  const t = s.tutor;
  return Boolean(t && t.version === s.version && t.warning && t.warning.before);
}

/** The board on screen: while the tutor's warning of a play waits, the board
 * as it was before the person's move, where the best play's arrows start
 * (learning/tutor.js); else the state's. */
export function boardShown(s) {
  return warnedPlay(s) ? s.tutor.warning.before : s.board;
}

/** The person may move a checker now (not on the board before their move). */
export function canAct(page) {
  const s = page.state;
  return stepping(s) && s.turn === "light" && !s.thinking && !page.animating
    && page.conn.connected && !page.conn.busy && !warnedPlay(s);
}

export function isIdle(page) {
  return !page.animating && page.conn.connected && !page.conn.busy;
}

/** The person's roll (or cube decision) is on screen and waiting: a hint can answer it. */
export function canHint(page) {
  const s = page.state;
  const cube = (s.status === "deciding" || s.status === "doubled") && !s.thinking;  // double or answer
  return s.turn === "light" && (cube || stepping(s)) && !page.animating;
}

export function own(page, where) {
  const board = page.state.board;
  if (where === 25) return board.bar.light > 0;
  if (where === 0) return false;
  return board.points[where - 1] > 0;
}

export function allowedFrom(page, where) {
  return (page.state.allowed || []).filter((s) => s.from === where);
}
