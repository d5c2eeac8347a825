// A game found damaged while its page is open (games/row_checks.py): the
// page turns into what a new page of the game shows (the damaged panel of
// templates/games/_damaged_panel.html): the words, why, Resign, New game.

import { byId } from "./common.js";

export function showDamaged(page, state) {
  const panel = byId("damaged");
  page.root.hidden = true;  // the board and its controls: nothing there can be done now
  byId("damaged-message").textContent = state.message || "";
  byId("damaged-failure").textContent = state.failure || "";
  byId("damaged-why").hidden = !state.failure;
  const resign = byId("damaged-resign-form");
  if (resign) resign.hidden = state.status === "finished";
  if (panel.hidden) {
    panel.hidden = false;
    byId("damaged-title").focus({ preventScroll: true });
  }
  page.root.dataset.status = state.status || "";
  page.root.dataset.damaged = "true";
}
