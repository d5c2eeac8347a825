// A start form's dice (docs/dice.md, "Before the game"): the person's seed,
// drawn in this browser with Web Crypto unless they wrote their own, and the
// next game's commitment, asked again whenever the tab gains focus, so that
// a form never sends one another tab's game has used without showing it.

export function randomSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Every start form of the page shows, and will send, `commitment`. */
export function showCommitment(commitment) {
  if (!/^[0-9a-f]{64}$/.test(commitment || "")) return;
  for (const node of document.querySelectorAll("[data-commitment]")) node.textContent = commitment;
  for (const field of document.querySelectorAll("[data-commitment-field]")) field.value = commitment;
}

/** Asks the server for the next game's commitment now and shows it. */
export async function refreshCommitment() {
  const form = document.querySelector("[data-start-dice]");
  if (!form) return;
  try {
    const response = await fetch(form.dataset.commitmentUrl, {
      credentials: "same-origin", headers: { Accept: "application/json" },
    });
    if (response.ok) showCommitment((await response.json()).commitment);
  } catch (err) {
    // Offline: the form keeps what it shows; a start under a used one is refused in words.
  }
}

/** The commitment and seed a match's Next game sends (the end panel's form). */
export function startFields(prefix) {
  const seed = document.getElementById(`${prefix}-dice-seed`)?.value.trim();
  const commitment = document.getElementById(`${prefix}-commitment`)?.value;
  return { ...(seed ? { seed } : {}), ...(commitment ? { commitment } : {}) };
}

for (const field of document.querySelectorAll("[data-dice-seed]")) {
  if (!field.value) field.value = randomSeed();
}
window.addEventListener("focus", refreshCommitment);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") refreshCommitment();
});
