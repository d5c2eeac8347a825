// The Hint button (and the H key) on the play page: asks over the game's
// socket for the best five plays for the person's roll (computed on the
// `hints` queue), lists them with their reasons and draws the best three as
// arrows (the best one thick). Offered only on the person's roll; cleared when the turn moves on.
import { drawArrows } from "../games/board.js";
import { on, sendCommand } from "../games/bus.js";
import { byId, equity, fmt, pct, playWords, readJson } from "../games/common.js";
import { keyForPage } from "../games/input.js";
import { putWords } from "./terms.js";

const S = readJson("hint-strings");
// The server runs one job per (game, version) and answers every socket once;
// it says when the job starts running. While the page waits it says for
// what and for how long; after S.retry_after seconds it offers 重试 (retry),
// which asks again (the server queues the job anew); an answer that never
// comes is given up in words, with the retry still offered.
const GIVE_UP_MS = 45000;
let canAsk = false;
let turnKey = "";
let asked = null;   // {id, version, timer, ticker, since, running} of the hint command on its way

function status(text) {
  byId("hint-panel").hidden = false;
  byId("hint-status").textContent = text;
}

// The waiting line: queued or running, the seconds so far, and the retry
// button once the wait is long (or the hint failed).
function waiting(words, retry) {
  byId("hint-wait").hidden = !words && !retry;
  byId("hint-wait-words").textContent = words;
  byId("hint-retry").hidden = !retry;
}

function tick() {
  if (!asked) return;
  const seconds = Math.floor((Date.now() - asked.since) / 1000);
  const slow = seconds >= S.retry_after;
  // Most hints come within a second: the plain words first, then the wait's.
  const words = asked.running ? S.running : S.queued;
  status(seconds < 2 ? S.thinking : fmt(words, { seconds }));
  waiting(slow ? S.slow : "", slow);
}

function settle() {
  if (asked) {
    window.clearTimeout(asked.timer);
    window.clearInterval(asked.ticker);
  }
  asked = null;
  waiting("", false);
}

function fail(text) {
  settle();
  status(text);
  waiting("", canAsk);
}

function clear() {
  settle();
  byId("hint-list").replaceChildren();
  byId("hint-status").textContent = "";
  byId("hint-panel").hidden = true;
}

function drawPlay(play) {
  drawArrows(byId("board"), play.steps, {
    side: "light", kind: "hint", best: true, label: fmt(S.arrows_one, { play: playWords(S, play.notation) }),
  });
}

// The hint's top plays at once, the best drawn last (on top) and thick.
function drawPlays(plays) {
  const board = byId("board");
  plays.slice(1).reverse().forEach((p, i) => drawArrows(board, p.steps, { side: "light", kind: "hint", keep: i > 0 }));
  drawArrows(board, plays[0].steps, {
    side: "light", kind: "hint", best: true, keep: plays.length > 1,
    label: fmt(S.arrows, { play: playWords(S, plays[0].notation) }),
  });
}

function playItem(p, best) {
  const li = document.createElement("li");
  li.tabIndex = 0;
  li.className = best ? "hint-play best" : "hint-play";
  const head = document.createElement("strong");
  head.textContent = playWords(S, p.notation);
  const nums = document.createElement("span");
  nums.className = "hint-numbers";
  nums.textContent = ` ${fmt(S.numbers, {
    equity: equity(p.equity), win: pct(p.probs.win), gammon: pct(p.probs.win_gammon),
    bg: pct(p.probs.win_backgammon),
  })}`;
  const ul = document.createElement("ul");
  for (const r of p.reasons) {
    const item = document.createElement("li");
    putWords(item, r);  // the glossary's terms it names, linked
    ul.appendChild(item);
  }
  li.append(head, nums, ul);
  li.addEventListener("click", () => drawPlay(p));
  li.addEventListener("focus", () => drawPlay(p));
  return li;
}

function show(hint) {
  const line = (text) => Object.assign(document.createElement("li"), { textContent: text });
  const items = hint.cube ? hint.cube.lines.map(line) : hint.plays.map((p, i) => playItem(p, i === 0));
  byId("hint-list").replaceChildren(...items);
  if (hint.plays.length) drawPlays(hint.plays.slice(0, 3));
  status(hint.cube ? hint.cube.title : S.ready);  // a cube decision: the action and why, in words
}

function ask() {
  if (!canAsk) return;
  settle();  // a retry: the old wait is over
  const sent = sendCommand("hint");
  if (!sent) {
    fail(S.failed);
    return;
  }
  asked = {
    ...sent, since: Date.now(), running: false,
    timer: window.setTimeout(() => fail(S.lost), GIVE_UP_MS),
    ticker: window.setInterval(tick, 1000),
  };
  byId("hint-list").replaceChildren();
  tick();
}

// A new roll or a new turn: the old hint answers a position that is gone.
on("state", ({ state, canHint }) => {
  canAsk = canHint;
  const key = JSON.stringify([state.status, state.turn, state.dice, state.last_turn && state.last_turn.number]);
  if (key !== turnKey) clear();
  turnKey = key;
  const button = byId("btn-hint");
  button.hidden = state.status === "finished" || state.status === "failed";
  button.disabled = !canHint;
});

on("message", (msg) => {
  if (msg.type !== "hint" || !asked || msg.version !== asked.version) return;
  if (msg.state === "running") {  // taken off the queue: being worked out now
    asked.running = true;
    tick();
    return;
  }
  if (msg.state === "done") {
    settle();
    show(msg);
  } else fail(S.failed);
});

on("answer", (msg) => {
  if (!asked || msg.id !== asked.id) return;
  fail(msg.message || S.unavailable);
});

byId("btn-hint").addEventListener("click", () => { if (!asked) ask(); });
byId("hint-retry").addEventListener("click", ask);
document.addEventListener("keydown", (ev) => {
  if (!keyForPage(ev) || (ev.key !== "h" && ev.key !== "H")) return;
  ev.preventDefault();
  if (!asked) ask();
});
