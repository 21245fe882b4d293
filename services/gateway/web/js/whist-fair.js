// contract-whist-fair-v1 in the browser: re-deal a finished Contract Whist game from its revealed
// seed and check every round of its record. Mirrors shared/games/contract_whist/dealing.py and
// shared/games/contract_whist/record.py (verify), message for message; the stream and the
// shuffle are swick-fair-v1's (js/fair.js, docs/fairness.md), over the 52-card deck
// (docs/rules/contract-whist.md §2).

import { Stream, cardSet, chooseFirstDealer, openRecord, recordHead, sameCards as same, shuffle } from './fair.js';

export const ALGORITHM = 'contract-whist-fair-v1';
export const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
const CARDS = cardSet(RANKS); // cards 0..51
export const { deck: DECK, codes: CODES, code, label, labels, cardNumber } = CARDS;
const { cardsOf } = CARDS;
export const SCHEDULE = [10, 9, 8, 7, 6, 5, 4, 3, 2, 3, 4, 5, 6, 7, 8, 9, 10];

/** The cards each player holds in round `roundNo` (1..17) of the schedule. */
export const cardsInRound = (roundNo) => SCHEDULE[roundNo - 1];

export async function firstBidder(seed, seats) {
  return chooseFirstDealer(seed, Array.from({ length: seats }, (_, i) => i));
}

export const bidderOfRound = (first, roundNo, seats) => (first + roundNo - 1) % seats;

/** Rules §2.3: each seat's cards (by seat number) and the undealt rest of the deck. */
export async function deal(seed, roundNo, bidder, seats, cards) {
  const deck = await shuffle(DECK, new Stream(seed, 'deal', roundNo));
  const hands = Array.from({ length: seats }, () => []);
  const dealt = seats * cards;
  for (let k = 0; k < dealt; k++) hands[(bidder + k) % seats].push(deck[k]);
  return { hands, undealt: deck.slice(dealt) };
}

/** A record as GET /api/tables/{id}/games/{n}/record gives it for a Contract Whist game. */
export function parseRecord(data) {
  return {
    ...recordHead(data, 'rounds'),
    seats: data.seats,
    firstBidder: data.first_bidder,
    rounds: data.rounds.map((rnd, k) => {
      const where = `round ${k + 1}`;
      if (!Array.isArray(rnd.dealt)) throw new Error(`${where}: no dealt cards`);
      return {
        roundNo: rnd.round_no,
        cards: rnd.cards,
        firstBidder: rnd.first_bidder,
        dealt: rnd.dealt.map((cards, seat) => cardsOf(cards, `${where}, seat ${seat + 1}`)),
        undealt: cardsOf(rnd.undealt, `${where}, undealt`),
      };
    }),
  };
}


/** One round re-dealt and compared: the first difference ('' when none) and what the seed deals. */
export async function verifyRound(seed, seats, rnd) {
  const { hands, undealt } = await deal(seed, rnd.roundNo, rnd.firstBidder, seats, rnd.cards);
  const shown = { hands: hands.map((cards) => cards.map(code)), undealt: undealt.map(code) };
  const n = Math.min(rnd.dealt.length, hands.length);
  for (let seat = 0; seat < n; seat++) {
    if (!same(rnd.dealt[seat], hands[seat])) {
      return { mismatch: `seat ${seat + 1} was dealt ${labels(rnd.dealt[seat])}, the seed deals ${labels(hands[seat])}`, shown };
    }
  }
  if (rnd.dealt.length !== seats) return { mismatch: `${seats} seats are dealt`, shown };
  if (!same(rnd.undealt, undealt)) return { mismatch: 'the undealt cards differ', shown };
  return { mismatch: '', shown };
}

/** The verdict of shared/games/contract_whist/record.py's verify (ok, rounds, mismatch), with
 * each round's own check for the verify page. */
export async function verifyRecord(data) {
  const opened = await openRecord(data, { parse: parseRecord, algorithm: ALGORITHM, count: 'rounds', each: 'perRound' });
  if (opened.verdict) return opened.verdict;
  const { record, seed, checks, fail } = opened;
  const n = record.seats;
  if (!Number.isInteger(n) || n < 2 || n > 5) return fail(`a table has 2 to 5 seats, not ${n}`);
  const first = await firstBidder(seed, n);
  if (first !== record.firstBidder) return fail(`the first bidder should be seat ${first + 1}`);
  checks.push('first_dealer');
  const perRound = [];
  let verdict = null;
  for (const [checked, rnd] of record.rounds.entries()) {
    const roundNo = checked + 1;
    const bidder = bidderOfRound(first, roundNo, n);
    let mismatch = '';
    let shown = null;
    let whole = '';
    if (rnd.roundNo !== roundNo) whole = `round ${roundNo} is missing`;
    else if (roundNo > 17 || rnd.cards !== cardsInRound(roundNo)) whole = `round ${roundNo} is not a round of the schedule`;
    else if (rnd.firstBidder !== bidder) mismatch = `seat ${bidder + 1} bids first`;
    else ({ mismatch, shown } = await verifyRound(seed, n, rnd));
    const bad = whole || mismatch;
    perRound.push({ roundNo: rnd.roundNo, cards: rnd.cards, firstBidder: rnd.firstBidder, ok: !bad, mismatch: bad, shown });
    if (bad && !verdict) verdict = fail(whole || `round ${roundNo}: ${mismatch}`, checked, perRound);
  }
  if (verdict) return { ...verdict, perRound };
  return { ok: true, rounds: perRound.length, mismatch: '', perRound, checks };
}
