// The Hint button (and the H key) on the play page: asks over the game's
// socket for the best five plays for the person's roll (computed on the
// `hints` queue), lists them with their reasons and draws the best three as
// arrows (the best one thick). Offered only on the person's roll; cleared when the turn moves on.
import { drawArrows } from "../games/board.js";
import { on, sendCommand } from "../games/bus.js";
import { byId, equity, fmt, pct, readJson } from "../games/common.js";
import { keyForPage } from "../games/input.js";

const S = readJson("hint-strings");
// The server runs one job per (game, version) and answers every socket once:
// an answer that never comes (asked again after it went) is given up.
const GIVE_UP_MS = 45000;
let canAsk = false;
let turnKey = "";
let asked = null;   // {id, version, timer} of the hint command on its way

function status(text) {
  byId("hint-panel").hidden = false;
  byId("hint-status").textContent = text;
}

function settle() {
  if (asked) window.clearTimeout(asked.timer);
  asked = null;
}

function clear() {
  settle();
  byId("hint-list").replaceChildren();
  byId("hint-status").textContent = "";
  byId("hint-panel").hidden = true;
}

function drawPlay(play) {
  drawArrows(byId("board"), play.steps, {
    side: "light", kind: "hint", best: true, label: fmt(S.arrows_one, { play: play.notation }),
  });
}

// The hint's top plays at once, the best drawn last (on top) and thick.
function drawPlays(plays) {
  const board = byId("board");
  plays.slice(1).reverse().forEach((p, i) => drawArrows(board, p.steps, { side: "light", kind: "hint", keep: i > 0 }));
  drawArrows(board, plays[0].steps, {
    side: "light", kind: "hint", best: true, keep: plays.length > 1,
    label: fmt(S.arrows, { play: plays[0].notation }),
  });
}

function playItem(p, best) {
  const li = document.createElement("li");
  li.tabIndex = 0;
  li.className = best ? "hint-play best" : "hint-play";
  const head = document.createElement("strong");
  head.textContent = p.notation;
  const nums = document.createElement("span");
  nums.className = "hint-numbers";
  nums.textContent = ` ${fmt(S.numbers, {
    equity: equity(p.equity), win: pct(p.probs.win), gammon: pct(p.probs.win_gammon),
    bg: pct(p.probs.win_backgammon),
  })}`;
  const ul = document.createElement("ul");
  for (const r of p.reasons) {
    const item = document.createElement("li");
    item.textContent = r;
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
  if (!canAsk || asked) return;
  const sent = sendCommand("hint");
  if (!sent) {
    status(S.failed);
    return;
  }
  asked = { ...sent, timer: window.setTimeout(() => { settle(); status(S.failed); }, GIVE_UP_MS) };
  byId("hint-list").replaceChildren();
  status(S.thinking);
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
  settle();
  if (msg.state === "done") show(msg);
  else status(S.failed);
});

on("answer", (msg) => {
  if (!asked || msg.id !== asked.id) return;
  settle();
  status(msg.message || S.unavailable);
});

byId("btn-hint").addEventListener("click", ask);
document.addEventListener("keydown", (ev) => {
  if (!keyForPage(ev) || (ev.key !== "h" && ev.key !== "H")) return;
  ev.preventDefault();
  ask();
});
