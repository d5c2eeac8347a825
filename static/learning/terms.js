// Terms of the glossary in the words a page shows (learning/glossary/marks.py):
// "[[key|words]]" marks a term. putWords(node, text, seen) writes the words
// into node with each mark a link to the term's entry (a term already in
// the Set `seen` stays plain words, so it is linked where it first
// appears); plainWords(text) gives the words alone. A click on a linked
// term opens a small pop-up under its line with the term's sentence and
// board (the entries fetched once, in the page's language, from
// body[data-glossary-terms]) and a link to the whole glossary.
import { renderBoard, drawArrows } from "../games/board.js";

const MARK = /\[\[([a-z][a-z0-9-]*)(?:\|([^[\]|]*))?\]\]/g;
const body = document.body;
const glossaryUrl = () => body.dataset.glossaryUrl || "/learn/help/glossary/";

export function plainWords(text) {
  return String(text ?? "").replace(MARK, (_m, key, words) => words ?? key);
}

export function wordNodes(text, seen = null) {
  const s = String(text ?? "");
  const nodes = [];
  let last = 0;
  for (const m of s.matchAll(MARK)) {
    if (m.index > last) nodes.push(document.createTextNode(s.slice(last, m.index)));
    const key = m[1];
    const words = m[2] ?? key;
    if (seen && seen.has(key)) {
      nodes.push(document.createTextNode(words));
    } else {
      const a = document.createElement("a");
      a.className = "term";
      a.href = `${glossaryUrl()}#${key}`;
      a.dataset.term = key;
      a.textContent = words;
      nodes.push(a);
      if (seen) seen.add(key);
    }
    last = m.index + m[0].length;
  }
  if (last < s.length) nodes.push(document.createTextNode(s.slice(last)));
  return nodes;
}

export function putWords(node, text, seen = null) {
  node.replaceChildren(...wordNodes(text, seen));
}

/** A glossary entry's small board (learning/glossary/shapes.py Diagram.to_json). */
export function drawDiagram(svg, d, direction = body.dataset.boardDirection || "right") {
  const dice = (d.dice || []).map((value) => ({ value, used: false, side: "light", slot: "home" }));
  renderBoard(svg, d.board, { direction, dice, destinations: d.marks || [], cube: d.cube || null });
  if (d.arrows && d.arrows.length) drawArrows(svg, d.arrows, { side: "light" });
  if (d.dark_arrows && d.dark_arrows.length) drawArrows(svg, d.dark_arrows, { side: "dark", keep: true });
}

let entries = null;

function loadEntries() {
  const url = body.dataset.glossaryTerms;
  if (!entries) {
    entries = url
      ? fetch(url, { credentials: "same-origin" }).then((r) => (r.ok ? r.json() : { terms: {} })).catch(() => ({ terms: {} }))
      : Promise.resolve({ terms: {} });
  }
  return entries;
}

function closePop() {
  const open = document.getElementById("term-pop");
  if (!open) return null;
  const opener = open.__opener;
  open.remove();
  if (opener) opener.setAttribute("aria-expanded", "false");
  return opener;
}

async function openPop(link) {
  const { terms = {}, words = {} } = await loadEntries();
  const entry = terms[link.dataset.term];
  if (!entry) {
    window.location.assign(link.href);
    return;
  }
  closePop();
  const pop = document.createElement("span");
  pop.id = "term-pop";
  pop.className = "term-pop";
  pop.setAttribute("role", "dialog");
  pop.setAttribute("aria-label", entry.name);
  const name = document.createElement("strong");
  name.textContent = entry.name;
  const sentence = document.createElement("span");
  sentence.className = "term-pop-sentence";
  putWords(sentence, entry.sentence);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "board-svg term-pop-board");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", entry.name);
  const all = document.createElement("a");
  all.href = entry.url;
  all.textContent = words.all || entry.name;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "link-button term-pop-close";
  close.textContent = words.close || "×";
  close.addEventListener("click", () => {
    const opener = closePop();
    if (opener) opener.focus();
  });
  const links = document.createElement("span");
  links.className = "term-pop-links";
  links.append(all, close);
  pop.append(name, sentence, svg, links);
  pop.__opener = link;
  link.setAttribute("aria-expanded", "true");
  const block = link.closest("p, li, dd, h1, h2, h3, td, div") || link.parentElement;
  block.append(pop);
  drawDiagram(svg, entry.diagram);
  close.focus();
}

document.addEventListener("click", (ev) => {
  const link = ev.target instanceof Element ? ev.target.closest("a.term[data-term]") : null;
  if (!link || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  ev.preventDefault();
  if (link.getAttribute("aria-expanded") === "true") closePop();
  else openPop(link);
});
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && document.getElementById("term-pop")) {
    const opener = closePop();
    if (opener) opener.focus();
  }
});
