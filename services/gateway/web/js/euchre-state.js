// What the Euchre table page shows, derived from the view a seat receives
// (shared/games/euchre/views.py; docs/rules/euchre.md §8): pure functions, no DOM.
//
// Seats are numbered 0-3 (shown 1-4); partners sit opposite (team = seat % 2). Seen from a
// seat, the seat on its left ((seat + 1) % 4) is drawn on the left, its partner at the top.

import { findOption, nextDecision, playDecision } from './decisions.js';
import { label, rankText, spoken } from './cards.js';
import { lowerFirst, ranOut, timedOutSeats } from './shell/words.js';
import { SUIT_LETTERS, SUIT_NAMES, SUIT_SYMBOLS, armedLength, playsSince, remaining, seatName, seatingOf, suitOf, suitWords, who } from './suited-state.js';

export { SUIT_LETTERS, SUIT_NAMES, SUIT_SYMBOLS, armedLength, remaining, seatName, suitOf, suitWords } from './suited-state.js';

export const POSITIONS = ['bottom', 'left', 'top', 'right'];
const RANK_ORDER = ['9', '10', 'J', 'Q', 'K', 'A'];

export const PHASE_TEXT = {
  lobby: 'Waiting to start',
  waiting: 'Waiting for players',
  order: 'Making trump',
  name: 'Making trump: second round',
  discard: "The dealer's discard",
  tricks: 'Tricks',
  interlude: 'Hand over',
  ended: 'Game over',
  closed: 'Table closed',
};

const OUTCOME_TEXT = {
  made: 'made it',
  march: 'took all five tricks: a march',
  alone_made: 'made it alone',
  alone_march: 'took all five tricks alone',
  euchred: 'were euchred',
};

export const sameColour = (suit) => 3 - suit;
export const suitName = (suit) => SUIT_NAMES[suit];
export const suitSymbol = (suit) => SUIT_SYMBOLS[suit];

/** "right" for the jack of trump, "left" for the other jack of its colour, else null. */
export function bowerOf(code, trump) {
  if (trump === null || trump === undefined || rankText(code) !== 'J') return null;
  const suit = suitOf(code);
  if (suit === trump) return 'right';
  if (suit === sameColour(trump)) return 'left';
  return null;
}

/** The suit a card follows this hand: the left bower belongs to trump. */
export function effectiveSuit(code, trump) {
  return bowerOf(code, trump) === 'left' ? trump : suitOf(code);
}

/** A card's height within its effective suit (rules §3). */
export function strength(code, trump) {
  const bower = bowerOf(code, trump);
  if (bower === 'right') return 7;
  if (bower === 'left') return 6;
  return RANK_ORDER.indexOf(rankText(code));
}

/** The seat taking a trick so far: the highest trump, else the highest card of the led suit. */
export function trickWinner(trick, trump) {
  if (!trick || !trick.length) return null;
  const led = effectiveSuit(trick[0][1], trump);
  let best = trick[0];
  const rank = ([, code]) => {
    const suit = effectiveSuit(code, trump);
    if (suit === trump) return 100 + strength(code, trump);
    if (suit === led) return strength(code, trump);
    return -1;
  };
  for (const play of trick.slice(1)) if (rank(play) > rank(best)) best = play;
  return best[0];
}

/** Hand order for display: suits ♣ ♦ ♥ ♠ with trump (bowers included) last, high to low. */
export function sortHand(codes, trump = null) {
  const key = (code) => {
    const suit = effectiveSuit(code, trump);
    const suitKey = trump !== null && suit === trump ? 4 : suit;
    return suitKey * 10 + (9 - strength(code, trump));
  };
  return [...codes].sort((a, b) => key(a) - key(b));
}


/** A partnership (team 0: seats 0 and 2, team 1: seats 1 and 3) by its players' names, "Ann &
 * Cat"; by its seats' numbers where no name is known. */
function partnership(view, team) {
  const seats = [team, team + 2];
  if (!seats.some((seat) => view.seats[seat] && view.seats[seat].player)) return `Seats ${team + 1} & ${team + 3}`;
  return seats.map((seat) => seatName(view, seat)).join(' & ');
}

/** The two teams from the viewer's side: "Us" (the viewer's team) and "Them"; a spectator sees
 * the teams by their players' names. */
export function teamNames(view) {
  if (view.seat === null || view.seat === undefined) return [0, 1].map((team) => partnership(view, team));
  const mine = view.seat % 2;
  return mine === 0 ? ['Us', 'Them'] : ['Them', 'Us'];
}

/** Trump at the table's centre once it is made: the suit's name, and which team made it
 * ("we" and "they" for a player, the seats' team names for a spectator). */
export function trumpMark(view) {
  if (view.trump === null || view.trump === undefined) return null;
  const suit = suitOf(view.trump);
  const team = view.maker === null || view.maker === undefined ? null : teamNames(view)[view.maker % 2];
  const makers = team === 'Us' ? 'us' : team === 'Them' ? 'them' : team;
  const by = makers ? `made by ${makers}${view.alone ? ', alone' : ''}` : '';
  return {
    suit,
    letter: SUIT_LETTERS[suit],
    name: `${SUIT_NAMES[suit][0].toUpperCase()}${SUIT_NAMES[suit].slice(1)}`,
    team,
    by,
    label: `Trump: ${SUIT_NAMES[suit]}${by ? `, ${by}` : ''}`,
  };
}

/** One call in words: "Ada passes", "You order it up", "Bram names hearts ♥ and goes alone". */
export function callText(view, call) {
  const name = who(view, call.seat);
  const s = name === 'You' ? '' : 's';
  const alone = call.alone ? (name === 'You' ? ' and go alone' : ' and goes alone') : '';
  if (call.call === 'pass') return `${name} pass${name === 'You' ? '' : 'es'}`;
  if (call.call === 'order_up') {
    const dealer = call.seat === view.dealer;
    return `${name} ${dealer ? `pick${s} it up` : `order${s} it up`}${alone}`;
  }
  const suit = suitOf(call.suit);
  return `${name} name${s} ${suitWords(suit)}${alone}`;
}

function optionKey(action) {
  return JSON.stringify([action.kind, action.suit || '', action.alone ? 1 : 0, action.card || '']);
}

function decisionOf(view) {
  const options = view.options || [];
  if (!options.length) return null;
  const me = view.seat;
  const isDealer = me === view.dealer;
  if (view.phase === 'order') {
    const up = findOption(options, 'order_up', { alone: false });
    const alone = findOption(options, 'order_up', { alone: true });
    const pass = findOption(options, 'pass');
    const turnUp = view.turn_up ? label(view.turn_up) : '';
    const verb = isDealer ? 'Pick it up' : 'Order it up';
    return {
      kind: 'order',
      prompt: isDealer
        ? `You deal: pick up the ${turnUp} (its suit becomes trump) or pass?`
        : `Order up the ${turnUp}, making ${suitWords(suitOf(view.turn_up))} trump, or pass?`,
      canAlone: Boolean(alone && alone.legal),
      choices: [
        { text: verb, key: 'order', action: up && up.action, aloneAction: alone && alone.action, legal: Boolean(up && up.legal), reason: up ? up.reason : '', primary: true },
        { text: 'Pass', key: 'pass', action: pass && pass.action, legal: Boolean(pass && pass.legal), reason: pass ? pass.reason : '' },
      ],
    };
  }
  if (view.phase === 'name') {
    const pass = findOption(options, 'pass');
    const suits = SUIT_LETTERS.map((letter, suit) => {
      const plain = findOption(options, 'name_trump', { suit: letter, alone: false });
      const alone = findOption(options, 'name_trump', { suit: letter, alone: true });
      return {
        text: `${SUIT_SYMBOLS[suit]} ${SUIT_NAMES[suit][0].toUpperCase()}${SUIT_NAMES[suit].slice(1)}`,
        key: letter,
        suit,
        action: plain && plain.action,
        aloneAction: alone && alone.action,
        legal: Boolean(plain && plain.legal),
        reason: plain ? plain.reason : 'Not offered',
      };
    });
    const nameable = suits.filter((s) => s.legal);
    return {
      kind: 'name',
      prompt: pass && !pass.legal ? 'Stick the dealer: you must name a suit.' : 'Name a suit for trump, or pass.',
      canAlone: SUIT_LETTERS.some((letter) => {
        const o = findOption(options, 'name_trump', { suit: letter, alone: true });
        return o && o.legal;
      }),
      // One button per suit that may be named; the turned-down suit is not offered.
      choices: [
        ...nameable.map((s) => ({ ...s, primary: true })),
        ...(pass && pass.legal ? [{ text: 'Pass', key: 'pass', action: pass.action, legal: true, reason: '' }] : []),
      ],
      barred: suits.filter((s) => !s.legal).map((s) => ({ suit: s.suit, reason: s.reason })),
      stuck: Boolean(pass && !pass.legal),
      stuckReason: pass && !pass.legal ? pass.reason : '',
    };
  }
  if (view.phase === 'discard') {
    return { kind: 'discard', prompt: 'You took the turn-up: lay one card face down.', choices: [] };
  }
  if (view.phase === 'tricks') return playDecision(view);
  if (view.phase === 'interlude') return nextDecision(options, 'The hand is over.', 'Next hand');
  return null;
}

function handOf(view) {
  const trump = view.trump === null || view.trump === undefined ? null : suitOf(view.trump);
  const byCard = new Map();
  for (const o of view.options || []) {
    if (o.action.card) byCard.set(o.action.card, o);
  }
  const deciding = view.phase === 'tricks' || view.phase === 'discard';
  const cards = sortHand(view.hand || [], trump).map((code) => {
    const option = byCard.get(code);
    const bower = bowerOf(code, trump);
    const legal = deciding && option ? option.legal : null;
    const reason = option && !option.legal ? option.reason : '';
    const isTrump = trump !== null && effectiveSuit(code, trump) === trump;
    const what = bower === 'right'
      ? `the right bower: the highest trump`
      : bower === 'left'
        ? `the left bower: a trump (${SUIT_NAMES[trump]}) this hand, second only to the right bower`
        : isTrump
          ? `a trump`
          : '';
    const tip = [label(code), what, reason ? `can't be played: ${reason}` : ''].filter(Boolean).join(' — ');
    return { code, legal, reason, bower, trump: isTrump, tip, spoken: `${spoken(code)}${bower ? `, the ${bower} bower` : isTrump ? ', trump' : ''}` };
  });
  return cards;
}

/** The view's trick (or a finished one) with each card placed in front of its player. */
export function placeTrick(trick, me, trump, done = false) {
  const winner = trick.length ? trickWinner(trick, trump) : null;
  const base = me === null || me === undefined ? 0 : me;
  return {
    cards: trick.map(([seat, code]) => ({
      seat,
      code,
      pos: POSITIONS[(seat - base + 4) % 4],
      winning: seat === winner,
    })),
    winner,
    done,
  };
}

function waitingText(view, me) {
  const pending = view.to_act || [];
  if (view.phase === 'lobby') return view.host === me ? 'Start the game when four are seated.' : 'Waiting for the host to start.';
  if (view.phase === 'waiting') return 'Waiting for four players who can play.';
  if (view.phase === 'ended') return view.winner === null ? 'The game ended.' : 'The game is over.';
  if (view.phase === 'interlude') return pending.length ? `Waiting for ${pending.map((s) => seatName(view, s)).join(', ')} to see the result…` : 'Dealing the next hand…';
  if (!pending.length) return '';
  const seat = pending[0];
  const name = seatName(view, seat);
  if (view.phase === 'order') return `${name} is deciding on the turn-up…`;
  if (view.phase === 'name') return `${name} may name a suit…`;
  if (view.phase === 'discard') return `${name} (the dealer) is discarding…`;
  return `${name} is playing…`;
}

export function resultText(view, result) {
  const names = teamNames(view);
  const makerTeam = result.maker % 2;
  const maker = who(view, result.maker);
  const makers = names[makerTeam];
  const taken = result.tricks[makerTeam];
  const scorer = result.points[0] ? 0 : 1;
  const points = result.points[scorer];
  const outcome = OUTCOME_TEXT[result.outcome] || result.outcome;
  const called = `${maker} made ${suitWords(suitOf(result.trump))} trump${result.alone ? ' alone' : ''}`;
  const line = result.outcome === 'euchred'
    ? `${called}; the makers took ${taken} trick${taken === 1 ? '' : 's'} and were euchred: ${points} points to ${names[scorer] === 'Us' ? 'us' : names[scorer] === 'Them' ? 'them' : names[scorer]}.`
    : `${called}; ${makers === 'Us' ? 'we' : makers === 'Them' ? 'they' : makers} ${outcome} with ${taken} tricks: ${points} point${points === 1 ? '' : 's'}.`;
  return {
    handNo: result.handNo ?? result.hand_no,
    line,
    outcome: result.outcome,
    makerTeam,
    scorer,
    points,
    tricks: result.tricks,
    scores: result.scores,
    names,
  };
}

const TURN_UP_WHERE = {
  up: 'face up on the kitty',
  taken: 'taken into the dealer’s hand',
  down: 'turned down: its suit cannot be trump this hand',
  kitty: 'left face up on the kitty (the dealer sits out)',
};

export function derive(view, now = Date.now()) {
  const me = view.seat === undefined ? null : view.seat;
  const spectator = me === null;
  const base = spectator ? 0 : me;
  const trump = view.trump === null || view.trump === undefined ? null : suitOf(view.trump);
  const names = teamNames(view);
  const pending = new Set(view.to_act || []);
  const inHand = ['order', 'name', 'discard', 'tricks'].includes(view.phase);
  const seats = view.seats.map((s) => {
    const player = s.player;
    const team = s.seat % 2;
    return {
      seat: s.seat,
      pos: POSITIONS[(s.seat - base + 4) % 4],
      name: player ? player.name : `Seat ${s.seat + 1}`,
      empty: !player,
      bot: player ? player.bot || null : null,
      isMe: s.seat === me,
      team,
      // The plate's word for the seat: yours, your partner's, an opponent's; to a spectator,
      // whom it partners (the pegboard names both).
      role: s.seat === me ? 'You' : spectator ? `with ${seatName(view, (s.seat + 2) % 4)}` : team === me % 2 ? 'Partner' : names[team],
      partner: !spectator && s.seat !== me && team === me % 2,
      dealer: s.seat === view.dealer,
      maker: s.seat === view.maker,
      resting: s.resting,
      cards: s.cards,
      tricks: s.tricks,
      acting: inHand && pending.has(s.seat),
      connected: s.connected,
      away: s.away,
      sittingOut: s.sitting_out,
      leaving: s.leaving,
    };
  });
  const myTurn = !spectator && pending.has(me) && (view.options || []).length > 0;
  const decision = myTurn ? decisionOf(view) : null;
  const pegs = [0, 1].map((team) => ({
    team,
    name: names[team],
    score: view.scores[team],
    pegged: Math.min(10, view.scores[team]),
    tricks: view.team_tricks[team],
  }));
  const usTeam = spectator ? 0 : me % 2;
  const played = view.played || [];
  const last = played.length
    ? { ...placeTrick(played[played.length - 1], me, trump, true), winner: view.winners[played.length - 1], handNo: view.hand_no, number: played.length }
    : null;
  if (last) last.cards = last.cards.map((c) => ({ ...c, winning: c.seat === last.winner }));
  const turnUp = view.turn_up && view.turn_up_at
    ? {
        code: view.turn_up,
        at: view.turn_up_at,
        tip: `The turn-up: ${label(view.turn_up)}, ${TURN_UP_WHERE[view.turn_up_at] || ''}`,
      }
    : null;
  const maker = view.maker === null || view.maker === undefined ? null : view.maker;
  const trumpToken = trump !== null
    ? {
        suit: trump,
        letter: SUIT_LETTERS[trump],
        tip: `Trump: ${suitWords(trump)}, made by ${maker === null ? 'nobody' : lowerFirst(who(view, maker))}${view.alone ? ', alone' : ''}. Right bower J${SUIT_SYMBOLS[trump]}, left bower J${SUIT_SYMBOLS[sameColour(trump)]}.`,
      }
    : null;
  return {
    game: 'euchre',
    view,
    me,
    spectator,
    phase: view.phase,
    phaseText: PHASE_TEXT[view.phase] || view.phase,
    handNo: view.hand_no,
    gameNo: view.game_no,
    inHand,
    between: !inHand,
    dealer: view.dealer,
    trump,
    trumpToken,
    trumpMark: inHand ? trumpMark(view) : null,
    turnUp,
    kittyTip: inHand
      ? `The kitty: the ${view.turn_up_at === 'taken' ? 'three cards left after the deal, and the dealer’s discard, face down' : 'three cards left after the deal, face down'}; nobody sees them`
      : '',
    maker,
    alone: view.alone,
    resting: view.resting,
    calls: (view.calls || []).map((c) => ({ ...c, text: callText(view, c) })),
    seats,
    myTurn,
    decision,
    hand: handOf(view),
    trick: placeTrick(view.trick || [], me, trump),
    lastTrick: last,
    pegs,
    us: usTeam,
    target: view.config ? view.config.target : 10,
    remaining: remaining(view, now),
    timerMs: armedLength(view),
    waiting: myTurn ? 'Your turn' : waitingText(view, me),
    result: view.result ? resultText(view, view.result) : null,
    fingerprint: view.fingerprint || '',
    seed: view.seed || null,
    winner: view.winner,
    winnerText: view.winner === null || view.winner === undefined
      ? ''
      : spectator
        ? `${names[view.winner]} win the game, ${view.scores[view.winner]} to ${view.scores[1 - view.winner]}`
        : view.winner === usTeam
          ? `We win the game, ${view.scores[view.winner]} to ${view.scores[1 - view.winner]}!`
          : `They win the game, ${view.scores[view.winner]} to ${view.scores[1 - view.winner]}`,
    ...seatingOf(view, me, spectator, inHand),
  };
}

/** What a screen reader hears when the view changes: the calls, the cards played, who took
 * each trick, and the score after each hand. */
export function describeChanges(prev, next) {
  const said = [];
  if (!next) return said;
  const newHand = !prev || prev.hand_no !== next.hand_no || prev.game_no !== next.game_no;
  if (newHand && next.turn_up && ['order', 'name', 'discard', 'tricks'].includes(next.phase)) {
    said.push(`Hand ${next.hand_no}: ${seatName(next, next.dealer)} deals; the turn-up is the ${spoken(next.turn_up)}.`);
  }
  const timedOut = timedOutSeats(prev, next);
  const chose = (seat, text) => (timedOut.has(seat) ? ranOut(text) : text);
  const prevCalls = !newHand && prev ? prev.calls.length : 0;
  for (const call of next.calls.slice(prevCalls)) said.push(chose(call.seat, `${callText(next, call)}.`));
  if (!newHand && prev && prev.turn_up_at === 'up' && next.turn_up_at === 'down') {
    said.push(`All passed: the ${spoken(next.turn_up)} is turned down.`);
  }
  const trump = next.trump ? suitOf(next.trump) : null;
  // Cards played since: those of tricks finished since, then of the trick under way.
  for (const item of playsSince(prev, next, newHand, next.winners)) {
    if (item.p) {
      const [seat, code] = item.p;
      const bower = bowerOf(code, trump);
      said.push(chose(seat, `${who(next, seat)} play${seat === next.seat ? '' : 's'} the ${spoken(code)}${bower ? ` (the ${bower} bower)` : ''}.`));
    } else {
      said.push(`${who(next, item.won)} take${item.won === next.seat ? '' : 's'} the trick.`);
    }
  }
  const result = next.result;
  if (result && (!prev || !prev.result || prev.result.hand_no !== result.hand_no || prev.game_no !== next.game_no)) {
    const r = resultText(next, result);
    said.push(`${r.line} Score: ${r.names[0]} ${result.scores[0]}, ${r.names[1]} ${result.scores[1]}.`);
  }
  if (next.phase === 'ended' && (!prev || prev.phase !== 'ended')) {
    const names = teamNames(next);
    if (next.winner !== null && next.winner !== undefined) {
      const team = names[next.winner];
      said.push(`Game over: ${team === 'Us' ? 'we win' : team === 'Them' ? 'they win' : `${team} win`}, ${next.scores[next.winner]} to ${next.scores[1 - next.winner]}.`);
    }
  }
  const mine = (v) => v.seat !== null && v.to_act.includes(v.seat) && (v.options || []).length > 0 && ['order', 'name', 'discard', 'tricks'].includes(v.phase);
  const sameDecision = prev && mine(prev) && prev.phase === next.phase && prev.trick.length === next.trick.length && prev.played.length === next.played.length && !newHand;
  if (mine(next) && !sameDecision) said.push('Your turn.');
  return said;
}

export { optionKey };
