// web/js/euchre-state.js and web/js/euchre-fair.js against the Python engine: real views of a
// Euchre game and its record (tests/web/fixtures/euchre.json, made by tests/web/make_euchre.py).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  bowerOf,
  derive,
  describeChanges,
  effectiveSuit,
  sortHand,
  teamNames,
  trickWinner,
  trumpMark,
} from '../../services/gateway/web/js/euchre-state.js';
import { deal, firstDealer, code, verifyRecord } from '../../services/gateway/web/js/euchre-fair.js';
import { hexToBytes } from '../../services/gateway/web/js/fair.js';
import { NOW, SUIT, gameFixture } from './fixture.mjs';

const { data, steps, views } = gameFixture('euchre.json', 'SWICK_EUCHRE_FIXTURE');
const first = (pred) => views.findIndex(pred);

test('the fixture covers every phase of the game', () => {
  const phases = new Set(views.map((v) => v.phase));
  for (const phase of ['order', 'discard', 'name', 'tricks', 'interlude', 'ended']) assert.ok(phases.has(phase), phase);
  assert.ok(views.every((v) => v.game === 'euchre'));
});

test('first round: the dealer picks it up, others order it up; Go alone offered; pass', () => {
  const dealerTurn = views.find((v) => v.phase === 'order' && v.to_act[0] === 0 && v.dealer === 0);
  const m = derive(dealerTurn, NOW);
  assert.equal(m.myTurn, true);
  assert.equal(m.decision.kind, 'order');
  assert.deepEqual(m.decision.choices.map((c) => c.text), ['Pick it up', 'Pass']);
  assert.equal(m.decision.canAlone, true);
  assert.deepEqual(m.decision.choices[0].action, { alone: false, kind: 'order_up' });
  assert.deepEqual(m.decision.choices[0].aloneAction, { alone: true, kind: 'order_up' });
  const other = views.find((v) => v.phase === 'order' && v.to_act[0] === 0 && v.dealer !== 0);
  if (other) assert.equal(derive(other, NOW).decision.choices[0].text, 'Order it up');
  // Someone else's turn: no decision, and the plaque says whom the table waits for.
  const waiting = derive(views.find((v) => v.phase === 'order' && v.to_act[0] !== 0), NOW);
  assert.equal(waiting.myTurn, false);
  assert.equal(waiting.decision, null);
  assert.match(waiting.waiting, /deciding on the turn-up/);
});

test('second round: one button per nameable suit, the turned-down one left out, and Pass', () => {
  const v = views.find((x) => x.phase === 'name' && x.to_act[0] === 0);
  const m = derive(v, NOW);
  assert.equal(m.decision.kind, 'name');
  const barred = SUIT[v.turn_up.slice(-1)];
  const suits = m.decision.choices.filter((c) => c.suit !== undefined).map((c) => c.suit);
  assert.equal(suits.length, 3);
  assert.ok(!suits.includes(barred));
  assert.equal(m.decision.choices.at(-1).text, 'Pass');
  assert.equal(m.decision.barred[0].suit, barred);
  assert.match(m.decision.barred[0].reason, /turned down/);
  assert.equal(m.turnUp.at, 'down');
  assert.match(m.turnUp.tip, /turned down/);
});

test('the dealer discards from six cards, every one of them allowed', () => {
  const v = views.find((x) => x.phase === 'discard' && x.to_act[0] === 0);
  const m = derive(v, NOW);
  assert.equal(m.decision.kind, 'discard');
  assert.equal(m.hand.length, 6);
  assert.ok(m.hand.every((c) => c.legal === true));
  assert.equal(m.turnUp.at, 'taken');
});

test('tricks: only legal cards are bright, illegal ones carry the engine reason', () => {
  let checked = 0;
  for (const v of views.filter((x) => x.phase === 'tricks' && x.to_act[0] === 0)) {
    const m = derive(v, NOW);
    assert.equal(m.decision.kind, 'play');
    const byCard = new Map(v.options.map((o) => [o.action.card, o]));
    for (const card of m.hand) {
      assert.equal(card.legal, byCard.get(card.code).legal);
      assert.equal(card.reason, byCard.get(card.code).reason);
      if (!card.legal) {
        assert.ok(card.reason.length > 0);
        assert.ok(card.tip.includes(card.reason));
        checked += 1;
      }
    }
  }
  assert.ok(checked > 0, 'some card was not playable');
  // Not your turn: no card is marked legal or illegal.
  const other = derive(views.find((x) => x.phase === 'tricks' && x.to_act[0] !== 0 && x.hand.length), NOW);
  assert.ok(other.hand.every((c) => c.legal === null));
});

test('bowers are marked in the hand, the left bower sorted with trump', () => {
  let seen = 0;
  for (const v of views.filter((x) => x.trump && x.hand.length)) {
    const trump = SUIT[v.trump];
    const m = derive(v, NOW);
    for (const card of m.hand) {
      const expected = card.code === `J${v.trump}` ? 'right' : card.code === `J${'CDHS'[3 - trump]}` ? 'left' : null;
      assert.equal(card.bower, expected, card.code);
      if (expected) seen += 1;
      if (expected === 'left') assert.equal(card.trump, true);
    }
    // Trump (bowers included) sits at the end of the hand.
    const trumps = m.hand.map((c) => c.trump);
    const firstTrump = trumps.indexOf(true);
    if (firstTrump >= 0) assert.ok(trumps.slice(firstTrump).every(Boolean));
  }
  assert.ok(seen > 0, 'a bower was held in some view');
  assert.equal(bowerOf('JD', 2), 'left');
  assert.equal(bowerOf('JH', 2), 'right');
  assert.equal(bowerOf('JC', 2), null);
  assert.equal(effectiveSuit('JD', 2), 2);
  assert.deepEqual(sortHand(['JD', 'AH', '9C', 'JH', 'AD'], 2), ['9C', 'AD', 'JH', 'JD', 'AH']);
});

test('whose turn: the seat to act is marked acting, with the timer ring\'s real time left', () => {
  for (const v of views.filter((x) => ['order', 'name', 'discard', 'tricks'].includes(x.phase))) {
    const m = derive(v, NOW + 5000);
    const acting = m.seats.filter((s) => s.acting).map((s) => s.seat);
    assert.deepEqual(acting, v.to_act);
    assert.equal(m.myTurn, v.to_act.includes(0));
    assert.equal(m.remaining, Math.min(v.config.timer_ms, Math.max(0, v.deadline - NOW - 5000)));
    assert.equal(m.timerMs, v.config.timer_ms);
  }
});

test('a partnership goes by the numbers of its seats only where no name is known', () => {
  const spectator = steps[0].spectator;
  const empty = (seats) => ({ ...spectator, seats: spectator.seats.map((s) => (seats.includes(s.seat) ? { ...s, player: null } : s)) });
  assert.deepEqual(teamNames(empty([2])), ['South & Seat 3', 'West & East']);
  assert.deepEqual(teamNames(empty([0, 2])), ['Seats 1 & 3', 'West & East']);
  // A player reads the teams as Us and Them.
  assert.deepEqual(teamNames({ ...spectator, seat: 3 }), ['Them', 'Us']);
});

test('seats are placed from the viewer: left is the next seat, the partner at the top', () => {
  const m = derive(views[0], NOW);
  assert.deepEqual(m.seats.map((s) => s.pos), ['bottom', 'left', 'top', 'right']);
  assert.deepEqual(m.seats.map((s) => s.partner), [false, false, true, false]);
  const spectator = derive(steps[0].spectator, NOW);
  assert.equal(spectator.spectator, true);
  // A spectator sees each partnership by its players' names.
  assert.deepEqual(spectator.pegs.map((p) => p.name), ['South & North', 'West & East']);
  // Each plate says whom its seat partners; a player's say who is theirs and who is not.
  assert.deepEqual(spectator.seats.map((s) => s.role), ['with North', 'with East', 'with South', 'with West']);
  assert.equal(spectator.hand.length, 0);
  // From seat 1's side the board reads Us for team 1.
  const seat1 = { ...views[0], seat: 1 };
  const m1 = derive(seat1, NOW);
  assert.deepEqual(m1.pegs.map((p) => p.name), ['Them', 'Us']);
  assert.deepEqual(m1.seats.map((s) => s.role), ['Them', 'You', 'Them', 'Partner']);
  assert.deepEqual(m1.seats.map((s) => s.pos), ['right', 'bottom', 'left', 'top']);
});

test('the pegboard counts each team\'s points, at most ten pegged', () => {
  for (const v of views) {
    const m = derive(v, NOW);
    assert.deepEqual(m.pegs.map((p) => p.score), v.scores);
    assert.deepEqual(m.pegs.map((p) => p.pegged), v.scores.map((s) => Math.min(10, s)));
    assert.deepEqual(m.pegs.map((p) => p.name), ['Us', 'Them']);
    assert.deepEqual(m.pegs.map((p) => p.tricks), v.team_tricks);
  }
  const end = derive(views.at(-1), NOW);
  assert.equal(end.phase, 'ended');
  assert.ok(end.seed && end.seed.length === 64);
  assert.match(end.winnerText, /win the game/);
});

test('the trick: each card in front of its player, the winner so far highlighted', () => {
  let checked = 0;
  for (const v of views.filter((x) => x.trick.length)) {
    const m = derive(v, NOW);
    const trump = SUIT[v.trump];
    const winner = trickWinner(v.trick, trump);
    assert.deepEqual(m.trick.cards.map((c) => c.seat), v.trick.map(([s]) => s));
    for (const c of m.trick.cards) {
      assert.equal(c.pos, ['bottom', 'left', 'top', 'right'][c.seat]);
      assert.equal(c.winning, c.seat === winner);
    }
    checked += 1;
  }
  assert.ok(checked > 10);
  // Finished tricks: the JavaScript winner is the engine's, every time.
  let tricks = 0;
  for (const v of views) {
    v.played.forEach((trick, k) => {
      assert.equal(trickWinner(trick, SUIT[v.trump]), v.winners[k]);
      tricks += 1;
    });
    if (v.played.length) {
      const m = derive(v, NOW);
      assert.equal(m.lastTrick.winner, v.winners.at(-1));
      assert.equal(m.lastTrick.cards.filter((c) => c.winning).length, 1);
    }
  }
  assert.ok(tricks > 20);
});

test('trump at the centre: its suit by name, and the team that made it, once it is made', () => {
  const bidding = views.filter((v) => v.phase === 'order' || v.phase === 'name');
  assert.ok(bidding.length);
  for (const v of bidding) assert.equal(derive(v, NOW).trumpMark, null);
  const made = views.filter((v) => ['discard', 'tricks'].includes(v.phase));
  assert.ok(made.length);
  const names = ['Clubs', 'Diamonds', 'Hearts', 'Spades'];
  const suitNames = names.map((name) => name.toLowerCase());
  for (const v of made) {
    const mark = derive(v, NOW).trumpMark;
    assert.equal(mark.suit, SUIT[v.trump[v.trump.length - 1]]);
    assert.equal(mark.name, names[mark.suit]);
    const ours = v.maker % 2 === v.seat % 2;
    assert.equal(mark.team, ours ? 'Us' : 'Them');
    assert.equal(mark.label, `Trump: ${mark.name.toLowerCase()}, made by ${ours ? 'us' : 'them'}${v.alone ? ', alone' : ''}`);
  }
  const watched = trumpMark({ ...made[0], seat: null });
  const makers = teamNames({ ...made[0], seat: null })[made[0].maker % 2];
  assert.ok(!makers.startsWith('Seats'), 'a spectator reads the makers by their names');
  assert.equal(watched.label, `Trump: ${suitNames[watched.suit]}, made by ${makers}${made[0].alone ? ', alone' : ''}`);
  assert.equal(trumpMark({ ...made[0], trump: null }), null);
});

test('alone: the partner rests, the hand result panel words the outcome', () => {
  const lone = views.find((v) => v.alone && v.phase === 'tricks');
  const m = derive(lone, NOW);
  assert.equal(m.resting, 2);
  assert.ok(m.seats[2].resting);
  assert.match(m.trumpToken.tip, /alone/);
  const results = views.filter((v) => v.phase === 'interlude');
  assert.ok(results.length);
  for (const v of results) {
    const r = derive(v, NOW).result;
    assert.equal(r.handNo, v.result.hand_no);
    assert.match(r.line, /trump/);
    assert.deepEqual(r.scores, v.result.scores);
  }
  const next = derive(results.find((v) => v.to_act.includes(0)), NOW);
  assert.equal(next.decision.kind, 'next_hand');
  assert.equal(next.decision.choices[0].text, 'Next hand');
});

test('announcements: calls, plays, trick winners and scores', () => {
  const said = [];
  for (let k = 1; k < views.length; k++) said.push(...describeChanges(views[k - 1], views[k]));
  const text = said.join('\n');
  assert.match(text, /West passes\./);
  assert.match(text, /You pick it up\./);
  assert.match(text, /You name \w+ . and go alone\./);
  assert.match(text, /plays the \w+ of \w+/);
  assert.match(text, /takes the trick\.|You take the trick\./);
  assert.match(text, /Score: Us \d+, Them \d+\./);
  assert.match(text, /Your turn\./);
  // Every card played is announced once, a hand's last card too (its trick stays on view
  // while the hand's result shows).
  const plays = said.filter((t) => / play(s)? the /.test(t)).length;
  const played = views.filter((v, k) => k && steps[k].after === 'play').length;
  assert.equal(plays, played);
});

test('the JavaScript deal is the engine\'s for every seed and hand', async () => {
  for (const d of data.deals) {
    const seed = hexToBytes(d.seed);
    assert.equal(await firstDealer(seed), d.first_dealer);
    const dealt = await deal(seed, d.hand_no, d.dealer);
    assert.deepEqual(dealt.hands.map((h) => h.map(code)), d.hands);
    assert.equal(code(dealt.turnUp), d.turn_up);
    assert.deepEqual(dealt.kitty.map(code), d.kitty);
  }
});

test('the record verifies as Python says, and each tampered copy fails as Python says', async () => {
  const ok = await verifyRecord(data.record);
  assert.deepEqual({ ok: ok.ok, hands: ok.hands, mismatch: ok.mismatch }, data.verdict);
  assert.ok(ok.perHand.every((h) => h.ok && h.shown.hands.length === 4));
  for (const t of data.tampered) {
    const got = await verifyRecord(t.record);
    assert.deepEqual({ ok: got.ok, hands: got.hands, mismatch: got.mismatch }, t.verdict, t.name);
  }
});

test('a move the table made when its time ran out is said as such, not as a choice', () => {
  const k = views.findIndex((v, i) => i && v.trick.length > views[i - 1].trick.length && v.hand_no === views[i - 1].hand_no);
  const [prev, next] = [views[k - 1], structuredClone(views[k])];
  const [seat] = next.trick.at(-1);
  next.seats[seat].timeouts = prev.seats[seat].timeouts + 1;
  const said = describeChanges(prev, next);
  const line = said.find((t) => t.startsWith('Time ran out: '));
  assert.ok(line, said.join(' | '));
  assert.match(line, / the \w+ of \w+.*\(the default\)\.$/);
  // The same move, chosen, is said plainly.
  assert.ok(!describeChanges(prev, views[k]).some((t) => t.startsWith('Time ran out')));
});
