// web/js/net.js and web/js/api.js: a token the server refuses (a socket closed with 4401, or an
// HTTP 401) makes the client sign in again, keeping the name, instead of retrying forever.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Connection, REPLACED, UNAUTHORIZED, afterClose } from '../../services/gateway/web/js/net.js';
import {
  api,
  dropSession,
  formerName,
  loadSession,
  onTokenRefused,
  saveSession,
} from '../../services/gateway/web/js/api.js';
import { FakeSocket, answer, freshPageEachTest } from './fakes.mjs';

freshPageEachTest();

test('a close code says what comes next', () => {
  assert.equal(afterClose(UNAUTHORIZED), 'sign-in');
  assert.equal(afterClose(4401), 'sign-in');
  assert.equal(afterClose(REPLACED), 'wait');
  for (const code of [1000, 1001, 1006, 1011, 1012, 4400]) assert.equal(afterClose(code), 'reconnect');
});

test('a socket closed with 4401 asks for a sign-in and does not reconnect', () => {
  const states = [];
  const conn = new Connection('tok', { onStatus: (s) => states.push(s.state) });
  conn.start();
  assert.equal(FakeSocket.opened.length, 1);
  assert.match(FakeSocket.opened[0].url, /^ws:\/\/swick\.test\/ws\?token=tok$/);
  FakeSocket.opened[0].onclose({ code: UNAUTHORIZED });
  assert.equal(conn.status.state, 'unauthorized');
  assert.equal(conn.status.retryAt, null);
  assert.equal(conn.timer, null, 'no reconnect is scheduled');
  conn.stop();
  assert.equal(FakeSocket.opened.length, 1);
});

test('a socket that drops otherwise reconnects with backoff', () => {
  const conn = new Connection('tok');
  conn.start();
  FakeSocket.opened[0].onclose({ code: 1006 });
  assert.equal(conn.status.state, 'offline');
  assert.ok(conn.status.retryAt > Date.now());
  assert.notEqual(conn.timer, null);
  conn.stop();
});

test('dropping a refused session keeps the name for the next sign-in', () => {
  saveSession({ id: 'p-1', name: 'Ada', token: 'old' });
  assert.equal(formerName(), '');
  assert.equal(dropSession('old'), true);
  assert.equal(loadSession(), null);
  assert.equal(formerName(), 'Ada');
  assert.equal(localStorage.getItem('swick.session'), null, 'the refused token is gone');
  assert.equal(dropSession('old'), false, 'twice, as when the socket and a request both report it');
  saveSession({ id: 'p-2', name: 'Ada', token: 'new' });
  assert.equal(formerName(), '', 'signed in again: nothing to offer');
  // A late 401 to a request made with the old token leaves the new session alone.
  assert.equal(dropSession('old'), false);
  assert.deepEqual(loadSession(), { id: 'p-2', name: 'Ada', token: 'new' });
  assert.equal(dropSession('new'), true);
  assert.equal(formerName(), 'Ada');
});

test('a 401 to a signed-in request is reported; other answers are not', async () => {
  let refused = 0;
  const stop = onTokenRefused((token) => {
    assert.equal(token, 'tok');
    refused += 1;
  });
  try {
    globalThis.fetch = answer(401, { detail: 'Sign in first' });
    await assert.rejects(api.balance('tok'), (e) => e.status === 401 && e.message === 'Sign in first');
    assert.equal(refused, 1);
    await assert.rejects(api.quickplay('tok'), (e) => e.status === 401);
    assert.equal(refused, 2);
    globalThis.fetch = answer(404, { detail: 'No table has this invite code' });
    await assert.rejects(api.invite('nope'));
    globalThis.fetch = answer(422, { detail: 'A name is 2 to 20 characters' });
    await assert.rejects(api.signUp('x'));
    globalThis.fetch = answer(200, { id: 'p-1', name: 'Ada', token: null });
    await api.me('tok');
    assert.equal(refused, 2);
  } finally {
    stop();
  }
  globalThis.fetch = answer(401, {});
  await assert.rejects(api.me('tok'));
  assert.equal(refused, 2, 'an unsubscribed listener hears nothing');
});
