// The Contract Whist table: 2 to 5 seats round the felt, each with its bid and the tricks it
// took this round; the decisions (bids, trump, cards) on the plaque above it; the bidding panel
// with the hook's forbidden bid; the score sheet in a dialog. What to show comes from
// js/whist-state.js (derive); the table's shell (js/shell/) does the rest, as for every game.

import { html, useEffect, useRef, useState } from '../../vendor/htm-preact-3.1.1.module.js';
import { cents } from '../state.js';
import { SUIT_NAMES, describeChanges, derive, placeTrick, suitWords } from '../whist-state.js';
import { GameOverFrame, ResultFrame } from '../shell/frame.js';
import { LastTrick } from '../shell/head.js';
import { tableSight } from '../shell/moves.js';
import { DecisionPlaque, LiftedButtons, PlaqueHand, WaitingPlaque, liftDetail, plaqueTimer } from '../shell/plaque.js';
import { PlaqueTablePage, seatOffers, usePlaqueTable } from '../shell/plaque-table.js';
import { HeldBacks, PlateFoot, PlateName } from '../shell/seats.js';
import { TableSide } from '../shell/side.js';
import { sentenceWords, trickCardTip, whoIs } from '../shell/words.js';
import { ShownCard, SuitIcon } from '../ui.js';

const TRICK_FLASH_MS = 1600;
const CARD_KINDS = ['play'];

/** What the Contract Whist table holds, for the table's motion (shell/moves.js). */
const whistSight = (model, flash) =>
  tableSight({
    deal: `${model.gameNo}:${model.roundNo}`,
    hand: model.hand.map((c) => c.code),
    held: model.seats.map((s) => [s.seat, s.cards || 0]),
    trick: model.trick.cards,
    flash,
    scores: model.seats.map((s) => [s.seat, s.score]),
  });

function TrumpBadge({ model, size = '' }) {
  if (!model.trumpText) return null;
  const tip = `${model.trumpText}, chosen by ${model.chooser === model.me ? 'you' : model.seats[model.chooser] ? model.seats[model.chooser].name : 'the highest bidder'}`;
  return html`<span class=${`wh-trump ${size} ${model.trump === 1 || model.trump === 2 ? 'red' : 'black'}`} role="img" tabindex="0" aria-label=${tip} title=${tip} data-tip=${tip} data-trump=${model.noTrumps ? 'none' : 'CDHS'[model.trump]}>
    ${model.noTrumps ? html`<span class="wh-nt">NT</span>` : html`<${SuitIcon} suit=${model.trump} />`}
    <span class="wh-trump-text">${model.noTrumps ? 'No trumps' : `${SUIT_NAMES[model.trump][0].toUpperCase()}${SUIT_NAMES[model.trump].slice(1)}`}</span>
  </span>`;
}

function BidTally({ seat, model }) {
  if (!model.inRound) return null;
  const has = seat.bid !== null && seat.bid !== undefined;
  const state = !has ? '' : seat.tricks === seat.bid ? 'on' : seat.tricks > seat.bid ? 'over' : 'short';
  return html`<span class=${`wh-tally ${state}`} tabindex="0" role="img" aria-label=${seat.bidTip} title=${seat.bidTip} data-tip=${seat.bidTip} data-bid=${has ? seat.bid : ''} data-tricks=${seat.tricks}>
    <span class="wh-took">${seat.tricks}</span><span class="wh-slash" aria-hidden="true">/</span><span class="wh-bid">${has ? seat.bid : '–'}</span>
  </span>`;
}

function SeatPlate({ seat, model, onJoin, onAddBot }) {
  const classes = ['wh-seat', `spot-${seat.spot}-of-${model.n}`, seat.isMe ? 'me' : '', seat.acting ? 'acting' : '', seat.empty ? 'empty' : '', seat.winner ? 'winner' : ''].join(' ');
  return html`<div class=${classes} data-seat=${seat.seat}>
    <div class="eu-plate" data-motion="plate">
      <${PlateName} seat=${seat} />
      <span class="eu-tags">
        <span class="wh-score" title="Total points" data-score=${seat.score} data-motion-score=${seat.seat}>${seat.score} pts</span>
        ${seat.firstBidder ? html`<span class="eu-dealer" title="Bids first and leads the first trick" data-tip="Bids first and leads the first trick">First</span>` : null}
        ${seat.chooser && model.trumpText ? html`<span class="eu-maker" title="Bid highest and chose trump">Chose</span>` : null}
        ${seat.away && !seat.bot ? html`<span class="eu-away">Away</span>` : null}
        ${seat.winner ? html`<span class="eu-maker">Winner</span>` : null}
      </span>
      <${BidTally} seat=${seat} model=${model} />
      <${PlateFoot} seat=${seat} model=${model} fallbackMs=${30000} onJoin=${onJoin} onAddBot=${onAddBot} />
    </div>
    ${!seat.isMe && seat.cards
      ? html`<${HeldBacks} seat=${seat} className="eu-backs wh-backs" most=${10} />`
      : null}
  </div>`;
}

function TrickArea({ trick, seats, n, caption }) {
  return html`<div class=${`wh-trick ${trick.done ? 'done' : 'live'}`} data-motion="trick" role="group" aria-label=${caption}>
    ${trick.cards.map(
      (c) => html`<span key=${`${c.seat}-${c.code}`} class=${`wh-played spot-${c.spot}-of-${n} ${c.winning ? 'winning' : ''}`} data-seat=${c.seat} data-card=${c.code}>
        <${ShownCard} code=${c.code} size="md" tip=${trickCardTip(c, seats[c.seat], trick.done)} />
      </span>`,
    )}
  </div>`;
}

/** Every bid so far, the total against the cards, and the hook: the last bidder's barred bid. */
function BiddingPanel({ model }) {
  const b = model.bidding;
  if (!model.inRound) return null;
  const under = b.total < b.cards;
  return html`<section class="wh-bidding" aria-labelledby="wh-bidding-title" data-total=${b.total}>
    <h2 id="wh-bidding-title" class="visually-hidden">Bids this round</h2>
    <ol class="wh-bids">
      ${b.bids.map((x) => html`<li data-seat=${x.seat}><span class="wh-bidder">${x.name}</span> <strong>${x.bid}</strong></li>`)}
      ${b.toBid.map((seat) => html`<li class="pending" data-seat=${seat}><span class="wh-bidder">${seat === model.me ? 'You' : model.seats[seat].name}</span> <strong>?</strong></li>`)}
    </ol>
    <p class=${`wh-total ${b.total === b.cards ? '' : under ? 'under' : 'over'}`}>
      <span class="wh-total-figure">${b.totalText}</span>
    </p>
    ${model.phase === 'bid' && b.forbidden !== null
      ? html`<p class="wh-hook" data-forbidden=${b.forbidden}><strong>${b.lastBidderName === 'You' ? 'You' : b.lastBidderName} may not bid ${b.forbidden}</strong>: ${b.forbiddenReason}.</p>`
      : model.phase === 'bid' && b.hookText
        ? html`<p class="wh-hook muted">${b.hookText}</p>`
        : null}
  </section>`;
}

/** The plaque above the table: what you decide now (or whom the table waits for). */
function Plaque({ model, lifted, act, onClear, onStart, onJoin }) {
  const d = model.decision;
  const timer = plaqueTimer(model, 30000);
  if (!d) return html`<${WaitingPlaque} model=${model} timer=${timer} startTitle=${(empty) => (empty ? 'Every seat must be taken: add bots to the empty seats, or invite someone' : 'Deal the first round')} onStart=${onStart} onJoin=${onJoin} />`;
  let buttons;
  let detail = '';
  if (d.kind === 'play') {
    buttons = html`<${LiftedButtons} kind="play" lifted=${lifted} model=${model} act=${act} onClear=${onClear} />`;
    detail = liftDetail(lifted);
  } else if (d.kind === 'bid') {
    buttons = html`<div class="wh-bid-buttons" role="group" aria-label="Your bid">${d.choices.map(
      (c) => html`<button
        type="button"
        class=${`bid-choice ${c.legal ? '' : 'forbidden'}`}
        disabled=${!c.legal}
        aria-describedby=${c.legal ? undefined : 'wh-forbidden-why'}
        title=${c.legal ? `Bid ${c.bid}: take exactly ${c.bid} trick${c.bid === 1 ? '' : 's'}` : c.reason}
        data-tip=${c.legal ? `Bid ${c.bid}` : c.reason}
        data-choice=${c.key}
        data-bid=${c.bid}
        data-digit=${c.bid <= 9 ? c.bid : undefined}
        onClick=${() => act(c.action)}
      >${c.text}</button>`,
    )}</div>`;
    detail = d.forbidden !== null
      ? html`<span id="wh-forbidden-why" class="wh-why">Not ${d.forbidden}: ${d.forbiddenReason}.</span>`
      : `The bids so far: ${model.bidding.totalText}.`;
  } else {
    buttons = d.choices.map(
      (c) => html`<button
        type="button"
        class=${`${c.primary ? 'primary' : ''} ${c.suit !== undefined ? `suit-choice ${c.suit === 1 || c.suit === 2 ? 'red' : c.suit === null ? 'nt' : 'black'}` : ''}`}
        disabled=${!c.legal}
        title=${c.reason || (c.suit === null ? 'No trumps: the highest card of the suit led takes each trick' : c.suit !== undefined ? `Make ${suitWords(c.suit)} trump` : c.text)}
        data-choice=${c.key}
        onClick=${() => act(c.action)}
      >${c.suit !== undefined && c.suit !== null ? html`<${SuitIcon} suit=${c.suit} /> ${c.text}` : c.text}</button>`,
    );
    if (d.kind === 'trump') detail = `Bids: ${model.bidding.totalText}.`;
  }
  return html`<${DecisionPlaque} kind=${d.kind} className="wh-plaque" timer=${timer} prompt=${d.prompt} detail=${detail} detailClass="detail wh-detail">${buttons}</${DecisionPlaque}>`;
}

/** A trump in hand is marked as one. */
const trumpMark = (card) => (card.trump ? { className: 'is-trump' } : {});

/** The score sheet: one line per scored round with every seat's bid, tricks, points and total. */
function ScoreSheet({ model, onClose, opener }) {
  const ref = useRef(null);
  useEffect(() => {
    const box = ref.current;
    if (box) box.focus();
    const back = opener && opener.current;
    return () => {
      if (back && back.isConnected) back.focus();
    };
  }, []);
  const key = (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !ref.current) return;
    const items = [...ref.current.querySelectorAll('button, [href], [tabindex="0"]')];
    if (!items.length) return;
    const [first, last] = [items[0], items[items.length - 1]];
    if (event.shiftKey && (document.activeElement === first || document.activeElement === ref.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };
  return html`<div class="sheet-backdrop" onClick=${(e) => e.target === e.currentTarget && onClose()}>
    <div class="wh-sheet panel" role="dialog" aria-modal="true" aria-labelledby="wh-sheet-title" tabindex="-1" ref=${ref} onKeyDown=${key}>
      <div class="wh-sheet-head">
        <h2 id="wh-sheet-title">Score sheet</h2>
        <button type="button" class="small" onClick=${onClose}>Close</button>
      </div>
      <p class="small muted">Made a bid: cards + bid. Made 0: half the cards (rounded down when the bids were over, up when under). Missed: minus the difference.</p>
      ${model.sheet.length
        ? html`<div class="table-scroll" tabindex="0" aria-label="Rounds scored">
            <table class="wh-sheet-table">
              <thead>
                <tr>
                  <th scope="col">Round</th>
                  ${model.seats.map((s) => html`<th scope="col" colspan="3">${s.isMe ? 'You' : s.name}</th>`)}
                </tr>
                <tr class="sub">
                  <th scope="col"><span class="visually-hidden">Cards and trump</span></th>
                  ${model.seats.map(() => html`<th scope="col">Bid</th><th scope="col">Took</th><th scope="col">Pts</th>`)}
                </tr>
              </thead>
              <tbody>
                ${model.sheet.map((line) => html`<tr data-round=${line.roundNo}>
                  <th scope="row">${line.roundNo}<span class="muted small"> · ${line.cards} · ${line.trump}</span></th>
                  ${line.seats.map((s) => html`<td>${s.bid}</td><td class=${s.made ? 'made' : 'missed'}>${s.tricks}</td><td title=${s.tip} class=${s.points >= 0 ? 'plus' : 'minus'}>${s.points}<span class="wh-total-cell"> (${s.total})</span></td>`)}
                </tr>`)}
              </tbody>
              <tfoot>
                <tr><th scope="row">Total</th>${model.seats.map((s) => html`<td colspan="3"><strong>${s.score}</strong></td>`)}</tr>
              </tfoot>
            </table>
          </div>`
        : html`<p>No round has been scored yet.</p>`}
    </div>
  </div>`;
}

function ResultPanel({ model }) {
  const r = model.result;
  if (!r) return null;
  return html`<${ResultFrame} id="wh-result-title" className="wh-result" title=${`Round ${r.roundNo}: ${r.sheet.cards} cards, ${r.sheet.trump}`}>
    <table class="eu-result-table">
      <thead><tr><th scope="col">Player</th><th scope="col">Bid</th><th scope="col">Took</th><th scope="col">Points</th><th scope="col">Total</th></tr></thead>
      <tbody>
        ${r.sheet.seats.map((s) => html`<tr class=${s.made ? 'scored' : ''}>
          <th scope="row">${s.seat === model.me ? 'You' : model.seats[s.seat].name}</th>
          <td>${s.bid}</td><td>${s.tricks}</td><td title=${s.tip}>${s.points > 0 ? `+${s.points}` : s.points}</td><td>${s.total}</td>
        </tr>`)}
      </tbody>
    </table>
  </${ResultFrame}>`;
}

/** The final standings at game over: place, player, total and bids made, first to last. */
function Standings({ model }) {
  return html`<table class="eu-result-table wh-standings">
    <caption class="visually-hidden">Final standings</caption>
    <thead><tr><th scope="col">Place</th><th scope="col">Player</th><th scope="col">Total</th><th scope="col">Bids made</th></tr></thead>
    <tbody>
      ${model.standings.map((row) => html`<tr class=${row.place === 1 ? 'scored' : ''} data-seat=${row.seat} data-place=${row.place}>
        <td class="wh-place">${row.placeText}</td>
        <th scope="row">${row.name}</th>
        <td class="wh-final">${row.total}</td>
        <td class="wh-made">${row.madeText}</td>
      </tr>`)}
    </tbody>
  </table>`;
}

function GameOver({ model, table, onStart, onLeave }) {
  const paid = model.stake && model.payouts.some((p) => p);
  return html`<${GameOverFrame} id="wh-over-title" className="wh-over" winner=${model.winnersText} model=${model} table=${table} dealt="re-deal every round from the seed." onStart=${onStart} onLeave=${onLeave}>
    <${Standings} model=${model} />
    ${paid
      ? html`<p class="small">${model.seats.filter((s) => model.payouts[s.seat]).map((s) => `${whoIs(s)} ${s.isMe ? 'take' : 'takes'} ${cents(model.payouts[s.seat])}`).join('; ')} from the pot.</p>`
      : null}
  </${GameOverFrame}>`;
}

/** Contract Whist's words for the table's feed (shell/feed.js). */
const whistWords = sentenceWords({
  name: 'contract-whist',
  describe: describeChanges,
  sameDeal: (prev, next) => prev.round_no === next.round_no && prev.game_no === next.game_no,
  taker: (view) => view.takers[view.takers.length - 1],
  flashMs: TRICK_FLASH_MS,
});

export function WhistPage({ table, invite, autoJoin, onGame }) {
  const [sheet, setSheet] = useState(false);
  const sheetOpener = useRef(null);
  const at = usePlaqueTable({
    table,
    invite,
    autoJoin,
    onGame,
    words: whistWords,
    derive,
    sight: whistSight,
    decisionKey: (model, view) =>
      `${model.gameNo}:${model.roundNo}:${model.phase}:${model.myTurn}:${view.bids.length}:${view.played.length}:${view.trick.length}`,
    kinds: CARD_KINDS,
    keys: { s: () => setSheet((open) => !open) },
  });
  const { feed, view, model, flash, lifted, setLifted, lastTrick, handRef, small, onCard, onHandKey } = at;
  if (!view) return html`<${PlaqueTablePage} at=${at} />`;
  const { act, join } = feed;
  const flashTrick = !model.trick.cards.length && flash
    ? placeTrick(flash.cards.map(({ seat, code }) => [seat, code]), model.me, model.n, model.trump, true, flash.winner)
    : null;
  const mine = model.seats.find((s) => s.isMe);
  const start = () => act({ kind: 'start_game' });
  return html`<${PlaqueTablePage}
    at=${at}
    className="whist-page"
    game="contract-whist"
    title="Contract Whist table"
    head=${html`${model.roundNo ? html`<span class="wh-round" data-round=${model.roundNo}>${model.roundText}</span>` : null}
      ${model.cardsText ? html`<span class="wh-cards muted">${model.cardsText}</span>` : null}
      <${TrumpBadge} model=${model} />
      ${model.potText ? html`<span class="wh-pot" title=${model.potText} data-tip=${model.potText}>${model.potText}</span>` : null}
      <button type="button" class="small wh-sheet-open" ref=${sheetOpener} aria-haspopup="dialog" aria-expanded=${sheet ? 'true' : 'false'} aria-keyshortcuts="S" onClick=${() => setSheet(true)}>Score sheet</button>
      <${LastTrick} seats=${model.seats} last=${model.lastTrick || (model.inRound ? null : lastTrick.current)} unit="round" />`}
    plaque=${html`<${Plaque} model=${model} lifted=${lifted} act=${act} onClear=${() => setLifted(null)} onStart=${start} onJoin=${join} />`}
    above=${html`<${BiddingPanel} model=${model} />`}
    feltClass=${`wh-felt seats-${model.n}`}
    felt=${html`${model.seats.map((seat) => html`<${SeatPlate} key=${seat.seat} seat=${seat} model=${model} ...${seatOffers(model, seat, feed)} />`)}
      <div class="eu-centre wh-centre" data-motion="centre">
        ${flashTrick
          ? html`<${TrickArea} trick=${flashTrick} seats=${model.seats} n=${model.n} caption="The trick just taken" />`
          : html`<${TrickArea} trick=${model.trick} seats=${model.seats} n=${model.n} caption="The trick" />`}
      </div>
      ${model.phase === 'interlude' && model.result ? html`<${ResultPanel} model=${model} />` : null}
      ${model.phase === 'ended' ? html`<${GameOver} model=${model} table=${table} onStart=${start} onLeave=${feed.leave} />` : null}`}
    dock=${mine && model.inRound
      ? html`<p class="wh-mine" data-bid=${mine.bid ?? ''} data-tricks=${mine.tricks}>${mine.bid === null || mine.bid === undefined ? 'You have not bid yet' : `You bid ${mine.bid}, took ${mine.tricks}`}</p>`
      : null}
    hand=${html`<${PlaqueHand} model=${model} lifted=${lifted} onCard=${onCard} onKey=${onHandKey} handRef=${handRef} kinds=${CARD_KINDS} className="wh-hand" mark=${trumpMark} />`}
    side=${html`<${TableSide}
      title="Contract Whist"
      about=${html`${model.n} players, ${model.rounds} round${model.rounds === 1 ? '' : 's'}: bid the tricks you will take, exactly. The bids may never total the cards.${model.stake ? ` Stake ${cents(model.stake)} each: the winners share the pot.` : ''} <a href="#/rules/contract-whist">How to play Contract Whist</a>`}
      model=${model}
      view=${view}
      inPlay=${model.inRound}
      unit="round"
      feed=${feed}
      invite=${invite}
      small=${small}
    />`}
    after=${sheet ? html`<${ScoreSheet} model=${model} opener=${sheetOpener} onClose=${() => setSheet(false)} />` : null}
  />`;
}
