// web/js/handles.js: two people of one name at a table are told apart by their handles' tags,
// shown beside the name; everyone else keeps their name as it is.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  knownHandles,
  lookUp,
  peopleOf,
  seatNameOf,
  shownName,
  tagOf,
  taggedView,
  tagsFor,
} from '../../services/gateway/web/js/handles.js';
import { freshPageEachTest } from './fakes.mjs';

freshPageEachTest();

const handles = new Map([
  ['p-1', { handle: 'Rita#4821', key: 'rita' }],
  ['p-2', { handle: 'RITA#0007', key: 'rita' }],
  ['p-3', { handle: 'Ann#1234', key: 'ann' }],
  ['p-4', { handle: 'Ríta#5555', key: 'rita' }],
]);
const rita = { id: 'p-1', name: 'Rita', bot: null };
const RITA = { id: 'p-2', name: 'RITA', bot: null };
const ann = { id: 'p-3', name: 'Ann', bot: null };
const bot = { id: 'b-1', name: 'Rita', bot: 'easy' };

test('a tag is what follows the handle\'s #', () => {
  assert.equal(tagOf('Rita#4821'), '4821');
  assert.equal(tagOf('We#are#4821'), '4821');
  assert.equal(tagOf('Rita'), '');
  assert.equal(tagOf(undefined), '');
  assert.equal(shownName('Rita', '4821'), 'Rita #4821');
  assert.equal(shownName('Rita', ''), 'Rita');
});

test('only people sharing a handle key get their tags', () => {
  assert.deepEqual([...tagsFor([rita, RITA, ann, null], handles)], [['p-1', '4821'], ['p-2', '0007']]);
  assert.deepEqual([...tagsFor([rita, ann], handles)], [], 'one Rita needs no tag');
  assert.deepEqual([...tagsFor([rita, bot], handles)], [], 'a bot is no person to tell apart');
  assert.deepEqual([...tagsFor([rita, { id: 'p-9', name: 'Rita', bot: null }], handles)], [], 'an unknown handle: no tag yet');
  const lookalike = { id: 'p-4', name: 'Ríta', bot: null };
  assert.deepEqual([...tagsFor([rita, lookalike], handles)], [['p-1', '4821'], ['p-4', '5555']], 'look-alikes share a key');
});

test('a table\'s view names its tagged players with their tags, and nothing else changes', () => {
  const view = {
    seq: 4,
    seat: 0,
    seats: [
      { seat: 0, player: rita, stack: 5 },
      { seat: 1, player: RITA, stack: 6 },
      { seat: 2, player: null },
      { seat: 3, player: ann },
    ],
  };
  assert.deepEqual(peopleOf(view), [rita, RITA, ann]);
  const tags = tagsFor(peopleOf(view), handles);
  const shown = taggedView(view, tags);
  assert.deepEqual(
    shown.seats.map((s) => s.player && s.player.name),
    ['Rita #4821', 'RITA #0007', null, 'Ann'],
  );
  assert.equal(shown.seats[0].stack, 5);
  assert.equal(shown.seats[3], view.seats[3], 'an untagged seat is the same object');
  assert.equal(view.seats[0].player.name, 'Rita', 'the view itself is left as it was');
  assert.equal(taggedView(view, new Map()), view);
  assert.equal(taggedView(null, tags), null);
});

test('the final standings name their tagged players with their tags too', () => {
  const view = {
    seats: [
      { seat: 0, player: rita },
      { seat: 1, player: RITA },
      { seat: 2, player: ann },
    ],
    standings: [
      { seat: 1, name: 'RITA', net: 40 },
      { seat: 2, name: 'Ann', net: -10 },
      { seat: 0, name: 'Rita', net: -30 },
    ],
  };
  const shown = taggedView(view, tagsFor(peopleOf(view), handles));
  assert.deepEqual(
    shown.standings.map((row) => row.name),
    ['RITA #0007', 'Ann', 'Rita #4821'],
  );
  assert.equal(shown.standings[1], view.standings[1], 'an untagged row is the same object');
  assert.equal(view.standings[0].name, 'RITA', 'the view itself is left as it was');
});

test('a lobby seat is named with its tag', () => {
  const tags = tagsFor([rita, RITA], handles);
  assert.equal(seatNameOf(rita, tags), 'Rita #4821');
  assert.equal(seatNameOf(ann, tags), 'Ann');
  assert.equal(seatNameOf({ name: 'Old', bot: null }, tags), 'Old');
});

test('handles are asked for once, in one request, and kept', async () => {
  const asked = [];
  globalThis.fetch = async (path) => {
    asked.push(path);
    return new Response(JSON.stringify({ 'p-00000000000000a1': { handle: 'Rita#4821', key: 'rita' } }), { status: 200 });
  };
  await lookUp(['p-00000000000000a1', 'p-00000000000000a2', 'p-00000000000000a1']);
  await lookUp(['p-00000000000000a1', 'p-00000000000000a2']);
  assert.deepEqual(asked, ['/api/handles?ids=p-00000000000000a1,p-00000000000000a2']);
  const known = knownHandles();
  assert.deepEqual(known.get('p-00000000000000a1'), { handle: 'Rita#4821', key: 'rita' });
  assert.equal(known.has('p-00000000000000a2'), false, 'an id with no account has no handle');
});

test('a lookup that fails is asked again later', async () => {
  let calls = 0;
  globalThis.fetch = async () => {
    calls += 1;
    return calls === 1
      ? new Response('{"detail":"down"}', { status: 503 })
      : new Response(JSON.stringify({ 'p-00000000000000b1': { handle: 'Bo#0001', key: 'bo' } }), { status: 200 });
  };
  await lookUp(['p-00000000000000b1']);
  assert.equal(knownHandles().has('p-00000000000000b1'), false);
  await lookUp(['p-00000000000000b1']);
  assert.equal(calls, 2);
  assert.equal(knownHandles().get('p-00000000000000b1').handle, 'Bo#0001');
});

test('only account ids are asked for: a bot\'s or a made-up id has no handle', async () => {
  const asked = [];
  globalThis.fetch = async (path) => {
    asked.push(path);
    return new Response('{}', { status: 200 });
  };
  await lookUp(['b-easy-1', 'p0', 'p-00000000000000c1']);
  assert.deepEqual(asked, ['/api/handles?ids=p-00000000000000c1']);
  await lookUp(['b-easy-1', 'p0']);
  assert.equal(asked.length, 1);
});
