// The table's sounds, made here with Web Audio (no sound file): a card picked up, put
// down, turned over, drawn; a move refused; a game won. Muted or not is kept between
// visits. `calls` lists every sound asked for, and whether it was muted (tests read it).
// Nothing sounds before the player has pressed or typed something on the page (the
// browser allows no sound before).

const MUTED = "patience-muted";
const LIMIT = 200;

/** Every sound asked for, oldest first: { name, muted }. */
export const calls = [];

let context = null;
let muted = false;
try {
  muted = localStorage.getItem(MUTED) === "1";
} catch (_) { /* no storage: sounds on */ }

export const isMuted = () => muted;

/** Mute or unmute, and keep it for the next visit. */
export function setMuted(value) {
  muted = Boolean(value);
  try {
    localStorage.setItem(MUTED, muted ? "1" : "0");
  } catch (_) { /* kept for this visit only */ }
}

function audio() {
  if (context) return context;
  const Context = window.AudioContext ?? window.webkitAudioContext;
  if (!Context) return null;
  context = new Context();
  return context;
}

// A burst of filtered noise: the sound of card on card or felt.
function noise(ctx, { at, length, type, frequency, q = 1, gain }) {
  const samples = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, samples, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < samples; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / samples) ** 2;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = type;
  filter.frequency.setValueAtTime(frequency[0], at);
  if (frequency[1]) filter.frequency.exponentialRampToValueAtTime(frequency[1], at + length);
  filter.Q.value = q;
  const level = ctx.createGain();
  level.gain.setValueAtTime(gain, at);
  level.gain.exponentialRampToValueAtTime(0.001, at + length);
  source.connect(filter).connect(level).connect(ctx.destination);
  source.start(at);
  source.stop(at + length);
}

// A short tone that dies away.
function tone(ctx, { at, frequency, length, type = "sine", gain }) {
  const oscillator = ctx.createOscillator();
  oscillator.type = type;
  oscillator.frequency.setValueAtTime(frequency, at);
  const level = ctx.createGain();
  level.gain.setValueAtTime(0.0001, at);
  level.gain.exponentialRampToValueAtTime(gain, at + 0.012);
  level.gain.exponentialRampToValueAtTime(0.0001, at + length);
  oscillator.connect(level).connect(ctx.destination);
  oscillator.start(at);
  oscillator.stop(at + length + 0.02);
}

const SOUNDS = {
  pick: (ctx, at) => noise(ctx, { at, length: 0.03, type: "bandpass", frequency: [3200], q: 2, gain: 0.25 }),
  place: (ctx, at) => {
    noise(ctx, { at, length: 0.07, type: "lowpass", frequency: [1400, 500], gain: 0.45 });
    tone(ctx, { at, frequency: 150, length: 0.08, gain: 0.12 });
  },
  flip: (ctx, at) => noise(ctx, { at, length: 0.09, type: "bandpass", frequency: [1800, 5200], q: 1.2, gain: 0.3 }),
  draw: (ctx, at) => noise(ctx, { at, length: 0.06, type: "highpass", frequency: [2400], gain: 0.3 }),
  refuse: (ctx, at) => {
    tone(ctx, { at, frequency: 196, length: 0.09, type: "triangle", gain: 0.18 });
    tone(ctx, { at: at + 0.1, frequency: 165, length: 0.12, type: "triangle", gain: 0.18 });
  },
  win: (ctx, at) => {
    [523.25, 659.25, 783.99, 1046.5].forEach((frequency, k) =>
      tone(ctx, { at: at + k * 0.11, frequency, length: 0.35, type: "triangle", gain: 0.16 }));
  },
};

/** Play the sound `name` (pick, place, flip, draw, refuse, win), unless muted. */
export function play(name) {
  calls.push({ name, muted });
  if (calls.length > LIMIT) calls.splice(0, calls.length - LIMIT);
  if (muted || !SOUNDS[name]) return;
  if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
  try {
    const ctx = audio();
    if (!ctx) return;
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
    SOUNDS[name](ctx, ctx.currentTime + 0.005);
  } catch (_) { /* no audio here: silence */ }
}
