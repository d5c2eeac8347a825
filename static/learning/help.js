// Small board diagrams on the help pages, drawn by the shared board renderer.
import { renderBoard } from "../games/board.js";
import { drawDiagram } from "./terms.js";

// A §4 board from {point: count} (positive light, negative dark) and trays.
function board(points, off = {}) {
  const row = new Array(24).fill(0);
  for (const [p, n] of Object.entries(points)) row[Number(p) - 1] = n;
  return { points: row, bar: { light: 0, dark: 0 }, off: { light: off.light || 0, dark: off.dark || 0 } };
}

const DIAGRAMS = {
  opening: board({ 24: 2, 13: 5, 8: 3, 6: 5, 1: -2, 12: -5, 17: -3, 19: -5 }),
  bearoff: board({ 6: 3, 5: 2, 4: 2, 3: 2, 2: 1, 1: 1, 19: -3, 20: -2, 21: -3, 22: -2, 23: -2, 24: -1 },
    { light: 4, dark: 2 }),
};

const direction = document.body.dataset.boardDirection || "right";
for (const svg of document.querySelectorAll("svg[data-diagram]")) {
  const diagram = DIAGRAMS[svg.dataset.diagram];
  if (diagram) renderBoard(svg, diagram, { direction });
}

// The glossary's small boards (learning/glossary/shapes.py Diagram.to_json).
const glossary = document.getElementById("glossary-diagrams");
if (glossary) {
  const diagrams = JSON.parse(glossary.textContent);
  for (const svg of document.querySelectorAll("svg[data-term-diagram]")) {
    const d = diagrams[svg.dataset.termDiagram];
    if (d) drawDiagram(svg, d, direction);
  }
}
