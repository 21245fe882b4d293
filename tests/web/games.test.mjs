// web/js/game-history.js (and api.myGames): the words of "Your games" — the game's name, when it
// ended, the seats, the place, the points and the chips — and the pages of games asked for.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ratingWords, statsLines } from '../../services/gateway/web/js/game-stats.js';

import {
  GAME_FILTERS,
  appendGames,
  botText,
  chipsText,
  emptyText,
  gameLinks,
  gameName,
  myGamesPath,
  ordinal,
  placeText,
  pointsText,
  resultOf,
  seatText,
  whenText,
} from '../../services/gateway/web/js/game-history.js';
import { api } from '../../services/gateway/web/js/api.js';
import { answer, freshPageEachTest } from './fakes.mjs';

freshPageEachTest();

const seat = (n, place, more = {}) => ({
  seat: n,
  name: `P${n}`,
  bot: null,
  points: null,
  chips: null,
  place,
  left: false,
  me: false,
  ...more,
});

/** The contract's example: a Euchre game Tess's team won 10 to 4. */
const EUCHRE = {
  table_id: 't-abc',
  game_no: 1,
  game: 'euchre',
  ended_at: '2026-12-07T23:10:00Z',
  places: 2,
  me: { seat: 0, name: 'Tess', bot: null, points: 10, chips: 40, place: 1, left: false },
  seats: [
    { seat: 0, name: 'Tess', bot: null, points: 10, chips: 40, place: 1, left: false, me: true },
    { seat: 1, name: 'Bot Ada', bot: 'easy', points: 4, chips: -20, place: 2, left: false, me: false },
    { seat: 2, name: 'Bot Bo', bot: 'medium', points: 10, chips: 40, place: 1, left: false, me: false },
    { seat: 3, name: 'Bot Cy', bot: 'hard', points: 4, chips: -20, place: 2, left: false, me: false },
  ],
};

test('each game has its name, and the filter offers every game then each one', () => {
  assert.equal(gameName('swick'), 'Swick');
  assert.equal(gameName('euchre'), 'Euchre');
  assert.equal(gameName('contract-whist'), 'Contract Whist');
  assert.equal(gameName('oh_hell'), 'Oh hell'); // one this client does not know yet
  assert.deepEqual(
    GAME_FILTERS.map((g) => [g.id, g.name]),
    [['', 'All games'], ['swick', 'Swick'], ['euchre', 'Euchre'], ['contract-whist', 'Contract Whist']],
  );
});

test('places are ordinals', () => {
  assert.deepEqual(
    [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal),
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '111th'],
  );
});

test('a place is said of how many there were; a tie is shared', () => {
  const game = { game: 'contract-whist', places: 4, seats: [seat(0, 1), seat(1, 2), seat(2, 2), seat(3, 4)] };
  assert.equal(placeText(game.seats[0], game), '1st of 4');
  assert.equal(placeText(game.seats[1], game), 'shared 2nd of 4');
  assert.equal(placeText(game.seats[2], game), 'shared 2nd of 4');
  assert.equal(placeText(game.seats[3], game), '4th of 4');
  const swick = { game: 'swick', places: 3, seats: [seat(0, 1), seat(1, 1), seat(2, 3)] };
  assert.equal(placeText(swick.seats[0], swick), 'shared 1st of 3');
  assert.equal(placeText(swick.seats[2], swick), '3rd of 3');
});

test('at Euchre the place is the team’s: partners share it without a tie', () => {
  assert.equal(placeText(EUCHRE.me, EUCHRE), '1st of 2 teams');
  assert.equal(placeText(EUCHRE.seats[1], EUCHRE), '2nd of 2 teams');
  assert.equal(placeText(EUCHRE.seats[2], EUCHRE), '1st of 2 teams');
});

test('one who left and the one who took the seat after are no tie', () => {
  const game = {
    game: 'contract-whist',
    places: 3,
    seats: [seat(0, 1), seat(1, 3, { left: true }), seat(1, 3), seat(2, 2)],
  };
  assert.equal(placeText(game.seats[2], game), '3rd of 3');
});

test('a game cut short has no result', () => {
  const game = { game: 'swick', places: 3, seats: [seat(0, null), seat(1, null), seat(2, null)] };
  assert.equal(placeText(game.seats[0], game), 'No result');
  assert.equal(placeText(null, game), 'No result');
});

test('points: Euchre’s are the team’s, Contract Whist’s the player’s, Swick has none', () => {
  assert.equal(pointsText('euchre', 10), '10 team points');
  assert.equal(pointsText('euchre', 1), '1 team point');
  assert.equal(pointsText('contract-whist', 23), '23 points');
  assert.equal(pointsText('contract-whist', 1), '1 point');
  assert.equal(pointsText('contract-whist', -3), '−3 points');
  assert.equal(pointsText('contract-whist', 0), '0 points');
  assert.equal(pointsText('swick', 5), '');
  assert.equal(pointsText('euchre', null), '');
});

test('chips are signed cents; nothing when unknown, or 0 at a game played for nothing', () => {
  assert.deepEqual(chipsText(40, { game: 'euchre' }), { text: '+40¢', tone: 'gain' });
  assert.deepEqual(chipsText(-1250, { game: 'swick' }), { text: '−1,250¢', tone: 'loss' });
  assert.deepEqual(chipsText(0, { game: 'swick' }), { text: '±0¢', tone: 'even' }); // antes were paid
  assert.deepEqual(chipsText(0, { game: 'contract-whist', stake: 50 }), { text: '±0¢', tone: 'even' });
  assert.equal(chipsText(0, { game: 'contract-whist' }), null);
  assert.equal(chipsText(0, { game: 'euchre' }), null);
  assert.equal(chipsText(null, { game: 'swick' }), null);
  assert.equal(chipsText(undefined), null);
});

test('a seat: its name, "you", a bot with its level, one who left early', () => {
  assert.deepEqual(seatText(EUCHRE.seats[0]), { name: 'Tess', marks: ['you'], text: 'Tess (you)' });
  assert.deepEqual(seatText(EUCHRE.seats[1]), { name: 'Bot Ada', marks: ['easy bot'], text: 'Bot Ada (easy bot)' });
  assert.deepEqual(seatText(seat(2, 1, { name: 'Rita' })), { name: 'Rita', marks: [], text: 'Rita' });
  assert.equal(seatText(seat(1, null, { name: 'Max', left: true })).text, 'Max (left early)');
  assert.equal(seatText(seat(3, 1, { name: ' ' })).name, 'Seat 4');
  assert.equal(botText('medium'), 'medium bot');
  assert.equal(botText(true), 'bot');
  assert.equal(botText(null), '');
});

test('when a game ended: local date and time, by Intl.DateTimeFormat', () => {
  assert.equal(whenText('2026-12-07T23:10:00Z', { locale: 'en-GB', timeZone: 'UTC' }), '7 Dec 2026, 23:10');
  assert.equal(whenText('2026-12-07T23:10:00Z', { locale: 'en-US', timeZone: 'America/New_York' }), 'Dec 7, 2026, 6:10 PM');
  assert.equal(whenText('not a time'), '');
  assert.equal(whenText(null), '');
});

test('the replay and the check of a game are linked by its table and number', () => {
  assert.deepEqual(gameLinks(EUCHRE), { replay: '#/replay/t-abc/1', verify: '#/verify/t-abc/1' });
  assert.deepEqual(gameLinks({ table_id: 't/x y', game_no: 12 }), {
    replay: '#/replay/t%2Fx%20y/12',
    verify: '#/verify/t%2Fx%20y/12',
  });
});

test('the player’s result: place, points, chips and leaving early', () => {
  assert.deepEqual(resultOf(EUCHRE), {
    place: '1st of 2 teams',
    points: '10 team points',
    chips: { text: '+40¢', tone: 'gain' },
    left: '',
  });
  const me = seat(1, 3, { points: null, chips: -30, left: true });
  const swick = { game: 'swick', places: 3, me, seats: [seat(0, 1), { ...me, me: true }, seat(2, 2)] };
  assert.deepEqual(resultOf(swick), {
    place: '3rd of 3',
    points: '',
    chips: { text: '−30¢', tone: 'loss' },
    left: 'Left early',
  });
  // Without `me`, the seat marked as the player's is theirs.
  const { me: _, ...bare } = EUCHRE;
  assert.equal(resultOf(bare).place, '1st of 2 teams');
});

test('a page of games is asked for by game and cursor', () => {
  assert.equal(myGamesPath(), '/api/games/mine?limit=20');
  assert.equal(myGamesPath({ game: 'euchre' }), '/api/games/mine?game=euchre&limit=20');
  assert.equal(
    myGamesPath({ game: 'contract-whist', before: '1765149000000.1.t-abc', limit: 5 }),
    '/api/games/mine?game=contract-whist&before=1765149000000.1.t-abc&limit=5',
  );
  assert.equal(myGamesPath({ before: 'a&b=c' }), '/api/games/mine?before=a%26b%3Dc&limit=20');
});

test('a further page is added after the games shown, each game once', () => {
  const a = { table_id: 't-1', game_no: 2 };
  const b = { table_id: 't-1', game_no: 1 };
  const c = { table_id: 't-2', game_no: 1 };
  assert.deepEqual(appendGames([a, b], [b, c]), [a, b, c]);
  assert.deepEqual(appendGames([], [a]), [a]);
  assert.deepEqual(appendGames([a], undefined), [a]);
});

test('with no game to show, the page says so for the game picked', () => {
  assert.equal(emptyText(''), 'You have not finished a game yet.');
  assert.equal(emptyText('contract-whist'), 'You have not finished a game of Contract Whist yet.');
});

test('api.myGames asks with the token, and answers the page', async () => {
  const asked = [];
  globalThis.fetch = async (path, init) => {
    asked.push([path, init.method, init.headers.authorization]);
    return answer(200, { games: [EUCHRE], next: null })();
  };
  const page = await api.myGames('tok', { game: 'euchre', before: 'c1' });
  assert.deepEqual(asked, [['/api/games/mine?game=euchre&before=c1&limit=20', 'GET', 'Bearer tok']]);
  assert.deepEqual(page, { games: [EUCHRE], next: null });
});

test('a refused filter is an error in the server’s words', async () => {
  globalThis.fetch = answer(422, { detail: 'game: not a game' });
  await assert.rejects(api.myGames('tok', { game: 'poker' }), { status: 422, message: 'game: not a game' });
});


test('a rating reads as its number, provisional ones with a question mark', () => {
  assert.deepEqual(ratingWords(null), { text: 'Not rated yet', tip: 'A finished game with a result rates you' });
  assert.deepEqual(ratingWords({ rating: 1540, deviation: 300, provisional: true, games: 1 }), {
    text: '1540?',
    tip: 'Provisional: 1 rated game, not yet settled',
  });
  assert.deepEqual(ratingWords({ rating: 1612, deviation: 90, provisional: false, games: 40 }), {
    text: '1612',
    tip: '40 rated games, deviation 90',
  });
});

test("a game's statistics read as its own counts", () => {
  const euchre = statsLines({ game: 'euchre', games: 4, first: 3, left: 1, counts: { hands: 20, made: 6, euchred: 2, loners: 1, marches: 2 } });
  assert.deepEqual(euchre, [
    ['Games', '4'],
    ['First place', '3 (75%)'],
    ['Left early', '1'],
    ['Hands', '20'],
    ['Made trump', '8, made 6 (75%)'],
    ['Euchred', '2'],
    ['Alone', '1'],
    ['Marches', '2'],
  ]);
  const whist = statsLines({ game: 'contract-whist', games: 1, first: 0, left: 0, counts: { rounds: 4, exact: 1, points: 30 }, points_per_round: 7.5 });
  assert.deepEqual(whist.slice(2), [
    ['Rounds', '4'],
    ['Exact bids', '1 (25%)'],
    ['Points a round', '7.5'],
  ]);
  const swick = statsLines({
    game: 'swick',
    games: 2,
    first: 1,
    left: 0,
    counts: { hands: 10, knocks: 6, sets: 1, net: 32 },
    net_per_hand: 3.2,
    net_per_hand_interval: [-1.04, 7.44],
  });
  assert.deepEqual(swick.slice(2), [
    ['Hands', '10'],
    ['Knocked in', '6 (60%)'],
    ['Set', '1'],
    ['Net', '+32¢'],
    ['Net a hand', '+3.2¢ (95%: −1.0¢ to +7.4¢)'],
  ]);
  assert.deepEqual(statsLines({ game: 'swick', games: 0, first: 0, left: 0, counts: {} }).slice(0, 2), [
    ['Games', '0'],
    ['First place', '0'],
  ]);
});
