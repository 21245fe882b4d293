// A finished game's replay (GET /api/tables/<id>/games/<n>/replay), step by step: what the replay
// page shows of each game's spectators' view. One small adapter per game reads its view (the
// trump, the score, a line per seat) and words what changed with the game's own announcements.

import { label } from './cards.js';
import { cents, describeChanges as swickChanges, PHASE_TEXT as SWICK_PHASES, seatName as swickName } from './state.js';
import {
  describeChanges as euchreChanges,
  PHASE_TEXT as EUCHRE_PHASES,
  seatName as euchreName,
  suitOf as euchreSuit,
  suitWords as euchreSuitWords,
  teamNames,
} from './euchre-state.js';
import { describeChanges as whistChanges, PHASE_TEXT as WHIST_PHASES, seatName as whistName, trumpText } from './whist-state.js';

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
// A seat's line: those of its parts that apply, between dots.
const line = (...parts) => parts.filter(Boolean).join(' · ');
const capital = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);

const swick = {
  title: 'Swick',
  unit: 'Hand',
  handOf: (view) => view.hand_no,
  seatName: swickName,
  phases: SWICK_PHASES,
  say: (prev, next) => swickChanges(prev, next).map((a) => a.text),
  trump: (view) => (view.trump_card ? { card: view.trump_card, text: `Trump card: ${label(view.trump_card)}` } : null),
  score: (view) => {
    const rows = [{ label: 'Pot', value: cents(view.pot) }];
    if (view.carry) rows.push({ label: 'Carried', value: cents(view.carry) });
    return rows;
  },
  seatLine: (view, seat) => {
    const s = view.seats[seat];
    return line(
      `Stack ${cents(s.stack)}`,
      (s.status === 'in' || view.phase === 'tricks' || s.tricks) && plural(s.tricks, 'trick'),
      s.status === 'passed' && 'passed',
      s.status === 'in' && 'knocked',
      view.dealer === seat && 'dealer',
    );
  },
};

const euchre = {
  title: 'Euchre',
  unit: 'Hand',
  handOf: (view) => view.hand_no,
  seatName: euchreName,
  phases: EUCHRE_PHASES,
  say: euchreChanges,
  trump: (view) => {
    if (view.trump) return { card: null, text: `${capital(euchreSuitWords(euchreSuit(view.trump)))} trump` };
    if (view.turn_up && view.turn_up_at === 'up') return { card: view.turn_up, text: `Turn-up: ${label(view.turn_up)}` };
    return null;
  },
  score: (view) => {
    const names = teamNames(view);
    return [0, 1].map((team) => ({
      label: names[team],
      value: `${view.scores[team]} points${view.team_tricks ? ` · ${plural(view.team_tricks[team], 'trick')}` : ''}`,
    }));
  },
  seatLine: (view, seat) =>
    line(
      plural(view.seats[seat].tricks, 'trick'),
      view.dealer === seat && 'dealer',
      view.maker === seat && (view.alone ? 'maker, alone' : 'maker'),
      view.resting === seat && 'sits out',
    ),
};

const whist = {
  title: 'Contract Whist',
  unit: 'Round',
  handOf: (view) => view.round_no,
  seatName: whistName,
  phases: WHIST_PHASES,
  say: whistChanges,
  trump: (view) => {
    const text = trumpText(view.trump, view.no_trumps);
    return text ? { card: null, text } : null;
  },
  score: (view) => [
    { label: `Round ${view.round_no} of ${view.rounds}`, value: plural(view.cards, 'card') + ' each' },
    { label: 'Bids', value: view.bids.length ? `${view.bid_total} of ${view.cards}` : 'none yet' },
  ],
  seatLine: (view, seat) => {
    const s = view.seats[seat];
    const bid = s.bid === null || s.bid === undefined ? 'no bid' : `bid ${s.bid}`;
    return `${capital(bid)} · ${plural(s.tricks, 'trick')} · ${plural(view.scores[seat], 'point')}`;
  },
};

export const ADAPTERS = { swick, euchre, 'contract-whist': whist };

/** The adapter of a replay's game (Swick's for a game this client does not know). */
export function adapterFor(game) {
  return ADAPTERS[game] || swick;
}

/** What happened at step `index` (from the view before it), in words: the game's own
 * announcements, or the phase when they say nothing. */
export function stepText(adapter, frames, index) {
  const frame = frames[index];
  if (!frame) return '';
  const prev = index > 0 ? frames[index - 1].view : null;
  const said = adapter.say(prev, frame.view).filter(Boolean);
  if (index === 0) said.unshift(`The game starts.`);
  if (said.length) return said.join(' ');
  return adapter.phases[frame.view.phase] || frame.view.phase;
}

/** The steps at which each hand (or round) starts: `[{ number, index }]`, in order. */
export function handStarts(adapter, frames) {
  const out = [];
  let last = null;
  frames.forEach((frame, index) => {
    const number = adapter.handOf(frame.view);
    if (number && number !== last) out.push({ number, index });
    last = number;
  });
  return out;
}

/** The trick to show: the one under way, else the last one finished (`done`), else none. */
export function shownTrick(view) {
  if (view.trick && view.trick.length) return { cards: view.trick, done: false };
  const played = view.played || [];
  if (played.length && ['tricks', 'interlude', 'ended', 'ready', 'ante'].includes(view.phase)) {
    return { cards: played[played.length - 1], done: true };
  }
  return { cards: [], done: false };
}

/** Everything the page shows of one step. */
export function stepModel(replay, index) {
  const adapter = adapterFor(replay.game);
  const frame = replay.frames[index];
  const view = frame.view;
  const seats = view.seats.map((s, seat) => ({
    seat,
    name: adapter.seatName(view, seat) || replay.seats[seat] || `Seat ${seat + 1}`,
    line: s.player ? adapter.seatLine(view, seat) : 'Empty seat',
    hand: frame.hands[seat] || [],
    toAct: view.to_act.includes(seat),
  }));
  return {
    adapter,
    view,
    seq: frame.seq,
    seats,
    trick: shownTrick(view),
    trump: adapter.trump(view),
    score: adapter.score(view),
    hand: adapter.handOf(view),
    phase: adapter.phases[view.phase] || view.phase,
    text: stepText(adapter, replay.frames, index),
  };
}
