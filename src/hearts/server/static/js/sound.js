// Sound (issue 10, item 9): off by default, one switch kept in localStorage; every
// sound is made here with Web Audio (no file, nothing fetched).
// Test hook: window.__heartsSounds lists the sounds scheduled while the switch is on
// ("card", "trick", "queen", "hearts"); body[data-sound] is "on" or "off".
const KEY = "hearts-sound";
let ctx = null;
window.__heartsSounds = [];

function stored() {
  try { return localStorage.getItem(KEY) === "on"; } catch { return false; }
}
let on = stored();

function context() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

// One soft tone: a frequency glide under a short attack/decay envelope.
function tone(ac, { type = "sine", from, to = from, at = 0, dur, peak }) {
  const t0 = ac.currentTime + at;
  const osc = ac.createOscillator();
  const gain = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(from, t0);
  if (to !== from) osc.frequency.exponentialRampToValueAtTime(to, t0 + dur);
  gain.gain.setValueAtTime(0.0001, t0);
  gain.gain.exponentialRampToValueAtTime(peak, t0 + 0.012);
  gain.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  osc.connect(gain).connect(ac.destination);
  osc.start(t0);
  osc.stop(t0 + dur + 0.02);
}

const SOUNDS = {
  // a card laid down: a short, soft tick
  card: [{ type: "triangle", from: 520, to: 380, dur: 0.07, peak: 0.05 }],
  // a trick swept to its taker: a gentle falling pair
  trick: [
    { from: 440, to: 330, dur: 0.12, peak: 0.05 },
    { from: 330, to: 262, at: 0.09, dur: 0.16, peak: 0.04 },
  ],
  // the queen of spades falls: low and heavy
  queen: [
    { type: "sawtooth", from: 147, to: 110, dur: 0.5, peak: 0.05 },
    { from: 175, to: 131, at: 0.05, dur: 0.45, peak: 0.05 },
  ],
  // hearts are broken: a bright rising chime
  hearts: [
    { from: 784, dur: 0.18, peak: 0.05 },
    { from: 1047, at: 0.1, dur: 0.25, peak: 0.05 },
  ],
};

export const sound = {
  get on() { return on; },
  set(value) {
    on = !!value;
    try { localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* private mode: this page only */ }
    document.body.dataset.sound = on ? "on" : "off";
    if (on) context(); // the switch is a user gesture: the browser lets audio start now
  },
  play(kind) {
    if (!on || !SOUNDS[kind]) return;
    window.__heartsSounds.push(kind);
    if (window.__heartsSounds.length > 200) window.__heartsSounds.splice(0, 100);
    const ac = context();
    if (!ac) return;
    try {
      for (const t of SOUNDS[kind]) tone(ac, t);
    } catch { /* audio is a nicety: never a failure */ }
  },
  // the switch in the top bar
  wire(input) {
    input.checked = on;
    document.body.dataset.sound = on ? "on" : "off";
    input.addEventListener("change", () => sound.set(input.checked));
  },
};
