// The verify page: every roll of a finished game recomputed in this browser
// from the revealed server seed and the person's seed (docs/dice.md), with
// Web Crypto, and the server seed checked against the commitment, the one
// the page shows and the one the person noted down before the game.
import { byId, fmt, readJson } from "../games/common.js";

const ACCEPT_BELOW = 252; // 6 x 42: no face favoured

function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function toHex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function die(key, personSeed, number) {
  for (let block = 0; ; block += 1) {
    const message = new TextEncoder().encode(`${personSeed}:${number}:${block}`);
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
    const byte = mac.find((b) => b < ACCEPT_BELOW);
    if (byte !== undefined) return (byte % 6) + 1;
  }
}

/** The commitment and seed the person noted down before the game, beside the revealed ones. */
function checkNoted(data, words, hash) {
  const commitment = byId("verify-noted-commitment").value.trim().toLowerCase();
  const seed = byId("verify-noted-seed").value.trim();
  const said = [];
  if (commitment) said.push(commitment === hash ? words.noted_match : words.noted_mismatch);
  if (seed) said.push(seed === data.person_seed ? words.noted_seed_match : words.noted_seed_mismatch);
  const result = byId("verify-noted-result");
  result.textContent = said.join(" ");
  result.dataset.verdict = (commitment && commitment !== hash) || (seed && seed !== data.person_seed)
    ? "mismatch" : said.length ? "match" : "";
}

async function verify() {
  const data = readJson("verify-data");
  const words = readJson("verify-strings");
  const summary = byId("verify-summary");
  if (!globalThis.crypto?.subtle) {
    summary.textContent = words.no_crypto;
    return;
  }
  const seed = hexBytes(data.server_seed);
  const hash = toHex(await crypto.subtle.digest("SHA-256", seed));
  const committed = hash === data.commitment;
  for (const id of ["verify-noted-commitment", "verify-noted-seed"]) {
    byId(id).addEventListener("input", () => checkNoted(data, words, hash));
  }
  const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const rows = document.querySelectorAll(".verify-roll");
  const wrong = [];
  for (const [index, roll] of data.rolls.entries()) {
    const derived = [await die(key, data.person_seed, 2 * roll.roll), await die(key, data.person_seed, 2 * roll.roll + 1)];
    const ok = derived[0] === roll.dice[0] && derived[1] === roll.dice[1];
    const row = rows[index];
    row.querySelector(".verify-derived").textContent = `${derived[0]}-${derived[1]}`;
    row.querySelector(".verify-status").textContent = ok ? words.match : words.mismatch;
    row.dataset.matches = ok ? "1" : "0";
    if (!ok) wrong.push({ ...roll, derived });
  }
  byId("verify-commitment-check").textContent = committed ? "" : words.commitment_mismatch;
  if (committed && wrong.length === 0) {
    summary.textContent = fmt(words.all_match, { count: data.rolls.length });
    summary.dataset.verdict = "match";
    return;
  }
  summary.dataset.verdict = "mismatch";
  summary.textContent = wrong
    .map((r) => fmt(words.roll_mismatch, {
      roll: r.roll, label: r.label, played: `${r.dice[0]}-${r.dice[1]}`, derived: `${r.derived[0]}-${r.derived[1]}`,
    }))
    .join(" ") || words.commitment_mismatch;
}

verify();
