// Short WebAudio cues (no sound files): your turn, a card played, a trick or pot won, going set,
// a deal, your time running out. Muted with the header's toggle or the M key; the choice is
// remembered. Browsers allow sound (and vibration) only once the person has touched the page:
// before that nothing is attempted, so nothing is refused with a console warning.

const KEY = 'swick.muted';
let context = null;
let muted = localStorage.getItem(KEY) === '1';
const listeners = new Set();

export const isMuted = () => muted;

export function setMuted(value) {
  muted = Boolean(value);
  localStorage.setItem(KEY, muted ? '1' : '0');
  for (const listener of listeners) listener(muted);
}

export function onMuteChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the person has touched or typed on the page yet (browsers without the API: yes). */
const activated = () => !globalThis.navigator || !navigator.userActivation || navigator.userActivation.hasBeenActive;

function audio() {
  if (context === null) {
    if (!activated()) return null;
    const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === 'suspended') context.resume().catch(() => {});
  return context;
}

function tone(ctx, { freq, start = 0, length = 0.12, type = 'sine', volume = 0.12, slide = 0 }) {
  const t0 = ctx.currentTime + start;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (slide) osc.frequency.exponentialRampToValueAtTime(freq * slide, t0 + length);
  gain.gain.setValueAtTime(0.0001, t0);
  gain.gain.exponentialRampToValueAtTime(volume, t0 + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(t0);
  osc.stop(t0 + length + 0.02);
}

const CUES = {
  turn: [
    { freq: 660, length: 0.12 },
    { freq: 880, start: 0.13, length: 0.16 },
  ],
  card: [{ freq: 220, length: 0.06, type: 'triangle', volume: 0.1, slide: 0.6 }],
  deal: [0, 0.07, 0.14].map((start) => ({ freq: 300, start, length: 0.05, type: 'triangle', volume: 0.06 })),
  win: [523, 659, 784, 1047].map((freq, k) => ({ freq, start: k * 0.09, length: 0.18, volume: 0.1 })),
  set: [
    { freq: 392, length: 0.2, type: 'sawtooth', volume: 0.05 },
    { freq: 262, start: 0.18, length: 0.3, type: 'sawtooth', volume: 0.05 },
  ],
  warning: [0, 0.16, 0.32].map((start) => ({ freq: 988, start, length: 0.07, type: 'square', volume: 0.05 })),
};

/** A short vibration on devices that have one, unless muted. */
export function buzz(ms) {
  if (muted || !activated() || typeof navigator.vibrate !== 'function') return;
  navigator.vibrate(ms);
}

export function play(cue) {
  if (muted || !CUES[cue]) return;
  const ctx = audio();
  if (!ctx) return;
  for (const note of CUES[cue]) tone(ctx, note);
}

/** Browsers start audio only after a gesture: unlock it on the first one. */
export function unlockOnGesture() {
  const unlock = () => {
    if (!muted) audio();
    window.removeEventListener('pointerdown', unlock);
    window.removeEventListener('keydown', unlock);
  };
  window.addEventListener('pointerdown', unlock);
  window.addEventListener('keydown', unlock);
}
