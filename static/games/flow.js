// States from the server, shown in order: each waits for the one before,
// and the computer's play is animated step by step on the way.

import { animateChecker, applyStep, clearArrows, drawArrows, renderBoard, sameBoard, unapplyStep } from "./board.js";
import { byId, fmt, playWords, say } from "./common.js";
import { showDamaged } from "./damage.js";
import { emit, placed } from "./bus.js";
import { takeMoves } from "./moves.js";
import { canHint, live } from "./page.js";
import { render } from "./render.js";
import * as V from "./view.js";

const wait = (ms) => new Promise((resolve) => { window.setTimeout(resolve, ms); });

function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export function enqueue(page, next) {
  page.queue = page.queue.then(() => show(page, next)).catch((err) => console.error(err));
}

/** Runs `fn` in the queue, after every state before it is shown. */
export function later(page, fn) {
  page.queue = page.queue.then(fn).catch((err) => console.error(err));
}

/**
 * The turns `next` adds to what is on screen, in order. The computer's play
 * and the person's turn the site then played (a forced play, a roll with no
 * move) come in one state: the turns in between come from the HTTP list.
 */
async function newTurns(page, prev, next) {
  const t = next.last_turn;
  if (!t || JSON.stringify(prev.last_turn) === JSON.stringify(t)) return [];
  const seen = prev.last_turn ? prev.last_turn.number : 0;
  if (t.number <= seen + 1) return [t];
  const full = Array.isArray(next.moves) ? next : await page.conn.fetchState();
  if (!full || full.version !== next.version || !Array.isArray(full.moves)) return [t];
  takeMoves(page, full);
  return [...full.moves.filter((m) => m.number > seen && m.number < t.number), t];
}

/** The plays to animate: the computer's, and the person's the site made. */
function playsToAnimate(prev, next, turns) {
  const plays = turns.filter((t) => (t.steps || []).length && (t.side === "dark" || t.automatic));
  if (!plays.length) return [];
  // Animate only when the plays lead exactly from what is on screen.
  let board = prev.board;
  for (const play of plays) for (const step of play.steps) board = applyStep(board, step, play.side);
  return sameBoard(board, next.board) ? plays : [];
}

async function show(page, next) {
  const prev = page.state;
  if (next.version < prev.version) return;
  if (next.damaged) {
    page.state = next;
    showDamaged(page, next);
    return;
  }
  const turns = await newTurns(page, prev, next);
  const plays = playsToAnimate(prev, next, turns);
  if (plays.length && plays[0].number === 1) firstTimeInTab(openingKey(next));
  if (plays.length && page.prefs.stepMs > 0) await animatePlays(page, prev.board, plays);
  if (next.turn !== prev.turn || next.version !== prev.version) page.selected = null;
  page.state = next;
  if (takeMoves(page, next)) page.conn.refetch();  // a turn was missed: the list comes by HTTP
  render(page);
  const words = V.announcement(page.S, prev, next, turns);
  if (next.version !== prev.version) {
    say("play-refusal", "");
    clearArrows(page.svg);  // a hint's arrows belong to the position they were drawn on
    lastMoveArrows(page, next);
    say("play-live", words);  // never the previous pick's words after a step
  } else if (words) {
    say("play-live", words);
  }
  const step = personsNewStep(prev, next);
  if (step) placed("light", step);
  if (next.dice && JSON.stringify(next.dice) !== JSON.stringify(prev.dice)) {
    emit("dice", { side: next.turn, values: next.dice });
  }
  emit("state", { state: next, prev, canHint: canHint(page) });
}

/** The computer's last move as arrows, until the person's next step (a preference). */
export function lastMoveArrows(page, state) {
  const last = state.last_turn;
  if (!page.prefs.lastMoveArrows || !last || last.side !== "dark" || !(last.steps || []).length) return;
  if (state.turn !== "light" || (state.steps || []).length || !live(state)) return;
  drawArrows(page.svg, last.steps, {
    side: "dark", kind: "last", label: fmt(page.S.last_move_arrows, { play: playWords(page.S, last.notation) }),
  });
}

/** The person's step that `next` adds (the last one may have ended the turn). */
function personsNewStep(prev, next) {
  if (prev.turn !== "light" || next.version <= prev.version) return null;
  const sameTurn = JSON.stringify(prev.last_turn) === JSON.stringify(next.last_turn);
  const ended = next.last_turn && next.last_turn.side === "light" ? next.last_turn.steps || [] : [];
  const steps = sameTurn ? next.steps || [] : ended;
  return steps.length > (prev.steps || []).length ? steps[steps.length - 1] : null;
}

async function animatePlays(page, before, plays) {
  let board = before;
  for (const play of plays) board = await animatePlay(page, board, play);
}

/** One play step by step, the computer's or one the site made for the person. */
async function animatePlay(page, before, play) {
  const { svg, prefs, S } = page;
  page.animating = true;
  if (play.side === "dark") page.animatedPlays += 1;
  page.root.dataset.idle = "false";
  // It has stopped thinking: say what is being played while the checkers move.
  const turn = byId("play-turn");
  turn.textContent = play.side === "dark"
    ? fmt(S.computer_moving, { dice: V.diceText(play.dice), play: playWords(S, play.notation) })
    : fmt(S.auto_moving, { dice: V.diceText(play.dice), play: playWords(S, play.notation) });
  turn.classList.remove("play-thinking");
  emit("dice", { side: play.side, values: play.dice });
  const glide = reducedMotion() ? 0 : prefs.stepMs;
  let board = before;
  try {
    for (let i = 0; i < play.steps.length; i += 1) {
      const step = play.steps[i];
      renderBoard(svg, board, { direction: prefs.direction, dice: V.playDice(play, i), cube: page.state.cube });
      // Reduced motion: the steps still come one by one, without the glide.
      await animateChecker(svg, board, step, play.side, glide);
      board = applyStep(board, step, play.side);
      renderBoard(svg, board, { direction: prefs.direction, dice: V.playDice(play, i + 1), cube: page.state.cube });
      placed(play.side, step);
      await wait(reducedMotion() ? prefs.stepMs : prefs.stepMs * 0.3);
    }
  } finally {
    page.animating = false;
  }
  return board;
}

/** A tied opening roll is shown before the roll that decided, once per tab. */
export async function replayOpeningTies(page) {
  const { state, prefs, svg } = page;
  const rolls = (state.opening && state.opening.rolls) || [];
  if (!V.isOpeningTurn(state) || rolls.length < 2 || (state.steps || []).length || prefs.stepMs <= 0) return;
  if (!firstTimeInTab(`shuanglu-opening-${state.game}`)) return;
  page.animating = true;
  try {
    for (const [light, dark] of rolls.slice(0, -1)) {
      const dice = [{ value: light, side: "light", slot: "left" }, { value: dark, side: "dark", slot: "right" }];
      renderBoard(svg, state.board, { direction: prefs.direction, dice, cube: state.cube });
      await wait(Math.max(prefs.stepMs, 300) * 3);
    }
  } finally {
    page.animating = false;
    render(page);
  }
}

const openingKey = (state) => `shuanglu-opening-play-${state.game}`;

/**
 * The computer's opening play, made before the page opened (it answers at
 * once): shown from the opening roll, once per tab.
 */
export async function replayOpeningPlay(page) {
  const { state, prefs, svg } = page;
  const play = state.last_turn;
  if (!play || play.side !== "dark" || play.number !== 1 || !(play.steps || []).length) return;
  if (state.turn !== "light" || (state.steps || []).length || page.moves.length !== 1 || prefs.stepMs <= 0) return;
  if (!firstTimeInTab(openingKey(state))) return;
  let before = state.board;
  for (const step of play.steps.slice().reverse()) before = unapplyStep(before, step, "dark");
  page.animating = true;
  try {
    renderBoard(svg, before, { direction: prefs.direction, dice: V.playDice(play, 0), cube: state.cube });
    await wait(Math.max(prefs.stepMs, 300) * 2);
    await animatePlay(page, before, play);
  } finally {
    page.animating = false;
    render(page);
  }
}

function firstTimeInTab(key) {
  try {
    if (window.sessionStorage.getItem(key)) return false;
    window.sessionStorage.setItem(key, "1");
  } catch (err) {
    // No storage: show it every time, which is harmless.
  }
  return true;
}
