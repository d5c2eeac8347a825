// The SVG elements the board is drawn with: one element, a named layer, a
// layer emptied.

import { SVG_NS } from "./common.js";

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  if (parent) parent.appendChild(node);
  return node;
}

/** A named layer <g> inside the svg, created once and reused. */
export function layer(svgEl, name) {
  let g = svgEl.querySelector(`:scope > g.b-${name}`);
  if (!g) g = el("g", { class: `b-${name}` }, svgEl);
  return g;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}
