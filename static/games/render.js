// Drawing the page from its state object: the board, its targets' names,
// the status line, the buttons and the result.

import { renderBoard, layer } from "./board.js";
import { buildTargets } from "./targets.js";
import { byId, fmt } from "./common.js";
import { refreshCommitment } from "./dice_seed.js";
import { renderCube, renderMatchResult } from "./cube.js";
import { renderIds } from "./ids.js";
import { lastPlays, renderMoves } from "./moves.js";
import { allowedFrom, boardShown, canAct, isIdle, live } from "./page.js";
import * as V from "./view.js";

export function render(page) {
  const { state, prefs, svg, S, selected } = page;
  const sources = prefs.highlight && canAct(page) && selected === null
    ? [...new Set((state.allowed || []).map((s) => s.from))] : [];
  const destinations = prefs.highlight && selected !== null ? allowedFrom(page, selected).map((s) => s.to) : [];
  const board = boardShown(state);
  renderBoard(svg, board, {
    direction: prefs.direction, dice: V.diceFor(state), selected, sources, destinations,
    lastPlays: lastPlays(page.moves), cube: state.cube,
  });
  buildTargets(svg, prefs.direction);
  const dests = new Set(destinations);
  for (const node of layer(svg, "targets").children) {
    const where = Number(node.dataset.point);
    node.setAttribute("aria-label", V.targetName(S, board, where, { selected: where === selected, destination: dests.has(where) }));
    node.setAttribute("aria-pressed", where === selected ? "true" : "false");
  }
  renderPanels(page);
}

export function renderPanels(page) {
  const { state, prefs, S, root } = page;
  const turn = byId("play-turn");
  turn.textContent = V.turnText(S, state);
  turn.classList.toggle("play-thinking", V.isThinking(state));
  byId("play-dice-text").textContent = state.turn === "light" && state.dice && live(state)
    ? fmt(S.dice_line, { dice: V.diceText(state.dice) }) : "";
  const pips = byId("play-pips");
  pips.hidden = !prefs.showPips;
  pips.textContent = prefs.showPips ? V.pipsText(S, state) : "";
  byId("play-tier").textContent = fmt(S.tier_line, { tier: (S.tiers || {})[state.tier] || state.tier || "" });
  byId("play-opening").textContent = V.isOpeningPhase(state) ? V.openingText(S, state) : "";
  byId("play-automatic").textContent = V.automaticNote(S, page.moves);
  const mine = live(state) && state.turn === "light" && !page.animating;
  byId("btn-undo").disabled = !(mine && state.can_undo);
  byId("btn-end").disabled = !(mine && state.can_end_turn);
  byId("btn-end").hidden = prefs.autoEndTurn && !state.can_end_turn;
  byId("btn-resign").disabled = !live(state);
  renderCube(page);
  renderResult(page);
  renderMatchResult(page);
  renderMoves(page);
  renderIds(page);
  root.dataset.version = String(state.version);
  root.dataset.turn = state.turn || "";
  root.dataset.status = state.status || "";
  root.dataset.idle = String(isIdle(page));
}

function renderResult(page) {
  const { state, S } = page;
  const panel = byId("play-over");
  if (state.status !== "finished" || !state.result) {
    panel.hidden = true;
    return;
  }
  const t = V.resultTexts(S, state.result);
  byId("over-title").textContent = t.title;
  byId("over-kind").textContent = t.kind;
  byId("over-points").textContent = t.points;
  const seed = state.dice_proof && state.dice_proof.server_seed;
  byId("over-dice").hidden = !seed;
  byId("over-server-seed").textContent = seed || "";
  if (panel.hidden) {
    panel.hidden = false;
    refreshCommitment();  // the page may be old: the panel's New game sends what it shows
    // Where the eye (and the keyboard) is: the result, over the board.
    byId("over-title").focus({ preventScroll: true });
    panel.scrollIntoView({ block: "nearest" });
  }
}

export function connectionChanged(page, status) {
  const note = byId("play-connection");
  if (status === "closed" || status === "forbidden") {
    note.textContent = status === "closed" ? page.S.reconnecting : page.S.forbidden;
    note.hidden = false;
  } else if (status === "open") {
    note.hidden = true;
  }
  // A play being shown step by step owns the board (and the turn line) until
  // it ends, and then draws the state: a socket that opens meanwhile (it
  // does as the page opens on the computer's opening play) must not draw
  // the newest state over it.
  if (page.animating) page.root.dataset.idle = "false";
  else if (page.state.board) render(page);
}
