// swick-fair-v1 in the browser: the provably fair shuffle of docs/fairness.md, re-implemented
// from that page so that anyone can re-deal a finished game from its revealed seed and check
// every card. Mirrors shared/fairness.py, shared/games/swick/dealing.py and
// shared/games/swick/record.py (verify), message for message.
//
// Hashing uses WebCrypto (crypto.subtle) where the page has it. A page served over plain http
// from another host is not a secure context and has no crypto.subtle; there a small SHA-256 of
// our own (below, checked against WebCrypto by tests/web/fair.test.mjs) takes over.

import { CODES, cardNumber, labels } from './cards.js';

export const ALGORITHM = 'swick-fair-v1';
export const DECK = Array.from({ length: 32 }, (_, i) => i);
const WORD_SPACE = 2 ** 32;
const BLOCKS_PER_REFILL = 4;
const encoder = new TextEncoder();

// Bytes.

export function hexToBytes(hex) {
  if (typeof hex !== 'string' || hex.length % 2 || /[^0-9a-fA-F]/.test(hex)) {
    throw new Error('not hex');
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function uint32be(value) {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value >>> 0, false);
  return out;
}

function uint64be(value) {
  const out = new Uint8Array(8);
  const view = new DataView(out.buffer);
  view.setUint32(0, Math.floor(value / WORD_SPACE), false);
  view.setUint32(4, value % WORD_SPACE, false);
  return out;
}

// SHA-256 and HMAC-SHA256: WebCrypto, or the fallback.

function subtle() {
  const c = globalThis.crypto;
  return c && c.subtle ? c.subtle : null;
}

export async function sha256(bytes) {
  const s = subtle();
  if (s) return new Uint8Array(await s.digest('SHA-256', bytes));
  return sha256Fallback(bytes);
}

/** An HMAC-SHA256 signer for one key: `await signer(message)` gives the 32-byte MAC. */
export async function hmacSigner(key, { fallback = false } = {}) {
  const s = fallback ? null : subtle();
  if (s) {
    const cryptoKey = await s.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    return async (message) => new Uint8Array(await s.sign('HMAC', cryptoKey, message));
  }
  return async (message) => hmacFallback(key, message);
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 in plain JavaScript (FIPS 180-4), for pages without WebCrypto. */
export function sha256Fallback(bytes) {
  const bitLength = bytes.length * 8;
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const tail = new DataView(padded.buffer, padded.length - 8);
  tail.setUint32(0, Math.floor(bitLength / WORD_SPACE), false);
  tail.setUint32(4, bitLength >>> 0, false);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  const data = new DataView(padded.buffer);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = data.getUint32(offset + 4 * i, false);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + s1 + ch + K[i] + w[i]) >>> 0;
      const s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (s0 + maj) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    const add = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i++) h[i] = (h[i] + add[i]) >>> 0;
  }
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) view.setUint32(4 * i, h[i], false);
  return out;
}

export function hmacFallback(key, message) {
  let block = key.length > 64 ? sha256Fallback(key) : key;
  block = concat(block, new Uint8Array(64 - block.length));
  const inner = block.map((b) => b ^ 0x36);
  const outer = block.map((b) => b ^ 0x5c);
  return sha256Fallback(concat(outer, sha256Fallback(concat(inner, message))));
}

// The stream.

export const NO_CONTEXT = new Uint8Array(32);

/** The public commitment to a seed: SHA-256 of its 32 bytes, lowercase hex. */
export async function fingerprint(seedHex) {
  return bytesToHex(await sha256(hexToBytes(seedHex)));
}

/** SHA-256 over "{seat}:{text}\n" for every contribution, in ascending seat order. */
export async function entropyDigest(contributions) {
  const sorted = [...contributions].sort((a, b) => a[0] - b[0]);
  const lines = sorted.map(([seat, text]) => `${seat}:${text}\n`).join('');
  return sha256(encoder.encode(lines));
}

/** Uniform integers from the HMAC-SHA256 counter stream of one purpose. */
export class Stream {
  constructor(seed, purpose, hand, context = NO_CONTEXT, index = 0, options = {}) {
    if (context.length !== 32) throw new Error('context must be 32 bytes');
    this.seed = seed;
    this.message = concat(
      encoder.encode(ALGORITHM),
      new Uint8Array([0]),
      encoder.encode(purpose),
      new Uint8Array([0]),
      uint32be(hand),
      context,
      uint32be(index),
    );
    this.options = options;
    this.counter = 0;
    this.words = [];
    this.position = 0;
    this.consumed = []; // every word taken, when options.record is set (for the test vectors)
    this.signer = null;
  }

  async refill() {
    if (this.signer === null) this.signer = await hmacSigner(this.seed, this.options);
    const first = this.counter;
    const blocks = await Promise.all(
      Array.from({ length: BLOCKS_PER_REFILL }, (_, k) =>
        this.signer(concat(this.message, uint64be(first + k))),
      ),
    );
    this.counter = first + BLOCKS_PER_REFILL;
    this.words = [];
    for (const block of blocks) {
      const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
      for (let i = 0; i < 8; i++) this.words.push(view.getUint32(4 * i, false));
    }
    this.position = 0;
  }

  async nextWord() {
    if (this.position === this.words.length) await this.refill();
    const word = this.words[this.position++];
    if (this.options.record) this.consumed.push(word);
    return word;
  }

  /** A uniform integer in [0, n), by rejection sampling (no modulo bias). */
  async below(n) {
    if (!Number.isInteger(n) || n <= 0 || n > WORD_SPACE) throw new Error('n out of range');
    const limit = WORD_SPACE - (WORD_SPACE % n);
    for (;;) {
      const word = await this.nextWord();
      if (word < limit) return word % n;
    }
  }
}

/** Fisher–Yates from the top index down, on a copy of `items`. */
export async function shuffle(items, stream) {
  const deck = [...items];
  for (let i = deck.length - 1; i > 0; i--) {
    const j = await stream.below(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

export async function chooseFirstDealer(seed, candidates) {
  const stream = new Stream(seed, 'dealer', 0);
  return candidates[await stream.below(candidates.length)];
}

/** The hand's context: the entropy digest over every dealt-in seat (empty text where none). */
export async function entropyContext(order, entropyBySeat) {
  return entropyDigest(order.map((seat) => [seat, entropyBySeat[seat] || '']));
}

/** Rules §2.2: each seat's three cards (card numbers), the trump card and the stock. */
export async function deal(seed, handNo, order, context, seats) {
  const deck = await shuffle(DECK, new Stream(seed, 'deal', handNo, context));
  const players = order.length;
  const hands = Array.from({ length: seats }, () => []);
  order.forEach((seat, i) => {
    hands[seat] = [deck[i], deck[i + players], deck[i + 2 * players]];
  });
  const top = 3 * players;
  return { hands, trump: deck[top], stock: deck.slice(top + 1) };
}

/** Earlier discards, sorted by card number, shuffled to go under the stock. */
export async function recycled(seed, handNo, context, index, discards) {
  const sorted = [...discards].sort((a, b) => a - b);
  return shuffle(sorted, new Stream(seed, 'recycle', handNo, context, index));
}

// Verifying a game record (GET /api/tables/{id}/games/{n}/record).

function cardsOf(codes, where) {
  if (!Array.isArray(codes)) throw new Error(`${where}: expected a list of cards`);
  return codes.map((code) => {
    const number = cardNumber(code);
    if (number < 0) throw new Error(`${where}: not a card: ${JSON.stringify(code)}`);
    return number;
  });
}

const show = (numbers) => labels(numbers.map((n) => CODES[n]));
const equal = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Check a record's shape, turning card codes into numbers; throws with a readable message. */
export function parseRecord(data) {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new Error('A record is a JSON object');
  }
  const need = ['algorithm', 'seats', 'seed', 'fingerprint', 'first_dealer', 'dealer_candidates'];
  for (const key of [...need, 'hands']) {
    if (!(key in data)) throw new Error(`The record has no "${key}"`);
  }
  if (!Array.isArray(data.hands)) throw new Error('"hands" must be a list');
  return {
    algorithm: String(data.algorithm),
    seats: Number(data.seats),
    seed: String(data.seed),
    fingerprint: String(data.fingerprint),
    firstDealer: Number(data.first_dealer),
    dealerCandidates: data.dealer_candidates.map(Number),
    hands: data.hands.map((hand, i) => ({
      handNo: Number(hand.hand_no),
      dealer: Number(hand.dealer),
      order: hand.order.map(Number),
      entropy: hand.entropy.map(String),
      dealt: hand.dealt.map((cards, k) => cardsOf(cards, `hand ${i + 1}, seat ${k + 1}`)),
      trump: cardsOf([hand.trump_card], `hand ${i + 1}, trump`)[0],
      kept: Boolean(hand.kept),
      draws: hand.draws.map((draw) => ({
        seat: Number(draw.seat),
        discards: cardsOf(draw.discards, `hand ${i + 1}, discards`),
        drawn: cardsOf(draw.drawn, `hand ${i + 1}, draws`),
      })),
    })),
  };
}

/**
 * Re-deal one hand and compare every card. Returns '' when it matches, else the first
 * difference, worded as shared/games/swick/record.py words it. `dealt` holds what the seed
 * deals (seat -> card codes), the trump card and the checked draws, for display.
 */
export async function verifyHand(seed, seats, hand) {
  const entropy = Array(seats).fill(null);
  if (hand.order.length !== hand.entropy.length || hand.order.length !== hand.dealt.length) {
    return { mismatch: 'the hand lists a different number of seats, entropies and hands' };
  }
  hand.order.forEach((seat, i) => {
    entropy[seat] = hand.entropy[i];
  });
  const context = await entropyContext(hand.order, entropy);
  const dealt = await deal(seed, hand.handNo, hand.order, context, seats);
  const shown = {
    context: bytesToHex(context),
    hands: hand.order.map((seat) => [seat, dealt.hands[seat].map((n) => CODES[n])]),
    trump: CODES[dealt.trump],
    draws: 0,
  };
  const held = new Map();
  for (let i = 0; i < hand.order.length; i++) {
    const seat = hand.order[i];
    if (!equal(hand.dealt[i], dealt.hands[seat])) {
      const mismatch = `seat ${seat + 1} was dealt ${show(hand.dealt[i])}, the seed deals ${show(dealt.hands[seat])}`;
      return { mismatch, shown };
    }
    held.set(seat, [...hand.dealt[i]]);
  }
  if (dealt.trump !== hand.trump) {
    return { mismatch: `the trump card should be ${show([dealt.trump])}`, shown };
  }
  if (hand.kept) held.get(hand.dealer).push(dealt.trump);
  let stock = dealt.stock;
  let pile = [];
  let recycles = 0;
  for (const draw of hand.draws) {
    const cards = held.get(draw.seat) || [];
    if (draw.discards.some((card) => !cards.includes(card))) {
      return { mismatch: `seat ${draw.seat + 1} discarded a card it did not hold`, shown };
    }
    const need = draw.drawn.length;
    if (need && need !== draw.discards.length) {
      const mismatch = `seat ${draw.seat + 1} drew ${need} cards for ${draw.discards.length} discards`;
      return { mismatch, shown };
    }
    if (need && stock.length < need) {
      stock = stock.concat(await recycled(seed, hand.handNo, context, recycles, pile));
      pile = [];
      recycles += 1;
    }
    if (!equal(draw.drawn, stock.slice(0, need))) {
      const mismatch = `seat ${draw.seat + 1} drew ${show(draw.drawn)}, the stock gives ${show(stock.slice(0, need))}`;
      return { mismatch, shown };
    }
    stock = stock.slice(need);
    for (const card of draw.discards) cards.splice(cards.indexOf(card), 1);
    cards.push(...draw.drawn);
    pile = pile.concat(draw.discards);
    shown.draws += 1;
  }
  return { mismatch: '', shown };
}

/**
 * The cards of a deck with `ranks` (low to high) in each suit, numbered suit by suit (♣ ♦ ♥ ♠):
 * `deck` (the numbers), `codes` ("10D"), `code` and `label` ("10♦") of a number, `labels` of
 * several, `cardNumber` of a code (-1 if none), and `cardOf` / `cardsOf`, which read a record's
 * codes and throw, saying `where`, at one that is not a card. Euchre's and Contract Whist's
 * records (js/euchre-fair.js, js/whist-fair.js) are read with these.
 */
export function cardSet(ranks) {
  const codes = ['C', 'D', 'H', 'S'].flatMap((suit) => ranks.map((rank) => rank + suit));
  const symbols = ['♣', '♦', '♥', '♠'];
  const label = (card) => ranks[card % ranks.length] + symbols[Math.floor(card / ranks.length)];
  const cardNumber = (text) => (typeof text === 'string' ? codes.indexOf(text.trim().toUpperCase()) : -1);
  const cardOf = (text, where) => {
    const card = cardNumber(text);
    if (card < 0) throw new Error(`${where}: ${JSON.stringify(text)} is not a card`);
    return card;
  };
  return {
    deck: codes.map((_, i) => i),
    codes,
    code: (card) => codes[card],
    label,
    labels: (cards) => cards.map(label).join(' '),
    cardNumber,
    cardOf,
    cardsOf: (list, where) => {
      if (!Array.isArray(list)) throw new Error(`${where}: not a list of cards`);
      return list.map((text) => cardOf(text, where));
    },
  };
}

/** What every Euchre and Contract Whist record opens with (its algorithm, seed and fingerprint),
 * once it is an object with a list of `list` (its hands or rounds); throws otherwise. */
export function recordHead(data, list) {
  if (!data || typeof data !== 'object') throw new Error('the record is not an object');
  if (!Array.isArray(data[list])) throw new Error(`the record has no ${list}`);
  return { algorithm: data.algorithm, seed: data.seed, fingerprint: data.fingerprint };
}

/** Whether two lists of cards are the same cards in the same order. */
export const sameCards = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The checks every game's verdict opens with: the record parses (with `parse`), is of
 * `algorithm`, and its seed is the one fingerprinted at the start. `count` and `each` name the
 * verdict's fields ('hands' and 'perHand', or 'rounds' and 'perRound'). Returns the failed
 * verdict as `{ verdict }`, else `{ record, seed, checks, fail }`, where `fail(mismatch, passed,
 * perEach)` makes the verdict of a later check.
 */
export async function openRecord(data, { parse, algorithm, count = 'hands', each = 'perHand' }) {
  const checks = [];
  const fail = (mismatch, passed = 0, perEach = []) => ({ ok: false, [count]: passed, mismatch, [each]: perEach, checks });
  let record;
  try {
    record = parse(data);
  } catch (error) {
    return { verdict: fail(error.message) };
  }
  if (record.algorithm !== algorithm) return { verdict: fail(`unknown algorithm '${record.algorithm}'`) };
  let seed;
  try {
    seed = hexToBytes(record.seed);
  } catch {
    return { verdict: fail('the seed is not hex') };
  }
  if (bytesToHex(await sha256(seed)) !== record.fingerprint) {
    return { verdict: fail('the seed does not match the fingerprint published at the start') };
  }
  checks.push('fingerprint');
  return { record, seed, checks, fail };
}

/**
 * Verify a whole record. `ok`, `hands` (how many hands passed before the first mismatch) and
 * `mismatch` match shared/games/swick/record.py's Verdict; `perHand` checks every hand on its
 * own (each hand's deal depends only on the seed and its own record), for the verify page.
 */
export async function verifyRecord(data) {
  const opened = await openRecord(data, { parse: parseRecord, algorithm: ALGORITHM });
  if (opened.verdict) return opened.verdict;
  const { record, seed, checks, fail } = opened;
  const first = await chooseFirstDealer(seed, record.dealerCandidates);
  if (first !== record.firstDealer) return fail(`the first dealer should be seat ${first + 1}`);
  checks.push('first_dealer');
  const perHand = [];
  for (const hand of record.hands) {
    const { mismatch, shown } = await verifyHand(seed, record.seats, hand);
    perHand.push({ handNo: hand.handNo, dealer: hand.dealer, ok: !mismatch, mismatch, shown });
  }
  const bad = perHand.findIndex((h) => !h.ok);
  if (bad >= 0) {
    const mismatch = `hand ${perHand[bad].handNo}: ${perHand[bad].mismatch}`;
    return { ok: false, hands: bad, mismatch, perHand, checks };
  }
  return { ok: true, hands: perHand.length, mismatch: '', perHand, checks };
}
