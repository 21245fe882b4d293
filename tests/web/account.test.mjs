// web/js/account-words.js and web/js/api.js: the account page's and the sign-in's words, codes
// and times; what a throttled answer says; what is kept of a player who signs in again.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  ago,
  cleanCode,
  countdown,
  countdownMark,
  dateText,
  isGuest,
  kindText,
  landingOf,
  linkCodeOf,
  recoveryFile,
  recoveryFileName,
  svgImageUrl,
  textFileUrl,
  toMs,
} from '../../services/gateway/web/js/account-words.js';
import {
  ApiError,
  api,
  localTime,
  loadSession,
  retryAfterSeconds,
  saveSession,
  sessionOf,
  waitText,
} from '../../services/gateway/web/js/api.js';
import { answer, freshPageEachTest } from './fakes.mjs';

freshPageEachTest();

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

test('a code is taken as typed, upper-cased, without its spaces', () => {
  assert.equal(cleanCode(' k7qf 9m2x '), 'K7QF9M2X');
  assert.equal(cleanCode('k7qf-9m2x'), 'K7QF-9M2X');
  assert.equal(cleanCode(''), '');
  assert.equal(cleanCode(null), '');
});

test('a link code from the URL keeps only what a code holds', () => {
  assert.equal(linkCodeOf('K7QF-9M2X'), 'K7QF-9M2X');
  assert.equal(linkCodeOf('k7qf%209m2x'), 'K7QF9M2X');
  assert.equal(linkCodeOf('<b>k7qf</b>'), 'BK7QFB');
  assert.equal(linkCodeOf('%E0%A4%A'), 'E0A4A', 'a broken escape is read as typed');
  assert.equal(linkCodeOf(''), '');
});

test('times come as milliseconds, seconds or ISO dates', () => {
  assert.equal(toMs(1_765_000_000_000), 1_765_000_000_000);
  assert.equal(toMs(1_765_000_000), 1_765_000_000_000);
  assert.equal(toMs('2026-12-07T14:00:00Z'), Date.UTC(2026, 11, 7, 14));
  assert.equal(toMs(null), null);
  assert.equal(toMs('not a date'), null);
});

test('a countdown reads as a clock and as words, and ends expired', () => {
  const now = Date.UTC(2026, 11, 7, 14);
  assert.deepEqual(countdown(now + 10 * MINUTE, now), { ms: 10 * MINUTE, expired: false, text: '10:00', spoken: '10 minutes' });
  assert.deepEqual(countdown(now + 65_000, now), { ms: 65_000, expired: false, text: '1:05', spoken: '1 minute 5 seconds' });
  assert.equal(countdown(now + 1, now).text, '0:01', 'a part of a second left still counts');
  assert.equal(countdown(now + 1000, now).spoken, '1 second');
  assert.deepEqual(countdown(now - 5, now), { ms: 0, expired: true, text: '0:00', spoken: '0 seconds' });
  assert.equal(countdown(null, now).expired, true);
});

test('a countdown is announced in its last minute and when it expires, not every second', () => {
  assert.equal(countdownMark(5 * MINUTE), null);
  assert.equal(countdownMark(MINUTE + 1), null);
  assert.equal(countdownMark(MINUTE), 'last minute');
  assert.equal(countdownMark(1), 'last minute');
  assert.equal(countdownMark(0), 'expired');
});

test('how long ago, as a player says it', () => {
  const now = Date.UTC(2026, 11, 7, 12);
  assert.equal(ago(now - 5_000, now), 'just now');
  assert.equal(ago(now + 5_000, now), 'just now', 'a clock a little ahead is not the future');
  assert.equal(ago(now - MINUTE, now), '1 minute ago');
  assert.equal(ago(now - 5 * MINUTE, now), '5 minutes ago');
  assert.equal(ago(now - 3 * 60 * MINUTE, now), '3 hours ago');
  assert.equal(ago(now - DAY, now), 'yesterday');
  assert.equal(ago(now - 3 * DAY, now), '3 days ago');
  assert.equal(ago(now - 15 * DAY, now), '2 weeks ago');
  assert.equal(ago(now - 400 * DAY, now), '1 year ago');
  assert.equal(ago(null, now), 'never');
  assert.equal(ago(undefined, now, 'not yet'), 'not yet');
});

test('dates and device kinds', () => {
  assert.equal(dateText(Date.UTC(2026, 11, 7, 23, 59)), '7 Dec 2026');
  assert.equal(dateText(null), '');
  assert.equal(kindText('phone'), 'Phone');
  assert.equal(kindText(''), 'Device');
  assert.equal(kindText(null), 'Device');
});

test('the recovery codes file names the account and the codes, one a line', () => {
  const codes = Array.from({ length: 10 }, (_, k) => `CODE-${k}`);
  const text = recoveryFile('Rita#4821', codes, Date.UTC(2026, 11, 7, 14, 5));
  const lines = text.split('\n');
  assert.equal(lines[0], 'Swick Online recovery codes for Rita#4821');
  assert.match(lines[1], /^Made 2026-12-07 14:05 UTC\. .*making new codes ends these\.$/);
  for (const code of codes) assert.ok(lines.includes(code));
  assert.equal(recoveryFileName('Rita#4821'), 'swick-recovery-codes-Rita-4821.txt');
  assert.equal(recoveryFileName('Ülo#0001'), 'swick-recovery-codes-lo-0001.txt');
  assert.equal(recoveryFileName(''), 'swick-recovery-codes-account.txt');
});

test('files and images are data: URLs whose text comes back whole', () => {
  const text = 'line 1\nline #2 & 100%';
  const url = textFileUrl(text);
  assert.ok(url.startsWith('data:text/plain;charset=utf-8,'));
  assert.equal(decodeURIComponent(url.split(',')[1]), text);
  const svg = '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h1v1z"/></svg>';
  const image = svgImageUrl(svg);
  assert.ok(image.startsWith('data:image/svg+xml;charset=utf-8,'));
  assert.ok(!image.includes('<'), 'no markup left unescaped');
  assert.equal(decodeURIComponent(image.slice(image.indexOf(',') + 1)), svg);
});

test('a guest has neither a passkey nor a recovery code', () => {
  assert.equal(isGuest({ passkeys: [], recovery_codes_left: 0 }), true);
  assert.equal(isGuest({ passkeys: [{ id: 'k' }], recovery_codes_left: 0 }), false);
  assert.equal(isGuest({ passkeys: [], recovery_codes_left: 3 }), false);
  assert.equal(isGuest(null), false, 'an account not loaded yet is not nagged about');
});

test('a player signing in lands at their seat, or where they were', () => {
  assert.equal(landingOf({ seated: 't-1' }, 'lobby'), '/table/t-1');
  assert.equal(landingOf({ seated: 't-1' }, 'link'), '/table/t-1');
  assert.equal(landingOf({ seated: 't-1', seated_game_over: true }, 'link'), '/');
  assert.equal(landingOf({ seated: null }, 'link'), '/');
  assert.equal(landingOf({ seated: null }, 'table'), null);
  assert.equal(landingOf({}, 'lobby'), null);
});

test('a Retry-After header gives seconds, from a number or a date', () => {
  const now = Date.UTC(2026, 11, 7, 14);
  assert.equal(retryAfterSeconds('120', now), 120);
  assert.equal(retryAfterSeconds(new Date(now + 90_500).toUTCString(), now), 90);
  assert.equal(retryAfterSeconds(new Date(now - 5000).toUTCString(), now), 0);
  assert.equal(retryAfterSeconds(null, now), null);
  assert.equal(retryAfterSeconds('soon', now), null);
  assert.equal(waitText(1), 'a second');
  assert.equal(waitText(30), '30 seconds');
  assert.equal(waitText(60), 'a minute');
  assert.equal(waitText(61), '2 minutes');
  assert.equal(waitText(900), '15 minutes');
});

test('a throttled sign-in says how long to wait', async () => {
  globalThis.fetch = answer(429, { detail: 'Too many attempts' }, { 'retry-after': '300' });
  await assert.rejects(api.signInWithLink('K7QF-9M2X'), (error) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 429);
    assert.equal(error.retryAfter, 300);
    assert.equal(error.message, 'Too many tries: wait 5 minutes, then try again.');
    return true;
  });
  globalThis.fetch = answer(429, { detail: 'Too many attempts' });
  await assert.rejects(api.signInWithRecovery('X'), { message: 'Too many tries: wait a few minutes, then try again.' });
});

test('a refused sign-in says the server\'s one message, and signs nobody out', async () => {
  saveSession({ id: 'p-1', name: 'Ava', token: 'tok' });
  const message = 'That did not sign you in: check it and try again';
  globalThis.fetch = answer(401, { detail: message });
  await assert.rejects(api.signInWithRecovery('WRONG'), { status: 401, message });
  assert.equal(loadSession().token, 'tok');
});

test('the sign-in routes are the spec\'s, with the code in the body', async () => {
  const seen = [];
  globalThis.fetch = async (path, init) => {
    seen.push([init.method, path, init.body ? JSON.parse(init.body) : null, init.headers.authorization || null]);
    return new Response(JSON.stringify({ id: 'p-1', name: 'Ava', token: 't2' }), { status: 200 });
  };
  await api.signInWithLink('K7QF-9M2X');
  await api.signInWithRecovery('ABCD');
  await api.rename('tok', 'Rita');
  await api.signOutDevice('tok', 'd-1');
  await api.handles(['p-1', 'p 2']);
  assert.deepEqual(seen, [
    ['POST', '/api/sign-in/link', { code: 'K7QF-9M2X' }, null],
    ['POST', '/api/sign-in/recovery', { code: 'ABCD' }, null],
    ['PATCH', '/api/account', { name: 'Rita' }, 'Bearer tok'],
    ['DELETE', '/api/account/devices/d-1', null, 'Bearer tok'],
    ['GET', '/api/handles?ids=p-1,p%202', null, null],
  ]);
});

test('a player who signs in again is kept as a new player is', () => {
  const player = { id: 'p-1', name: 'Rita', handle: 'Rita#4821', token: 't', seated: 't-1', seated_game_over: false };
  assert.deepEqual(sessionOf(player), { id: 'p-1', name: 'Rita', token: 't', handle: 'Rita#4821' });
  assert.deepEqual(sessionOf({ id: 'p-1', name: 'Rita', token: 't' }), { id: 'p-1', name: 'Rita', token: 't' });
});

test('an expiry counts down on the server\'s clock where this one is wrong', async () => {
  const ahead = 10 * MINUTE;
  globalThis.fetch = async () =>
    new Response('{}', { status: 200, headers: { date: new Date(Date.now() + ahead).toUTCString() } });
  await api.tables();
  const drift = localTime(Date.now() + ahead) - Date.now();
  assert.ok(Math.abs(drift) < 2000, drift);
  globalThis.fetch = async () => new Response('{}', { status: 200, headers: { date: new Date().toUTCString() } });
  await api.tables();
  assert.equal(localTime(12345), 12345, 'a clock within the second of the server\'s is taken as right');
});
