// The review's win-probability graph: a dot per analysed turn (an error
// larger), the cursor on the turn shown; a click on it shows that turn.

import { SVG_NS, byId as $, fmt, pct } from "../games/common.js";
import { S, chance, data, isError, turns } from "./review-data.js";

const GW = 600;
const GH = 160;
const PAD = 24;

function gx(k) {
  return PAD + (turns.length ? (k * (GW - 2 * PAD)) / turns.length : 0);
}

function gy(p) {
  return PAD + (1 - p) * (GH - 2 * PAD);
}

function node(name, attrs, parent) {
  const n = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (parent) parent.appendChild(n);
  return n;
}

export function drawGraph(show) {
  const svg = $("win-graph");
  if (!svg) return;
  svg.setAttribute("viewBox", `0 0 ${GW} ${GH}`);
  node("rect", { x: PAD, y: PAD, width: GW - 2 * PAD, height: GH - 2 * PAD, class: "g-frame" }, svg);
  node("line", { x1: PAD, x2: GW - PAD, y1: gy(0.5), y2: gy(0.5), class: "g-half" }, svg);
  for (const [p, label] of [[1, "100%"], [0.5, "50%"], [0, "0%"]]) {
    const t = node("text", { x: PAD - 4, y: gy(p) + 4, class: "g-label", "text-anchor": "end" }, svg);
    t.textContent = label;
  }
  const pts = [[gx(0), gy(0.5)]];
  turns.forEach((t, k) => {
    if (t.analysis) pts.push([gx(k + 1), gy(chance(t.analysis))]);
  });
  node("polyline", { points: pts.map((p) => p.join(",")).join(" "), class: "g-line" }, svg);
  turns.forEach((t, k) => {
    if (!t.analysis) return;
    const dot = node("circle", {
      cx: gx(k + 1), cy: gy(chance(t.analysis)), r: isError(t) ? 4 : 2.5,
      class: isError(t) ? `g-dot g-error g-${t.side}` : `g-dot g-${t.side}`,
    }, svg);
    const title = node("title", {}, dot);
    title.textContent = fmt(data.match ? data.sides.graph_match : data.sides.graph, { n: t.number, win: pct(chance(t.analysis)) });
  });
  node("line", { class: "g-cursor", x1: 0, x2: 0, y1: PAD, y2: GH - PAD, id: "g-cursor" }, svg);
  svg.addEventListener("click", (ev) => {
    const box = svg.getBoundingClientRect();
    const x = ((ev.clientX - box.left) / box.width) * GW;
    const k = Math.round(((x - PAD) / (GW - 2 * PAD)) * turns.length);
    // Point k on the graph is the chance after turn k: show that turn.
    show(Math.max(0, Math.min(turns.length - 1, k - 1)));
  });
}

export function markGraph(view) {
  const cursor = $("g-cursor");
  if (!cursor) return;
  const x = gx(Math.min(view + 1, turns.length));
  cursor.setAttribute("x1", x);
  cursor.setAttribute("x2", x);
}
