// The table's words, the same for every game: which game a frame belongs to, which lines of a
// change go to the hand log, which sound a change makes, how a seat is named. Pure
// (tests/web/shell.test.mjs).

import { label } from '../cards.js';

/** The cues a change may sound, the first that any line of it asks for winning. */
export const SOUNDS = ['turn', 'win', 'set', 'deal', 'card'];

const gameOf = (view) => view.game || 'swick';

/** The game of another table a frame speaks of (a page of its own shows it), or null. */
export function foreignGame(frame, game) {
  const views = frame.type === 'history' ? frame.views || [] : frame.view ? [frame.view] : [];
  const other = views.find((view) => view && gameOf(view) !== game);
  return other ? gameOf(other) : null;
}

/** The lines of a change the hand log keeps (some are only announced, as "Your turn."). */
export function logEntries(said) {
  return said.filter((line) => line.logged !== false);
}

/**
 * The lines of a game that words its changes as plain sentences (Euchre, Contract Whist): your
 * turn is announced, not logged, and sounds as such; a trick taken sounds a win; the rest a card.
 */
export function spokenLines(texts) {
  return texts.map((text) =>
    text === 'Your turn.'
      ? { text, sound: 'turn', logged: false }
      : { text, sound: text.includes('take') && text.includes('trick') ? 'win' : 'card' },
  );
}

/**
 * The words of a game that says its changes in sentences (Euchre, Contract Whist):
 * `describe(prev, next)` says them, `sameDeal(prev, next)` whether two views are of one deal,
 * `taker(view)` who took its last trick, and a trick taken stays on show for `flashMs`.
 */
export function sentenceWords({ name, describe, sameDeal, taker, flashMs }) {
  return {
    name,
    // A snapshot of what was shown already (the socket's own and the watch's) says nothing.
    said: (prev, next) => (prev && prev.game_no === next.game_no && prev.seq >= next.seq ? [] : spokenLines(describe(prev, next))),
    trickTaken: (prev, next) =>
      sameDeal(prev, next) && next.played.length > prev.played.length
        ? { cards: next.played[next.played.length - 1].map(([seat, code]) => ({ seat, code })), winner: taker(next), ms: flashMs }
        : null,
  };
}

/** "You play…" as said inside a sentence: "you play…". */
export function lowerFirst(text) {
  return text.startsWith('You ') || text === 'You' ? `you${text.slice(3)}` : text;
}

/** The seats whose decision the table took for them when their time ran out, from view `prev`
 * to `next`: their count of time-outs in a row grew. */
export function timedOutSeats(prev, next) {
  if (!prev || !next || prev.game_no !== next.game_no) return new Set();
  return new Set(
    next.seats.filter((s, seat) => prev.seats[seat] && s.timeouts > prev.seats[seat].timeouts).map((s) => s.seat),
  );
}

/** A move the table made for a seat whose time ran out, said as such rather than as a choice:
 * "Time ran out: you play the ten of clubs (the default)." */
export function ranOut(text) {
  const stop = text.endsWith('.') ? '.' : '';
  return `Time ran out: ${lowerFirst(stop ? text.slice(0, -1) : text)} (the default)${stop}`;
}

/** The line of a change that says what the table did for you when your time ran out, or null. */
export function ranOutForYou(said) {
  const line = said.find((s) => s.text.startsWith('Time ran out: you'));
  return line ? line.text : null;
}

/** How long before your decision's deadline the table warns you. */
export const WARNING_MS = 5000;

/** Milliseconds from `now` until the warning that your time is running out, or null: none is
 * due when the decision is not yours, has no deadline, or is past it. A decision first seen
 * inside its last seconds warns at once: its deadline was cut short (the table gives a player
 * it counts as away a few seconds only), or the page came back late. */
export function warningDelay(view, now) {
  if (!view || view.seat === null || view.seat === undefined || !view.deadline) return null;
  if (view.phase === 'interlude' || !view.to_act.includes(view.seat) || !(view.options || []).length) return null;
  const left = view.deadline - now;
  return left > 0 ? Math.max(0, left - WARNING_MS) : null;
}

/** The warning's words, `left` milliseconds before the deadline. */
export function secondsLeftWords(left) {
  const seconds = Math.max(1, Math.round(left / 1000));
  return `${seconds} ${seconds === 1 ? 'second' : 'seconds'} left to decide.`;
}

/** A seat as the table names it to you. */
export function whoIs(seat) {
  return seat.isMe ? 'You' : seat.name;
}

/** A card of a trick as its tip says it: the card, who played it (`seat`, the table's), and
 * whether it takes the trick, or (the trick `done`) took it. */
export function trickCardTip(card, seat, done) {
  const taking = card.winning ? (done ? ': took the trick' : ': taking the trick so far') : '';
  return `${label(card.code)}, played by ${seat.isMe ? 'you' : seat.name}${taking}`;
}

/** The names by seat a game record gives (who sat where when its game began); `null` for a
 * record without them (an older one), whose seats go by their numbers. */
export function seatNames(record) {
  const players = record && Array.isArray(record.players) ? record.players : null;
  return players ? players.map((p) => (p && typeof p.name === 'string' ? p.name : null)) : null;
}

/** A seat by the name a game's list of players (`names`, by seat) gives it, by its number where
 * the list knows none. */
export function namedSeat(names, seat) {
  return (names && names[seat]) || `Seat ${seat + 1}`;
}
