// 教练模式 on the play page: the tutor's warning, which comes with the reply
// to End turn (or the step that used the dice, or a cube action) when the
// play or the action loses more than the person's level allows
// (games/tutor.py, learning/tutor.py). The panel says what it costs and why,
// draws the best play as arrows, and offers 仍然这样走 (K: the same command
// again with "anyway"), 撤销重走 (U: every step of the turn taken back) and
// 看提示 (H: the hint). The server holds the play until then, and every state
// at the warning's version carries it (`state.tutor`): a reload or a second
// tab shows the same panel at once; a later state (undo, play it anyway, a
// step, in any tab) closes it.
import { drawArrows } from "../games/board.js";
import { on, sendCommand } from "../games/bus.js";
import { byId } from "../games/common.js";
import { keyForPage } from "../games/input.js";

let warning = null;  // {command, version, warning: {...}} while the panel shows
let sent = null;  // the id of the command the panel sent, to word its refusal

function close() {
  warning = null;
  byId("tutor-panel").hidden = true;
}

function drawBest() {
  const w = warning && warning.warning;
  if (!w || !(w.best_steps || []).length) return;
  drawArrows(byId("board"), w.best_steps, {
    side: "light", kind: "tutor", best: true, label: w.arrows,
  });
}

function show(msg) {
  const again = warning !== null && warning.version === msg.version;
  warning = msg;
  const w = msg.warning;
  byId("tutor-title").textContent = w.title;
  byId("tutor-cost").textContent = w.cost;
  byId("tutor-reasons").replaceChildren(
    ...(w.reasons || []).map((r) => Object.assign(document.createElement("li"), { textContent: r })),
  );
  byId("tutor-best").textContent = w.best_line || "";
  byId("tutor-panel").hidden = false;
  byId("tutor-note").textContent = "";
  drawBest();
  if (!again) byId("tutor-title").focus();  // the reply and its state show one warning
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

on("message", (msg) => {
  if (msg.type !== "tutor") return;
  if (msg.warning) show(msg);
  else if (msg.message) byId("tutor-note").textContent = msg.message;  // not checked in time
});

// A state carries the warning still to answer: the reply's own, or the
// page's first after a reload, or another tab's. Any later state means the
// moment has passed.
on("state", ({ state }) => {
  if (state.tutor && state.tutor.version === state.version) show(state.tutor);
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
