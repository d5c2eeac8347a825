// Words and dice for the play page: everything here turns a §4 state into
// text or dice lists, with no DOM events and no network.

import { fmt, playWords, sentences } from "./common.js";

export { fmt };

export function diceText(dice) {
  return dice && dice.length ? dice.join("-") : "";
}

export function placeName(S, where) {
  if (where === 25 || where === "bar") return S.place_bar;
  if (where === 0 || where === "off") return S.place_off;
  return fmt(S.place_point, { n: where });
}

/** The dice values of a roll as played: four for doubles. */
export function rollValues(dice) {
  if (!dice || dice.length !== 2) return [];
  return dice[0] === dice[1] ? [dice[0], dice[0], dice[0], dice[0]] : [dice[0], dice[1]];
}

/** Marks dice used: a die is left unused for each value still remaining. */
export function markUsed(values, remaining) {
  const left = (remaining || []).slice();
  const marked = values.map((value) => ({ value, used: true }));
  // Unused dice are taken from the right, so used ones dim from the left.
  for (let i = marked.length - 1; i >= 0; i -= 1) {
    const j = left.indexOf(marked[i].value);
    if (j >= 0) {
      marked[i].used = false;
      left.splice(j, 1);
    }
  }
  return marked;
}

/** The game goes on (with the cube, a turn may begin with a choice or a double to answer). */
export const live = (state) => ["playing", "opening", "deciding", "doubled"].includes(state.status);

/** Checkers may move: the dice are rolled and no double waits. */
export const stepping = (state) => (state.status === "playing" || state.status === "opening") && Boolean(state.dice);

/** The person's turn begins with a choice: 掷骰 Roll or 加倍 Double. */
export const deciding = (state) => state.status === "deciding" && state.turn === "light";

/** The computer has doubled and the person must answer: 接受 Take or 放弃 Pass. */
export const answering = (state) => state.status === "doubled" && state.turn === "light";

/** The first turns: until the person has played, the opening roll stays in view. */
export function isOpeningPhase(state) {
  if (!state.opening || !(state.opening.rolls || []).length || state.status === "finished") return false;
  const t = state.last_turn;
  return !t || (t.number === 1 && t.side === "dark" && state.turn === "light");
}

export function isOpeningTurn(state) {
  return !state.last_turn && state.opening && (state.opening.rolls || []).length > 0
    && state.status !== "finished";
}

/** Dice to draw for a state (see board.js drawDice for slots). */
export function diceFor(state) {
  if (isOpeningTurn(state)) {
    const rolls = state.opening.rolls;
    const [light, dark] = rolls[rolls.length - 1];
    if (light === dark) {
      return [{ value: light, side: "light", slot: "left", used: false }, { value: dark, side: "dark", slot: "right", used: false }];
    }
    const used = state.dice ? markUsed([light, dark], state.remaining) : [{ used: false }, { used: false }];
    return [
      { value: light, side: "light", slot: "left", used: used[0].used },
      { value: dark, side: "dark", slot: "right", used: used[1].used },
    ];
  }
  if (!state.dice || state.status === "finished") return [];
  const side = state.turn === "dark" ? "dark" : "light";
  const remaining = side === "light" ? state.remaining : rollValues(state.dice);
  return markUsed(rollValues(state.dice), remaining).map((d) => ({ ...d, side, slot: side === "light" ? "home" : "outer" }));
}

/**
 * The dice of a play part-way through its animation. The computer's opening
 * play uses the opening roll: the person's die on the left, its own on the right.
 */
export function playDice(turn, stepsDone) {
  const values = rollValues(turn.dice);
  const remaining = values.slice();
  for (const step of turn.steps.slice(0, stepsDone)) {
    const j = remaining.indexOf(step.die);
    if (j >= 0) remaining.splice(j, 1);
  }
  const marked = markUsed(values, remaining);
  if (turn.number === 1 && values.length === 2) {
    return [
      { ...marked[0], side: "light", slot: "left" },
      { ...marked[1], side: "dark", slot: "right" },
    ];
  }
  const [side, slot] = turn.side === "light" ? ["light", "home"] : ["dark", "outer"];
  return marked.map((d) => ({ ...d, side, slot }));
}

/** What the computer played, in words ("" when it could not move). */
export function computerPlayText(S, turn) {
  if (!turn || turn.side !== "dark" || !turn.notation) return "";
  if (turn.number === 1) return fmt(S.computer_opened, { play: playWords(S, turn.notation) });
  return fmt(S.computer_played, { dice: diceText(turn.dice), play: playWords(S, turn.notation) });
}

/** A turn of the person's that the site played: its one legal play, or a roll with none. */
export function automaticText(S, turn) {
  if (!turn || turn.side !== "light") return "";
  if (turn.automatic && turn.notation) return fmt(S.auto_played, { dice: diceText(turn.dice), play: playWords(S, turn.notation) });
  if (!(turn.steps || []).length) return fmt(S.auto_passed, { dice: diceText(turn.dice) });
  return "";
}

/** What is said of a turn as it comes: the computer's play, the person's the site made. */
function turnAnnouncement(S, turn) {
  // A roll with no move is worded by the server (the state's message).
  if (turn.side === "light") return turn.automatic ? automaticText(S, turn) : "";
  return computerPlayText(S, turn);
}

/** The person's latest turn, if the site played it for them: the words that stay on screen. */
export function automaticNote(S, moves) {
  for (let i = moves.length - 1; i >= 0; i -= 1) {
    if (moves[i].side === "light") {
      const text = automaticText(S, moves[i]);
      return text ? fmt(S.auto_note, { what: text }) : "";
    }
  }
  return "";
}

export function openingText(S, state) {
  if (!state.opening || !(state.opening.rolls || []).length) return "";
  const parts = [];
  for (const [light, dark] of state.opening.rolls) {
    parts.push(light === dark ? fmt(S.opening_tie, { n: light }) : fmt(S.opening_roll, { light, dark }));
  }
  if (state.opening.starter === "light") parts.push(S.you_start);
  if (state.opening.starter === "dark") parts.push(S.computer_starts);
  return sentences(parts);
}

/** A double now would be a redouble (再加倍): the cube is already turned, on the doubler's side. */
export const redouble = (state) => !!state.cube && state.cube.value > 1 && state.cube.owner !== "centre";

export function turnText(S, state) {
  if (state.status === "opening" && !state.dice) return S.opening_status;
  if (state.status === "finished") return S.game_over;
  if (state.status === "failed") return state.message || S.failed;
  if (state.resign_offer) return S.resign_waiting;
  if (deciding(state)) return redouble(state) ? S.roll_or_redouble : S.roll_or_double;
  if (answering(state)) return redouble(state) ? S.take_or_pass_redouble : S.take_or_pass;
  if (state.status === "doubled") return S.computer_answering;
  if (state.turn === "dark") return isThinking(state) ? S.thinking : S.computer_turn;
  return S.your_turn;
}

/** The Expert is working out its play (the lower tiers answer at once). */
export function isThinking(state) {
  return live(state) && state.turn === "dark" && Boolean(state.thinking) && state.tier === "expert";
}

export function pipsText(S, state) {
  if (!state.pips) return "";
  return fmt(S.pips, { light: state.pips.light, dark: state.pips.dark });
}

export function resultTexts(S, result) {
  const title = result.winner === "light" ? S.win : (result.resigned ? S.resigned : S.loss);
  let kind = { single: S.kind_single, gammon: S.kind_gammon, backgammon: S.kind_backgammon }[result.kind] || "";
  if (result.passed) kind = result.winner === "light" ? S.kind_passed_dark : S.kind_passed_light;
  const points = result.cube > 1
    ? fmt(S.points_cube_line, { points: result.points, cube: result.cube })
    : fmt(S.points_line, { points: result.points });
  return { title, kind, points };
}

/** The cube in words for the status bar: "倍数骰 2，在你这边". */
export function cubeText(S, cube) {
  if (!cube) return "";
  if (cube.offered) return fmt(S.cube_offered, { value: cube.value * 2 });
  const owner = { light: S.cube_yours, dark: S.cube_theirs }[cube.owner] || S.cube_centre;
  return fmt(S.cube_line, { value: cube.value, owner });
}

/** The match on the status bar: its length, the score, the Crawford game. */
export function matchText(S, state) {
  const m = state.match;
  if (!m) return state.kind === "money" ? S.kind_money : "";
  const parts = [fmt(S.match_line, { length: m.length, light: m.score.light, dark: m.score.dark })];
  // Once the match is over there is no Crawford game to speak of.
  if (m.over) return parts[0];
  if (m.crawford) parts.push(S.crawford);
  else if (m.post_crawford) parts.push(S.post_crawford);
  return parts.join(S.list_sep);
}

/** While the Crawford game is played: who is one point from the match, and that no one may double. */
export function crawfordNotice(S, state) {
  const m = state.match;
  if (!m || !m.crawford || m.over || state.status === "finished") return "";
  return m.game_score.light >= m.length - 1 ? S.crawford_notice_light : S.crawford_notice_dark;
}

/** The match's end, or the way on, under a finished game of a match. */
export function matchResultText(S, match) {
  if (!match) return "";
  if (match.over) return fmt(match.winner === "light" ? S.match_won : S.match_lost, { length: match.length });
  return fmt(S.match_next, { game: (match.game || 0) + 1 });
}

function countsAt(board, where) {
  if (where === 25) return { light: board.bar.light, dark: board.bar.dark };
  if (where === 0) return { light: board.off.light, dark: board.off.dark };
  const n = board.points[where - 1];
  return { light: Math.max(n, 0), dark: Math.max(-n, 0) };
}

/** Accessible name of a target, e.g. "13 点，你的 2 枚". */
export function targetName(S, board, where, flags = {}) {
  const c = countsAt(board, where);
  let name;
  if (where === 25) name = fmt(S.bar_label, c);
  else if (where === 0) name = fmt(S.tray_label, c);
  else if (c.light) name = fmt(S.point_mine, { n: where, count: c.light });
  else if (c.dark) name = fmt(S.point_theirs, { n: where, count: c.dark });
  else name = fmt(S.point_empty, { n: where });
  if (flags.selected) name += `${S.list_sep}${S.selected_suffix}`;
  if (flags.destination) name += `${S.list_sep}${S.dest_suffix}`;
  return name;
}

/**
 * What to announce when a new state replaces an old one (prev null: on
 * load); `turns`: the turns it adds, when more than its last_turn.
 */
export function announcement(S, prev, next, turns = null) {
  const lines = [];
  const turnChanged = !prev || JSON.stringify(prev.last_turn) !== JSON.stringify(next.last_turn);
  if (prev && prev.turn === "light" && prev.version < next.version) lines.push(...personsStep(S, prev, next, turnChanged));
  const added = turns || (turnChanged && next.last_turn ? [next.last_turn] : []);
  for (const turn of added) lines.push(turnAnnouncement(S, turn));
  // The server words passes and results in the page's language.
  if (next.message && (!prev || prev.message !== next.message || turnChanged)) lines.push(next.message);
  if (next.turn === "light" && live(next) && next.dice && (!prev || prev.turn !== "light" || turnChanged)) {
    lines.push(fmt(S.you_rolled, { dice: diceText(next.dice) }));
  }
  if (next.turn === "light" && next.can_end_turn && !(prev && prev.can_end_turn)) lines.push(S.end_turn_hint);
  return sentences(lines);
}

/** The person's step just taken or undone (the last one may end the turn). */
function personsStep(S, prev, next, turnChanged) {
  const moved = (step) => {
    const words = [fmt(S.you_moved, { from: placeName(S, step.from), to: placeName(S, step.to) })];
    if (step.hit) words.push(S.hit);
    return words;
  };
  const before = prev.steps || [];
  if (!turnChanged) {
    const after = next.steps || [];
    if (after.length > before.length) return moved(after[after.length - 1]);
    if (after.length === before.length) return [];
    // More than a step taken back (撤销重走): say which.
    const undone = before.slice(after.length);
    if (undone.length === 1) return [S.undone];
    const steps = undone.map((s) => fmt(S.step_pair, { from: placeName(S, s.from), to: placeName(S, s.to) }));
    return [fmt(S.undone_turn, { count: undone.length, steps: steps.join(S.list_separator) })];
  }
  const played = next.last_turn && next.last_turn.side === "light" ? next.last_turn.steps || [] : [];
  return played.length > before.length ? moved(played[played.length - 1]) : [];
}

/** A cube action in the move list: who doubled, took or passed, and the cube's new value. */
export function cubeActionText(S, action) {
  const lines = { double: S.cube_double_line, take: S.cube_take_line, pass: S.cube_pass_line };
  const side = action.side === "light" ? S.side_light : S.side_dark;
  return fmt(lines[action.action], { side, value: action.value });
}
