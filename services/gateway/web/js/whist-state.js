// What the Contract Whist table page shows, derived from the view a seat receives
// (shared/games/contract_whist/views.py; docs/rules/contract-whist.md §9): pure functions, no DOM.
//
// Seats are numbered 0..n-1 (shown 1..n), 2 to 5 of them. Seen from a seat, the table is drawn
// round from the bottom (you) clockwise: spot k of n is the seat k places after yours.

import { findOption, nextDecision, playDecision } from './decisions.js';
import { cents } from './state.js';
import { fullRankIndex, label, spoken } from './cards.js';
import { ranOut, timedOutSeats } from './shell/words.js';
import { SUIT_LETTERS, SUIT_NAMES, armedLength, playsSince, remaining, seatName, seatingOf, suitOf, suitWords, who } from './suited-state.js';

export { SUIT_LETTERS, SUIT_NAMES, SUIT_SYMBOLS, armedLength, remaining, seatName, suitOf, suitWords } from './suited-state.js';

export const SCHEDULE = [10, 9, 8, 7, 6, 5, 4, 3, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const IN_ROUND = ['bid', 'trump', 'tricks'];

export const PHASE_TEXT = {
  lobby: 'Waiting to start',
  waiting: 'Waiting for players',
  bid: 'Bidding',
  trump: 'Choosing trump',
  tricks: 'Tricks',
  interlude: 'Round over',
  ended: 'Game over',
  closed: 'Table closed',
};

const capital = (text) => text[0].toUpperCase() + text.slice(1);

/** "Hearts ♥ trump", "No trumps", or '' before trump is chosen. */
export function trumpText(trump, noTrumps) {
  if (noTrumps) return 'No trumps';
  if (trump === null || trump === undefined) return '';
  return `${capital(suitWords(suitOf(trump)))} trump`;
}

/** The seat taking a trick so far: the highest trump, else the highest card of the led suit. */
export function trickWinner(trick, trump) {
  if (!trick || !trick.length) return null;
  const led = suitOf(trick[0][1]);
  const rank = ([, code]) => {
    const suit = suitOf(code);
    if (trump !== null && suit === trump) return 100 + fullRankIndex(code);
    if (suit === led) return fullRankIndex(code);
    return -1;
  };
  let best = trick[0];
  for (const play of trick.slice(1)) if (rank(play) > rank(best)) best = play;
  return best[0];
}

/** Hand order for display: suits ♣ ♦ ♥ ♠ with trump last, each high to low. */
export function sortHand(codes, trump = null) {
  const key = (code) => {
    const suit = suitOf(code);
    const suitKey = trump !== null && suit === trump ? 4 : suit;
    return suitKey * 20 + (12 - fullRankIndex(code));
  };
  return [...codes].sort((a, b) => key(a) - key(b));
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A seat's spot round the table seen from `me`: 0 is you (bottom), then clockwise. */
export function spotOf(seat, me, n) {
  const base = me === null || me === undefined ? 0 : me;
  return (seat - base + n) % n;
}

/** "Ann bids 3", "You bid 0". */
export function bidText(view, entry) {
  const name = who(view, entry.seat);
  return `${name} bid${name === 'You' ? '' : 's'} ${entry.bid}`;
}

/** The bids against the cards: "3 bid for 10 tricks: under by 7". */
export function totalText(total, cards) {
  if (total === cards) return `${total} bid for ${plural(cards, 'trick')}`;
  const side = total < cards ? `under by ${cards - total}` : `over by ${total - cards}`;
  return `${total} bid for ${plural(cards, 'trick')}: ${side}`;
}

/** Round scoring in words (rules §6), for the sheet's tips and the result. */
export function pointsText(line, seat) {
  const bid = line.bids[seat];
  const tricks = line.tricks[seat];
  const points = line.points[seat];
  if (tricks !== bid) return `bid ${bid}, took ${tricks}: missed by ${Math.abs(tricks - bid)}, ${points}`;
  if (bid > 0) return `bid ${bid} and made it: ${line.cards} + ${bid} = ${points}`;
  const total = line.bids.reduce((a, b) => a + b, 0);
  return `bid 0 and took none (the bids were ${total > line.cards ? 'over' : 'under'}): ${points}`;
}

const signedPoints = (n) => (n > 0 ? `+${n}` : `${n}`);

/** The bidding: every bid so far with its seat, the total against the cards, who is still to
 * bid and the forbidden bid with its reason. */
export function biddingOf(view) {
  const n = view.seats.length;
  const bids = (view.bids || []).map((b) => ({ ...b, name: who(view, b.seat), text: bidText(view, b) }));
  const first = view.first_bidder;
  const order = first === null || first === undefined ? [] : Array.from({ length: n }, (_, k) => (first + k) % n);
  const toBid = order.slice(bids.length);
  const lastBidder = order.length ? order[n - 1] : null;
  let forbiddenReason = '';
  if (view.forbidden_bid !== null && view.forbidden_bid !== undefined) {
    const option = findOption(view.options || [], 'bid', { bid: view.forbidden_bid });
    forbiddenReason = option && option.reason
      ? option.reason
      : `The bids would total ${view.cards}, the cards in each hand: someone must miss`;
  }
  return {
    bids,
    total: view.bid_total,
    cards: view.cards,
    totalText: totalText(view.bid_total, view.cards),
    order,
    toBid,
    lastBidder,
    lastBidderName: lastBidder === null ? '' : who(view, lastBidder),
    forbidden: view.forbidden_bid ?? null,
    forbiddenReason,
    hookText: lastBidder === null
      ? ''
      : toBid.length === 1 && (view.forbidden_bid === null || view.forbidden_bid === undefined)
        ? `The bids are already over ${view.cards}: ${lastBidder === view.seat ? 'you may' : `${seatName(view, lastBidder)} may`} bid anything.`
      : `The bids may not total ${view.cards}: ${lastBidder === view.seat ? 'you bid last, so one bid is barred to you' : `${seatName(view, lastBidder)} bids last and may not make them`}.`,
  };
}

function decisionOf(view) {
  const options = view.options || [];
  if (!options.length) return null;
  if (view.phase === 'bid') {
    const choices = options
      .filter((o) => o.action.kind === 'bid')
      .sort((a, b) => a.action.bid - b.action.bid)
      .map((o) => ({
        text: String(o.action.bid),
        key: `bid-${o.action.bid}`,
        bid: o.action.bid,
        action: o.action,
        legal: o.legal,
        reason: o.reason,
        forbidden: !o.legal,
      }));
    const forbidden = choices.find((c) => !c.legal);
    return {
      kind: 'bid',
      prompt: `How many of the ${plural(view.cards, 'trick')} will you take?`,
      choices,
      forbidden: forbidden ? forbidden.bid : null,
      forbiddenReason: forbidden ? forbidden.reason : '',
    };
  }
  if (view.phase === 'trump') {
    const suits = SUIT_LETTERS.map((letter, suit) => {
      const o = findOption(options, 'choose_trump', { suit: letter });
      return {
        text: capital(SUIT_NAMES[suit]),
        key: letter,
        suit,
        action: o ? o.action : { kind: 'choose_trump', suit: letter },
        legal: Boolean(o && o.legal),
        reason: o ? o.reason : 'Not offered',
      };
    });
    const none = options.find((o) => o.action.kind === 'choose_trump' && (o.action.suit === null || o.action.suit === undefined));
    return {
      kind: 'trump',
      prompt: 'You bid highest: choose trump, or no trumps.',
      choices: [
        ...suits,
        { text: 'No trumps', key: 'none', suit: null, action: none ? none.action : { kind: 'choose_trump', suit: null }, legal: Boolean(none && none.legal), reason: none ? none.reason : 'Not offered' },
      ],
    };
  }
  if (view.phase === 'tricks') return playDecision(view);
  if (view.phase === 'interlude') return nextDecision(options, 'The round is over.', 'Next round');
  return null;
}

function trumpIndex(view) {
  return view.no_trumps || view.trump === null || view.trump === undefined ? null : suitOf(view.trump);
}

function handOf(view) {
  const trump = trumpIndex(view);
  const byCard = new Map();
  for (const o of view.options || []) if (o.action.card) byCard.set(o.action.card, o);
  const deciding = view.phase === 'tricks';
  return sortHand(view.hand || [], trump).map((code) => {
    const option = byCard.get(code);
    const legal = deciding && option ? option.legal : null;
    const reason = option && !option.legal ? option.reason : '';
    const isTrump = trump !== null && suitOf(code) === trump;
    const tip = [label(code), isTrump ? 'a trump' : '', reason ? `can't be played: ${reason}` : ''].filter(Boolean).join(' — ');
    return { code, legal, reason, trump: isTrump, tip, spoken: `${spoken(code)}${isTrump ? ', trump' : ''}` };
  });
}

/** A trick with each card placed in front of its player. */
export function placeTrick(trick, me, n, trump, done = false, winner = undefined) {
  const taker = winner === undefined ? (trick.length ? trickWinner(trick, trump) : null) : winner;
  return {
    cards: trick.map(([seat, code]) => ({ seat, code, spot: spotOf(seat, me, n), winning: seat === taker })),
    winner: taker,
    done,
  };
}

function waitingText(view, me) {
  const pending = view.to_act || [];
  const n = view.seats.length;
  if (view.phase === 'lobby') return view.host === me ? `Start the game when all ${n} seats are taken.` : 'Waiting for the host to start.';
  if (view.phase === 'waiting') return `Waiting for ${n} players who can play.`;
  if (view.phase === 'ended') return 'The game is over.';
  if (view.phase === 'closed') return 'The table is closed.';
  if (view.phase === 'interlude') return pending.length ? `Waiting for ${pending.map((s) => seatName(view, s)).join(', ')} to see the result…` : 'Dealing the next round…';
  if (!pending.length) return '';
  const name = seatName(view, pending[0]);
  if (view.phase === 'bid') return `${name} is bidding…`;
  if (view.phase === 'trump') return `${name} bid highest and is choosing trump…`;
  return `${name} is playing…`;
}

/** One line of the score sheet, seen by the viewer. */
export function sheetLine(view, line) {
  const n = view.seats.length;
  return {
    roundNo: line.round_no,
    cards: line.cards,
    trump: trumpText(line.trump, line.no_trumps) || '—',
    chooser: line.chooser,
    firstBidder: line.first_bidder,
    seats: Array.from({ length: n }, (_, seat) => ({
      seat,
      bid: line.bids[seat],
      tricks: line.tricks[seat],
      points: line.points[seat],
      total: line.totals[seat],
      made: line.bids[seat] === line.tricks[seat],
      tip: `${who(view, seat)}: ${pointsText(line, seat)}`,
    })),
  };
}

/** The round's result in words: who made their bids, and the points. */
export function resultText(view, line) {
  const n = view.seats.length;
  const parts = Array.from({ length: n }, (_, seat) => {
    const made = line.bids[seat] === line.tricks[seat];
    return `${who(view, seat)} ${made ? 'made' : 'missed'} ${line.bids[seat]} (${line.tricks[seat]} taken, ${signedPoints(line.points[seat])})`;
  });
  return `Round ${line.round_no} (${plural(line.cards, 'card')}, ${trumpText(line.trump, line.no_trumps).toLowerCase()}): ${parts.join('; ')}.`;
}

function winnersText(view) {
  const winners = view.winners || [];
  if (!winners.length) return '';
  const names = winners.map((s) => who(view, s));
  const top = view.scores[winners[0]];
  if (view.end_reason && view.end_reason !== 'rounds') {
    return `The game was cut short: ${names.join(', ')} share${names.length === 1 && names[0] !== 'You' ? 's' : ''} the pot.`;
  }
  if (winners.length === 1) return winners[0] === view.seat ? `You win with ${top} points!` : `${names[0]} wins with ${top} points`;
  return `${names.join(' and ')} tie for the win with ${top} points`;
}

const ordinal = (n) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] || 'th'}`;

/** The final standings, first to last: each seat's total and the bids it made over the rounds
 * scored; equal totals share a place ("Joint 1st"), and the next place skips past them. */
export function standings(view) {
  const sheet = view.sheet || [];
  const rows = view.seats
    .map((s) => {
      const made = sheet.filter((line) => line.bids[s.seat] === line.tricks[s.seat]).length;
      return {
        seat: s.seat,
        name: who(view, s.seat),
        total: s.score,
        made,
        rounds: sheet.length,
        madeText: `${made} of ${plural(sheet.length, 'bid')} made`,
      };
    })
    .sort((a, b) => b.total - a.total || a.seat - b.seat);
  return rows.map((row) => {
    const place = 1 + rows.filter((other) => other.total > row.total).length;
    const tied = rows.some((other) => other !== row && other.total === row.total);
    return { ...row, place, tied, placeText: `${tied ? 'Joint ' : ''}${ordinal(place)}` };
  });
}

export function derive(view, now = Date.now()) {
  const me = view.seat === undefined ? null : view.seat;
  const spectator = me === null;
  const n = view.seats.length;
  const trump = trumpIndex(view);
  const pending = new Set(view.to_act || []);
  const inRound = IN_ROUND.includes(view.phase);
  const seats = view.seats.map((s) => {
    const player = s.player;
    return {
      seat: s.seat,
      spot: spotOf(s.seat, me, n),
      name: player ? player.name : `Seat ${s.seat + 1}`,
      empty: !player,
      bot: player ? player.bot || null : null,
      isMe: s.seat === me,
      firstBidder: inRound && s.seat === view.first_bidder,
      chooser: inRound && s.seat === view.chooser,
      bid: s.bid,
      tricks: s.tricks,
      score: s.score,
      cards: s.cards,
      acting: (inRound || view.phase === 'interlude') && pending.has(s.seat),
      connected: s.connected,
      away: s.away,
      sittingOut: s.sitting_out,
      leaving: s.leaving,
      winner: (view.winners || []).includes(s.seat),
      payout: (view.payouts || [])[s.seat] || 0,
      bidTip: s.bid === null || s.bid === undefined
        ? `${s.seat === me ? 'You have' : `${player ? player.name : 'This seat'} has`} not bid yet`
        : `${s.seat === me ? 'You' : player ? player.name : 'This seat'} bid ${s.bid} and took ${s.tricks} so far`,
    };
  });
  const myTurn = !spectator && pending.has(me) && (view.options || []).length > 0;
  const decision = myTurn ? decisionOf(view) : null;
  const played = view.played || [];
  const last = played.length
    ? { ...placeTrick(played[played.length - 1], me, n, trump, true, view.takers[played.length - 1]), roundNo: view.round_no, number: played.length }
    : null;
  const stake = view.config ? view.config.stake || 0 : 0;
  return {
    game: 'contract-whist',
    view,
    me,
    spectator,
    n,
    phase: view.phase,
    phaseText: PHASE_TEXT[view.phase] || view.phase,
    roundNo: view.round_no,
    rounds: view.rounds,
    cards: view.cards,
    roundText: view.round_no ? `Round ${view.round_no} of ${view.rounds}` : '',
    cardsText: view.round_no && view.cards && inRound ? `${plural(view.cards, 'card')} each` : '',
    gameNo: view.game_no,
    inRound,
    between: !inRound,
    trump,
    noTrumps: view.no_trumps,
    trumpText: trumpText(view.trump, view.no_trumps),
    chooser: view.chooser,
    firstBidder: view.first_bidder,
    bidding: biddingOf(view),
    seats,
    myTurn,
    decision,
    hand: handOf(view),
    trick: placeTrick(view.trick || [], me, n, trump),
    lastTrick: last,
    sheet: (view.sheet || []).map((line) => sheetLine(view, line)),
    scores: view.scores,
    stake,
    pot: view.pot,
    potText: !stake
      ? ''
      : view.phase === 'ended' && !view.pot
        ? `Stake ${cents(stake)} each: the pot is paid out`
        : `Pot ${cents(view.pot)} (stake ${cents(stake)} each)`,
    remaining: remaining(view, now),
    timerMs: armedLength(view),
    waiting: myTurn ? 'Your turn' : waitingText(view, me),
    result: view.result ? { roundNo: view.result.round_no, line: resultText(view, view.result), sheet: sheetLine(view, view.result) } : null,
    fingerprint: view.fingerprint || '',
    seed: view.seed || null,
    winners: view.winners || [],
    winnersText: winnersText(view),
    standings: view.phase === 'ended' ? standings(view) : [],
    payouts: view.payouts || [],
    endReason: view.end_reason,
    ...seatingOf(view, me, spectator, inRound),
  };
}

/** What a screen reader hears when the view changes: the bids, trump, the cards played, who
 * took each trick, the round's points and the game's end. */
export function describeChanges(prev, next) {
  const said = [];
  if (!next) return said;
  const newRound = !prev || prev.round_no !== next.round_no || prev.game_no !== next.game_no;
  if (newRound && IN_ROUND.includes(next.phase)) {
    said.push(`Round ${next.round_no} of ${next.rounds}: ${plural(next.cards, 'card')} each; ${who(next, next.first_bidder)} ${next.first_bidder === next.seat ? 'bid' : 'bids'} first.`);
  }
  const timedOut = timedOutSeats(prev, next);
  const chose = (seat, text) => (timedOut.has(seat) ? ranOut(text) : text);
  const prevBids = !newRound && prev ? prev.bids.length : 0;
  for (const b of next.bids.slice(prevBids)) said.push(chose(b.seat, `${bidText(next, b)}.`));
  if (next.bids.length > prevBids && next.bids.length === next.seats.length) {
    said.push(`All bids in: ${totalText(next.bid_total, next.cards)}.`);
  }
  const hadTrump = !newRound && prev && (prev.no_trumps || prev.trump);
  if (!hadTrump && (next.no_trumps || next.trump) && next.chooser !== null) {
    const name = who(next, next.chooser);
    said.push(chose(next.chooser, next.no_trumps
      ? `${name} ${name === 'You' ? 'choose' : 'chooses'} no trumps.`
      : `${name} ${name === 'You' ? 'choose' : 'chooses'} ${suitWords(suitOf(next.trump))} as trump.`));
  }
  for (const item of playsSince(prev, next, newRound, next.takers)) {
    if (item.p) {
      const [seat, code] = item.p;
      said.push(chose(seat, `${who(next, seat)} play${seat === next.seat ? '' : 's'} the ${spoken(code)}.`));
    } else {
      const s = next.seats[item.won];
      const tally = s && s.bid !== null && s.bid !== undefined ? ` (${s.tricks} of ${s.bid} bid)` : '';
      said.push(`${who(next, item.won)} take${item.won === next.seat ? '' : 's'} the trick${tally}.`);
    }
  }
  const result = next.result;
  if (result && (!prev || !prev.result || prev.result.round_no !== result.round_no || prev.game_no !== next.game_no)) {
    const totals = next.seats.map((s) => `${who(next, s.seat)} ${result.totals[s.seat]}`).join(', ');
    said.push(`${resultText(next, result)} Totals: ${totals}.`);
  }
  if (next.phase === 'ended' && (!prev || prev.phase !== 'ended')) {
    const text = winnersText(next);
    if (text) said.push(`Game over: ${text}`);
  }
  const mine = (v) => v.seat !== null && v.to_act.includes(v.seat) && (v.options || []).length > 0 && IN_ROUND.includes(v.phase);
  const sameDecision = prev && !newRound && mine(prev) && prev.phase === next.phase && prev.bids.length === next.bids.length && prev.trick.length === next.trick.length && prev.played.length === next.played.length;
  if (mine(next) && !sameDecision) said.push('Your turn.');
  return said;
}
