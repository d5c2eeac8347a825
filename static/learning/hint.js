// The Hint button (and the H key) on the play page: asks the server for the
// best five plays for the person's roll (computed on the `analysis` queue),
// lists them with their reasons and draws the best one as arrows.
import { drawArrows } from "../games/board.js";

const box = document.getElementById("hint-box");
const play = document.getElementById("play");
const S = JSON.parse(document.getElementById("hint-strings").textContent);
const $ = (id) => document.getElementById(id);
const fmt = (t, p) => t.replace(/%\((\w+)\)s/g, (_m, k) => (p[k] ?? ""));
const pct = (x) => `${(x * 100).toFixed(1)}%`;
const POLL_MS = 400;
const GIVE_UP_MS = 30000;
let busy = false;

function csrf() {
  const input = box.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

async function currentState() {
  const res = await fetch(play.dataset.stateUrl, { headers: { Accept: "application/json" } });
  return res.ok ? res.json() : null;
}

function status(text) {
  $("hint-panel").hidden = false;
  $("hint-status").textContent = text;
}

function board() {
  return document.getElementById("board");
}

function show(hint) {
  const list = $("hint-list");
  list.replaceChildren();
  hint.plays.forEach((p, i) => {
    const li = document.createElement("li");
    li.tabIndex = 0;
    li.className = i === 0 ? "hint-play best" : "hint-play";
    const head = document.createElement("strong");
    head.textContent = p.notation;
    const nums = document.createElement("span");
    nums.className = "hint-numbers";
    nums.textContent = ` ${fmt(S.numbers, {
      equity: p.equity.toFixed(3), win: pct(p.probs.win), gammon: pct(p.probs.win_gammon),
      bg: pct(p.probs.win_backgammon),
    })}`;
    const ul = document.createElement("ul");
    for (const r of p.reasons) {
      const item = document.createElement("li");
      item.textContent = r;
      ul.appendChild(item);
    }
    li.append(head, nums, ul);
    const draw = () => drawArrows(board(), p.steps, { side: "light", kind: "hint" });
    li.addEventListener("click", draw);
    li.addEventListener("focus", draw);
    list.appendChild(li);
  });
  if (hint.plays.length) drawArrows(board(), hint.plays[0].steps, { side: "light", kind: "hint" });
  status(S.ready);
}

async function ask() {
  if (busy) return;
  busy = true;
  try {
    const state = await currentState();
    if (!state || state.turn !== "light" || !state.dice || state.status === "finished") {
      status(S.unavailable);
      return;
    }
    status(S.thinking);
    $("hint-list").replaceChildren();
    const body = new URLSearchParams({ version: String(state.version) });
    const res = await fetch(box.dataset.hintUrl, {
      method: "POST", body, headers: { "X-CSRFToken": csrf(), Accept: "application/json" },
    });
    if (!res.ok) {
      status(S.unavailable);
      return;
    }
    const started = Date.now();
    let hint = await res.json();
    while (hint.state !== "done" && hint.state !== "failed" && Date.now() - started < GIVE_UP_MS) {
      await new Promise((r) => window.setTimeout(r, POLL_MS));
      const poll = await fetch(`${box.dataset.hintUrl}?version=${state.version}`);
      if (poll.ok) hint = await poll.json();
    }
    if (hint.state === "done") show(hint);
    else status(S.failed);
  } catch (_err) {
    status(S.failed);
  } finally {
    busy = false;
  }
}

$("btn-hint").addEventListener("click", ask);
document.addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLTextAreaElement) return;
  if (ev.key === "h" || ev.key === "H") {
    ev.preventDefault();
    ask();
  }
});
