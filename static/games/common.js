// Helpers every script of the site shares: words with placeholders, numbers
// as the pages print them, the socket's URL, the SVG namespace, page data.

export const SVG_NS = "http://www.w3.org/2000/svg";

const CJK = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef";
const SPACE_IN_CHINESE = new RegExp(`([${CJK}]) +(?=[${CJK}])`, "g");

/**
 * "%(name)s" placeholders, as Django's translations write them. A space the
 * template kept for a number ("拿起了 %(place)s的棋子") is dropped where the
 * place turned out to be words ("吧台"): none between two Chinese characters.
 */
export function fmt(template, params = {}) {
  return String(template ?? "")
    .replace(/%\((\w+)\)s/g, (_m, key) => String(params[key] ?? ""))
    .replace(SPACE_IN_CHINESE, "$1");
}

/**
 * A play's notation as the page's language writes it: "bar" and "off" in
 * the words of S.move_words (吧台, 移出 in Chinese; games/words/notation.py).
 */
export function playWords(S, notation) {
  const words = (S && S.move_words) || {};
  return String(notation ?? "").replace(/\b(bar|off)\b/g, (w) => words[w] || w);
}

/** A probability 0..1 as a percentage with one decimal: "53.2%". */
export const pct = (x) => `${(x * 100).toFixed(1)}%`;

/** An equity with three decimals: "0.125". */
export const equity = (x) => x.toFixed(3);

/** An equity with its sign: "+0.125", "-0.040". */
export const signed = (x) => (x >= 0 ? "+" : "") + x.toFixed(3);

/** The absolute ws:// or wss:// URL for a socket path on this site. */
export function socketUrl(path) {
  if (/^wss?:\/\//.test(path)) return path;
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}${path.startsWith("/") ? path : `/${path}`}`;
}

/**
 * How long a closed socket waits before its next try (attempt 0, 1, ...),
 * given the close code: 0.5 s growing 1.5x a try, each drawn from half to one
 * and a half times that, up to a cap. A site that said "try again"
 * (CLOSE_TRY_AGAIN: it is up, its database is not) is asked every 15 s at
 * most, since each try costs it a sign-in; a server that is not there (a
 * restart: the connection refused or dropped, 1006) costs nothing to ask, so
 * the cap is 3 s and a page is back within a few seconds of the site. After
 * every daphne restarts at once a thousand pages must not all come back in
 * the same instant, nor wait long past the site's return: the tries fall at
 * about 0.5, 1.25, 2.4, 4.1, 6.6 s and then every 1.5-4.5 s (bench/live.py
 * --restart reconnects on the same schedule).
 */
export const CLOSE_TRY_AGAIN = 4503;  // games/live/consumers.py

export function reconnectDelay(attempt, code) {
  const cap = code === CLOSE_TRY_AGAIN ? 15000 : 3000;
  return Math.min(cap, 500 * 1.5 ** attempt) * (0.5 + Math.random());
}

/** The JSON a view handed over with json_script (an empty object if none). */
export function readJson(id) {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) || {} : {};
}

export const byId = (id) => document.getElementById(id);

/** Puts `text` in a live region; re-setting the same words is announced again. */
export function say(id, text) {
  const node = byId(id);
  node.textContent = "";
  if (text) window.setTimeout(() => { node.textContent = text; }, 30);
}

/** Sentences joined as each language writes them: no space after "。". */
export function sentences(parts) {
  return parts.filter(Boolean).reduce((text, part) => {
    if (!text) return part;
    return /[。！？；：，、）」]$/.test(text) ? text + part : `${text} ${part}`;
  }, "");
}
