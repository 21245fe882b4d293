// The head of a table, the same for every game: the fair-deal pill (the seed's fingerprint,
// revealed when the game ends) and, on a plaque table, the last trick on demand.

import { html, useState } from '../../vendor/htm-preact-3.1.1.module.js';
import { ShownCard } from '../ui.js';
import { trickCardTip, whoIs } from './words.js';

/** The seed's fingerprint, once a game is dealt; `icon`: the shield before the words. */
export function FairPill({ model, icon = null, focusable = true }) {
  if (!model.fingerprint || model.phase === 'lobby') return null;
  return html`<span
    class="fair-pill"
    tabindex=${focusable ? '0' : undefined}
    title=${`Provably fair: the seed of game ${model.gameNo} has SHA-256 fingerprint ${model.fingerprint}. It is revealed when the game ends.`}
    data-tip=${`Seed fingerprint ${model.fingerprint}: the seed is revealed when the game ends, so every deal can be checked.`}
  >${icon}${icon ? ' ' : ''}Fair deal <code>${model.fingerprint.slice(0, 8)}</code></span>`;
}

/** The last finished trick of a `unit` (hand, round), on demand, each card by its player's name
 * (of `seats`, the table's); Escape closes it. */
export function LastTrick({ last, seats, unit = 'hand' }) {
  const [open, setOpen] = useState(false);
  if (!last) return null;
  const key = (event) => {
    if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
    }
  };
  return html`<span class="eu-last" onKeyDown=${key}>
    <button type="button" class="small" aria-expanded=${open ? 'true' : 'false'} onClick=${() => setOpen(!open)}>Last trick</button>
    ${open
      ? html`<div class="eu-last-pop panel" role="group" aria-label=${`Trick ${last.number} of ${unit} ${last.handNo ?? last.roundNo}`}>
          <ol class="eu-last-cards">
            ${last.cards.map((c) => html`<li class=${c.winning ? 'winning' : ''}>
              <span class="muted small">${whoIs(seats[c.seat])}</span>
              <${ShownCard} code=${c.code} size="sm" tip=${trickCardTip(c, seats[c.seat], true)} />
            </li>`)}
          </ol>
        </div>`
      : null}
  </span>`;
}
