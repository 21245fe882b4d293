// The table as the client knows it, and what to show of it. Pure: no DOM, no socket, no clock
// of its own (the caller passes `now`), so tests/web/state.test.mjs runs it under node.
//
// The server sends the seat's whole view: a `snapshot` (on watch, on sync) and then `update`s in
// `seq` order, each the previous `seq` + 1 (docs/protocol.md). `applyFrame` keeps the newest
// view and says when a gap means the client must ask for a `sync`; `derive` turns a view into
// what the table page draws; `describeChanges` words what happened between two views for the
// screen reader, the hand log and the sounds.

import { label, labels, rankIndex, suitIndex } from './cards.js';
import { ranOut, timedOutSeats } from './shell/words.js';

export const BETWEEN_HANDS = new Set(['lobby', 'waiting', 'interlude', 'ante', 'ready', 'ended']);
const IN_HAND = new Set([
  'trump',
  'knock',
  'draw',
  'dealer_knock',
  'dealer_draw',
  'dealer_discard',
  'face_trump',
  'tricks',
]);

// Frames.

export function newTableState(table) {
  return { table, seq: 0, view: null, resync: true };
}

/** After a reconnect: the next snapshot is taken whatever its seq. */
export function markStale(state) {
  return { ...state, resync: true };
}

/**
 * Apply one server frame. Returns `{ state, sync, changed }`: `sync` is true when the client
 * must ask for a fresh snapshot (an update arrived out of order), `changed` when the view moved.
 */
export function applyFrame(state, frame) {
  const same = { state, sync: false, changed: false };
  if (!frame || frame.table !== state.table) return same;
  if (frame.type === 'snapshot') {
    if (state.view !== null && !state.resync && frame.seq < state.seq) return same;
    const next = { ...state, seq: frame.seq, view: frame.view, resync: false };
    return { state: next, sync: false, changed: true };
  }
  if (frame.type === 'update') {
    if (state.view === null) return { state: { ...state, resync: true }, sync: true, changed: false };
    if (frame.seq <= state.seq) return same; // already seen
    if (frame.seq !== state.seq + 1) {
      return { state: { ...state, resync: true }, sync: true, changed: false };
    }
    const next = { ...state, seq: frame.seq, view: frame.view, resync: false };
    return { state: next, sync: false, changed: true };
  }
  return same;
}

// Small helpers.

export function cents(amount) {
  const sign = amount < 0 ? '−' : '';
  return `${sign}${Math.abs(amount).toLocaleString('en-US')}¢`;
}

export function signed(amount) {
  if (amount > 0) return `+${cents(amount)}`;
  if (amount === 0) return '±0¢';
  return cents(amount);
}

export function seatName(view, seat) {
  const player = view && view.seats[seat] && view.seats[seat].player;
  return player ? player.name : `Seat ${seat + 1}`;
}

function who(view, seat, me) {
  return seat === me ? 'You' : seatName(view, seat);
}

function list(names) {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The seat that wins a trick: the highest trump, else the highest card of the led suit. */
export function trickWinner(trick, trumpSuit) {
  if (!trick.length) return null;
  const led = suitIndex(trick[0][1]);
  let best = trick[0];
  for (const play of trick.slice(1)) {
    const [bestSuit, suit] = [suitIndex(best[1]), suitIndex(play[1])];
    if (suit === bestSuit) {
      if (rankIndex(play[1]) > rankIndex(best[1])) best = play;
    } else if (suit === trumpSuit && bestSuit !== trumpSuit) {
      best = play;
    } else if (suit === led && bestSuit !== trumpSuit && bestSuit !== led) {
      best = play;
    }
  }
  return best[0];
}

/** How long the pending decision was given: the short grace once only away seats are pending
 * (rules §3), else the table's timer; what the countdown ring measures the time left against. */
export function armedLength(view) {
  if (!view.config) return null;
  if (view.phase === 'interlude') return view.config.interlude_ms;
  const pending = view.to_act.map((seat) => view.seats[seat]);
  const allAway = pending.length > 0 && pending.every((s) => s && s.away);
  return allAway && view.config.away_grace_ms ? view.config.away_grace_ms : view.config.timer_ms;
}

/** Milliseconds left before the view's deadline, or null when there is none. */
export function remaining(view, now) {
  if (!view || view.deadline === null || view.deadline === undefined) return null;
  const left = Math.max(0, view.deadline - now);
  const cap = view.config && view.config.timer_ms ? view.config.timer_ms : null;
  return cap ? Math.min(left, cap) : left; // a clock that runs ahead never shows more than the timer
}

export const PHASE_TEXT = {
  lobby: 'Waiting to start',
  waiting: 'Waiting for players',
  ante: 'Ante',
  ready: 'Ready-up',
  trump: 'Trump decision',
  knock: 'Knock or pass',
  draw: 'Draw',
  dealer_knock: "Dealer's knock",
  dealer_draw: "Dealer's draw",
  dealer_discard: "Dealer's discard",
  face_trump: 'Face trump',
  tricks: 'Tricks',
  interlude: 'Hand result',
  ended: 'Game over',
  closed: 'Closed',
};

/** Why the game ended, in words (`end_reason`: shared/games/swick/state.py GameEndReason). */
export function endText(view) {
  if (!view || (view.phase !== 'ended' && view.phase !== 'closed')) return '';
  if (view.phase === 'closed') return 'The table closed: nobody was left playing at it';
  if (view.end_reason === 'host') return 'The host ended the game';
  if (view.end_reason === 'no_dealer') {
    const dealerPays = Math.min(...view.config.antes) + 3;
    return `Nobody at the table can pay the ${cents(dealerPays)} a dealer pays, so no hand can start`;
  }
  return '';
}

const SPECIAL_TEXT = {
  three_aces: 'three Aces',
  three_sevens: 'three 7s',
  ace_king_queen_of_trump: 'A-K-Q of trump',
};

// The hand's outcome.

/** Words and numbers for a hand's `result` (shared/games/swick/state.py HandResult). */
export function summarizeResult(view, me = null) {
  const r = view && view.result;
  if (!r) return null;
  const name = (seat) => who(view, seat, me);
  const winners = r.payouts.map((p, seat) => [seat, p]).filter(([, p]) => p > 0);
  const lines = r.delta
    .map((delta, seat) => ({
      seat,
      name: seatName(view, seat),
      isMe: seat === me,
      ante: r.antes[seat],
      tricks: r.tricks[seat],
      payout: r.payouts[seat],
      penalty: r.penalties[seat],
      set: r.sets[seat],
      delta,
      played:
        Boolean(view.seats[seat] && view.seats[seat].player) ||
        r.antes[seat] > 0 ||
        r.payouts[seat] > 0 ||
        r.penalties[seat] > 0,
    }))
    .filter((line) => line.played);
  let headline;
  const winnerNames = list(winners.map(([seat]) => name(seat)));
  if (r.ending === 'all_passed') {
    headline = `${winnerNames} ${winners.length === 1 && winners[0][0] === me ? 'win' : 'wins'} the pot of ${cents(r.pot)}: everyone else passed`;
  } else if (r.ending === 'last_standing') {
    headline = `${winnerNames} ${winners[0] && winners[0][0] === me ? 'win' : 'wins'} the pot of ${cents(r.pot)} with no tricks played`;
  } else if (r.ending === 'special') {
    const s = r.special;
    headline = `${name(s.seat)} ${s.seat === me ? 'win' : 'wins'} the pot of ${cents(r.pot)} with ${SPECIAL_TEXT[s.kind] || s.kind}`;
  } else {
    const tricks = r.tricks
      .map((n, seat) => [seat, n])
      .filter(([, n]) => n > 0)
      .map(([seat, n]) => `${name(seat)} ${n}`);
    headline = `Tricks: ${tricks.join(', ')} (each worth ${cents(Math.floor(r.pot / 3))})`;
  }
  const sets = r.sets
    .map((kind, seat) => [seat, kind])
    .filter(([, kind]) => kind)
    .map(([seat, kind]) => ({
      seat,
      name: name(seat),
      kind,
      amount: r.penalties[seat],
      text: `${name(seat)} went set ${kind === 'double' ? 'double' : ''} for ${cents(r.penalties[seat])}`.replace(
        '  ',
        ' ',
      ),
    }));
  const special = r.special
    ? {
        seat: r.special.seat,
        name: name(r.special.seat),
        kind: r.special.kind,
        kindText: SPECIAL_TEXT[r.special.kind] || r.special.kind,
        cards: r.special.cards,
      }
    : null;
  const nextPot = r.carry_out ? r.carry_out + 3 : null;
  return {
    handNo: r.hand_no,
    ending: r.ending,
    pot: r.pot,
    carryIn: r.carry_in,
    carryOut: r.carry_out,
    nextPot,
    headline,
    sets,
    special,
    lines,
    mine: me === null ? null : r.delta[me],
    carryText: r.carry_out
      ? `${cents(r.carry_out)} carries over: next hand is a free ride, pot ${cents(nextPot)}`
      : 'Nothing carries over',
  };
}

// The decision in front of this seat.

function optionsOf(view, kind) {
  return (view.options || []).filter((o) => o.action.kind === kind);
}

const keyOf = (codes) => [...codes].sort().join(' ');

/** The option of a draw that discards exactly `codes`, or null. */
export function drawOption(view, codes) {
  const key = keyOf(codes);
  return optionsOf(view, 'draw').find((o) => keyOf(o.action.discards) === key) || null;
}

/** A decision's buttons: each option with its text and, when `primary` is given, whether it is
 * the button to press by default. */
function choicesOf(options, text, primary) {
  return options.map((o) => ({
    action: o.action,
    text: text(o.action),
    legal: o.legal,
    reason: o.reason,
    ...(primary ? { primary: primary(o.action) } : {}),
  }));
}

function decisionOf(view, me) {
  const options = view.options || [];
  if (!options.length) return null;
  const kind = options[0].action.kind;
  const dealer = view.dealer === me;
  const trump = view.trump_card ? label(view.trump_card) : '';
  switch (kind) {
    case 'ante':
      return {
        kind,
        prompt: 'You deal this hand: set the ante',
        detail: 'Everyone else pays the ante; you pay it plus 3¢.',
        choices: choicesOf(optionsOf(view, 'ante'), (a) => `Ante ${cents(a.amount)}`),
      };
    case 'next_hand':
      return {
        kind,
        prompt: `Hand ${view.hand_no} is over`,
        detail: 'The next hand starts when everyone has seen the result, or when the time is up.',
        choices: choicesOf(options, () => 'Next hand', () => true),
      };
    case 'ready':
    case 'skip_hand': {
      const ante = view.free_ride ? 0 : view.ante;
      return {
        kind: 'ready',
        prompt: view.free_ride
          ? `Hand ${view.hand_no + 1} is a free ride: play it for no ante?`
          : `Play the next hand? The ante is ${cents(ante)}.`,
        detail: '',
        choices: choicesOf(
          options,
          (a) => (a.kind === 'ready' ? 'Ready' : 'Skip this hand'),
          (a) => a.kind === 'ready',
        ),
      };
    }
    case 'trump':
      return {
        kind,
        prompt: `Keep the trump card ${trump} or leave it?`,
        detail:
          'Keeping it adds it to your hand (it can never be discarded) and commits you: pass later and you go set.',
        choices: choicesOf(options, (a) => (a.keep ? 'Keep trump' : 'Leave it'), (a) => a.keep),
      };
    case 'knock': {
      let detail = 'Knock to play the hand (win a trick or go set); pass to sit it out.';
      if (dealer && view.kept) {
        detail = 'You kept the trump card: passing now sets you single.';
      }
      return {
        kind,
        prompt: dealer ? 'Your cards are turned up: knock or pass?' : 'Knock or pass?',
        detail,
        choices: choicesOf(options, (a) => (a.knock ? 'Knock' : 'Pass'), (a) => a.knock),
      };
    }
    case 'draw':
      return {
        kind,
        prompt: 'Choose up to 3 cards to discard, then draw as many',
        detail: dealer && view.kept ? 'The kept trump card can never be discarded.' : '',
        choices: [],
      };
    case 'discard':
      return {
        kind,
        prompt: 'You hold 4 cards: choose one to discard',
        detail: 'Not the kept trump card.',
        choices: [],
      };
    case 'face_trump':
      return {
        kind,
        prompt: `You kept a face trump (${trump}): play for 2 tricks, or set single now?`,
        detail: `Play: win 2 tricks or go set double (${cents(2 * view.pot)}). Set single: drop out and pay ${cents(view.pot)} now.`,
        choices: choicesOf(options, (a) => (a.play ? 'Play' : 'Set single'), (a) => a.play),
      };
    case 'play': {
      const lead = !view.trick.length;
      return {
        kind,
        prompt: lead ? 'Your lead: pick a card, then play it' : 'Your turn: pick a card, then play it',
        detail: '',
        choices: [],
      };
    }
    default:
      return { kind, prompt: 'Your decision', detail: '', choices: [] };
  }
}

/** Each card of the hand with what may be done with it now. */
function handOf(view, decision) {
  const byCard = new Map();
  if (decision && (decision.kind === 'play' || decision.kind === 'discard')) {
    for (const o of optionsOf(view, decision.kind)) byCard.set(o.action.card, o);
  }
  if (decision && decision.kind === 'draw') {
    for (const o of optionsOf(view, 'draw')) {
      if (o.action.discards.length === 1) byCard.set(o.action.discards[0], o);
    }
  }
  return view.hand.map((code, index) => {
    const option = code ? byCard.get(code) : undefined;
    return {
      index,
      code,
      hidden: code === null,
      kept: Boolean(code && view.kept && code === view.trump_card),
      legal: option ? option.legal : null, // null: no decision about this card now
      reason: option ? option.reason : '',
    };
  });
}

function seatStatusText(view, s) {
  if (!s.player) return 'Empty seat';
  const parts = [];
  if (s.status === 'in') parts.push('Knocked in');
  else if (s.status === 'passed') parts.push('Passed');
  else if (s.status === 'dropped') parts.push('Set single');
  else if (s.status === 'dealt') parts.push('Dealt in');
  else if (s.sitting_out) parts.push('Sitting out');
  else if (view.phase === 'ready' && s.ready) parts.push('Ready');
  if (s.leaving) parts.push('Leaving');
  if (!s.connected && !s.player.bot) parts.push('Disconnected');
  else if (s.away) parts.push('Away');
  return parts.join(' · ');
}

function waitingText(view, me) {
  const acting = view.to_act.filter((seat) => seat !== me).map((seat) => seatName(view, seat));
  const names = list(acting);
  const dealer = view.dealer === null ? '' : seatName(view, view.dealer);
  switch (view.phase) {
    case 'lobby':
      if (me !== null && view.host === me) {
        const seated = view.seats.filter((s) => s.player).length;
        return seated >= 3
          ? 'Everyone is here: start the game when you are ready'
          : `Invite players or add bots: a game needs 3 (${seated} seated)`;
      }
      return 'Waiting for the host to start the game';
    case 'waiting':
      return 'Waiting for players: a hand needs 3 who can cover the ante';
    case 'ended':
      return endText(view) || 'The game is over';
    case 'closed':
      return `${endText(view)}. Find another table in the lobby`;
    case 'ante':
      return `${dealer} deals and is setting the ante`;
    case 'ready':
      return names ? `Waiting for ${names} to ready up` : 'Dealing…';
    case 'interlude':
      return names ? `Waiting for ${names} to see the result` : 'The next hand is starting';
    case 'trump':
      return `${dealer} decides on the trump card`;
    case 'knock':
      return `${names} to knock or pass`;
    case 'draw':
      return `${names} is drawing`;
    case 'dealer_knock':
      return `${dealer} looks at the cards: knock or pass`;
    case 'dealer_draw':
    case 'dealer_discard':
      return `${dealer} is drawing`;
    case 'face_trump':
      return `${dealer} decides: play the face trump or set single`;
    case 'tricks':
      return `${names} to play`;
    default:
      return '';
  }
}

function hostControls(view, me) {
  if (me === null || view.host !== me) return null;
  const seated = view.seats.filter((s) => s.player);
  const between = BETWEEN_HANDS.has(view.phase);
  const canStart = view.phase === 'lobby' || view.phase === 'ended';
  const canEnd = ['ante', 'ready', 'waiting'].includes(view.phase);
  return {
    start: canStart
      ? {
          legal: seated.length >= 3,
          reason: seated.length >= 3 ? '' : 'A game needs at least 3 players seated',
        }
      : null,
    end: canEnd
      ? {
          legal: view.carry === 0,
          reason: view.carry
            ? `${cents(view.carry)} of set money is carried: play on until a hand ends with nobody set`
            : '',
        }
      : null,
    handOver: seated.filter((s) => s.seat !== me && !s.player.bot).map((s) => s.seat),
    addBot: between ? view.seats.filter((s) => !s.player).map((s) => s.seat) : [],
  };
}

/** Everything the table page shows, from one view. */
export function derive(view, now = Date.now()) {
  if (!view) return null;
  const me = view.seat;
  const n = view.seats.length;
  const anchor = me === null ? 0 : me;
  const decision = me !== null && view.to_act.includes(me) ? decisionOf(view, me) : null;
  const trumpSuit = view.trump_card ? suitIndex(view.trump_card) : null;
  const seats = view.seats.map((s) => ({
    seat: s.seat,
    pos: (s.seat - anchor + n) % n,
    empty: !s.player,
    name: s.player ? s.player.name : `Seat ${s.seat + 1}`,
    bot: s.player ? s.player.bot : null,
    isMe: s.seat === me,
    isDealer: s.seat === view.dealer,
    isHost: s.seat === view.host,
    acting: view.to_act.includes(s.seat),
    stack: s.stack,
    net: s.net,
    ante: s.ante,
    status: s.status,
    statusText: seatStatusText(view, s),
    cards: s.cards,
    drew: s.drew,
    tricks: s.tricks,
    connected: s.connected,
    away: s.away,
    timeouts: s.timeouts || 0,
    sittingOut: s.sitting_out,
    leaving: s.leaving,
    ready: s.ready,
  }));
  const mine = me === null ? null : view.seats[me];
  const between = BETWEEN_HANDS.has(view.phase);
  const lastTrick = view.played.length ? view.played[view.played.length - 1] : null;
  return {
    seat: me,
    spectator: me === null,
    phase: view.phase,
    phaseText: PHASE_TEXT[view.phase] || view.phase,
    between,
    gameNo: view.game_no,
    handNo: view.hand_no,
    dealer: view.dealer,
    host: view.host,
    isHost: me !== null && view.host === me,
    toAct: view.to_act,
    myTurn: decision !== null,
    waiting: waitingText(view, me),
    remaining: remaining(view, now),
    timerMs: armedLength(view),
    decisionTimerMs: view.config ? view.config.timer_ms : null,
    // Alone with bots in every other seat: nothing to invite anyone to, nobody else to host.
    solo: me !== null && view.seats.every((s) => s.seat === me || (s.player && s.player.bot)),
    // The table decides for this seat after a short grace until its player is back.
    away: Boolean(mine && mine.player && mine.away && mine.connected && !mine.sitting_out),
    graceMs: view.config ? view.config.away_grace_ms : null,
    // The table pauses on each hand's result: the result shows during that pause only, never
    // over the next hand's decisions.
    interludes: Boolean(view.config && view.config.interlude_ms),
    seats,
    trump: view.trump_card ? { code: view.trump_card, kept: view.kept, suit: trumpSuit } : null,
    stock: view.stock,
    pot: view.pot,
    carry: view.carry,
    ante: view.ante,
    freeRide: view.free_ride,
    trickValue: Math.floor(view.pot / 3),
    hand: handOf(view, decision),
    discarded: view.discarded,
    decision,
    trick: view.trick.map(([seat, code]) => ({ seat, code })),
    lastTrick: lastTrick
      ? { cards: lastTrick.map(([seat, code]) => ({ seat, code })), winner: trickWinner(lastTrick, trumpSuit) }
      : null,
    tricksPlayed: view.played.length,
    result: summarizeResult(view, me),
    standings: view.standings,
    endText: endText(view),
    fingerprint: view.fingerprint,
    seed: view.seed,
    host_controls: hostControls(view, me),
    canSitOut: mine !== null && mine.player !== null,
    sittingOut: Boolean(mine && mine.sitting_out),
    leaving: Boolean(mine && mine.leaving),
    inHand: Boolean(mine && mine.status),
    canJoin: me === null && between && view.phase !== 'ended' ? view.seats.filter((s) => !s.player).map((s) => s.seat) : [],
  };
}

// What changed between two views, in words.

/**
 * Announcements for the change from `prev` to `next` (either may be null), newest last. Each is
 * `{ text, sound }` with `sound` one of 'turn', 'card', 'win', 'set', 'deal' or null.
 */
export function describeChanges(prev, next) {
  const out = [];
  if (!next) return out;
  const me = next.seat;
  const say = (text, sound = null) => out.push({ text, sound });
  // What a table says each time it sets up a hand: said once however often the round re-opens.
  const round = (text, sound = null) => out.push({ text, sound, round: true });
  const name = (seat) => who(next, seat, me);
  if (!prev) {
    if (me !== null && next.to_act.includes(me)) say(turnText(next), 'turn');
    return out;
  }
  // A seat whose count of timeouts grew had its decision taken for it: say so, not as a choice.
  const timedOut = timedOutSeats(prev, next);
  const chose = (seat, text) => (timedOut.has(seat) ? ranOut(text) : text);
  // Seats coming and going.
  next.seats.forEach((s, seat) => {
    const before = prev.seats[seat];
    if (!before) return;
    if (s.player && (!before.player || before.player.id !== s.player.id)) {
      say(`${s.player.name} sat down${s.player.bot ? ` (${s.player.bot} bot)` : ''}`);
    } else if (!s.player && before.player) {
      say(`${before.player.name} left the table`);
    } else if (s.player && !s.player.bot && seat !== me) {
      if (before.connected && !s.connected) say(`${s.player.name} disconnected`);
      if (!before.connected && s.connected) say(`${s.player.name} is back`);
    }
  });
  if (next.game_no !== prev.game_no && next.fingerprint) {
    say(`Game ${next.game_no} started. Seed fingerprint ${next.fingerprint.slice(0, 16)}…`, 'deal');
  }
  if (prev.phase === 'ready') {
    for (const seat of timedOut) round(chose(seat, `${name(seat)} sat this hand out`));
  }
  if (next.hand_no !== prev.hand_no && next.trump_card) {
    const mine = next.hand.filter(Boolean);
    const yours = mine.length ? ` You hold ${labels(mine)}.` : '';
    const ride = next.free_ride ? ' Free ride.' : '';
    say(`Hand ${next.hand_no} dealt.${ride} Trump is ${label(next.trump_card)}, pot ${cents(next.pot)}.${yours}`, 'deal');
  }
  if (prev.phase === 'trump' && next.phase !== 'trump' && next.hand_no === prev.hand_no) {
    const verb = next.kept ? 'kept' : 'left';
    say(chose(next.dealer, `${name(next.dealer)} ${verb} the trump card ${label(next.trump_card)}`));
  }
  if (next.hand_no === prev.hand_no) {
    next.seats.forEach((s, seat) => {
      const before = prev.seats[seat];
      if (!before || before.status === s.status) return;
      if (before.status === 'dealt' && s.status === 'in') say(chose(seat, `${name(seat)} knocked`));
      if (before.status === 'dealt' && s.status === 'passed') say(chose(seat, `${name(seat)} passed`));
      if (s.status === 'dropped') say(chose(seat, `${name(seat)} chose to set single`));
    });
    next.seats.forEach((s, seat) => {
      const before = prev.seats[seat];
      if (before && before.drew === null && s.drew !== null) {
        say(chose(seat, `${name(seat)} drew ${plural(s.drew, 'card')}`));
      }
    });
  }
  // Cards played: the current trick, and any trick completed since the last view.
  const seen = new Set(prev.hand_no === next.hand_no ? prev.trick.map(([s, c]) => `${s}${c}`) : []);
  const prevPlayed = prev.hand_no === next.hand_no ? prev.played.length : 0;
  const trumpSuit = next.trump_card ? suitIndex(next.trump_card) : null;
  const finished = next.played.slice(prevPlayed);
  const playedNow = [...finished.flat(), ...next.trick];
  for (const [seat, code] of playedNow) {
    if (seen.has(`${seat}${code}`)) continue;
    say(chose(seat, `${name(seat)} played ${label(code)}`), 'card');
  }
  finished.forEach((trick, k) => {
    const winner = trickWinner(trick, trumpSuit);
    say(`${name(winner)} ${winner === me ? 'win' : 'wins'} trick ${prevPlayed + k + 1}`, winner === me ? 'win' : null);
  });
  // The hand's result.
  if (next.result && (!prev.result || prev.result.hand_no !== next.result.hand_no)) {
    const summary = summarizeResult(next, me);
    say(`Hand ${summary.handNo}: ${summary.headline}.`, summary.mine > 0 ? 'win' : null);
    for (const set of summary.sets) say(`${set.text}.`, set.seat === me ? 'set' : null);
    if (summary.carryOut) say(`${summary.carryText}.`);
    if (summary.mine !== null && summary.lines.some((l) => l.isMe)) {
      say(`Your change this hand: ${signed(summary.mine)}.`);
    }
  }
  // Who deals next: after the last card, trick and result of the hand that just ended.
  if (next.phase === 'ante' && prev.phase !== 'ante' && next.dealer !== null) {
    round(`${name(next.dealer)} ${next.dealer === me ? 'deal' : 'deals'} the next hand`);
  }
  if (next.phase === 'closed' && prev.phase !== 'closed') {
    say(`${endText(next)}.`);
  } else if (next.phase === 'ended' && prev.phase !== 'ended') {
    const standings = next.standings.map((s) => `${s.name} ${signed(s.net)}`).join(', ');
    const why = endText(next);
    say(`The game is over.${why ? ` ${why}.` : ''} Final standings: ${standings}.`, 'win');
  }
  // Whose turn.
  const mineNow = me !== null && next.to_act.includes(me);
  const mineBefore = me !== null && prev.to_act.includes(me) && prev.phase === next.phase;
  if (mineNow && (!mineBefore || next.hand_no !== prev.hand_no)) {
    (BETWEEN_HANDS.has(next.phase) ? round : say)(turnText(next), 'turn');
  }
  return out;
}

/**
 * The announcements not yet heard: a round's announcement (see `describeChanges`) already made
 * since the last hand was dealt is dropped, so a table whose set-up re-opens again and again
 * (an away player sitting each hand out) does not repeat itself. `heard` keeps the texts; it is
 * emptied once a hand is under way.
 */
export function unrepeated(said, heard, phase) {
  if (IN_HAND.has(phase)) heard.clear();
  return said.filter((a) => {
    if (!a.round) return true;
    if (heard.has(a.text)) return false;
    heard.add(a.text);
    return true;
  });
}

function turnText(view) {
  const decision = decisionOf(view, view.seat);
  if (!decision) return 'Your turn.';
  const end = /[.?!]$/.test(decision.prompt) ? '' : '.';
  if (decision.prompt.startsWith('Your ')) return `${decision.prompt}${end}`;
  return `Your turn. ${decision.prompt}${end}`;
}

export function isInHand(phase) {
  return IN_HAND.has(phase);
}

// The hand log across reloads and reconnects.
//
// A page that starts watching a table is sent a `history` (docs/protocol.md): the table's
// recent chat, and its own views of the table's recent commands. The log words the changes
// between consecutive views, whichever way they came. `cover` says what the log has worded:
// null (nothing yet) or `{ from, to, view }`, the changes from the first view the page saw (at
// seq `from`) up to `view`, at seq `to`. Nothing in it is worded twice, so a reconnect (which
// sends the history again) doubles no line.

/**
 * The lines a view (from a snapshot or an update) adds to the log, and the new cover. The first
 * view's lines (your turn, say) are marked `base`: a history that arrives later words how the
 * table got there, and takes their place.
 */
export function wordView(cover, view, heard) {
  if (cover && view.seq <= cover.to) return { said: [], cover };
  const said = unrepeated(describeChanges(cover ? cover.view : null, view), heard, view.phase);
  if (!cover) return { said: said.map((s) => ({ ...s, base: true })), cover: { from: view.seq, to: view.seq, view } };
  return { said, cover: { from: cover.from, to: view.seq, view } };
}

/**
 * The lines a history's `views` add to the log: `before` goes ahead of what the log has (the
 * changes up to the first view the page saw, which it never saw happen), `after` goes after it
 * (the changes since the last view it worded). Views already worded add nothing.
 */
export function wordHistory(cover, views, heard) {
  const sorted = [...views].sort((a, b) => a.seq - b.seq);
  const chain = (list, start, known) => {
    const said = [];
    let prev = start;
    for (const view of list) {
      if (prev) said.push(...unrepeated(describeChanges(prev, view), known, view.phase));
      prev = view;
    }
    return { said, last: prev };
  };
  if (!cover) {
    if (!sorted.length) return { before: [], after: [], cover: null };
    const { said, last } = chain(sorted, null, heard);
    return { before: [], after: said, cover: { from: sorted[0].seq, to: last.seq, view: last } };
  }
  const early = sorted.filter((v) => v.seq <= cover.from);
  const late = sorted.filter((v) => v.seq > cover.to);
  const before = chain(early, null, new Set()).said;
  const { said: after, last } = chain(late, cover.view, heard);
  return {
    before,
    after,
    cover: { from: early.length ? early[0].seq : cover.from, to: last.seq, view: last },
  };
}

/**
 * The `seq` to send with a `watch`: the server's history leaves out the views up to it. A page
 * that has worded changes asks for those after its last; one that has only its first view (a
 * seated player's socket is sent a snapshot as it opens) or none asks for everything.
 */
export function historySince(cover) {
  return cover && cover.to > cover.from ? cover.to : 0;
}

/**
 * The log after a history: its lines before and after the log's (the first view's `base`
 * lines give way to a history that words how the table got there), at most `keep` entries.
 * `entry` makes a log entry of a line.
 */
export function mergeLog(log, words, entry, keep = 200) {
  const kept = words.before.length ? log.filter((e) => !e.base) : log;
  return [...words.before.map(entry), ...kept, ...words.after.map(entry)].slice(-keep);
}

/**
 * Chat lines with `incoming` added, each line once (by `id`), in the order they were said, at
 * most `keep`. Returns `{ lines, added }`.
 */
export function mergeChat(lines, incoming, keep = 100) {
  const ids = new Set(lines.map((l) => l.id).filter(Boolean));
  const fresh = [];
  for (const line of incoming) {
    if (line.id && ids.has(line.id)) continue;
    if (line.id) ids.add(line.id);
    fresh.push(line);
  }
  if (!fresh.length) return { lines, added: 0 };
  const merged = [...lines, ...fresh].map((line, k) => [line, k]);
  merged.sort(([a, i], [b, j]) => (a.at || 0) - (b.at || 0) || i - j);
  return { lines: merged.map(([line]) => line).slice(-keep), added: fresh.length };
}
