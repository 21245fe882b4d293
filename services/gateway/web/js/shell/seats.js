// The table's seats, the same for every game: an empty seat's bot of a chosen level; on a plaque
// table (Euchre, Contract Whist) a seat's name, its face-down cards and an empty seat's offers.

import { html, useState } from '../../vendor/htm-preact-3.1.1.module.js';
import { BotIcon, CardBack, Countdown } from '../ui.js';

export const LEVELS = ['easy', 'medium', 'hard'];

/** An empty seat's "Add bot", with the bot's level; `id` prefixes the level's field. */
export function AddBot({ seat, onAdd, id }) {
  const [level, setLevel] = useState('medium');
  return html`<span class="add-bot">
    <label class="visually-hidden" for=${`${id}-${seat}`}>Bot level for seat ${seat + 1}</label>
    <select id=${`${id}-${seat}`} value=${level} onChange=${(e) => setLevel(e.target.value)}>
      ${LEVELS.map((l) => html`<option value=${l}>${l}</option>`)}
    </select>
    <button type="button" class="small" onClick=${() => onAdd(seat, level)}>Add bot</button>
  </span>`;
}

/** A seat's name on its plate, a bot marked as one. */
export function PlateName({ seat }) {
  const bot = seat.bot ? `${seat.name} is a bot (${seat.bot})` : '';
  return html`<span class="eu-name">
    ${bot ? html`<span class="eu-bot" title=${bot} data-tip=${bot}><${BotIcon} /><span class="bot-badge">Bot</span></span>` : null}
    <span class="eu-name-text">${seat.isMe ? `${seat.name} (you)` : seat.name}</span>
  </span>`;
}

/** Below a seat's tags: its countdown while another acts, or what an empty seat offers. */
export function PlateFoot({ seat, model, fallbackMs, onJoin, onAddBot }) {
  return html`${seat.acting && !seat.isMe && model.remaining !== null ? html`<${Countdown} left=${model.remaining} total=${model.timerMs || fallbackMs} />` : null}
    ${seat.empty ? html`<span class="eu-empty">Empty seat</span>` : null}
    ${seat.empty && onJoin ? html`<button type="button" class="small primary" onClick=${() => onJoin(seat.seat)}>Sit here</button>` : null}
    ${seat.empty && onAddBot ? html`<${AddBot} seat=${seat.seat} onAdd=${onAddBot} id="eu-seat-bot" />` : null}`;
}

/** Another seat's face-down cards (at most `most` drawn). */
export function HeldBacks({ seat, className = 'eu-backs', most = 13 }) {
  return html`<span class=${className} aria-label=${`${seat.name} holds ${seat.cards} card${seat.cards === 1 ? '' : 's'}`} role="img">${Array.from(
    { length: Math.min(seat.cards, most) },
    (_, k) => html`<span class="eu-back" data-motion="back" style=${`--k:${k}`}><${CardBack} size="xs" /></span>`,
  )}</span>`;
}
