// The position's IDs on the play page: GNU Backgammon's Position ID and
// Match ID of the game now (the state's `ids`), each with a Copy button,
// and the link that opens the position on the analysis board.

import { byId, say } from "./common.js";

export function renderIds(page) {
  const ids = page.state.ids || {};
  byId("play-pid").textContent = ids.position_id || "";
  byId("play-mid").textContent = ids.match_id || "";
}

export function attachIds(page) {
  for (const button of document.querySelectorAll("#play-ids [data-copy]")) {
    button.addEventListener("click", async () => {
      const node = byId(button.dataset.copy);
      try {
        await navigator.clipboard.writeText(node.textContent);
        say("play-live", page.S.copied);
      } catch (_err) {
        // No clipboard (an insecure page, a refusal): selected, for Ctrl+C.
        window.getSelection().selectAllChildren(node);
      }
    });
  }
}
