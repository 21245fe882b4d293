// web/js/net.js: a move the server never answered before the socket dropped is sent again,
// with the same id, once the socket is back; anything else is answered "offline" at once.

import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';

import { Connection, UNAUTHORIZED } from '../../services/gateway/web/js/net.js';

class FakeSocket {
  static OPEN = 1;
  static opened = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.opened.push(this);
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close() {}
  welcome() {
    this.readyState = FakeSocket.OPEN;
    this.onmessage({ data: JSON.stringify({ type: 'welcome' }) });
  }
}

beforeEach(() => {
  globalThis.location = { protocol: 'http:', host: 'swick.test' };
  globalThis.WebSocket = FakeSocket;
  FakeSocket.opened = [];
});

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
