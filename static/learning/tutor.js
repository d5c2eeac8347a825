// 教练模式 on the play page: the tutor's warning, which comes with the reply
// to End turn (or the step that used the dice, or a cube action) when the
// play or the action loses more than the person's level allows
// (games/services/coach.py). The panel opens at once with what the warning
// is and, for a play, the board as it was before the move with the best
// play's arrows (page.js `boardShown`); its words come after it, pushed like
// a hint (`tutor_words`, learning/tutor.py): at most three lines first, the
// rest behind 详细, each term linked to the glossary where it first appears
// (terms.js). It offers 仍然这样走 (K: the same command again with
// "anyway"), 撤销重走 (U: every step of the turn taken back) and 看提示 (H).
// The server holds the play until then, and every state at the warning's
// version carries it (`state.tutor`, with the words once made, in each
// language): a reload or a second tab shows the same panel at once; a later
// state (undo, play it anyway, in any tab) closes it.
import { drawArrows } from "../games/board.js";
import { on, sendCommand } from "../games/bus.js";
import { byId, readJson } from "../games/common.js";
import { keyForPage } from "../games/input.js";
import { putWords } from "./terms.js";

const STRINGS = readJson("tutor-strings");
// The page's language as the server names it (zh-Hans → zh-hans).
const LANGUAGE = document.documentElement.lang.toLowerCase();

let warning = null;  // {command, version, warning: {...}} while the panel shows
let early = null;  // {version, words}: words pushed before their warning showed here
let shownVersion = null;  // the version of the state on the board
let sent = null;  // the id of the command the panel sent, to word its refusal

function close() {
  warning = null;
  byId("tutor-panel").hidden = true;
}

/** The warning's words in the page's language, or null until they come. */
function wordsOf(w) {
  const words = w.words || {};
  return words[LANGUAGE] || Object.values(words)[0] || null;
}

// The best play's arrows, once the board shows the state the warning is of
// (the board as it was before the move): never on the board the move left.
function drawBest() {
  const w = warning && warning.warning;
  if (!w || !(w.best_steps || []).length || shownVersion !== warning.version) return;
  const words = wordsOf(w);
  drawArrows(byId("board"), w.best_steps, {
    side: "light", kind: "tutor", best: true, label: words ? words.arrows : "",
  });
}

function lines(id, texts, seen) {
  byId(id).replaceChildren(...texts.map((text) => {
    const li = document.createElement("li");
    putWords(li, text, seen);  // a term is linked where it first appears
    return li;
  }));
}

function fill() {
  const w = warning.warning;
  const words = wordsOf(w);
  const seen = new Set();
  byId("tutor-title").textContent = words ? words.title : STRINGS.titles[w.error] || "";
  lines("tutor-lead", words ? words.lead || [] : [STRINGS.wording], seen);
  const details = (words && words.details) || [];
  lines("tutor-details", details, seen);
  byId("tutor-more").hidden = !details.length;
  byId("tutor-panel").dataset.worded = words ? "1" : "0";
  drawBest();
}

function show(msg) {
  const again = warning !== null && warning.version === msg.version;
  // The words already here stay when the same warning comes again without them.
  const known = again ? warning.warning.words : null;
  warning = msg;
  if (known && !Object.keys(msg.warning.words || {}).length) {
    warning = { ...msg, warning: { ...msg.warning, words: known } };
  }
  if (early && early.version === msg.version) worded(early);
  early = null;
  fill();
  byId("tutor-panel").hidden = false;
  byId("tutor-note").textContent = "";
  if (!again) byId("tutor-title").focus();  // the reply and its state show one warning
}

function worded(msg) {
  if (!warning || warning.version !== msg.version) {
    early = msg;  // its warning may show next (the push outran the reply)
    return;
  }
  const words = { ...(warning.warning.words || {}), [LANGUAGE]: msg.words };
  warning = { ...warning, warning: { ...warning.warning, words } };
  fill();
}

function send(type, fields) {
  const command = sendCommand(type, fields);
  sent = command ? command.id : null;
}

function anyway() {
  if (!warning) return;
  const command = warning.command;
  close();
  send(command, { anyway: true });
}

function undo() {
  if (!warning) return;
  const play = warning.warning.kind === "play";
  close();
  if (play) send("undo", { whole: true });
}

function hint() {
  byId("btn-hint").click();
}

function said(msg) {
  if (msg.warning) show(msg);
  else if (msg.unchecked) byId("tutor-note").textContent = msg.message;  // not checked in time
}

on("message", (msg) => {
  if (msg.type === "tutor") said(msg);
  else if (msg.type === "tutor_words") worded(msg);
});

// A state carries the warning still to answer: the reply's own, or the
// page's first after a reload, or another tab's. Any later state means the
// moment has passed.
on("state", ({ state }) => {
  shownVersion = state.version;
  if (state.tutor && state.tutor.version === state.version) said(state.tutor);
  else if (warning && state.version > warning.version) close();
});

// The command the panel sent was not carried out (the game moved on in
// another tab: a stale version): the server's words say so.
on("answer", (msg) => {
  if (msg.id !== sent) return;
  sent = null;
  byId("tutor-note").textContent = msg.message || "";
});

byId("btn-tutor-anyway").addEventListener("click", anyway);
byId("btn-tutor-undo").addEventListener("click", undo);
byId("btn-tutor-hint").addEventListener("click", hint);
// Captured before the board's own keys (U there undoes one step).
document.addEventListener("keydown", (ev) => {
  if (!warning || !keyForPage(ev)) return;
  const key = ev.key.toLowerCase();
  if (key === "k") anyway();
  else if (key === "u") undo();
  else return;
  ev.preventDefault();
  ev.stopImmediatePropagation();
}, true);
