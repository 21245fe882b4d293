// A plaque table's page (Euchre, Contract Whist), written once: the feed, the view derived, the
// card lifted, the keys, the focus on your turn, the motion; and the page's frame round what
// the game draws (its head, its plaque, its felt, its dock, its side).

import { html, useEffect, useRef, useState } from '../../vendor/htm-preact-3.1.1.module.js';
import { useTicker } from '../ui.js';
import { useSmallScreen } from './chat.js';
import { useTableFeed } from './feed.js';
import { TableGate, connectionBanner } from './frame.js';
import { FairPill } from './head.js';
import { useTableKeys, useTurnFocus } from './keys.js';
import { useTableMotion } from './motion.js';
import { cardPicker } from './plaque.js';
import { TableFrame } from './table-frame.js';

// Your turn's focus: your first playable card, else the decision's first choice (never a
// toggle such as Go alone, which a reflexive Enter would switch).
const FIRST_CHOICE = () =>
  document.querySelector('.eu-hand.deciding .hand-card.legal') ||
  document.querySelector('.plaque button[data-choice]:not([disabled])') ||
  document.querySelector('.plaque button:not([disabled])');

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
  const dockRef = useRef(null);
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
  return { feed, view, model, flash, lifted, setLifted, lastTrick, handRef, openerRef, mainRef, dockRef, small, ...picker };
}

/**
 * The page round a plaque table (shell/table-frame.js): `at` is usePlaqueTable's answer; `game`
 * and `title` name it; `head` goes in the table's head, `plaque` above the felt (`above` under
 * it), `felt` on it, `dock` (with `hand`) below it, `side` beside it and `after` over the page.
 */
export function PlaqueTablePage({ at, className = '', game, title, head, plaque, above, feltClass = '', felt, dock = null, hand, side, after = null }) {
  const { feed, view, model, small, openerRef, mainRef, dockRef } = at;
  if (!view) return html`<${TableGate} missing=${feed.missing} banner=${connectionBanner(feed.app, view, feed.ts.resync)} />`;
  return html`<${TableFrame}
    feed=${feed}
    model=${model}
    refs=${{ main: mainRef, dock: dockRef, opener: openerRef }}
    small=${small}
    className=${`euchre-page ${className}`}
    game=${game}
    title=${title}
    layout="eu-layout"
    area="eu-area"
    head=${html`${head}<${FairPill} model=${model} />`}
    top=${html`<div class="table-top"><div class="plaque-dock">${plaque}</div>${above}</div>`}
    felt=${html`<div class=${`eu-felt ${feltClass}`} data-motion="felt">${felt}</div>`}
    dockClass="eu-dock"
    dockTop=${dock}
    dock=${hand}
    openerClass="chat-opener small"
    side=${side}
    after=${after}
    graceMs=${view.config && view.config.away_grace_ms}
  />`;
}

/** What an empty seat offers: sitting in it, and (the host's, between hands) a bot for it. */
export function seatOffers(model, seat, { join, act }) {
  return {
    onJoin: seat.empty && model.canJoin.includes(seat.seat) ? join : null,
    onAddBot: seat.empty && model.isHost && model.between ? (at, level) => act({ kind: 'add_bot', seat: at, bot: level }) : null,
  };
}
