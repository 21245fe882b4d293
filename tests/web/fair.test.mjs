// web/js/fair.js against every vector of tests/vectors/fairness_v1.json and a real game record
// from the Python engine (tests/web/fixtures/record.json, made by tests/web/make_record.py).
// Run: node --test tests/web/

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { test } from 'node:test';

import { CODES, cardNumber } from '../../services/gateway/web/js/cards.js';
import {
  DECK,
  NO_CONTEXT,
  Stream,
  bytesToHex,
  chooseFirstDealer,
  deal,
  entropyDigest,
  fingerprint,
  hexToBytes,
  hmacFallback,
  recycled,
  sha256Fallback,
  shuffle,
  verifyRecord,
} from '../../services/gateway/web/js/fair.js';
import { readFixture } from './fixture.mjs';

const root = new URL('../../', import.meta.url);
const vectors = JSON.parse(readFileSync(new URL('tests/vectors/fairness_v1.json', root), 'utf8'));
const fixture = readFixture('record.json', 'SWICK_RECORD_FIXTURE');

const ofKind = (kind) => vectors.filter((v) => v.kind === kind);
const codes = (numbers) => numbers.map((n) => CODES[n]);
const numbers = (list) => list.map((c) => cardNumber(c));

async function contextOf(v) {
  if (v.entropy === null) return NO_CONTEXT;
  return entropyDigest(v.entropy);
}

test('the vector file has every kind', () => {
  for (const kind of ['deck', 'below', 'recycle', 'first_dealer', 'hand']) {
    assert.ok(ofKind(kind).length > 0, kind);
  }
});

test('entropy digests match every vector context', async () => {
  for (const v of vectors.filter((x) => 'context' in x)) {
    assert.equal(bytesToHex(await contextOf(v)), v.context, JSON.stringify(v.entropy));
  }
});

test('deck vectors: Fisher-Yates over the stream', async () => {
  for (const v of ofKind('deck')) {
    const stream = new Stream(hexToBytes(v.seed), v.purpose, v.hand, await contextOf(v), v.index);
    assert.deepEqual(codes(await shuffle(DECK, stream)), v.deck, `${v.seed} ${v.purpose} ${v.hand}`);
  }
});

test('below vectors: values, raw words and rejections', async () => {
  for (const v of ofKind('below')) {
    const stream = new Stream(hexToBytes(v.seed), v.purpose, v.hand, await contextOf(v), v.index, {
      record: true,
    });
    const values = [];
    for (let i = 0; i < v.values.length; i++) values.push(await stream.below(v.n));
    assert.deepEqual(values, v.values, `n=${v.n}`);
    assert.deepEqual(stream.consumed, v.words, `words for n=${v.n}`);
    assert.equal(stream.consumed.length - values.length, v.rejected, `rejected for n=${v.n}`);
  }
});

test('recycle vectors', async () => {
  for (const v of ofKind('recycle')) {
    const out = await recycled(hexToBytes(v.seed), v.hand, await contextOf(v), v.index, numbers(v.discards));
    assert.deepEqual(codes(out), v.recycled);
  }
});

test('first dealer vectors', async () => {
  for (const v of ofKind('first_dealer')) {
    assert.equal(await chooseFirstDealer(hexToBytes(v.seed), v.candidates), v.first_dealer);
  }
});

test('whole-hand vectors: dealer, order, context, hands, trump and stock', async () => {
  for (const v of ofKind('hand')) {
    const seed = hexToBytes(v.seed);
    const seats = [...Array(v.seats).keys()];
    const dealer = await chooseFirstDealer(seed, seats);
    assert.equal(dealer, v.dealer);
    const order = seats.map((k) => (dealer + 1 + k) % v.seats);
    assert.deepEqual(order, v.order);
    const context = await entropyDigest(v.entropy);
    assert.equal(bytesToHex(context), v.context);
    const dealt = await deal(seed, v.hand, order, context, v.seats);
    assert.deepEqual(
      order.map((seat) => [seat, codes(dealt.hands[seat])]),
      v.hands,
    );
    assert.equal(CODES[dealt.trump], v.trump);
    assert.deepEqual(codes(dealt.stock), v.stock);
  }
});

test('the fallback SHA-256 and HMAC agree with WebCrypto and node', async () => {
  for (const size of [0, 1, 55, 56, 63, 64, 65, 119, 200, 1000]) {
    const data = randomBytes(size);
    const expected = createHash('sha256').update(data).digest('hex');
    assert.equal(bytesToHex(sha256Fallback(new Uint8Array(data))), expected, `size ${size}`);
    const key = randomBytes(size % 2 ? 32 : 100);
    const mac = createHmac('sha256', key).update(data).digest('hex');
    assert.equal(bytesToHex(hmacFallback(new Uint8Array(key), new Uint8Array(data))), mac);
  }
  const v = ofKind('deck')[0];
  const stream = new Stream(hexToBytes(v.seed), v.purpose, v.hand, await contextOf(v), v.index, {
    fallback: true,
  });
  assert.deepEqual(codes(await shuffle(DECK, stream)), v.deck);
});

test('a real record from the engine verifies, with every hand re-dealt', async () => {
  const verdict = await verifyRecord(fixture.record);
  assert.equal(verdict.ok, fixture.verdict.ok);
  assert.equal(verdict.hands, fixture.verdict.hands);
  assert.equal(verdict.mismatch, fixture.verdict.mismatch);
  assert.ok(verdict.ok);
  assert.equal(verdict.perHand.length, fixture.record.hands.length);
  assert.ok(verdict.perHand.every((h) => h.ok));
  assert.equal(await fingerprint(fixture.record.seed), fixture.record.fingerprint);
});

test('tampered records fail with the mismatch Python reports', async () => {
  assert.ok(fixture.tampered.length >= 5);
  for (const t of fixture.tampered) {
    const verdict = await verifyRecord(t.record);
    assert.equal(verdict.ok, false, t.name);
    assert.deepEqual(
      { ok: verdict.ok, hands: verdict.hands, mismatch: verdict.mismatch },
      t.verdict,
      t.name,
    );
  }
});

test('a record that is not one is refused with a reason', async () => {
  const verdict = await verifyRecord({ hello: 'world' });
  assert.equal(verdict.ok, false);
  assert.match(verdict.mismatch, /record has no "algorithm"/);
  const bad = structuredClone(fixture.record);
  bad.hands[0].dealt[0][0] = 'ZZ';
  assert.match((await verifyRecord(bad)).mismatch, /not a card/);
});
