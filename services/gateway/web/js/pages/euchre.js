// The Euchre table: four seats in two partnerships around the felt, the decisions on a plaque
// above it, the trick in the middle, the pegboard score. What to show comes from
// js/euchre-state.js (derive); the table's shell (js/shell/) does the rest, as for every game.

import { html, useState } from '../../vendor/htm-preact-3.1.1.module.js';
import { POSITIONS, SUIT_NAMES, SUIT_SYMBOLS, describeChanges, derive, suitWords } from '../euchre-state.js';
import { GameOverFrame, ResultFrame } from '../shell/frame.js';
import { LastTrick } from '../shell/head.js';
import { tableSight } from '../shell/moves.js';
import { DecisionPlaque, LiftedButtons, PlaqueHand, WaitingPlaque, liftDetail, plaqueTimer } from '../shell/plaque.js';
import { PlaqueTablePage, seatOffers, usePlaqueTable } from '../shell/plaque-table.js';
import { HeldBacks, PlateFoot, PlateName } from '../shell/seats.js';
import { TableSide } from '../shell/side.js';
import { sentenceWords, trickCardTip } from '../shell/words.js';
import { CardBack, CardFace, ShownCard, SuitIcon } from '../ui.js';

const TRICK_FLASH_MS = 1600;
const CARD_KINDS = ['play', 'discard'];

/** What the Euchre table holds, for the table's motion (shell/moves.js). */
const euchreSight = (model, flash) =>
  tableSight({
    deal: `${model.gameNo}:${model.handNo}`,
    hand: model.hand.map((c) => c.code),
    held: model.seats.map((s) => [s.seat, s.resting ? 0 : s.cards || 0]),
    trick: model.trick.cards,
    flash,
    scores: [0, 1].map((team) => [team, model.pegs[team].score]),
  });

/** The carved token that shows trump, beside the dealer for the whole hand. */
function TrumpToken({ token, size = '' }) {
  if (!token) return null;
  return html`<span
    class=${`trump-token ${size} ${token.suit === 1 || token.suit === 2 ? 'red' : 'black'}`}
    role="img"
    tabindex="0"
    aria-label=${token.tip}
    title=${token.tip}
    data-tip=${token.tip}
  ><${SuitIcon} suit=${token.suit} /></span>`;
}

/** Trump at the table's centre, readable at a glance, under the cards of the trick. */
function TrumpMark({ mark }) {
  if (!mark) return null;
  return html`<div class=${`eu-trump-mark ${mark.suit === 1 || mark.suit === 2 ? 'red' : 'black'}`} role="img" aria-label=${mark.label} title=${mark.label} data-trump=${mark.letter}>
    <${SuitIcon} suit=${mark.suit} />
    <span class="eu-trump-name">${mark.name}</span>
    ${mark.by ? html`<span class="eu-trump-by">${mark.by}</span>` : null}
  </div>`;
}

function TakenTricks({ seat }) {
  if (!seat.tricks) return null;
  const tip = `${seat.isMe ? 'You' : seat.name} took ${seat.tricks} trick${seat.tricks === 1 ? '' : 's'} this hand`;
  return html`<span class="eu-taken" role="img" tabindex="0" aria-label=${tip} title=${tip} data-tip=${tip}>
    ${Array.from({ length: seat.tricks }, (_, k) => html`<span class="eu-taken-card" style=${`--k:${k}`}></span>`)}
    <span class="eu-taken-count" aria-hidden="true">${seat.tricks}</span>
  </span>`;
}

function SeatPlate({ seat, model, onJoin, onAddBot }) {
  const classes = ['eu-seat', `at-${seat.pos}`, seat.isMe ? 'me' : '', seat.acting ? 'acting' : '', seat.resting ? 'resting' : '', seat.empty ? 'empty' : ''].join(' ');
  return html`<div class=${classes} data-seat=${seat.seat}>
    <div class="eu-plate" data-motion="plate">
      <${PlateName} seat=${seat} />
      <span class="eu-tags">
        <span class=${`eu-team team-${seat.team}`}>${seat.role}</span>
        ${seat.dealer ? html`<span class="eu-dealer" title="The dealer" data-tip="The dealer">Dealer</span>` : null}
        ${seat.dealer ? html`<${TrumpToken} token=${model.trumpToken} size="small" />` : null}
        ${seat.maker ? html`<span class="eu-maker">${model.alone ? 'Alone' : 'Maker'}</span>` : null}
        ${seat.resting ? html`<span class="eu-resting" title="Sits out this hand: the partner goes alone">Sits out</span>` : null}
        ${seat.away && !seat.bot ? html`<span class="eu-away">Away</span>` : null}
      </span>
      <${PlateFoot} seat=${seat} model=${model} fallbackMs=${20000} onJoin=${onJoin} onAddBot=${onAddBot} />
    </div>
    <div class="eu-seat-cards">
      ${!seat.isMe && seat.cards && !seat.resting
        ? html`<${HeldBacks} seat=${seat} />`
        : null}
      <${TakenTricks} seat=${seat} />
    </div>
  </div>`;
}

function Kitty({ model }) {
  const t = model.turnUp;
  if (!t || !model.inHand) return null;
  const showFace = t.at === 'up' || t.at === 'kitty';
  return html`<div class="eu-kitty">
    <span class="eu-kitty-stack" data-motion="deck" role="img" tabindex="0" aria-label=${model.kittyTip} title=${model.kittyTip} data-tip=${model.kittyTip}>
      <${CardBack} size="sm" />
    </span>
    ${showFace || t.at === 'down'
      ? html`<span class=${`eu-turn-up ${t.at}`} tabindex="0" data-turn-up=${t.code}>
          <${ShownCard} code=${t.code} size="sm" tip=${t.tip} />
        </span>`
      : html`<span class="eu-turn-up taken" tabindex="0" role="img" aria-label=${t.tip} title=${t.tip} data-tip=${t.tip}><${CardFace} code=${t.code} size="xs" /></span>`}
  </div>`;
}

function TrickArea({ trick, seats, caption }) {
  return html`<div class=${`eu-trick ${trick.done ? 'done' : 'live'}`} data-motion="trick" role="group" aria-label=${caption}>
    ${trick.cards.map(
      (c) => html`<span key=${`${c.seat}-${c.code}`} class=${`eu-played at-${c.pos} ${c.winning ? 'winning' : ''}`} data-seat=${c.seat} data-card=${c.code}>
        <${ShownCard}
          code=${c.code}
          size="md"
          tip=${trickCardTip(c, seats[c.seat], trick.done)}
        />
      </span>`,
    )}
  </div>`;
}

function Pegboard({ model }) {
  const order = [model.us, 1 - model.us];
  const text = `Score: ${order.map((t) => `${model.pegs[t].name} ${model.pegs[t].score}`).join(', ')}; first to ${model.target}`;
  // A spectator's board names each team by its players: their names take a wider column.
  return html`<div class=${`pegboard${model.spectator ? ' named' : ''}`} role="img" aria-label=${text} title=${text}>
    ${order.map((team) => {
      const p = model.pegs[team];
      return html`<div class=${`peg-rail team-${team} ${team === model.us ? 'us' : 'them'}`} data-team=${team} data-motion-pegs=${team}>
        <span class="peg-name">${p.name}</span>
        <span class="peg-holes" aria-hidden="true">
          ${Array.from({ length: 10 }, (_, k) => html`<span data-motion="peg" class=${`peg-hole ${k < p.pegged ? 'pegged' : ''} ${k + 1 === model.target ? 'goal' : ''}`}></span>`)}
        </span>
        <span class="peg-score" data-score=${p.score} data-motion-score=${team}>${p.score}</span>
        ${model.inHand ? html`<span class="peg-tricks" title="Tricks this hand">${p.tricks} tr.</span>` : null}
      </div>`;
    })}
  </div>`;
}

/** A bower is marked as the right or the left one. */
const bowerMark = (card) =>
  card.bower
    ? {
        className: `bower-${card.bower}`,
        data: { 'data-bower': card.bower },
        badge: html`<span class=${`bower-tab ${card.bower}`} aria-hidden="true">${card.bower === 'right' ? 'Right' : 'Left'}</span>`,
      }
    : {};

/** The plaque above the table: what you decide now (or whom the table waits for). */
function Plaque({ model, lifted, act, onClear, alone, setAlone, onStart, onJoin }) {
  const d = model.decision;
  const timer = plaqueTimer(model, 20000);
  if (!d) return html`<${WaitingPlaque} model=${model} timer=${timer} startTitle=${(empty) => (empty ? 'Four players are needed: add a bot to the empty seat, or invite someone' : 'Deal the first hand')} onStart=${onStart} onJoin=${onJoin} />`;
  let buttons;
  if (d.kind === 'play' || d.kind === 'discard') {
    buttons = html`<${LiftedButtons} kind=${d.kind} lifted=${lifted} model=${model} act=${act} onClear=${onClear} />`;
  } else {
    const toggle = d.canAlone
      ? html`<button
          type="button"
          class=${`alone-toggle ${alone ? 'on' : ''}`}
          aria-pressed=${alone ? 'true' : 'false'}
          title="Play this hand without your partner: 4 points for all five tricks"
          onClick=${() => setAlone(!alone)}
        >Go alone</button>`
      : null;
    buttons = html`${toggle}${d.choices.map(
      (c) => html`<button
        type="button"
        class=${`${c.primary ? 'primary' : ''} ${c.suit !== undefined ? `suit-choice ${c.suit === 1 || c.suit === 2 ? 'red' : 'black'}` : ''}`}
        disabled=${!c.legal}
        title=${c.reason || (c.suit !== undefined ? `Make ${suitWords(c.suit)} trump${alone ? ', alone' : ''}` : c.text)}
        data-choice=${c.key}
        onClick=${() => act(alone && c.aloneAction ? c.aloneAction : c.action)}
      >${c.suit !== undefined ? html`<${SuitIcon} suit=${c.suit} /> ${SUIT_NAMES[c.suit][0].toUpperCase()}${SUIT_NAMES[c.suit].slice(1)}` : c.text}</button>`,
    )}`;
  }
  const detail = d.kind === 'name' && d.barred && d.barred.length
    ? `${SUIT_SYMBOLS[d.barred[0].suit]} was turned down: it can't be named.`
    : d.kind === 'play' || d.kind === 'discard'
      ? liftDetail(lifted)
      : '';
  return html`<${DecisionPlaque} kind=${d.kind} timer=${timer} prompt=${d.prompt} detail=${detail}>${buttons}</${DecisionPlaque}>`;
}

function ResultPanel({ model }) {
  const r = model.result;
  if (!r) return null;
  const order = [model.us, 1 - model.us];
  return html`<${ResultFrame} id="eu-result-title" title=${`Hand ${r.handNo}`}>
    <p>${r.line}</p>
    <table class="eu-result-table">
      <thead><tr><th scope="col">Team</th><th scope="col">Tricks</th><th scope="col">Points</th><th scope="col">Score</th></tr></thead>
      <tbody>
        ${order.map((team) => html`<tr class=${team === r.scorer ? 'scored' : ''}>
          <th scope="row">${r.names[team]}${team === r.makerTeam ? ' (makers)' : ''}</th>
          <td>${r.tricks[team]}</td>
          <td>${team === r.scorer ? `+${r.points}` : '0'}</td>
          <td>${r.scores[team]}</td>
        </tr>`)}
      </tbody>
    </table>
  </${ResultFrame}>`;
}

function GameOver({ model, table, onStart, onLeave }) {
  return html`<${GameOverFrame} id="eu-over-title" winner=${model.winnerText} model=${model} table=${table} dealt="re-deal every hand, turn-up and kitty from the seed." onStart=${onStart} onLeave=${onLeave}>
    ${model.result ? html`<p>Hand ${model.result.handNo}: ${model.result.line}</p>` : null}
  </${GameOverFrame}>`;
}

/** Euchre's words for the table's feed (shell/feed.js). */
const euchreWords = sentenceWords({
  name: 'euchre',
  describe: describeChanges,
  sameDeal: (prev, next) => prev.hand_no === next.hand_no,
  taker: (view) => view.winners[view.winners.length - 1],
  flashMs: TRICK_FLASH_MS,
});

export function EuchrePage({ table, invite, autoJoin, onGame }) {
  const [alone, setAlone] = useState(false);
  const at = usePlaqueTable({
    table,
    invite,
    autoJoin,
    onGame,
    words: euchreWords,
    derive,
    sight: euchreSight,
    decisionKey: (model, view) => `${model.handNo}:${model.phase}:${model.myTurn}:${view.played.length}:${view.trick.length}`,
    kinds: CARD_KINDS,
    reset: () => setAlone(false),
  });
  const { feed, view, model, flash, lifted, setLifted, lastTrick, handRef, small, onCard, onHandKey } = at;
  if (!view) return html`<${PlaqueTablePage} at=${at} />`;
  const { act, join } = feed;
  const flashTrick = !model.trick.cards.length && flash
    ? {
        cards: flash.cards.map(({ seat, code }) => ({
          seat,
          code,
          pos: POSITIONS[(seat - (model.me ?? 0) + 4) % 4],
          winning: seat === flash.winner,
        })),
        done: true,
      }
    : null;
  const start = () => act({ kind: 'start_game' });
  return html`<${PlaqueTablePage}
    at=${at}
    game="euchre"
    title="Euchre table"
    head=${html`${model.handNo ? html`<span>Hand ${model.handNo}</span>` : null}
      ${model.spectator ? html`<span class="tag watching">Watching</span>` : null}
      <${LastTrick} seats=${model.seats} last=${model.lastTrick || (model.inHand ? null : lastTrick.current)} />`}
    plaque=${html`<${Plaque} model=${model} lifted=${lifted} act=${act} onClear=${() => setLifted(null)} alone=${alone} setAlone=${setAlone} onStart=${start} onJoin=${join} />`}
    above=${html`<${Pegboard} model=${model} />`}
    felt=${html`${model.seats.map((seat) => html`<${SeatPlate} key=${seat.seat} seat=${seat} model=${model} ...${seatOffers(model, seat, feed)} />`)}
      <${Kitty} model=${model} />
      <div class="eu-centre" data-motion="centre">
        <${TrumpMark} mark=${model.trumpMark} />
        ${flashTrick
          ? html`<${TrickArea} trick=${flashTrick} seats=${model.seats} caption="The trick just taken" />`
          : html`<${TrickArea} trick=${model.trick} seats=${model.seats} caption="The trick" />`}
      </div>
      ${model.phase === 'interlude' && model.result ? html`<${ResultPanel} model=${model} />` : null}
      ${model.phase === 'ended' ? html`<${GameOver} model=${model} table=${table} onStart=${start} onLeave=${feed.leave} />` : null}`}
    hand=${html`<${PlaqueHand} model=${model} lifted=${lifted} onCard=${onCard} onKey=${onHandKey} handRef=${handRef} kinds=${CARD_KINDS} mark=${bowerMark} />`}
    side=${html`<${TableSide}
      title="Euchre"
      about=${html`Two teams of two, partners opposite; first to ${model.target} point${model.target === 1 ? '' : 's'}. <a href="#/rules/euchre">How to play Euchre</a>`}
      model=${model}
      view=${view}
      inPlay=${model.inHand}
      unit="hand"
      feed=${feed}
      invite=${invite}
      small=${small}
    />`}
  />`;
}
