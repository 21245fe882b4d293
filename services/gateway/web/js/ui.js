// Shared pieces of the interface: cards drawn as SVG (pips and court portraits), chips, the countdown,
// and long-press explanations for touch screens.

import { html, useEffect, useState } from '../vendor/htm-preact-3.1.1.module.js';
import { isFace, isRed, label, rankText, spoken, suitIndex } from './cards.js';
import { cents } from './state.js';

const SUIT_SHAPES = [
  // clubs
  html`<circle cx="50" cy="28" r="20" /><circle cx="26" cy="60" r="20" /><circle cx="74" cy="60" r="20" /><path d="M44 52 L56 52 C56 74 62 88 72 96 L28 96 C38 88 44 74 44 52 Z" />`,
  // diamonds
  html`<path d="M50 3 L90 50 L50 97 L10 50 Z" />`,
  // hearts
  html`<path d="M50 92 C22 68 4 50 4 30 C4 15 15 5 29 5 C39 5 46 11 50 19 C54 11 61 5 71 5 C85 5 96 15 96 30 C96 50 78 68 50 92 Z" />`,
  // spades
  html`<path d="M50 4 C38 24 6 40 6 62 C6 76 17 85 30 85 C38 85 44 81 47 76 C46 85 41 92 32 96 L68 96 C59 92 54 85 53 76 C56 81 62 85 70 85 C83 85 94 76 94 62 C94 40 62 24 50 4 Z" />`,
];

export function SuitIcon({ suit, className = '' }) {
  return html`<svg class=${`suit ${className}`} viewBox="0 0 100 100" aria-hidden="true" focusable="false">
    ${SUIT_SHAPES[suit]}
  </svg>`;
}

// The centre of a face card is drawn in a 60 x 116 box: pips in the classic arrangement, the
// lower half's pips turned upside down, as on a printed deck.
const COLS = [13, 30, 47];
const PIP_LAYOUTS = {
  2: [[1, 10], [1, 106]],
  3: [[1, 10], [1, 58], [1, 106]],
  4: [[0, 10], [2, 10], [0, 106], [2, 106]],
  5: [[0, 10], [2, 10], [1, 58], [0, 106], [2, 106]],
  6: [[0, 10], [2, 10], [0, 58], [2, 58], [0, 106], [2, 106]],
  7: [[0, 10], [2, 10], [1, 34], [0, 58], [2, 58], [0, 106], [2, 106]],
  8: [[0, 10], [2, 10], [1, 34], [0, 58], [2, 58], [1, 82], [0, 106], [2, 106]],
  9: [[0, 10], [2, 10], [0, 42], [2, 42], [1, 58], [0, 74], [2, 74], [0, 106], [2, 106]],
  10: [[0, 10], [2, 10], [1, 26], [0, 42], [2, 42], [0, 74], [2, 74], [1, 90], [0, 106], [2, 106]],
};

function Pip({ suit, x, y, size, flip }) {
  const half = size / 2;
  return html`<g class="pip" transform=${`translate(${x} ${y})${flip ? ' rotate(180)' : ''} translate(${-half} ${-half}) scale(${size / 100})`}>
    ${SUIT_SHAPES[suit]}
  </g>`;
}

function Pips({ suit, rank }) {
  if (rank === 'A') {
    return html`<svg class="card-art pips ace" viewBox="0 0 60 116" aria-hidden="true" focusable="false">
      <${Pip} suit=${suit} x=${30} y=${58} size=${46} flip=${false} />
      <circle class="ace-ring" cx="30" cy="58" r="28" />
    </svg>`;
  }
  return html`<svg class="card-art pips" viewBox="0 0 60 116" aria-hidden="true" focusable="false">
    ${PIP_LAYOUTS[rank].map(([col, y]) => html`<${Pip} suit=${suit} x=${COLS[col]} y=${y} size=${18} flip=${y > 58} />`)}
  </svg>`;
}

// Court cards: a double-ended portrait (jack, queen, king) in the deck's red, blue and gold.
const INK = '#1d1d1d';
const GOLD = '#e2a72e';
const SKIN = '#f6d7b0';
const RED = '#c62f36';
const BLUE = '#2c4f9e';

function Headwear({ rank }) {
  if (rank === 'K') {
    return html`<path d="M17 19 L17 8 L22 13 L26 5 L30 12 L34 5 L38 13 L43 8 L43 19 Z" fill=${GOLD} stroke=${INK} stroke-width="0.8" />
      <circle cx="30" cy="15" r="1.6" fill=${RED} />`;
  }
  if (rank === 'Q') {
    return html`<path d="M19 19 L21 10 L25 15 L30 8 L35 15 L39 10 L41 19 Z" fill=${GOLD} stroke=${INK} stroke-width="0.8" />
      <circle cx="30" cy="8" r="1.6" fill=${BLUE} />`;
  }
  return html`<path d="M17 19 C18 11 24 8 31 8 C37 8 42 12 43 19 Z" fill=${RED} stroke=${INK} stroke-width="0.8" />
    <path d="M38 11 C44 4 50 4 53 2 C50 8 45 11 40 13" fill=${GOLD} stroke=${INK} stroke-width="0.6" />`;
}

function CourtHalf({ rank, suit, robe, trim }) {
  const beard = rank === 'K'
    ? html`<path d="M24 28 C25 36 35 36 36 28 C34 31 26 31 24 28 Z" fill="#8a5a2b" stroke=${INK} stroke-width="0.5" />`
    : null;
  const hair = rank === 'Q'
    ? html`<path d="M20 19 C17 28 18 38 16 44 L22 40 L24 22 Z M40 19 C43 28 42 38 44 44 L38 40 L36 22 Z" fill="#c9962e" stroke=${INK} stroke-width="0.5" />`
    : html`<path d="M21 19 C20 24 21 27 23 29 L24 21 Z M39 19 C40 24 39 27 37 29 L36 21 Z" fill="#6b4423" />`;
  // What each holds: the king a sword, the queen a flower, the jack a halberd.
  const held = rank === 'K'
    ? html`<path d="M46 56 L46 24 L48 21 L50 24 L50 56 Z" fill="#dfe4ea" stroke=${INK} stroke-width="0.6" /><rect x="43" y="50" width="10" height="2.4" fill=${GOLD} stroke=${INK} stroke-width="0.5" />`
    : rank === 'Q'
      ? html`<path d="M12 56 L14 34" stroke="#2f7d3b" stroke-width="1.4" /><circle cx="14" cy="31" r="4" fill=${RED} stroke=${INK} stroke-width="0.5" /><circle cx="14" cy="31" r="1.5" fill=${GOLD} />`
      : html`<path d="M48 58 L48 20" stroke="#7a5230" stroke-width="1.6" /><path d="M48 20 L44 26 L48 30 L53 25 Z" fill="#dfe4ea" stroke=${INK} stroke-width="0.6" />`;
  return html`<g>
    ${hair}
    <ellipse cx="30" cy="26" rx="7" ry="8.5" fill=${SKIN} stroke=${INK} stroke-width="0.7" />
    <circle cx="27.3" cy="25" r="0.9" fill=${INK} /><circle cx="32.7" cy="25" r="0.9" fill=${INK} />
    <path d="M28 30.5 Q30 31.8 32 30.5" stroke=${INK} stroke-width="0.6" fill="none" />
    ${beard}
    <${Headwear} rank=${rank} />
    <path d="M10 58 L13 42 C16 37 22 35 26 35 L30 40 L34 35 C38 35 44 37 47 42 L50 58 Z" fill=${robe} stroke=${INK} stroke-width="0.8" />
    <path d="M26 35 L30 58 L34 35 L30 40 Z" fill=${trim} stroke=${INK} stroke-width="0.6" />
    <path d="M13 48 L47 48" stroke=${GOLD} stroke-width="2" />
    ${held}
    <g transform="translate(15 39) scale(0.09)" class="court-pip">${SUIT_SHAPES[suit]}</g>
  </g>`;
}

function Court({ suit, rank }) {
  const red = suit === 1 || suit === 2;
  const robe = red ? BLUE : RED;
  const trim = red ? RED : BLUE;
  return html`<svg class="card-art court-art" viewBox="0 0 60 116" aria-hidden="true" focusable="false">
    <rect x="1" y="1" width="58" height="114" rx="3" fill="#fbf6e6" stroke="currentColor" stroke-width="1.2" />
    <${CourtHalf} rank=${rank} suit=${suit} robe=${robe} trim=${trim} />
    <g transform="rotate(180 30 58)"><${CourtHalf} rank=${rank} suit=${suit} robe=${robe} trim=${trim} /></g>
    <path d="M4 58 L56 58" stroke="currentColor" stroke-width="0.8" />
  </svg>`;
}

/** The face of a card (a code such as "KS"); `size` is "lg", "md", "sm" or "xs". */
export function CardFace({ code, size = 'md', kept = false }) {
  const suit = suitIndex(code);
  const rank = rankText(code);
  const court = isFace(code) && rank !== 'A'; // J Q K get a portrait, an ace its big pip
  return html`<span class=${`card face ${size} ${isRed(code) ? 'red' : 'black'} ${court ? 'court' : ''}`} data-rank=${rank} data-code=${code}>
    <span class="corner tl"><span class="rank">${rank}</span><${SuitIcon} suit=${suit} /></span>
    <span class="centre">
      ${court ? html`<${Court} suit=${suit} rank=${rank} />` : html`<${Pips} suit=${suit} rank=${rank} />`}
    </span>
    <span class="corner br"><span class="rank">${rank}</span><${SuitIcon} suit=${suit} /></span>
    ${kept ? html`<span class="kept-mark" aria-hidden="true">Kept</span>` : null}
  </span>`;
}

/** A small robot face for bot seats (no emoji font needed). */
export function BotIcon() {
  return html`<svg class="bot-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d="M12 2v3" stroke="currentColor" stroke-width="2" stroke-linecap="round" />
    <circle cx="12" cy="2.5" r="1.5" fill="currentColor" />
    <rect x="4" y="6" width="16" height="13" rx="4" fill="currentColor" />
    <circle cx="9" cy="12" r="2" fill="#1b2b4a" />
    <circle cx="15" cy="12" r="2" fill="#1b2b4a" />
    <rect x="8.5" y="15.5" width="7" height="1.6" rx="0.8" fill="#1b2b4a" />
    <rect x="1.5" y="10" width="2.5" height="5" rx="1" fill="currentColor" />
    <rect x="20" y="10" width="2.5" height="5" rx="1" fill="currentColor" />
  </svg>`;
}

export function CardBack({ size = 'md' }) {
  return html`<span class=${`card back ${size}`} aria-hidden="true"><span class="back-inner"></span></span>`;
}

/** A card shown for information only (trick, trump, results), with its name for assistive tech. */
export function ShownCard({ code, size = 'md', tip = '', kept = false }) {
  return html`<span class="shown-card" role="img" aria-label=${spoken(code)} title=${tip || label(code)} data-tip=${tip || spoken(code)}>
    <${CardFace} code=${code} size=${size} kept=${kept} />
  </span>`;
}

/** A little stack of chips with the amount. */
export function Chips({ amount, label: text, tip, tone = 'gold' }) {
  const count = Math.max(1, Math.min(5, Math.ceil(Math.log2(Math.max(2, amount)) / 2)));
  return html`<span class=${`chips ${tone}`} title=${tip} data-tip=${tip}>
    <span class="chip-stack" aria-hidden="true">
      ${Array.from({ length: count }, (_, k) => html`<span class="chip" style=${`--k:${k}`}></span>`)}
    </span>
    <span class="chip-text"><span class="chip-label">${text}</span> <strong>${cents(amount)}</strong></span>
  </span>`;
}

/** Re-render every `ms` while `active` (for countdowns). */
export function useTicker(active, ms = 250) {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setTick((t) => t + 1), ms);
    return () => clearInterval(timer);
  }, [active, ms]);
}

/** What went wrong, said at once to a screen reader and shown (the element `id`, when given);
 * nothing while all is well. */
export function ErrorText({ text, id }) {
  return text ? html`<p class="error" id=${id} role="alert">${text}</p>` : null;
}

/** What a part of a page does, one thing at a time: `run(act)` runs `act`, `busy` meanwhile;
 * `error` is what went wrong (in `wording`'s words: the error's message unless told), cleared
 * by the next run. */
export function useAction(wording = (e) => e.message) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const run = async (act) => {
    setBusy(true);
    setError('');
    try {
      await act();
    } catch (e) {
      setError(wording(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

/** The name typed in a name field, trimmed: '' when there is none, having said so with
 * `setError`. */
export function nameTyped(name, setError) {
  const clean = name.trim();
  if (!clean) setError('Type a name first');
  return clean;
}

/** A ring that empties as the deadline approaches, with the seconds left; red in a decision's
 * last seconds, never for a pause (`pause`: the result between hands), which nobody misses. */
export function Countdown({ left, total, small = false, pause = false }) {
  if (left === null || left === undefined) return null;
  const fraction = total ? Math.max(0, Math.min(1, left / total)) : 1;
  const seconds = Math.ceil(left / 1000);
  const urgent = seconds <= 5 && !pause;
  return html`<span
    class=${`countdown ${urgent ? 'urgent' : ''} ${small ? 'small' : ''}`}
    style=${`--f:${fraction}`}
    role="timer"
    aria-label=${`${seconds} seconds left`}
    title=${pause ? `${seconds} seconds before the next hand` : `${seconds} seconds left to decide`}
  >
    <span class="countdown-text">${seconds}</span>
  </span>`;
}

const HOVER_MS = 400; // a mouse resting this long on something with a tip shows it

/**
 * Explanations of anything with `data-tip`, the same bubble however it is asked for: holding a
 * finger on it (a long press) or resting the mouse on it. While
 * the bubble shows, the element's `title` is set aside, so the browser's own tooltip does not
 * show the same words a second time.
 */
export function TipLayer() {
  const [tip, setTip] = useState(null);
  useEffect(() => {
    let timer = null;
    let start = null;
    let swallow = false;
    let shown = null; // the element whose tip shows, and the title set aside: [element, title]
    const show = (target) => {
      const box = target.getBoundingClientRect();
      const title = target.getAttribute('title');
      if (title !== null) target.removeAttribute('title');
      shown = [target, title];
      setTip({ text: target.getAttribute('data-tip'), x: box.left + box.width / 2, y: box.top });
    };
    const hide = () => {
      clearTimeout(timer);
      if (shown) {
        const [target, title] = shown;
        if (title !== null && !target.hasAttribute('title')) target.setAttribute('title', title);
        shown = null;
      }
      setTip(null);
    };
    const over = (event) => {
      if (event.pointerType !== 'mouse') return;
      const target = event.target.closest && event.target.closest('[data-tip]');
      if (shown && target === shown[0]) return;
      hide();
      if (target) timer = setTimeout(() => target.isConnected && show(target), HOVER_MS);
    };
    const out = (event) => {
      if (event.pointerType !== 'mouse') return;
      const from = event.target.closest && event.target.closest('[data-tip]');
      const to = event.relatedTarget && event.relatedTarget.closest && event.relatedTarget.closest('[data-tip]');
      if (from && from !== to) hide();
    };
    const down = (event) => {
      if (event.pointerType === 'mouse') return;
      const target = event.target.closest && event.target.closest('[data-tip]');
      if (!target) return;
      start = [event.clientX, event.clientY];
      clearTimeout(timer);
      timer = setTimeout(() => {
        show(target);
        swallow = true;
      }, 500);
    };
    const cancel = (event) => {
      if (event.pointerType === 'mouse') return; // a resting mouse is the hover's, above
      if (event.type === 'pointermove' && start) {
        const moved = Math.hypot(event.clientX - start[0], event.clientY - start[1]);
        if (moved < 10) return;
      }
      clearTimeout(timer);
    };
    const click = (event) => {
      if (swallow) {
        event.preventDefault();
        event.stopPropagation();
        swallow = false;
      }
      hide();
    };
    window.addEventListener('pointerover', over, true);
    window.addEventListener('pointerout', out, true);
    window.addEventListener('pointerdown', down, true);
    window.addEventListener('pointerup', cancel, true);
    window.addEventListener('pointercancel', cancel, true);
    window.addEventListener('pointermove', cancel, true);
    window.addEventListener('click', click, true);
    window.addEventListener('contextmenu', (event) => {
      if (swallow) event.preventDefault();
    });
    return () => {
      window.removeEventListener('pointerover', over, true);
      window.removeEventListener('pointerout', out, true);
      window.removeEventListener('pointerdown', down, true);
      window.removeEventListener('pointerup', cancel, true);
      window.removeEventListener('pointercancel', cancel, true);
      window.removeEventListener('pointermove', cancel, true);
      window.removeEventListener('click', click, true);
    };
  }, []);
  if (!tip) return null;
  const x = Math.max(12, Math.min(window.innerWidth - 12, tip.x));
  return html`<div class="tip-bubble" role="tooltip" style=${`left:${x}px;top:${Math.max(8, tip.y - 8)}px`}>
    ${tip.text}
  </div>`;
}
