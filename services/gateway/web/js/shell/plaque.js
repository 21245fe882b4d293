// The plaque above a plaque table (Euchre, Contract Whist): what you decide now, with its timer,
// or whom the table waits for; and your hand, whose cards are lifted, then played, from it.

import { html } from '../../vendor/htm-preact-3.1.1.module.js';
import { label } from '../cards.js';
import { CardFace, Countdown } from '../ui.js';
import { useHandKeys } from './keys.js';

/** The decision's countdown, on your turn and between hands. */
export function plaqueTimer(model, fallbackMs) {
  return model.remaining !== null && (model.myTurn || model.phase === 'interlude')
    ? html`<${Countdown} left=${model.remaining} total=${model.timerMs || fallbackMs} pause=${model.phase === 'interlude'} />`
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

/**
 * Your hand on a plaque table, one tab stop (shell/keys.js): while the decision is one of
 * `kinds` its cards are bright or dimmed with the reason, and a card is lifted, then played
 * (or discarded). `className` marks the game's hand; `mark(card)` gives a card's own class,
 * data and badge (`{ className, data, badge }`).
 */
export function PlaqueHand({ model, lifted, onCard, onKey, handRef, kinds, className = '', mark = () => ({}) }) {
  const cards = model.hand;
  const { focused, setFocus, keyDown } = useHandKeys(cards.length, handRef, onKey);
  const kind = model.decision && kinds.includes(model.decision.kind) ? model.decision.kind : null;
  if (!cards.length) return model.spectator ? null : html`<div class=${`eu-hand ${className} empty`} aria-hidden="true"></div>`;
  const verb = kind === 'discard' ? 'discard' : 'play';
  return html`<div
    class=${`eu-hand ${className} ${kind ? `deciding decide-${kind}` : ''}`}
    role="group"
    aria-label=${`Your hand: ${cards.length} cards${kind ? `. Arrow keys to choose, Enter to lift, Enter again to ${verb}` : ''}`}
    ref=${handRef}
    onKeyDown=${keyDown}
    style=${`--n:${cards.length}`}
    data-motion="hand"
  >
    ${cards.map((card, k) => {
      const isLifted = lifted === card.code;
      const state = kind ? (card.legal === true ? 'legal' : card.legal === false ? 'illegal' : 'idle') : 'idle';
      const what = !kind
        ? ''
        : !card.legal
          ? `cannot be played: ${card.reason}`
          : isLifted
            ? `lifted: press Enter again to ${verb} it`
            : kind === 'play' ? 'playable' : 'can be discarded';
      const own = mark(card);
      return html`<button
        type="button"
        class=${`hand-card ${state} ${isLifted ? 'lifted' : ''} ${own.className || ''}`}
        tabindex=${k === focused ? 0 : -1}
        aria-label=${`${card.spoken}${what ? `, ${what}` : ''}`}
        aria-pressed=${kind ? (isLifted ? 'true' : 'false') : undefined}
        aria-disabled=${kind && card.legal === false ? 'true' : undefined}
        title=${card.tip}
        data-tip=${card.tip}
        data-card=${card.code}
        style=${`--k:${k}`}
        onFocus=${() => setFocus(k)}
        onClick=${() => onCard(card)}
        ...${own.data || {}}
      >
        <${CardFace} code=${card.code} size="lg" />
        ${own.badge || null}
      </button>`;
    })}
  </div>`;
}
