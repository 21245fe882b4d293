// A plaque table's page (Euchre, Contract Whist), written once: the feed, the view derived, the
// card lifted, the keys, the focus on your turn, the motion; and the page's frame round what
// the game draws (its head, its plaque, its felt, its dock, its side).

import { html, useEffect, useRef, useState } from '../../vendor/htm-preact-3.1.1.module.js';
import { useTicker } from '../ui.js';
import { ChatSheet, useSmallScreen } from './chat.js';
import { useTableFeed } from './feed.js';
import { AwayBanner, ChatOpener, TableGate, TableVoice, connectionBanner } from './frame.js';
import { FairPill } from './head.js';
import { useTableKeys, useTurnFocus } from './keys.js';
import { useTableMotion } from './motion.js';
import { cardPicker } from './plaque.js';

const FIRST_CHOICE = () =>
  document.querySelector('.eu-hand.deciding .hand-card.legal') || document.querySelector('.plaque button:not([disabled])');

/**
 * `words` are the game's words for the feed (shell/feed.js); `derive(view, now)` its model;
 * `sight(model, flash)` what its table holds for the motion (shell/moves.js); `decisionKey`
 * names a decision (a new one puts the lifted card back and calls `reset`); `kinds` the
 * decisions a card is picked for; `keys` the game's own shortcuts (shell/keys.js).
 */
export function usePlaqueTable({ table, invite, autoJoin, onGame, words, derive, sight, decisionKey, kinds, keys = {}, reset = null }) {
  const [lifted, setLifted] = useState(null);
  const handRef = useRef(null);
  const lastTrick = useRef(null);
  const openerRef = useRef(null);
  const mainRef = useRef(null);
  const clear = () => {
    setLifted(null);
    if (reset) reset();
  };
  const feed = useTableFeed({ table, invite, autoJoin, onGame, game: { ...words, acted: clear } });
  const { view, flash } = feed;
  const model = view ? derive(view, Date.now()) : null;
  // The last finished trick stays reviewable after the next deal clears the table's tricks.
  if (model && model.lastTrick) lastTrick.current = model.lastTrick;
  useTicker(Boolean(view && view.deadline), 250);
  useTableKeys({ decision: '.plaque', hand: '.eu-hand', onChat: () => feed.setTab('chat'), keys });
  const key = model ? decisionKey(model, view) : '';
  useEffect(clear, [key]);
  useTurnFocus(key, Boolean(model && model.myTurn), FIRST_CHOICE, '.plaque, .eu-hand');
  const small = useSmallScreen();
  // The deal, the play, the trick going to its winner and the score: motion over the view shown.
  useTableMotion(model ? sight(model, flash) : null, mainRef);
  const picker = cardPicker({ model, kinds, lifted, setLifted, act: feed.act, showToast: feed.showToast });
  return { feed, view, model, flash, lifted, setLifted, lastTrick, handRef, openerRef, mainRef, small, ...picker };
}

/**
 * The page round a plaque table: `at` is usePlaqueTable's answer; `game` and `title` name it;
 * `head` goes in the table's head, `plaque` above the felt (`above` under it), `felt` on it,
 * `dock` (with `hand`) below it, `side` beside it and `after` over the page (a dialog).
 */
export function PlaqueTablePage({ at, className = '', game, title, head, plaque, above, feltClass = '', felt, dock = null, hand, side, after = null }) {
  const { feed, view, model, small, openerRef, mainRef } = at;
  const { app, ts, missing, chat, tab, setTab, sendChat, live, toast, act } = feed;
  const banner = connectionBanner(app, view, ts.resync);
  if (!view) return html`<${TableGate} missing=${missing} banner=${banner} />`;
  // One notice at a time: the connection's comes first.
  const away = model.away && !banner
    ? html`<${AwayBanner} graceMs=${view.config && view.config.away_grace_ms} onBack=${() => act({ kind: 'sit_out', sitting_out: false })} />`
    : null;
  const sheetOpen = small && tab === 'chat';
  const me = app.session && app.session.id;
  return html`<main id="main" class=${`table-page euchre-page ${className}`} tabindex="-1" data-game=${game} ref=${mainRef}>
    ${banner}
    ${away}
    <h1 class="visually-hidden">${title}</h1>
    <div class="eu-layout">
      <section class="eu-area" aria-label="The table">
        <div class="table-head">
          <span class="phase-pill">${model.phaseText}</span>
          ${head}
          <${FairPill} model=${model} />
        </div>
        <div class="plaque-dock">${plaque}</div>
        ${above}
        <div class=${`eu-felt ${feltClass}`} data-motion="felt">${felt}</div>
        <div class=${`eu-dock ${model.myTurn ? 'my-turn' : ''}`}>
          ${dock}
          ${small ? html`<${ChatOpener} className="chat-opener small" chat=${chat} open=${sheetOpen} opener=${openerRef} onToggle=${() => setTab(sheetOpen ? 'log' : 'chat')} />` : null}
          ${hand}
        </div>
      </section>
      ${side}
    </div>
    ${sheetOpen ? html`<${ChatSheet} chat=${chat} send=${sendChat} me=${me} opener=${openerRef} onClose=${() => setTab('log')} />` : null}
    ${after}
    <${TableVoice} live=${live} toast=${toast} />
  </main>`;
}

/** What an empty seat offers: sitting in it, and (the host's, between hands) a bot for it. */
export function seatOffers(model, seat, { join, act }) {
  return {
    onJoin: seat.empty && model.canJoin.includes(seat.seat) ? join : null,
    onAddBot: seat.empty && model.isHost && model.between ? (at, level) => act({ kind: 'add_bot', seat: at, bot: level }) : null,
  };
}
