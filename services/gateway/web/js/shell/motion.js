// Table motion, the same for every game: the deal, cards flying from their players to the trick,
// the trick gathered to its winner after a readable pause, chips going into and out of the pot,
// scores and pegs moving. Every animation is decoration over what the server says is so: the
// elements are already where the current view puts them, and an animation only plays them in
// from where they came (Web Animations, at most 400 ms each, never blocking a click).
// Nothing moves when the system asks for reduced motion.

import { useLayoutEffect, useRef } from '../../vendor/htm-preact-3.1.1.module.js';
import { gatherDelay, movesBetween } from './moves.js';

export const MAX_MS = 400;
const DEAL_MS = 320;
const DEAL_STAGGER = 45;
const PLAY_MS = 300;
const GATHER_MS = 380;
const CHIP_MS = 400;
const SCORE_MS = 360;
const PEG_MS = 300;

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

/** The first element with a box of those `selectors` name, as a point. */
function firstCentre(page, selectors) {
  for (const selector of selectors) {
    const at = centreOf(page.querySelector(selector));
    if (at) return at;
  }
  return null;
}

/** A score that changed swells and settles; pegs newly in their holes drop in, one by one. */
function popScore(page, { key, from, to }) {
  const score = page.querySelector(`[data-motion-score="${key}"]`);
  if (score && typeof score.animate === 'function') {
    score.animate([{ scale: '1.45' }, { scale: '1' }], { duration: SCORE_MS, easing: 'cubic-bezier(.3,.6,.3,1)' });
  }
  const pegs = page.querySelectorAll(`[data-motion-pegs="${key}"] [data-motion="peg"]`);
  for (let k = Math.max(0, from); k < Math.min(to, pegs.length); k++) {
    const peg = pegs[k];
    if (typeof peg.animate !== 'function') continue;
    peg.animate([{ scale: '0.2' }, { scale: '1' }], { duration: PEG_MS, delay: Math.min(k - from, 6) * 50, easing: 'cubic-bezier(.2,.7,.3,1)', fill: 'backwards' });
  }
}

/**
 * Animate a table page's changes from one render to the next, for every game. `sight` is what
 * the table holds now (shell/moves.js tableSight, or null before there is a table), `root` a
 * ref to the page's main element. The page marks what moves with data attributes:
 * `data-motion="hand"` on the hand (its `.hand-card`s, with `data-card`), `"plate"` and `"back"`
 * inside each seat's `[data-seat]`, `"trick"` round the trick's `[data-seat][data-card]` items
 * (their `.shown-card` flies), `"deck"`, `"centre"` and `"felt"` where the deal comes from,
 * `"pot"` round the pot's `.chips`, and `data-motion-score` / `data-motion-pegs` by score key.
 */
export function useTableMotion(sight, root) {
  const last = useRef(null);
  const gathering = useRef([]);
  useLayoutEffect(() => {
    if (!sight || !root.current) {
      last.current = null;
      return;
    }
    const moves = movesBetween(last.current, sight);
    last.current = sight;
    if (!moves || reducedMotion()) return; // the first sight of a table plays nothing
    const page = root.current;
    const seatAt = (seat) => centreOf(page.querySelector(`[data-seat="${seat}"] [data-motion="plate"]`));
    const deck = firstCentre(page, ['[data-motion="deck"]', '[data-motion="centre"]', '[data-motion="felt"]']);

    // The deal (and the draw): cards new to the hand come from the deck, one after another.
    let k = 0;
    page.querySelectorAll('[data-motion="hand"] .hand-card').forEach((button) => {
      if (!moves.dealt(button.getAttribute('data-card'))) return;
      // The card inside moves, not the button: its place and its hit area stay the view's.
      flyIn(button.querySelector('.card') || button, deck, { duration: DEAL_MS, delay: Math.min(k, 8) * DEAL_STAGGER, scale: 0.5 });
      k += 1;
    });
    // The others' face-down cards, dealt to their seats.
    for (const { seat, from } of moves.backs) {
      page.querySelectorAll(`[data-seat="${seat}"] [data-motion="back"]`).forEach((back, index) => {
        if (index >= from) flyIn(back.querySelector('.card') || back, deck, { duration: DEAL_MS, delay: Math.min(index, 8) * DEAL_STAGGER, scale: 0.8 });
      });
    }

    // A card played flies from its player's seat to its place in the trick.
    const played = new Set(moves.played);
    const trickItems = page.querySelectorAll('[data-motion="trick"] [data-seat][data-card]');
    trickItems.forEach((item) => {
      const seat = item.getAttribute('data-seat');
      const card = item.querySelector('.shown-card');
      if (card && played.has(`${seat}:${item.getAttribute('data-card')}`)) flyIn(card, seatAt(seat), { duration: PLAY_MS, scale: 0.7 });
    });

    // A finished trick rests where it was played long enough to read, then goes to its winner.
    if (gathering.current.length && moves.stopGather) {
      gathering.current.forEach((animation) => animation.cancel());
      gathering.current = [];
    }
    if (moves.gather) {
      const to = seatAt(moves.gather.winner);
      const wait = gatherDelay(moves.gather, Date.now(), GATHER_MS);
      trickItems.forEach((item) => {
        const from = centreOf(item);
        if (!from || !to || typeof item.animate !== 'function') return;
        // No fading on the way: a card half seen would be text of too little contrast.
        gathering.current.push(
          item.animate(
            [
              { translate: '0px 0px', scale: '1' },
              { translate: `${to.x - from.x}px ${to.y - from.y}px`, scale: '0.45' },
            ],
            { duration: GATHER_MS, delay: wait, easing: 'cubic-bezier(.5,0,.7,.4)', fill: 'forwards' },
          ),
        );
      });
    }

    moves.scores.forEach((change) => popScore(page, change));

    // Chips: a seat's stack going down went into the pot, a stack going up came out of it.
    const pot = centreOf(page.querySelector('[data-motion="pot"] .chips'));
    if (!pot) return;
    for (const { seat, count, into } of moves.chips) {
      const at = seatAt(seat);
      if (into) flyChips(at, pot, count);
      else flyChips(pot, at, count);
    }
  });
}
