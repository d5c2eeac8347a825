// The move list of the game so far, and the last play of each side, in the
// board's numbering. The page and the HTTP state bring the whole list;
// socket states bring only `last_turn`, which is appended here.

import { byId, fmt } from "./common.js";
import * as V from "./view.js";

/** Takes the moves a state brings; true if a turn was missed (fetch the list). */
export function takeMoves(page, state) {
  if (Array.isArray(state.moves)) {
    page.moves = withAutomatic(state.moves, [...page.moves, state.last_turn]);
    return false;
  }
  const turn = state.last_turn;
  if (!turn) return false;
  const count = page.moves.length;
  const lastNumber = count ? page.moves[count - 1].number : 0;
  if (turn.number === lastNumber) page.moves[count - 1] = turn;
  else if (turn.number === lastNumber + 1) page.moves.push(turn);
  return turn.number > lastNumber + 1;
}

/**
 * The list as stored has no word of the turns the site played for the
 * person: that is in `last_turn` (and in the turns the page already had).
 */
function withAutomatic(moves, known) {
  const automatic = new Set(known.filter((t) => t && t.automatic).map((t) => t.number));
  return moves.map((t) => (automatic.has(t.number) ? { ...t, automatic: true } : t));
}

/** The latest play of each side that moved a checker: [{side, steps}]. */
export function lastPlays(moves) {
  const plays = [];
  for (const side of ["light", "dark"]) {
    for (let i = moves.length - 1; i >= 0; i -= 1) {
      if (moves[i].side === side) {
        if ((moves[i].steps || []).length) plays.push({ side, steps: moves[i].steps });
        break;
      }
    }
  }
  return plays;
}

export function renderMoves(page) {
  const list = byId("play-moves-list");
  if (!list) return;
  const { S } = page;
  const items = page.moves.map((turn) => {
    const li = document.createElement("li");
    li.value = turn.number;
    li.dataset.side = turn.side;
    li.textContent = fmt(S.move_line, {
      side: turn.side === "light" ? S.side_light : S.side_dark,
      dice: V.diceText(turn.dice),
      play: turn.notation || S.no_move,
    });
    return li;
  });
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}
