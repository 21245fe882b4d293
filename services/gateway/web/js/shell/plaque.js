// The plaque above a plaque table (Euchre, Contract Whist): what you decide now, with its timer,
// or whom the table waits for; and the hand's cards lifted, then played, from it.

import { html } from '../../vendor/htm-preact-3.1.1.module.js';
import { label } from '../cards.js';
import { Countdown } from '../ui.js';

/** The decision's countdown, on your turn and between hands. */
export function plaqueTimer(model, fallbackMs) {
  return model.remaining !== null && (model.myTurn || model.phase === 'interlude')
    ? html`<${Countdown} left=${model.remaining} total=${model.timerMs || fallbackMs} />`
    : null;
}

/** No decision of yours: whom the table waits for, and the host's start or a free seat. */
export function WaitingPlaque({ model, timer, startTitle, onStart, onJoin }) {
  const empty = model.seats.some((s) => s.empty);
  return html`<div class="plaque waiting" data-decision="none">
    ${timer}
    <p class="prompt">${model.spectator ? 'You are watching this table.' : model.waiting}</p>
    ${model.isHost && model.phase === 'lobby'
      ? html`<button type="button" class="primary" disabled=${empty} title=${startTitle(empty)} onClick=${onStart}>Start the game</button>`
      : null}
    ${model.spectator && model.canJoin.length ? html`<button type="button" class="primary" onClick=${() => onJoin(null)}>Take a seat</button>` : null}
  </div>`;
}

/** Your decision: its prompt and detail beside the timer, its buttons below. */
export function DecisionPlaque({ kind, className = '', timer, prompt, detail, detailClass = 'detail', children }) {
  return html`<div class=${`plaque ${className}`} role="group" aria-labelledby="plaque-prompt" data-decision=${kind}>
    <div class="plaque-text">
      ${timer}
      <div>
        <p id="plaque-prompt" class="prompt">${prompt}</p>
        ${detail ? html`<p class=${detailClass}>${detail}</p>` : null}
      </div>
    </div>
    <div class="plaque-buttons">${children}</div>
  </div>`;
}

/** What a tapped card does when the decision is one of `kinds`: a first tap lifts it, a second
 * plays (or discards) it; a card that may not go says why. Escape puts it back. */
export function cardPicker({ model, kinds, lifted, setLifted, act, showToast }) {
  const onCard = (card) => {
    const d = model.decision;
    if (!d || !kinds.includes(d.kind)) return;
    if (card.legal === false) {
      showToast(card.reason || 'That card cannot be played now', 'info');
      return;
    }
    if (card.legal !== true) return;
    if (lifted === card.code) act({ kind: d.kind, card: card.code });
    else setLifted(card.code);
  };
  const onHandKey = (event) => {
    if (event.key === 'Escape') setLifted(null);
  };
  return { onCard, onHandKey };
}

/** A lifted card's buttons: play (or discard) it, or put it back. */
export function LiftedButtons({ kind, lifted, model, act, onClear }) {
  const card = lifted ? model.hand.find((c) => c.code === lifted) : null;
  const verb = kind === 'discard' ? 'Discard' : 'Play';
  return html`<button type="button" class="primary" disabled=${!card || !card.legal} onClick=${() => card && act({ kind, card: card.code })}>${card ? `${verb} ${label(card.code)}` : verb}</button>
    ${card ? html`<button type="button" class="link" onClick=${onClear}>Put it back</button>` : null}`;
}

/** The detail under a card decision's prompt. */
export function liftDetail(lifted) {
  return lifted ? 'Tap the card again, or the button, to confirm.' : 'Tap a bright card to lift it.';
}
