// The play page's sounds, made with the Web Audio API (no files): the dice
// rolling, a checker put down, a hit. Silent unless the "Sound" preference is
// on; the page's Mute button silences them too (remembered in this browser).
import { on } from "./bus.js";
import { byId, readJson } from "./common.js";

const MUTE_KEY = "shuanglu.mute";
const prefs = readJson("game-prefs");
const button = byId("btn-mute");
let audio = null;

function muted() {
  return window.localStorage.getItem(MUTE_KEY) === "1";
}

function showMute() {
  button.setAttribute("aria-pressed", String(muted()));
}

function context() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!audio) audio = new Ctx();
  if (audio.state === "suspended") audio.resume();
  return audio;
}

function envelope(ctx, start, length, gain) {
  const amp = ctx.createGain();
  amp.gain.setValueAtTime(gain, start);
  amp.gain.exponentialRampToValueAtTime(0.001, start + length);
  amp.connect(ctx.destination);
  return amp;
}

function tone(ctx, { freq, to = freq, start, length, gain, type = "sine" }) {
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  osc.frequency.exponentialRampToValueAtTime(to, start + length);
  osc.connect(envelope(ctx, start, length, gain));
  osc.start(start);
  osc.stop(start + length);
}

// A short burst of filtered noise: a die knocking on wood.
function knock(ctx, start, length, gain) {
  const frames = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const band = ctx.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.value = 1800;
  source.connect(band).connect(envelope(ctx, start, length, gain));
  source.start(start);
}

const SOUNDS = {
  dice: (ctx, t) => [0, 0.07, 0.15, 0.26].forEach((d, i) => knock(ctx, t + d, 0.05, 0.5 - i * 0.1)),
  checker: (ctx, t) => tone(ctx, { freq: 240, to: 120, start: t, length: 0.09, gain: 0.35, type: "triangle" }),
  hit: (ctx, t) => {
    tone(ctx, { freq: 600, to: 160, start: t, length: 0.18, gain: 0.25, type: "square" });
    tone(ctx, { freq: 110, start: t + 0.02, length: 0.22, gain: 0.4 });
  },
};

function sound(name) {
  if (!prefs.sound || muted()) return;
  const ctx = context();
  if (ctx) SOUNDS[name](ctx, ctx.currentTime + 0.01);
}

if (prefs.sound && button) {
  button.hidden = false;
  showMute();
  button.addEventListener("click", () => {
    window.localStorage.setItem(MUTE_KEY, muted() ? "0" : "1");
    showMute();
  });
}
on("dice", () => sound("dice"));
on("checker", () => sound("checker"));
on("hit", () => sound("hit"));
