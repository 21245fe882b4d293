// What the Euchre and Contract Whist table pages share of their views (js/euchre-state.js,
// js/whist-state.js): the four suits, the seats' names and places, the cards played since the last
// view and the turn timer. Pure functions, no DOM.

export const SUIT_LETTERS = ['C', 'D', 'H', 'S'];
export const SUIT_SYMBOLS = ['♣', '♦', '♥', '♠'];
export const SUIT_NAMES = ['clubs', 'diamonds', 'hearts', 'spades'];

/** The suit index (♣ 0, ♦ 1, ♥ 2, ♠ 3) of a suit letter or a card code. */
export function suitOf(codeOrLetter) {
  if (typeof codeOrLetter !== 'string' || !codeOrLetter) return null;
  const index = SUIT_LETTERS.indexOf(codeOrLetter.slice(-1).toUpperCase());
  return index < 0 ? null : index;
}

export const suitWords = (suit) => `${SUIT_NAMES[suit]} ${SUIT_SYMBOLS[suit]}`;

export function seatName(view, seat) {
  const s = view.seats[seat];
  if (!s || !s.player) return `Seat ${seat + 1}`;
  return s.player.name;
}

/** A seat as the viewer reads it: "You" for their own. */
export function who(view, seat) {
  return seat === view.seat ? 'You' : seatName(view, seat);
}

/** The host and the viewer's place at the table: whether they host it, are away while
 * `playing`, or (a spectator) which empty seats they may take. */
export function seatingOf(view, me, spectator, playing) {
  return {
    host: view.host,
    isHost: !spectator && view.host === me,
    away: !spectator && view.seats[me] && view.seats[me].away && playing,
    canJoin: spectator ? view.seats.filter((s) => !s.player).map((s) => s.seat) : [],
  };
}

/** The cards played between views `prev` and `next` (all of the hand's or round's when it is
 * `fresh`), in order: `{ p: [seat, code] }` for each card and, after each trick finished
 * since, `{ won: seat }` with its taker from `takers`. */
export function playsSince(prev, next, fresh, takers) {
  const prevPlayed = !fresh && prev ? prev.played.length : 0;
  const prevTrick = !fresh && prev ? prev.trick.length : 0;
  const plays = [];
  for (let t = prevPlayed; t < next.played.length; t++) {
    const from = t === prevPlayed ? prevTrick : 0;
    plays.push(...next.played[t].slice(from).map((p) => ({ p })));
    plays.push({ won: takers[t] });
  }
  plays.push(...next.trick.slice(next.played.length > prevPlayed ? 0 : prevTrick).map((p) => ({ p })));
  return plays;
}

/** How long the pending decision was given: what the countdown ring measures against. */
export function armedLength(view) {
  if (!view.config) return null;
  if (view.phase === 'interlude') return view.config.interlude_ms;
  const pending = (view.to_act || []).map((seat) => view.seats[seat]);
  const allAway = pending.length > 0 && pending.every((s) => s && s.away);
  return allAway && view.config.away_grace_ms ? view.config.away_grace_ms : view.config.timer_ms;
}

export function remaining(view, now) {
  if (!view || view.deadline === null || view.deadline === undefined) return null;
  const left = Math.max(0, view.deadline - now);
  const cap = armedLength(view);
  return cap ? Math.min(left, cap) : left;
}
