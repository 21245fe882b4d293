// web/js/state.js: the hand log and chat a page shows again after a reload or a reconnect
// (the `history` frame), each line once, from real views (tests/web/fixtures/views.json).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { historySince, mergeChat, mergeLog, wordHistory, wordView } from '../../services/gateway/web/js/state.js';
import { readFixture } from './fixture.mjs';

const steps = readFixture('views.json');
const views = steps.map((s) => s.seat0);
const texts = (log) => log.map((e) => e.text);
const entry = (s) => ({ text: s.text, base: s.base });

/** The log of a page that saw `list` live, frame after frame. */
function live(list, cover = null, log = [], heard = new Set()) {
  for (const view of list) {
    const r = wordView(cover, view, heard);
    cover = r.cover;
    log = [...log, ...r.said.map(entry)];
  }
  return { cover, log, heard };
}

test('a reloaded page words the replayed views as a page that saw them live did', () => {
  const seen = live(views);
  const words = wordHistory(null, views, new Set());
  assert.deepEqual(words.before, []);
  // The same lines, but for the first view's (the live page had no view before it).
  assert.deepEqual(texts(words.after.map(entry)), texts(seen.log.filter((e) => !e.base)));
  assert.ok(words.after.length > 20);
  assert.deepEqual([words.cover.from, words.cover.to], [views[0].seq, views.at(-1).seq]);
  // The snapshot that follows (the table as it stands) adds nothing already said ...
  assert.deepEqual(wordView(words.cover, views.at(-1), new Set()).said, []);
});

test('the snapshot after a history words only what changed since its last view', () => {
  const words = wordHistory(null, views.slice(0, 10), new Set());
  const then = wordView(words.cover, views[14], new Set());
  assert.ok(then.said.length > 0);
  assert.equal(then.cover.to, views[14].seq);
  // A late update already covered by the snapshot adds nothing.
  assert.deepEqual(wordView(then.cover, views[12], new Set()).said, []);
});

test('a reconnect sends the history again: no line is worded twice', () => {
  const seen = live(views.slice(0, 15));
  const again = wordHistory(seen.cover, views.slice(0, 25), seen.heard);
  assert.deepEqual(again.before, []);
  const log = mergeLog(seen.log, again, entry);
  const whole = live(views.slice(0, 25));
  assert.deepEqual(texts(log), texts(whole.log));
  // The same history once more: nothing new.
  const twice = wordHistory(again.cover, views.slice(0, 25), seen.heard);
  assert.deepEqual([twice.before, twice.after], [[], []]);
  assert.deepEqual(texts(mergeLog(log, twice, entry)), texts(log));
});

test('a history that arrives after the first snapshot goes before it, in place of its lines', () => {
  // A seated player's socket is sent a snapshot as it opens, maybe before the history.
  const seen = live([views[20]]);
  const words = wordHistory(seen.cover, views.slice(0, 23), seen.heard);
  const log = mergeLog(seen.log, words, entry);
  const replayed = wordHistory(null, views.slice(0, 23), new Set());
  assert.deepEqual(texts(log), texts(replayed.after.map(entry)));
  assert.ok(!log.some((e) => e.base));
  // Such a page asks for the whole history, though it has a view.
  assert.equal(historySince(seen.cover), 0);
  assert.equal(historySince(null), 0);
  assert.equal(historySince(words.cover), views[22].seq);
  assert.deepEqual([words.cover.from, words.cover.to], [views[0].seq, views[22].seq]);
});

test('chat lines are kept once each, in the order they were said', () => {
  const line = (id, at, text = id) => ({ type: 'chat', id, at, text, name: 'A', player: 'p' });
  let r = mergeChat([], [line('a', 1), line('b', 2)]);
  assert.equal(r.added, 2);
  r = mergeChat(r.lines, [line('c', 3)]);
  // The history of a reconnect: old lines and the one said live since, nothing twice.
  r = mergeChat(r.lines, [line('a', 1), line('b', 2), line('c', 3), line('d', 4)]);
  assert.equal(r.added, 1);
  assert.deepEqual(r.lines.map((l) => l.id), ['a', 'b', 'c', 'd']);
  // A line said live before the history that holds older ones arrives: in order.
  r = mergeChat([line('z', 9)], [line('x', 5), line('y', 6), line('z', 9)]);
  assert.deepEqual(r.lines.map((l) => l.id), ['x', 'y', 'z']);
  assert.deepEqual(mergeChat(r.lines, [line('z', 9)]), { lines: r.lines, added: 0 });
  const many = Array.from({ length: 130 }, (_, k) => line(`m${k}`, 10 + k));
  assert.deepEqual(mergeChat([], many).lines.map((l) => l.id), many.slice(-100).map((l) => l.id));
});
