// The play page: one game against the computer, live over a WebSocket.
// The server decides everything; the modules here show the state it sends
// (render, flow), turn clicks, drags and keys into commands (input), and
// share one state object (page). Scripts around the board use bus.js.

import { readJson, say, sentences } from "./common.js";
import { emit, provideSender } from "./bus.js";
import { showCommitment } from "./dice_seed.js";
import { enqueue, lastMoveArrows, later, replayOpeningPlay, replayOpeningTies } from "./flow.js";
import { attachIds } from "./ids.js";
import { attachInput, refused, send } from "./input.js";
import { takeMoves } from "./moves.js";
import { canHint, createPage, isIdle, readPrefs } from "./page.js";
import { connectionChanged, render } from "./render.js";
import { GameSocket } from "./socket.js";
import { targetFor } from "./targets.js";
import * as V from "./view.js";

const root = document.getElementById("play");
const page = createPage({
  root,
  svg: document.getElementById("board"),
  S: readJson("board-strings"),
  prefs: readPrefs(readJson("game-prefs")),
  state: readJson("game-state"),
});

page.conn = new GameSocket({
  wsUrl: root.dataset.wsUrl,
  stateUrl: root.dataset.stateUrl,
  version: page.state.version,
  onState: (next) => enqueue(page, next),
  onRefused: (msg) => answered(msg, () => {
    if (msg.code === "commitment_used") showCommitment(msg.params.commitment);
    refused(page, msg);
  }),
  onError: (msg) => answered(msg, () => {
    if (msg.code !== "stale") say("play-refusal", msg.message || page.S.refused_generic);
  }),
  onStatus: (status) => connectionChanged(page, status),
  onOther: (msg) => emit("message", msg),
});

// Commands sent by the scripts around the board (the hint) answer there.
const theirs = new Set();
provideSender((type, fields) => {
  const id = send(page, type, fields);
  if (!id) return null;
  theirs.add(id);
  return { id, version: page.conn.version };
});

function answered(msg, mine) {
  if (theirs.delete(msg.id)) emit("answer", msg);
  else mine();
}

// The test hook, on pages the server marks for it (settings.DEBUG): a
// read-only view of the truth for browser tests.
function exposeTestHook() {
  window.__shuanglu = {
    get state() { return page.state; },
    get idle() { return isIdle(page); },
    get selected() { return page.selected; },
    get animatedPlays() { return page.animatedPlays; },
    get connected() { return page.conn.connected; },
    prefs: page.prefs,
    setStepMs(ms) { page.prefs.stepMs = ms; },
    // Closes the socket as a network drop would; the client reconnects.
    dropSocket() { if (page.conn.ws) page.conn.ws.close(); },
    target: (where) => targetFor(page.svg, where),
  };
}

function start() {
  takeMoves(page, page.state);
  render(page);
  lastMoveArrows(page, page.state);
  if (root.dataset.testHook === "1") exposeTestHook();
  attachInput(page);
  attachIds(page);
  later(page, () => replayOpeningTies(page));
  later(page, () => replayOpeningPlay(page));
  later(page, () => emit("state", { state: page.state, prev: null, canHint: canHint(page) }));
  page.conn.start();
  // What the page says on arrival: the opening, the computer's last play,
  // a pass, a result, the roll.
  const { S, state } = page;
  const opening = V.isOpeningPhase(state) ? V.openingText(S, state) : "";
  say("play-live", sentences([opening, V.announcement(S, null, state)]));
}

start();
