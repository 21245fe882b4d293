// euchre-fair-v1 in the browser: re-deal a finished Euchre game from its revealed seed and check
// every hand, turn-up and kitty of its record. Mirrors shared/games/euchre/dealing.py and
// shared/games/euchre/record.py (verify), message for message; the stream and the shuffle are
// swick-fair-v1's (js/fair.js, docs/fairness.md), over the 24-card deck.

import { Stream, cardSet, chooseFirstDealer, openRecord, recordHead, sameCards as same, shuffle } from './fair.js';

export const ALGORITHM = 'euchre-fair-v1';
export const RANKS = ['9', '10', 'J', 'Q', 'K', 'A'];
const CARDS = cardSet(RANKS); // cards 0..23
export const { deck: DECK, codes: CODES, code, label, labels, cardNumber } = CARDS;
const { cardOf, cardsOf } = CARDS;
const SEATS = 4;

export async function firstDealer(seed) {
  return chooseFirstDealer(seed, [0, 1, 2, 3]);
}

/** Rules §2.3: each seat's five cards (by seat number), the turn-up and the kitty. */
export async function deal(seed, handNo, dealer) {
  const deck = await shuffle(DECK, new Stream(seed, 'deal', handNo));
  const hands = Array.from({ length: SEATS }, () => []);
  for (let k = 0; k < 5 * SEATS; k++) hands[(dealer + 1 + k) % SEATS].push(deck[k]);
  return { hands, turnUp: deck[20], kitty: deck.slice(21) };
}

/** A record as GET /api/tables/{id}/games/{n}/record gives it for a Euchre game. */
export function parseRecord(data) {
  return {
    ...recordHead(data, 'hands'),
    firstDealer: data.first_dealer,
    hands: data.hands.map((hand, k) => {
      const where = `hand ${k + 1}`;
      if (!Array.isArray(hand.dealt) || hand.dealt.length !== SEATS) throw new Error(`${where}: four seats' cards expected`);
      return {
        handNo: hand.hand_no,
        dealer: hand.dealer,
        dealt: hand.dealt.map((cards, seat) => cardsOf(cards, `${where}, seat ${seat + 1}`)),
        turnUp: cardOf(hand.turn_up, `${where}, turn-up`),
        kitty: cardsOf(hand.kitty, `${where}, kitty`),
        taken: Boolean(hand.taken),
        discard: hand.discard === null || hand.discard === undefined ? null : cardOf(hand.discard, `${where}, discard`),
      };
    }),
  };
}


/** One hand re-dealt and compared: the first difference ('' when none) and what the seed deals. */
export async function verifyHand(seed, hand) {
  const { hands, turnUp, kitty } = await deal(seed, hand.handNo, hand.dealer);
  const shown = { hands: hands.map((cards) => cards.map(code)), turnUp: code(turnUp), kitty: kitty.map(code) };
  for (let seat = 0; seat < SEATS; seat++) {
    if (!same(hand.dealt[seat], hands[seat])) {
      return { mismatch: `seat ${seat + 1} was dealt ${labels(hand.dealt[seat])}, the seed deals ${labels(hands[seat])}`, shown };
    }
  }
  if (hand.turnUp !== turnUp) return { mismatch: `the turn-up should be ${label(turnUp)}`, shown };
  if (!same(hand.kitty, kitty)) return { mismatch: `the kitty should be ${labels(kitty)}`, shown };
  if (hand.discard !== null) {
    const held = hand.taken ? [...hands[hand.dealer], turnUp] : [];
    if (!held.includes(hand.discard)) {
      return { mismatch: `the dealer discarded ${label(hand.discard)}, a card they did not hold`, shown };
    }
  }
  return { mismatch: '', shown };
}

/** The verdict of shared/games/euchre/record.py's verify (ok, hands, mismatch), with each hand's
 * own check for the verify page. */
export async function verifyRecord(data) {
  const opened = await openRecord(data, { parse: parseRecord, algorithm: ALGORITHM });
  if (opened.verdict) return opened.verdict;
  const { record, seed, checks, fail } = opened;
  const first = await firstDealer(seed);
  if (first !== record.firstDealer) return fail(`the first dealer should be seat ${first + 1}`);
  checks.push('first_dealer');
  const perHand = [];
  let dealer = first;
  let verdict = null;
  for (const [checked, hand] of record.hands.entries()) {
    let mismatch = '';
    let shown = null;
    if (hand.handNo !== checked + 1) mismatch = `hand ${checked + 1} is missing`;
    else if (hand.dealer !== dealer) mismatch = `seat ${dealer + 1} deals it`;
    else ({ mismatch, shown } = await verifyHand(seed, hand));
    perHand.push({ handNo: hand.handNo, dealer: hand.dealer, ok: !mismatch, mismatch, shown });
    if (mismatch && !verdict) {
      const text = hand.handNo !== checked + 1 ? mismatch : `hand ${hand.handNo}: ${mismatch}`;
      verdict = fail(text, checked, perHand);
    }
    dealer = (dealer + 1) % SEATS;
  }
  if (verdict) return { ...verdict, perHand };
  return { ok: true, hands: perHand.length, mismatch: '', perHand, checks };
}
