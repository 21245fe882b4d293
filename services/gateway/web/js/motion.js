// Table motion: the deal, cards flying to the trick, the trick sliding to its winner, chips going
// into and out of the pot. Every animation is decoration over what the server says is so: the
// elements are already where the current view puts them, and an animation only plays them in
// from where they came (Web Animations, at most 400 ms each, never blocking a click).
// Nothing moves when the system asks for reduced motion.

import { useLayoutEffect, useRef } from '../vendor/htm-preact-3.1.1.module.js';

export const MAX_MS = 400;
const DEAL_MS = 320;
const DEAL_STAGGER = 45;
const PLAY_MS = 300;
const GATHER_MS = 380;
const CHIP_MS = 400;

export function reducedMotion() {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function centreOf(element) {
  if (!element) return null;
  const box = element.getBoundingClientRect();
  if (!box.width && !box.height) return null;
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}

/** Play `element` in from the point `from` (viewport coordinates) to where it stands now. */
function flyIn(element, from, { duration, delay = 0, scale = 0.6, easing = 'cubic-bezier(.2,.7,.3,1)' }) {
  const to = centreOf(element);
  if (!to || !from || typeof element.animate !== 'function') return null;
  const dx = from.x - to.x;
  const dy = from.y - to.y;
  return element.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.2 },
      { transform: 'translate(0, 0) scale(1)', opacity: 1 },
    ],
    { duration: Math.min(duration, MAX_MS), delay, easing, fill: 'backwards' },
  );
}

/** Chips as little discs flying from one point to another, then gone. */
function flyChips(from, to, count, red = false) {
  if (!from || !to) return;
  for (let k = 0; k < count; k++) {
    const chip = document.createElement('span');
    chip.className = `flying-chip${red ? ' red' : ''}`;
    chip.setAttribute('aria-hidden', 'true');
    chip.style.left = `${from.x - 9}px`;
    chip.style.top = `${from.y - 5}px`;
    document.body.appendChild(chip);
    const spread = (k - (count - 1) / 2) * 6;
    const animation = chip.animate(
      [
        { transform: `translate(${spread}px, 0)`, opacity: 1 },
        { transform: `translate(${to.x - from.x}px, ${to.y - from.y}px)`, opacity: 0.85 },
      ],
      { duration: CHIP_MS, delay: k * 40, easing: 'cubic-bezier(.3,.6,.3,1)', fill: 'both' },
    );
    const done = () => chip.remove();
    animation.onfinish = done;
    animation.oncancel = done;
  }
}

function snapshot(model, flash) {
  const onFelt = model.trick.length ? model.trick : flash ? flash.cards : [];
  return {
    handNo: model.handNo,
    hand: new Set(model.hand.filter((c) => !c.hidden).map((c) => c.code)),
    hidden: model.hand.filter((c) => c.hidden).length,
    held: new Map(model.seats.map((s) => [s.seat, s.cards || 0])),
    trick: new Set(onFelt.map(({ seat, code }) => `${seat}:${code}`)),
    flash,
    stacks: new Map(model.seats.filter((s) => !s.empty).map((s) => [s.seat, s.stack])),
    pot: model.pot,
  };
}

/**
 * Animate the table page's changes from one render to the next. `model` is the derived view
 * (or null), `flash` the finished trick on show, `root` a ref to the page's main element.
 */
export function useTableMotion(model, flash, root) {
  const last = useRef(null);
  const gathering = useRef([]);
  useLayoutEffect(() => {
    if (!model || !root.current) {
      last.current = null;
      return;
    }
    const before = last.current;
    const now = snapshot(model, flash);
    last.current = now;
    if (!before || reducedMotion()) return; // the first sight of a table plays nothing
    const page = root.current;
    const seatAt = (seat) => centreOf(page.querySelector(`.seat[data-seat="${seat}"] .plate`));
    const deck =
      centreOf(page.querySelector('.stock-pile')) ||
      centreOf(page.querySelector('.centre-hub')) ||
      centreOf(page.querySelector('.felt'));

    // The deal (and the draw): cards new to the hand come from the deck, one after another.
    let k = 0;
    page.querySelectorAll('.hand .hand-card').forEach((button) => {
      const code = button.getAttribute('data-card');
      const fresh = code ? !before.hand.has(code) : now.hidden > before.hidden || now.handNo !== before.handNo;
      if (!fresh) return;
      // The card inside moves, not the button: its place and its hit area stay the view's.
      flyIn(button.querySelector('.card') || button, deck, { duration: DEAL_MS, delay: Math.min(k, 8) * DEAL_STAGGER, scale: 0.5 });
      k += 1;
    });
    // The others' face-down cards, dealt to their seats.
    for (const [seat, count] of now.held) {
      const had = now.handNo === before.handNo ? before.held.get(seat) || 0 : 0;
      if (count <= had) continue;
      const backs = page.querySelectorAll(`.seat[data-seat="${seat}"] .held-card`);
      backs.forEach((back, index) => {
        if (index >= had) flyIn(back.querySelector('.card') || back, deck, { duration: DEAL_MS, delay: Math.min(index, 8) * DEAL_STAGGER, scale: 0.8 });
      });
    }

    // A card played flies from its player's seat to its place in the trick.
    page.querySelectorAll('.play-area .trick-card').forEach((item) => {
      const seat = item.getAttribute('data-seat');
      const card = item.querySelector('.shown-card');
      const face = item.querySelector('.card[data-code]');
      if (!card || !face || before.trick.has(`${seat}:${face.getAttribute('data-code')}`)) return;
      flyIn(card, seatAt(seat), { duration: PLAY_MS, scale: 0.7 });
    });

    // A finished trick slides to its winner just before it is gathered.
    if (gathering.current.length && (flash !== before.flash || model.trick.length)) {
      gathering.current.forEach((animation) => animation.cancel());
      gathering.current = [];
    }
    if (flash && flash !== before.flash && !model.trick.length) {
      const to = seatAt(flash.winner);
      const wait = Math.max(0, flash.until - Date.now() - GATHER_MS - 60);
      page.querySelectorAll('.play-area .trick-card').forEach((item) => {
        const from = centreOf(item);
        if (!from || !to || typeof item.animate !== 'function') return;
        gathering.current.push(
          item.animate(
            [
              { translate: '0px 0px', scale: '1', opacity: 1 },
              { translate: `${to.x - from.x}px ${to.y - from.y}px`, scale: '0.45', opacity: 0.3 },
            ],
            { duration: GATHER_MS, delay: wait, easing: 'cubic-bezier(.5,0,.7,.4)', fill: 'forwards' },
          ),
        );
      });
    }

    // Chips: a seat's stack going down went into the pot, a stack going up came out of it.
    const pot = centreOf(page.querySelector('.money-area .chips'));
    if (!pot) return;
    for (const [seat, stack] of now.stacks) {
      const had = before.stacks.get(seat);
      if (had === undefined || had === stack) continue;
      const at = seatAt(seat);
      const count = Math.max(1, Math.min(4, Math.ceil(Math.log2(Math.abs(stack - had) + 1) / 2)));
      if (stack < had) flyChips(at, pot, count);
      else flyChips(pot, at, count);
    }
  });
}
