// web/js/replay-games.js against replays the gateway's build_replay made from the Python engines'
// own events (tests/web/fixtures/replay.json, made by tests/web/make_replay.py).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { adapterFor, handStarts, shownTrick, stepModel, stepText } from '../../services/gateway/web/js/replay-games.js';
import { readFixture } from './fixture.mjs';

const fixture = readFixture('replay.json');
const GAMES = ['swick', 'euchre', 'contract-whist'];

for (const game of GAMES) {
  const replay = fixture[game];

  test(`${game}: every step has a model, a line and each seat's hand`, () => {
    assert.equal(replay.game, game);
    replay.frames.forEach((frame, index) => {
      const model = stepModel(replay, index);
      assert.equal(model.seq, frame.seq);
      assert.equal(model.seats.length, replay.seats.length);
      model.seats.forEach((seat, i) => {
        assert.equal(seat.name, replay.seats[i]);
        assert.deepEqual(seat.hand, frame.hands[i]);
        assert.ok(seat.line && !seat.line.includes('undefined'), seat.line);
      });
      assert.ok(model.text && !model.text.includes('undefined'), `${index}: ${model.text}`);
      assert.ok(model.score.length >= 1);
      for (const row of model.score) assert.ok(!`${row.label} ${row.value}`.includes('undefined'));
      if (model.trump) assert.ok(model.trump.text && !model.trump.text.includes('undefined'));
    });
  });

  test(`${game}: the first step starts the game, the last ends it`, () => {
    assert.match(stepText(adapterFor(game), replay.frames, 0), /^The game starts\./);
    const last = stepText(adapterFor(game), replay.frames, replay.frames.length - 1);
    assert.match(last, /[Gg]ame (is )?over/);
  });

  test(`${game}: hands start where the hand number changes`, () => {
    const adapter = adapterFor(game);
    const starts = handStarts(adapter, replay.frames);
    assert.ok(starts.length >= 1);
    assert.deepEqual(starts.map((s) => s.number), starts.map((_, i) => i + 1));
    for (const { number, index } of starts) {
      assert.equal(adapter.handOf(replay.frames[index].view), number);
      if (index > 0) assert.notEqual(adapter.handOf(replay.frames[index - 1].view), number);
    }
  });

  test(`${game}: the trick shown is the one under way, else the last finished`, () => {
    let plays = 0;
    for (const frame of replay.frames) {
      const shown = shownTrick(frame.view);
      if (frame.view.trick.length) {
        assert.deepEqual(shown, { cards: frame.view.trick, done: false });
        plays += 1;
      } else if (shown.done) {
        assert.deepEqual(shown.cards, frame.view.played.at(-1));
      }
      for (const [seat, code] of shown.cards) assert.ok(Number.isInteger(seat) && typeof code === 'string');
    }
    assert.ok(plays > 0, 'some trick was under way');
  });
}

test('each game has its own words for its score and trump', () => {
  const at = (game, pred) => {
    const replay = fixture[game];
    const index = replay.frames.findIndex((f) => pred(f.view));
    return stepModel(replay, index);
  };
  const swick = at('swick', (v) => v.phase === 'tricks');
  assert.equal(swick.score[0].label, 'Pot');
  assert.match(swick.trump.text, /^Trump card: /);
  assert.match(swick.seats[0].line, /^Stack /);
  const euchre = at('euchre', (v) => v.phase === 'tricks');
  // The partnerships by their players' names, as the replay's spectators' view gives them.
  assert.deepEqual(euchre.score.map((r) => r.label), ['Ann & Cat', 'Ben & Dan']);
  assert.match(euchre.trump.text, /(clubs|diamonds|hearts|spades) . trump$/i);
  const whist = at('contract-whist', (v) => v.phase === 'tricks');
  assert.match(whist.score[0].label, /^Round 1 of 1$/);
  assert.match(whist.seats[0].line, /^Bid \d+ · \d+ tricks? · \d+ points?$/);
  assert.ok(whist.trump.text === 'No trumps' || /trump$/.test(whist.trump.text));
});
