// The move list of the game so far, and the last play of each side, in the
// board's numbering. The page and the HTTP state bring the whole list;
// socket states bring only `last_turn`, which is appended here.

import { byId, fmt, playWords } from "./common.js";
import * as V from "./view.js";

/** Takes the moves a state brings; true if a turn or a cube action was missed (fetch the list). */
export function takeMoves(page, state) {
  const cubeMissed = takeCubeActions(page, state);
  return takeTurns(page, state) || cubeMissed;
}

function takeTurns(page, state) {
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

/** The full list (`cube_actions`), or a socket state's `last_cube_action` appended. */
function takeCubeActions(page, state) {
  if (Array.isArray(state.cube_actions)) {
    page.cubeActions = state.cube_actions;
    return false;
  }
  const action = state.last_cube_action;
  if (!action) return false;
  const count = page.cubeActions.length;
  const lastNumber = count ? page.cubeActions[count - 1].number : 0;
  if (action.number === lastNumber + 1) page.cubeActions.push(action);
  return action.number > lastNumber + 1;
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

/** The turns and the cube actions in the order they were made: each cube
 * action comes before the turn it was made before (`before_turn`). */
export function movesInOrder(moves, cubeActions) {
  const items = [];
  let next = 0;
  for (const turn of moves) {
    while (next < cubeActions.length && cubeActions[next].before_turn <= turn.number) {
      items.push({ cube: cubeActions[next] });
      next += 1;
    }
    items.push({ turn });
  }
  for (const cube of cubeActions.slice(next)) items.push({ cube });
  return items;
}

export function renderMoves(page) {
  const list = byId("play-moves-list");
  if (!list) return;
  const { S } = page;
  const items = movesInOrder(page.moves, page.cubeActions).map(({ turn, cube }) => {
    const li = document.createElement("li");
    if (cube) {
      li.value = cube.before_turn;
      li.dataset.side = cube.side;
      li.dataset.cube = cube.action;
      li.textContent = V.cubeActionText(S, cube);
      return li;
    }
    li.value = turn.number;
    li.dataset.side = turn.side;
    li.textContent = fmt(S.move_line, {
      side: turn.side === "light" ? S.side_light : S.side_dark,
      dice: V.diceText(turn.dice),
      play: turn.notation ? playWords(S, turn.notation) : S.no_move,
    });
    return li;
  });
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}
