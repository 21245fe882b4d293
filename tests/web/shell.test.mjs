// The table shell's pure parts (web/js/shell/): what moves between two sights of a table, for
// every game, and the words every game's table shares.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { chipCount, gatherDelay, movesBetween, tableSight } from '../../services/gateway/web/js/shell/moves.js';
import {
  SOUNDS,
  WARNING_MS,
  foreignGame,
  logEntries,
  namedSeat,
  seatNames,
  ranOut,
  ranOutForYou,
  sentenceWords,
  spokenLines,
  timedOutSeats,
  trickCardTip,
  secondsLeftWords,
  warningDelay,
  whoIs,
} from '../../services/gateway/web/js/shell/words.js';

const dealt = tableSight({
  deal: '1:1',
  hand: ['AS', 'KS', '9H'],
  held: [[0, 3], [1, 3], [2, 3], [3, 3]],
  scores: [[0, 2], [1, 4]],
});

test('the first sight of a table moves nothing', () => {
  assert.equal(movesBetween(null, dealt), null);
});

test('the same sight again moves nothing', () => {
  const moves = movesBetween(dealt, tableSight({ deal: '1:1', hand: ['AS', 'KS', '9H'], held: [[0, 3], [1, 3], [2, 3], [3, 3]], scores: [[0, 2], [1, 4]] }));
  assert.deepEqual(['AS', 'KS', '9H'].filter(moves.dealt), []);
  assert.deepEqual(moves.backs, []);
  assert.deepEqual(moves.played, []);
  assert.equal(moves.gather, null);
  assert.deepEqual(moves.chips, []);
  assert.deepEqual(moves.scores, []);
});

test('a new deal deals every card again, to you and to every seat', () => {
  const next = tableSight({ deal: '1:2', hand: ['AS', 'QD', 'JC'], held: [[0, 3], [1, 3], [2, 0], [3, 3]] });
  const moves = movesBetween(dealt, next);
  // A card you held last hand is dealt again all the same: the hand is new.
  assert.deepEqual(['AS', 'QD', 'JC'].filter(moves.dealt), ['QD', 'JC']);
  assert.equal(moves.dealt(null), true);
  assert.deepEqual(moves.backs, [{ seat: 0, from: 0 }, { seat: 1, from: 0 }, { seat: 3, from: 0 }]);
});

test('a card drawn in the same deal is the only one dealt', () => {
  const next = tableSight({ deal: '1:1', hand: ['AS', 'KS', '9H', '10C'], held: [[0, 4], [1, 3], [2, 3], [3, 3]] });
  const moves = movesBetween(dealt, next);
  assert.deepEqual(['AS', 'KS', '9H', '10C'].filter(moves.dealt), ['10C']);
  assert.equal(moves.dealt(null), false);
  assert.deepEqual(moves.backs, [{ seat: 0, from: 3 }]);
});

test('a face-down card is dealt when there are more of them, or a new deal', () => {
  const blind = tableSight({ deal: 4, hidden: 1 });
  assert.equal(movesBetween(blind, tableSight({ deal: 4, hidden: 3 })).dealt(null), true);
  assert.equal(movesBetween(blind, tableSight({ deal: 4, hidden: 1 })).dealt(null), false);
  assert.equal(movesBetween(blind, tableSight({ deal: 5, hidden: 1 })).dealt(null), true);
});

test('each card played flies once, and the last of a trick flies as the trick is shown', () => {
  const one = tableSight({ deal: 1, trick: [{ seat: 1, code: 'AS' }] });
  const two = tableSight({ deal: 1, trick: [{ seat: 1, code: 'AS' }, { seat: 2, code: 'KS' }] });
  assert.deepEqual(movesBetween(one, two).played, ['2:KS']);
  const flash = { cards: [{ seat: 1, code: 'AS' }, { seat: 2, code: 'KS' }, { seat: 3, code: '9S' }], winner: 1, until: 5000 };
  const taken = tableSight({ deal: 1, trick: [], flash });
  const moves = movesBetween(two, taken);
  assert.deepEqual(moves.played, ['3:9S']);
  assert.equal(moves.gather, flash);
  assert.equal(moves.stopGather, true);
  // The trick on show, seen again: it is not gathered twice, and the gathering goes on.
  const again = movesBetween(taken, tableSight({ deal: 1, trick: [], flash }));
  assert.equal(again.gather, null);
  assert.equal(again.stopGather, false);
  assert.deepEqual(again.played, []);
});

test('a new lead under a trick on show stops its gathering', () => {
  const flash = { cards: [{ seat: 0, code: 'AS' }], winner: 0, until: 5000 };
  const taken = tableSight({ deal: 1, flash });
  const led = tableSight({ deal: 1, trick: [{ seat: 0, code: 'QH' }], flash });
  const moves = movesBetween(taken, led);
  assert.equal(moves.gather, null);
  assert.equal(moves.stopGather, true);
  assert.deepEqual(moves.played, ['0:QH']);
});

test('the finished trick rests readable before it goes, never less than nothing', () => {
  assert.equal(gatherDelay({ until: 3000 }, 1000, 380), 1560);
  assert.equal(gatherDelay({ until: 1000 }, 1000, 380), 0);
});

test('chips go into the pot from a stack that fell and out of it to one that rose', () => {
  const before = tableSight({ stacks: [[0, 1000], [1, 1000], [2, 500]] });
  const after = tableSight({ stacks: [[0, 990], [1, 1300], [2, 500], [3, 200]] });
  assert.deepEqual(movesBetween(before, after).chips, [
    { seat: 0, count: chipCount(10), into: true },
    { seat: 1, count: chipCount(300), into: false },
  ]);
  assert.deepEqual([1, 3, 15, 255, 1_000_000].map(chipCount), [1, 1, 2, 4, 4]);
});

test('a score that changed moves, from what it was to what it is (down too)', () => {
  const after = tableSight({ scores: [[0, 3], [1, 4]] });
  assert.deepEqual(movesBetween(dealt, after).scores, [{ key: 0, from: 2, to: 3 }]);
  const fell = movesBetween(after, tableSight({ scores: [[0, -2], [1, 4]] }));
  assert.deepEqual(fell.scores, [{ key: 0, from: 3, to: -2 }]);
});

test("a frame of another game's table names that game; a Swick view may leave its game out", () => {
  const swick = { hand_no: 1 };
  const euchre = { game: 'euchre', hand_no: 1 };
  assert.equal(foreignGame({ type: 'snapshot', view: swick }, 'swick'), null);
  assert.equal(foreignGame({ type: 'snapshot', view: swick }, 'euchre'), 'swick');
  assert.equal(foreignGame({ type: 'update', view: euchre }, 'swick'), 'euchre');
  assert.equal(foreignGame({ type: 'history', views: [euchre, euchre] }, 'euchre'), null);
  assert.equal(foreignGame({ type: 'history', views: [{ game: 'contract-whist' }] }, 'euchre'), 'contract-whist');
  assert.equal(foreignGame({ type: 'chat', text: 'hi' }, 'euchre'), null);
  assert.equal(foreignGame({ type: 'history' }, 'euchre'), null);
});

test('your turn is announced and sounded, not logged; a trick taken sounds a win', () => {
  const said = spokenLines(['North plays the ace of spades.', 'You take the trick.', 'Your turn.']);
  assert.deepEqual(said, [
    { text: 'North plays the ace of spades.', sound: 'card' },
    { text: 'You take the trick.', sound: 'win' },
    { text: 'Your turn.', sound: 'turn', logged: false },
  ]);
  assert.deepEqual(logEntries(said).map((s) => s.text), ['North plays the ace of spades.', 'You take the trick.']);
  // The first cue any line asks for, in this order, is the one heard.
  assert.equal(SOUNDS.find((cue) => said.some((s) => s.sound === cue)), 'turn');
  assert.deepEqual(SOUNDS, ['turn', 'win', 'set', 'deal', 'card']);
});

test('a seat is "You" to its player and its name to everyone else', () => {
  assert.equal(whoIs({ isMe: true, name: 'Ava' }), 'You');
  assert.equal(whoIs({ isMe: false, name: 'Ava' }), 'Ava');
});

test('the tip of a trick card names who played it: you, or the player by name', () => {
  const ann = { seat: 2, isMe: false, name: 'Ann' };
  assert.equal(trickCardTip({ seat: 2, code: 'AS', winning: false }, ann, false), 'A♠, played by Ann');
  assert.equal(trickCardTip({ seat: 2, code: 'AS', winning: true }, ann, false), 'A♠, played by Ann: taking the trick so far');
  assert.equal(trickCardTip({ seat: 2, code: 'AS', winning: true }, ann, true), 'A♠, played by Ann: took the trick');
  assert.equal(trickCardTip({ seat: 0, code: '10H', winning: false }, { seat: 0, isMe: true, name: 'Bo' }, true), '10♥, played by you');
  // An empty seat is named by its number (the table's derive does so).
  assert.equal(trickCardTip({ seat: 3, code: 'KD', winning: false }, { seat: 3, isMe: false, name: 'Seat 4' }, true), 'K♦, played by Seat 4');
});

test('a seat goes by the name its game lists for it, by its number where none is known', () => {
  assert.equal(namedSeat(['Ann', 'Bo', null], 1), 'Bo');
  assert.equal(namedSeat(['Ann', 'Bo', null], 2), 'Seat 3');
  assert.equal(namedSeat(['Ann'], 3), 'Seat 4');
  // A record names its seats' players; an empty seat, an older record or a malformed one
  // leaves the seat to its number.
  const names = seatNames({ players: [{ name: 'Ann', bot: null }, null, { name: 'medium bot', bot: 'medium' }] });
  assert.deepEqual(names, ['Ann', null, 'medium bot']);
  assert.equal(namedSeat(names, 1), 'Seat 2');
  assert.equal(seatNames({ hands: [] }), null);
  assert.deepEqual(seatNames({ players: [{ name: 3 }] }), [null]);
  assert.equal(namedSeat(null, 0), 'Seat 1');
});

test('a game that speaks in sentences: nothing said twice, a trick taken kept on show', () => {
  const words = sentenceWords({
    name: 'euchre',
    describe: (prev, next) => (prev ? [`Step ${next.seq}.`] : ['The table.']),
    sameDeal: (prev, next) => prev.hand_no === next.hand_no,
    taker: (view) => view.winners[view.winners.length - 1],
    flashMs: 1600,
  });
  const one = { game_no: 1, seq: 4, hand_no: 1, played: [], winners: [] };
  const two = { game_no: 1, seq: 5, hand_no: 1, played: [[[0, 'AS'], [1, 'KS'], [2, 'QS'], [3, 'JS']]], winners: [2] };
  assert.equal(words.name, 'euchre');
  assert.deepEqual(words.said(null, one), [{ text: 'The table.', sound: 'card' }]);
  assert.deepEqual(words.said(one, two), [{ text: 'Step 5.', sound: 'card' }]);
  // The same view again (the socket's snapshot and the watch's) says nothing.
  assert.deepEqual(words.said(two, { ...two }), []);
  // A new game starts its seq again: it is worded.
  assert.equal(words.said(two, { ...one, game_no: 2, seq: 1 }).length, 1);
  assert.deepEqual(words.trickTaken(one, two), {
    cards: [{ seat: 0, code: 'AS' }, { seat: 1, code: 'KS' }, { seat: 2, code: 'QS' }, { seat: 3, code: 'JS' }],
    winner: 2,
    ms: 1600,
  });
  assert.equal(words.trickTaken(two, { ...two, seq: 6 }), null);
  assert.equal(words.trickTaken(one, { ...two, hand_no: 2 }), null);
});

test('a seat timed out when its count of time-outs in a row grew, in the same game', () => {
  const seats = (counts) => counts.map((timeouts, seat) => ({ seat, timeouts }));
  const prev = { game_no: 1, seats: seats([0, 1, 0]) };
  assert.deepEqual([...timedOutSeats(prev, { game_no: 1, seats: seats([1, 2, 0]) })], [0, 1]);
  assert.deepEqual([...timedOutSeats(prev, { game_no: 1, seats: seats([0, 0, 0]) })], []);
  assert.deepEqual([...timedOutSeats(prev, { game_no: 2, seats: seats([1, 1, 0]) })], []);
  assert.deepEqual([...timedOutSeats(null, prev)], []);
});

test('what the table did for a seat whose time ran out', () => {
  assert.equal(ranOut('You play the ten of clubs.'), 'Time ran out: you play the ten of clubs (the default).');
  assert.equal(ranOut('Ann passed'), 'Time ran out: Ann passed (the default)');
  const said = [{ text: 'Time ran out: Ann passed (the default)' }, { text: ranOut('You bid 2.') }];
  assert.equal(ranOutForYou(said), 'Time ran out: you bid 2 (the default).');
  assert.equal(ranOutForYou(said.slice(0, 1)), null);
});

test('the warning comes five seconds before your own deadline, never for another seat', () => {
  const view = { seat: 1, phase: 'tricks', to_act: [1], options: [{}], deadline: 20_000 };
  assert.equal(WARNING_MS, 5000);
  assert.equal(warningDelay(view, 5_000), 10_000);
  // Seen inside the last seconds (a deadline cut short for a player away, a late page): at once.
  assert.equal(warningDelay(view, 17_000), 0);
  assert.equal(warningDelay(view, 20_000), null); // past it: nothing to warn of
  assert.equal(secondsLeftWords(5_000), '5 seconds left to decide.');
  assert.equal(secondsLeftWords(2_600), '3 seconds left to decide.');
  assert.equal(secondsLeftWords(200), '1 second left to decide.');
  assert.equal(warningDelay({ ...view, to_act: [2] }, 5_000), null);
  assert.equal(warningDelay({ ...view, options: [] }, 5_000), null);
  assert.equal(warningDelay({ ...view, deadline: null }, 5_000), null);
  assert.equal(warningDelay({ ...view, seat: null }, 5_000), null);
  assert.equal(warningDelay({ ...view, phase: 'interlude' }, 5_000), null);
});
