// What ending or leaving a staked Euchre or Contract Whist game costs, said before the player
// confirms it: the side that cuts a game short forfeits its stakes (docs/rules/euchre.md §12.5,
// docs/rules/contract-whist.md §8.4). Texts come from the view alone.

import { html, useEffect, useRef } from '../vendor/htm-preact-3.1.1.module.js';
import { cents } from './state.js';

const OVER = ['lobby', 'ended', 'closed'];

function staked(view, me) {
  const stake = view.config ? view.config.stake || 0 : 0;
  return stake > 0 && me !== null && me !== undefined && !OVER.includes(view.phase) ? stake : 0;
}

function isPerson(seat) {
  return Boolean(seat.player) && !seat.player.bot;
}

/** Leaving is the last person leaving: the game ends (rules: the table closes). */
function lastPerson(view, me) {
  return !view.seats.some((s) => s.seat !== me && isPerson(s) && !s.leaving);
}

/** What leaving now costs, or '' when it costs nothing (no stake, no game under way). */
export function leaveCost(view, me) {
  const stake = staked(view, me);
  if (!stake) return '';
  const euchre = view.game === 'euchre';
  if (!lastPerson(view, me)) {
    return euchre
      ? `Leaving forfeits your stake of ${cents(stake)}: it stays in the pot, and whoever takes your seat plays on for your partner.`
      : `Leaving forfeits your stake of ${cents(stake)}: it stays in the pot.`;
  }
  return euchre
    ? `Leaving ends the game, and your side forfeits it whatever the score: you and your partner lose your stakes (${cents(stake)} each) and the other side takes the pot of ${cents(view.pot)}.`
    : `Leaving ends the game, and you forfeit it whatever the totals: you lose your stake of ${cents(stake)} and the other players share the pot of ${cents(view.pot)}.`;
}

/** What the host's ending the game now costs, or '' when it costs nothing. */
export function endCost(view, me) {
  const stake = staked(view, me);
  if (!stake) return '';
  return view.game === 'euchre'
    ? `Ending the game now forfeits it, whatever the score: you and your partner lose your stakes (${cents(stake)} each) and the other side takes the pot of ${cents(view.pot)}.`
    : `Ending the game now forfeits it, whatever the totals: you lose your stake of ${cents(stake)} and the other players share the pot of ${cents(view.pot)}.`;
}

/** Who forfeited a game cut short, once it has ended; '' otherwise. */
export function forfeitText(view, me) {
  const seats = view.forfeited || [];
  if (!seats.length) return '';
  const names = seats.map((seat) => (seat === me ? 'you' : (view.seats[seat].player || {}).name || `seat ${seat + 1}`));
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0];
  return `Ended early: ${list} forfeited ${seats.length > 1 ? 'their stakes' : 'the stake'} to the others.`;
}

/** The question before a costly leave or end: the cost, then confirm or keep playing (the
 * focused default). */
export function ConfirmCost({ id, text, confirmLabel, onConfirm, onCancel }) {
  const keep = useRef(null);
  useEffect(() => {
    if (keep.current) keep.current.focus();
  }, [text]);
  const key = (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    }
  };
  return html`<div class="panel confirm-cost" role="alertdialog" aria-labelledby=${`${id}-title`} aria-describedby=${`${id}-text`} onKeyDown=${key}>
    <h3 id=${`${id}-title`}>${confirmLabel}?</h3>
    <p id=${`${id}-text`}>${text}</p>
    <div class="row">
      <button type="button" onClick=${onConfirm}>${confirmLabel}</button>
      <button type="button" class="primary" ref=${keep} onClick=${onCancel}>Keep playing</button>
    </div>
  </div>`;
}
