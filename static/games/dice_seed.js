// The person's dice seed (docs/dice.md): random from this browser unless the
// person wrote their own. Every empty field marked data-dice-seed gets one.
function randomSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

for (const field of document.querySelectorAll("[data-dice-seed]")) {
  if (!field.value) field.value = randomSeed();
}
