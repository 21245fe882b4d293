// Shared pieces of the interface: cards drawn with SVG suits and CSS, chips, the countdown,
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

/** The face of a card (a code such as "KS"); `size` is "sm", "md" or "lg". */
export function CardFace({ code, size = 'md', kept = false }) {
  const suit = suitIndex(code);
  const rank = rankText(code);
  const face = isFace(code) && rankText(code) !== 'A'; // J Q K get a court panel, an ace its big pip
  return html`<span class=${`card face ${size} ${isRed(code) ? 'red' : 'black'} ${face ? 'court' : ''}`}>
    <span class="corner tl"><span class="rank">${rank}</span><${SuitIcon} suit=${suit} /></span>
    <span class="centre">
      ${face
        ? html`<span class="court-letter">${rank}</span><${SuitIcon} suit=${suit} className="court-suit" />`
        : html`<${SuitIcon} suit=${suit} className="pip" />`}
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

/** A ring that empties as the deadline approaches, with the seconds left. */
export function Countdown({ left, total, small = false }) {
  if (left === null || left === undefined) return null;
  const fraction = total ? Math.max(0, Math.min(1, left / total)) : 1;
  const seconds = Math.ceil(left / 1000);
  const urgent = seconds <= 5;
  return html`<span
    class=${`countdown ${urgent ? 'urgent' : ''} ${small ? 'small' : ''}`}
    style=${`--f:${fraction}`}
    role="timer"
    aria-label=${`${seconds} seconds left`}
    title=${`${seconds} seconds left to decide`}
  >
    <span class="countdown-text">${seconds}</span>
  </span>`;
}

/**
 * Long-press explanations: on a touch screen, holding a finger on anything with `data-tip`
 * shows its explanation (the same text a mouse pointer gets from `title`).
 */
export function TipLayer() {
  const [tip, setTip] = useState(null);
  useEffect(() => {
    let timer = null;
    let start = null;
    let swallow = false;
    const down = (event) => {
      if (event.pointerType === 'mouse') return;
      const target = event.target.closest && event.target.closest('[data-tip]');
      if (!target) return;
      start = [event.clientX, event.clientY];
      clearTimeout(timer);
      timer = setTimeout(() => {
        const box = target.getBoundingClientRect();
        setTip({ text: target.getAttribute('data-tip'), x: box.left + box.width / 2, y: box.top });
        swallow = true;
      }, 500);
    };
    const cancel = (event) => {
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
      setTip(null);
    };
    window.addEventListener('pointerdown', down, true);
    window.addEventListener('pointerup', cancel, true);
    window.addEventListener('pointercancel', cancel, true);
    window.addEventListener('pointermove', cancel, true);
    window.addEventListener('click', click, true);
    window.addEventListener('contextmenu', (event) => {
      if (swallow) event.preventDefault();
    });
    return () => {
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
