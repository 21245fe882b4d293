// web/js/net.js: a move the server never answered before the socket dropped is sent again,
// with the same id, once the socket is back; anything else is answered "offline" at once. While
// the gateway is away, the client tries again at least every 2 s, jittered.

import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';

import { Connection, UNAUTHORIZED, backoff } from '../../services/gateway/web/js/net.js';
import { FakeSocket, fakePage } from './fakes.mjs';

beforeEach(fakePage);

const settled = async (promise) =>
  Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve('pending'), 20))]);

test('an unanswered move goes again, same id, after a reconnect; a ping does not', async () => {
  const conn = new Connection('tok');
  conn.start();
  const first = FakeSocket.opened[0];
  first.welcome();
  const move = conn.send({ type: 'act', table: 't-1', seq: 4, action: { kind: 'pass' } });
  const ping = conn.send({ type: 'ping' });
  const [act] = first.sent.filter((m) => m.type === 'act');
  first.onclose({ code: 1006 });
  assert.equal((await ping).code, 'offline');
  assert.equal(await settled(move), 'pending', 'the move waits for its answer');
  conn.retry();
  const second = FakeSocket.opened[1];
  second.welcome();
  assert.deepEqual(
    second.sent.filter((m) => m.type === 'act'),
    [act],
  );
  second.onmessage({ data: JSON.stringify({ type: 'ack', id: act.id }) });
  assert.deepEqual(await move, { type: 'ack', id: act.id });
  second.onclose({ code: 1006 });
  conn.retry();
  FakeSocket.opened[2].welcome();
  assert.deepEqual(FakeSocket.opened[2].sent.filter((m) => m.type === 'act'), [], 'answered: never again');
  conn.stop();
});

test('a socket that will not come back answers its moves "offline"', async () => {
  const conn = new Connection('tok');
  conn.start();
  FakeSocket.opened[0].welcome();
  const move = conn.send({ type: 'join', table: 't-1', seat: 2 });
  FakeSocket.opened[0].onclose({ code: UNAUTHORIZED });
  assert.equal((await move).code, 'offline');
  conn.stop();
});

test('the reconnect backoff doubles from 0.5 s and never waits more than 2 s', () => {
  const low = () => 0;
  const high = () => 0.999_999;
  for (let attempt = 0; attempt < 40; attempt++) {
    for (const random of [low, () => 0.5, high, Math.random]) {
      const delay = backoff(attempt, random);
      assert.ok(delay > 0 && delay <= 2_000, `attempt ${attempt}: ${delay} ms`);
    }
  }
  assert.deepEqual([0, 1, 2, 3, 10].map((a) => backoff(a, high)), [500, 1_000, 2_000, 2_000, 2_000]);
  // Jittered: two pages on the same attempt do not come back at the same moment.
  assert.deepEqual([0, 1, 2, 10].map((a) => backoff(a, low)), [250, 500, 1_000, 1_000]);
});

test('a gateway that stays away is tried again within 2 s, however long it is gone', () => {
  const conn = new Connection('tok');
  conn.start();
  for (let k = 0; k < 12; k++) {
    FakeSocket.opened.at(-1).onclose({ code: 1006 });
    assert.equal(conn.status.state, 'offline');
    const wait = conn.status.retryAt - Date.now();
    assert.ok(wait <= 2_000, `attempt ${k}: the next try in ${wait} ms`);
    conn.retry(); // what the timer does, without the wait
  }
  assert.equal(FakeSocket.opened.length, 13);
  conn.stop();
});
