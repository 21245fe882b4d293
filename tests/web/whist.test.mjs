// web/js/whist-state.js and web/js/whist-fair.js against the Python engine: real views of a
// three-seat, three-round Contract Whist game staked at 5 cents and its record
// (tests/web/fixtures/whist.json, made by tests/web/make_whist.py).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  derive,
  describeChanges,
  pointsText,
  sortHand,
  standings,
  spotOf,
  totalText,
  trickWinner,
} from '../../services/gateway/web/js/whist-state.js';
import { code, deal, firstBidder, verifyRecord } from '../../services/gateway/web/js/whist-fair.js';
import { label, spoken } from '../../services/gateway/web/js/cards.js';
import { hexToBytes } from '../../services/gateway/web/js/fair.js';
import { NOW, SUIT, gameFixture } from './fixture.mjs';

const { data, steps, views } = gameFixture('whist.json', 'SWICK_WHIST_FIXTURE');

test('the fixture covers every phase of the game', () => {
  const phases = new Set(views.map((v) => v.phase));
  for (const phase of ['bid', 'trump', 'tricks', 'interlude', 'ended']) assert.ok(phases.has(phase), phase);
  assert.ok(views.every((v) => v.game === 'contract-whist'));
});

test('the 52-card deck is named and drawn: twos to sixes too', () => {
  assert.equal(label('2C'), '2♣');
  assert.equal(label('10D'), '10♦');
  assert.equal(spoken('6H'), 'six of hearts');
  assert.equal(spoken('AS'), 'ace of spades');
  assert.equal(label('1X'), '?');
});

test('round and cards: "Round N of R", the schedule\'s cards each', () => {
  for (const v of views.filter((x) => x.round_no && ['bid', 'trump', 'tricks'].includes(x.phase))) {
    const m = derive(v, NOW);
    assert.equal(m.roundText, `Round ${v.round_no} of 3`);
    assert.equal(m.cards, [10, 9, 8][v.round_no - 1]);
    assert.equal(m.cardsText, `${m.cards} cards each`);
  }
});

test('bidding: one button per bid 0..cards, the hook\'s forbidden bid disabled with its reason', () => {
  const last = views.find((v) => v.phase === 'bid' && v.to_act[0] === 0 && v.round_no === 1);
  const m = derive(last, NOW);
  assert.equal(m.myTurn, true);
  assert.equal(m.decision.kind, 'bid');
  assert.deepEqual(m.decision.choices.map((c) => c.bid), [...Array(11).keys()]);
  const barred = m.decision.choices.filter((c) => !c.legal);
  assert.equal(barred.length, 1);
  assert.equal(barred[0].bid, last.forbidden_bid);
  assert.equal(barred[0].bid, 10 - last.bid_total);
  assert.match(barred[0].reason, /The bids would total 10, the cards in each hand: someone must miss/);
  assert.equal(m.decision.forbidden, last.forbidden_bid);
  // The bidding panel: every bid so far, the total against the cards, the hook's reason.
  assert.deepEqual(m.bidding.bids.map((b) => [b.seat, b.bid]), last.bids.map((b) => [b.seat, b.bid]));
  assert.deepEqual(m.bidding.toBid, [0]);
  assert.equal(m.bidding.lastBidder, 0);
  assert.equal(m.bidding.forbidden, last.forbidden_bid);
  assert.match(m.bidding.forbiddenReason, /someone must miss/);
  assert.equal(m.bidding.totalText, `${last.bid_total} bid for 10 tricks: under by ${10 - last.bid_total}`);
  assert.match(m.bidding.hookText, /you bid last/);
});

test('a first bidder may bid anything: no barred bid', () => {
  const open = views.find((v) => v.phase === 'bid' && v.to_act[0] === 0 && v.round_no === 3);
  const m = derive(open, NOW);
  assert.equal(m.decision.kind, 'bid');
  assert.ok(m.decision.choices.every((c) => c.legal));
  assert.equal(m.decision.forbidden, null);
  assert.equal(m.bidding.forbidden, null);
  assert.deepEqual(m.bidding.toBid, [0, 1, 2]);
});

test('the total text: under, over, and exactly', () => {
  assert.equal(totalText(3, 10), '3 bid for 10 tricks: under by 7');
  assert.equal(totalText(12, 10), '12 bid for 10 tricks: over by 2');
  assert.equal(totalText(2, 2), '2 bid for 2 tricks');
});

test('trump: the highest bidder chooses one of four suits or no trumps', () => {
  const choosing = views.find((v) => v.phase === 'trump' && v.to_act[0] === 0);
  const m = derive(choosing, NOW);
  assert.equal(m.decision.kind, 'trump');
  assert.deepEqual(m.decision.choices.map((c) => c.key), ['C', 'D', 'H', 'S', 'none']);
  assert.ok(m.decision.choices.every((c) => c.legal));
  assert.deepEqual(m.decision.choices[4].action, { kind: 'choose_trump', suit: null });
  assert.equal(m.decision.choices[2].action.suit, 'H');
  // Someone else choosing: no decision, the plaque says who.
  const other = views.find((v) => v.phase === 'trump' && v.to_act[0] !== 0);
  const o = derive(other, NOW);
  assert.equal(o.decision, null);
  assert.match(o.waiting, /bid highest and is choosing trump/);
});

test('trump text: the suit, or no trumps', () => {
  const hearts = derive(views.find((v) => v.phase === 'tricks' && v.round_no === 1), NOW);
  assert.equal(hearts.trumpText, 'Hearts ♥ trump');
  assert.equal(hearts.trump, 2);
  const nt = derive(views.find((v) => v.phase === 'tricks' && v.round_no === 2), NOW);
  assert.equal(nt.trumpText, 'No trumps');
  assert.equal(nt.trump, null);
  assert.equal(nt.noTrumps, true);
});

test('tricks: only legal cards are bright, illegal ones carry the engine reason', () => {
  let checked = 0;
  for (const v of views.filter((x) => x.phase === 'tricks' && x.to_act[0] === 0)) {
    const m = derive(v, NOW);
    assert.equal(m.decision.kind, 'play');
    const legal = new Set(v.options.filter((o) => o.legal).map((o) => o.action.card));
    for (const card of m.hand) {
      assert.equal(card.legal, legal.has(card.code), card.code);
      if (!card.legal) {
        assert.match(card.reason, /You must follow/);
        assert.match(card.tip, /can't be played/);
        checked += 1;
      }
    }
  }
  assert.ok(checked > 0, 'some card could not be played');
});

test('the hand is sorted by suit with trump last, each high to low', () => {
  assert.deepEqual(sortHand(['2H', 'AC', '10C', 'KS', 'QH'], SUIT.H), ['AC', '10C', 'KS', 'QH', '2H']);
  assert.deepEqual(sortHand(['2H', 'AC', '10C', 'KS', 'QH'], null), ['AC', '10C', 'QH', '2H', 'KS']);
});

test('trick winner: the highest trump, else the highest of the suit led', () => {
  assert.equal(trickWinner([[0, '10D'], [1, 'AD'], [2, '2H']], SUIT.H), 2);
  assert.equal(trickWinner([[0, '10D'], [1, 'AD'], [2, '2H']], null), 1);
  assert.equal(trickWinner([[0, '10D'], [1, 'AS'], [2, '3D']], SUIT.C), 0);
  // Every finished trick of the fixture: the model agrees with the engine's takers.
  for (const v of views) {
    const trump = v.no_trumps || !v.trump ? null : SUIT[v.trump];
    v.played.forEach((trick, k) => assert.equal(trickWinner(trick, trump), v.takers[k]));
  }
});

test('seats: you at the bottom, then clockwise; tricks this round against the bid', () => {
  const v = views.find((x) => x.phase === 'tricks' && x.played.length >= 2);
  const m = derive(v, NOW);
  assert.deepEqual(m.seats.map((s) => s.spot), [0, 1, 2]);
  assert.equal(spotOf(0, 2, 3), 1);
  assert.equal(spotOf(1, null, 4), 1);
  for (const s of m.seats) {
    assert.equal(s.bid, v.seats[s.seat].bid);
    assert.equal(s.tricks, v.seats[s.seat].tricks);
    assert.match(s.bidTip, new RegExp(`bid ${s.bid} and took ${s.tricks}`));
  }
  const taken = m.seats.reduce((n, s) => n + s.tricks, 0);
  assert.equal(taken, v.played.length);
  const spectator = derive(steps.find((s) => s.seat0 === v).spectator, NOW);
  assert.equal(spectator.spectator, true);
  assert.equal(spectator.hand.length, 0);
  assert.equal(spectator.decision, null);
});

test('the timer ring: the seat to act, with the real time left', () => {
  const v = views.find((x) => x.phase === 'bid' && x.to_act[0] !== 0);
  const m = derive(v, NOW);
  const acting = m.seats.filter((s) => s.acting).map((s) => s.seat);
  assert.deepEqual(acting, v.to_act);
  assert.equal(m.timerMs, 30000);
  assert.equal(m.remaining, Math.min(30000, v.deadline - NOW));
});

test('the score sheet: a line per round with bids, tricks, points and totals', () => {
  const end = views[views.length - 1];
  const m = derive(end, NOW);
  assert.equal(m.sheet.length, 3);
  m.sheet.forEach((line, k) => {
    assert.equal(line.roundNo, k + 1);
    assert.equal(line.cards, [10, 9, 8][k]);
    for (const s of line.seats) {
      const raw = end.sheet[k];
      assert.equal(s.bid, raw.bids[s.seat]);
      assert.equal(s.tricks, raw.tricks[s.seat]);
      assert.equal(s.points, raw.points[s.seat]);
      assert.equal(s.total, raw.totals[s.seat]);
      assert.equal(s.made, raw.bids[s.seat] === raw.tricks[s.seat]);
    }
  });
  assert.equal(m.sheet[0].trump, 'Hearts ♥ trump');
  assert.equal(m.sheet[1].trump, 'No trumps');
  const made = { round_no: 1, cards: 10, bids: [3, 2, 4], tricks: [3, 1, 4], points: [13, -1, 14], totals: [13, -1, 14] };
  assert.equal(pointsText(made, 0), 'bid 3 and made it: 10 + 3 = 13');
  assert.equal(pointsText(made, 1), 'bid 2, took 1: missed by 1, -1');
  const zero = { round_no: 1, cards: 7, bids: [0, 5, 4], tricks: [0, 4, 3], points: [3, -1, -1], totals: [3, -1, -1] };
  assert.match(pointsText(zero, 0), /bids were over\): 3/);
});

test('stake and pot; the end: winners, payouts and the seed', () => {
  const playing = derive(views.find((v) => v.phase === 'tricks'), NOW);
  assert.equal(playing.stake, 5);
  assert.equal(playing.pot, 15);
  assert.match(playing.potText, /Pot .*15.*stake .*5/);
  const end = views[views.length - 1];
  const m = derive(end, NOW);
  assert.equal(m.phase, 'ended');
  assert.deepEqual(m.winners, end.winners);
  const top = Math.max(...end.scores);
  assert.ok(m.winners.every((s) => end.scores[s] === top));
  assert.match(m.winnersText, new RegExp(`wins? with ${top} points`));
  assert.equal(m.payouts.reduce((a, b) => a + b, 0), 15);
  assert.match(m.seed, /^[0-9a-f]{64}$/);
  assert.ok(m.seats.filter((s) => s.winner).every((s) => end.winners.includes(s.seat)));
});

test('game over: the standings first to last, with totals and the bids each seat made', () => {
  const end = views[views.length - 1];
  const m = derive(end, NOW);
  assert.equal(m.standings.length, end.seats.length);
  const totals = m.standings.map((row) => row.total);
  assert.deepEqual(totals, [...end.scores].sort((a, b) => b - a));
  for (const row of m.standings) {
    const made = end.sheet.filter((line) => line.bids[row.seat] === line.tricks[row.seat]).length;
    assert.equal(row.made, made);
    assert.equal(row.madeText, `${made} of ${end.sheet.length} bids made`);
    assert.equal(row.total, end.scores[row.seat]);
  }
  assert.equal(m.standings[0].name, m.standings[0].seat === end.seat ? 'You' : end.seats[m.standings[0].seat].player.name);
  assert.ok(end.winners.includes(m.standings[0].seat));
  assert.deepEqual(derive(views.find((v) => v.phase === 'tricks'), NOW).standings, []);
});

test('standings rank equal totals equal, and the next place skips past them', () => {
  const end = views[views.length - 1];
  const seat = (n, score) => ({ ...end.seats[0], seat: n, score, player: { name: `P${n}` } });
  const view = { ...end, seat: null, seats: [seat(0, 12), seat(1, 20), seat(2, 12), seat(3, 5)] };
  const rows = standings(view);
  assert.deepEqual(rows.map((r) => [r.name, r.total, r.placeText]), [
    ['P1', 20, '1st'],
    ['P0', 12, 'Joint 2nd'],
    ['P2', 12, 'Joint 2nd'],
    ['P3', 5, '4th'],
  ]);
  const tie = standings({ ...view, seats: [seat(0, 9), seat(1, 9)] });
  assert.deepEqual(tie.map((r) => r.placeText), ['Joint 1st', 'Joint 1st']);
});

test('the round result words each seat\'s bid, tricks and points', () => {
  const interlude = views.find((v) => v.phase === 'interlude');
  const m = derive(interlude, NOW);
  assert.equal(m.result.roundNo, 1);
  assert.match(m.result.line, /^Round 1 \(10 cards, hearts ♥ trump\): You made 5 \(5 taken, \+15\)/);
  assert.equal(m.decision.kind, 'next_hand');
  assert.equal(m.decision.choices[0].text, 'Next round');
});

test('announcements: bids, trump, plays, trick winners, round scores, game over', () => {
  let prev = null;
  const said = [];
  for (const v of views) {
    said.push(...describeChanges(prev, v));
    prev = v;
  }
  const text = said.join('\n');
  assert.match(text, /^Round 1 of 3: 10 cards each; Bob bids first\./m);
  assert.match(text, /^Bob bids 1\.$/m);
  assert.match(text, /^You bid 5\.$/m);
  assert.match(text, /^All bids in: 7 bid for 10 tricks: under by 3\.$/m);
  assert.match(text, /^You choose hearts ♥ as trump\.$/m);
  assert.match(text, /^Cat chooses no trumps\.$/m);
  assert.match(text, /^Bob plays the ten of diamonds\.$/m);
  assert.match(text, /takes? the trick \(\d+ of \d+ bid\)\./);
  assert.match(text, /^Round 1 \(10 cards.*Totals: You 15, Bob -2, Cat -1\.$/m);
  assert.match(text, /^Game over: /m);
  assert.ok(said.includes('Your turn.'));
  // Nothing is said twice for the same view.
  assert.deepEqual(describeChanges(views[5], views[5]).filter((t) => t !== 'Your turn.'), []);
});

test('the JavaScript deal is the engine\'s for every seed, table size and round', async () => {
  for (const d of data.deals) {
    const seed = hexToBytes(d.seed);
    assert.equal(await firstBidder(seed, d.seats), d.first_bidder);
    const { hands, undealt } = await deal(seed, d.round_no, d.bidder, d.seats, d.cards);
    assert.deepEqual(hands.map((h) => h.map(code)), d.hands);
    assert.deepEqual(undealt.map(code), d.undealt);
  }
});

test('the record verifies as Python says, and each tampered copy fails as Python says', async () => {
  const ok = await verifyRecord(data.record);
  assert.deepEqual({ ok: ok.ok, rounds: ok.rounds, mismatch: ok.mismatch }, data.verdict);
  assert.equal(ok.perRound.length, 3);
  assert.ok(ok.perRound.every((r) => r.ok && r.shown.hands.length === 3));
  assert.deepEqual(ok.checks, ['fingerprint', 'first_dealer']);
  for (const t of data.tampered) {
    const r = await verifyRecord(t.record);
    assert.deepEqual({ ok: r.ok, rounds: r.rounds, mismatch: r.mismatch }, t.verdict, t.name);
  }
  const broken = await verifyRecord({ algorithm: 'contract-whist-fair-v1' });
  assert.equal(broken.ok, false);
});

test('a bid or a card the table chose when time ran out is said as such', () => {
  const k = views.findIndex((v, i) => i && v.bids.length > views[i - 1].bids.length && v.round_no === views[i - 1].round_no);
  const [prev, next] = [views[k - 1], structuredClone(views[k])];
  const { seat } = next.bids.at(-1);
  next.seats[seat].timeouts = prev.seats[seat].timeouts + 1;
  const line = describeChanges(prev, next).find((t) => t.startsWith('Time ran out: '));
  assert.match(line, /bids? \d+ \(the default\)\.$/);
  assert.ok(!describeChanges(prev, views[k]).some((t) => t.startsWith('Time ran out')));
});
