// The analysis board's cube and score: the form that sets them, the address
// and request fields that hold them, and the cube action the server found
// (ai_worker.cube_advice, worded by learning.words.cube). The server reads
// and checks every field; a refused one leaves the form as it was.
//
//   readSetting()        the form's fields as the server reads them
//   fillSetting(s)       the form from a setting the server answered
//   settingQuery(s)      the address's part: only what is not the default
//   cubeOnBoard(s)       the cube as games/board.js draws it
//   showCube(cube, S)    the cube action section; null hides it

import { fmt } from "../games/view.js";
import { withError } from "./rollout.js";

const $ = (id) => document.getElementById(id);

/** The form's fields; a match drops the Jacoby rule, a money game the score and Crawford. */
export function readSetting() {
  const match = $("ab-match").value;
  const money = match === "0";
  return {
    cube: $("ab-cube").value,
    owner: $("ab-owner").value,
    match,
    score: money ? "" : `${$("ab-score-light").value || 0}-${$("ab-score-dark").value || 0}`,
    crawford: !money && $("ab-crawford").checked ? "1" : "",
    jacoby: money && $("ab-jacoby").checked ? "1" : "",
  };
}

export function fillSetting(s) {
  $("ab-cube").value = String(s.cube);
  $("ab-owner").value = s.owner;
  $("ab-match").value = String(s.match);
  const [light, dark] = (s.score || "0-0").split("-");
  $("ab-score-light").value = light;
  $("ab-score-dark").value = dark;
  $("ab-crawford").checked = Boolean(s.crawford);
  $("ab-jacoby").checked = Boolean(s.jacoby);
  const money = String(s.match) === "0";
  for (const id of ["ab-score-light", "ab-score-dark", "ab-crawford"]) $(id).disabled = money;
  $("ab-jacoby").disabled = !money;
}

/** The fields a request sends, from a setting the server answered. */
export function settingBody(s) {
  return {
    cube: String(s.cube), owner: s.owner, match: String(s.match), score: s.score,
    crawford: s.crawford ? "1" : "", jacoby: s.jacoby ? "1" : "",
  };
}

export function settingQuery(s) {
  const q = {};
  if (s.owner) q.owner = s.owner;
  if (s.score) q.score = s.score;
  if (String(s.cube) !== "1") q.cube = String(s.cube);
  if (String(s.match) !== "0") q.match = String(s.match);
  if (s.crawford) q.crawford = "1";
  if (s.jacoby) q.jacoby = "1";
  return q;
}

export function cubeOnBoard(s) {
  return { value: Number(s.cube), owner: s.owner, offered: "" };
}

function list(id, lines) {
  const ul = $(id);
  ul.replaceChildren();
  for (const text of lines) {
    const li = document.createElement("li");
    li.textContent = text;
    ul.appendChild(li);
  }
}

function equityRow(name, value, best, se) {
  const tr = document.createElement("tr");
  tr.dataset.best = String(best);
  for (const text of [name, withError(value, se)]) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.appendChild(td);
  }
  return tr;
}

/** The cube action (or why there is none); ``side`` is the side on roll. */
export function showCube(cube, S, side) {
  const box = $("ab-cube-action");
  box.hidden = !cube;
  if (!cube) return;
  const body = $("ab-cube-equities").querySelector("tbody");
  body.replaceChildren();
  $("ab-cube-table").hidden = Boolean(cube.refusal);
  if (cube.refusal) {
    $("ab-cube-title").textContent = cube.message;
    list("ab-cube-double-lines", []);
    list("ab-cube-take-lines", []);
    $("ab-cube-doubler").textContent = "";
    $("ab-cube-taker").textContent = "";
    return;
  }
  const e = cube.equities;
  const taken = e.double_take <= e.double_pass;
  const doubles = cube.best === "double";
  const [nd, dt, dp] = cube.labels; // "Redouble" when the side on roll owns the cube
  const r = cube.rollout; // 精确分析: each figure with its standard error (double/pass is exact)
  body.appendChild(equityRow(nd, e.no_double, !doubles, r ? r.no_double_se : undefined));
  body.appendChild(equityRow(dt, e.double_take, doubles && taken, r ? r.double_take_se : undefined));
  body.appendChild(equityRow(dp, e.double_pass, doubles && !taken));
  $("ab-cube-title").textContent = cube.double.title;
  const other = side === "light" ? "dark" : "light";
  $("ab-cube-doubler").textContent = fmt(S.cube_doubler, { side: S[side] });
  $("ab-cube-taker").textContent = fmt(S.cube_taker, { side: S[other] });
  list("ab-cube-double-lines", cube.double.lines);
  list("ab-cube-take-lines", [cube.take.title, ...cube.take.lines]);
}
