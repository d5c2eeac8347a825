// The verify page: every roll of a finished game recomputed in this browser
// from the revealed server seed and the person's seed (docs/dice.md), with
// Web Crypto, and the server seed checked against the commitment.
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

async function verify() {
  const data = readJson("verify-data");
  const words = readJson("verify-strings");
  const summary = byId("verify-summary");
  if (!globalThis.crypto?.subtle) {
    summary.textContent = words.no_crypto;
    return;
  }
  const seed = hexBytes(data.server_seed);
  const committed = toHex(await crypto.subtle.digest("SHA-256", seed)) === data.commitment;
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
