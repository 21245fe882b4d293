// web/js/state.js: frames applied by seq, and what the table page derives from real views
// (tests/web/fixtures/views.json, made by tests/web/make_views.py from the Python engine).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import {
  applyFrame,
  cents,
  derive,
  describeChanges,
  drawOption,
  markStale,
  newTableState,
  remaining,
  signed,
  summarizeResult,
  trickWinner,
  unrepeated,
} from '../../services/gateway/web/js/state.js';
import { label, sortHand, spoken } from '../../services/gateway/web/js/cards.js';
import { parseMarkdown, inline } from '../../services/gateway/web/js/markdown.js';
import { NOW, readFixture } from './fixture.mjs';

const root = new URL('../../', import.meta.url);
const steps = readFixture('views.json');
const views = steps.map((s) => s.seat0);
const at = (phase, from = 0) => views.findIndex((v, i) => i >= from && v.phase === phase);

const frame = (type, seq, view = { seq }) => ({ type, table: 't-1', seq, view });

test('a snapshot then updates in order are applied', () => {
  let s = newTableState('t-1');
  let r = applyFrame(s, frame('snapshot', 5));
  assert.equal(r.changed, true);
  assert.equal(r.state.seq, 5);
  r = applyFrame(r.state, frame('update', 6));
  assert.deepEqual([r.changed, r.sync, r.state.seq], [true, false, 6]);
  s = r.state;
  r = applyFrame(s, frame('update', 6)); // a repeat
  assert.deepEqual([r.changed, r.sync, r.state], [false, false, s]);
  r = applyFrame(s, frame('update', 4)); // an old one
  assert.deepEqual([r.changed, r.sync, r.state.seq], [false, false, 6]);
});

test('a gap in seq asks for a sync and waits for the snapshot', () => {
  const s = applyFrame(newTableState('t-1'), frame('snapshot', 5)).state;
  let r = applyFrame(s, frame('update', 8));
  assert.equal(r.sync, true);
  assert.equal(r.changed, false);
  assert.equal(r.state.seq, 5, 'the old view stays until the snapshot');
  r = applyFrame(r.state, frame('snapshot', 9));
  assert.deepEqual([r.changed, r.state.seq, r.state.resync], [true, 9, false]);
});

test('an update before any snapshot asks for one', () => {
  const r = applyFrame(newTableState('t-1'), frame('update', 3));
  assert.equal(r.sync, true);
  assert.equal(r.state.view, null);
});

test('an older snapshot is ignored, unless the client is resyncing after a reconnect', () => {
  const s = applyFrame(newTableState('t-1'), frame('snapshot', 9)).state;
  assert.equal(applyFrame(s, frame('snapshot', 7)).changed, false);
  assert.equal(applyFrame(s, frame('snapshot', 9)).changed, true, 'the same seq again is fine');
  const stale = markStale(s);
  const r = applyFrame(stale, frame('snapshot', 7));
  assert.deepEqual([r.changed, r.state.seq], [true, 7]);
});

test("frames of another table don't touch this one", () => {
  const s = newTableState('t-1');
  const r = applyFrame(s, { ...frame('snapshot', 3), table: 't-2' });
  assert.equal(r.changed, false);
  assert.equal(r.state, s);
});

test('every real view derives without error, for the seat and for spectators', () => {
  for (const step of steps) {
    const model = derive(step.seat0, NOW);
    assert.equal(model.seat, 0);
    assert.equal(model.seats.length, 3);
    const watching = derive(step.spectator, NOW);
    assert.equal(watching.spectator, true);
    assert.equal(watching.decision, null);
    assert.deepEqual(watching.hand, []);
  }
});

test('seat positions put me at the bottom and go clockwise', () => {
  const model = derive(views[0], NOW);
  assert.deepEqual(
    model.seats.map((s) => [s.seat, s.pos, s.isMe]),
    [
      [0, 0, true],
      [1, 1, false],
      [2, 2, false],
    ],
  );
  const other = { ...views[0], seat: 2 };
  assert.deepEqual(
    derive(other, NOW).seats.map((s) => s.pos),
    [1, 2, 0],
  );
});

test('the dealer sets the ante: every allowed amount is a choice', () => {
  const model = derive(views[at('ante')], NOW);
  assert.equal(model.myTurn, true);
  assert.equal(model.decision.kind, 'ante');
  assert.deepEqual(
    model.decision.choices.map((c) => c.text),
    ['Ante 3¢', 'Ante 6¢', 'Ante 9¢', 'Ante 12¢', 'Ante 15¢'],
  );
  assert.deepEqual(model.decision.choices[0].action, { amount: 3, entropy: '', kind: 'ante' });
});

test("the blind dealer's cards stay hidden until the dealer's knock", () => {
  const trump = derive(views[at('trump')], NOW);
  assert.equal(trump.decision.kind, 'trump');
  assert.ok(trump.hand.every((c) => c.hidden));
  assert.deepEqual(
    trump.decision.choices.map((c) => c.text),
    ['Keep trump', 'Leave it'],
  );
  const knock = derive(views[at('knock')], NOW);
  assert.equal(knock.myTurn, false);
  assert.ok(knock.trump.kept);
  const kept = knock.hand.filter((c) => !c.hidden);
  assert.equal(kept.length, 1, 'only the kept trump card shows');
  assert.ok(kept[0].kept);
  assert.match(knock.waiting, /to knock or pass/);
  const dealerKnock = derive(views[at('dealer_knock')], NOW);
  assert.ok(dealerKnock.hand.every((c) => !c.hidden));
  assert.match(dealerKnock.decision.detail, /passing now sets you single/);
});

test('draw: single cards say whether they may go, and a selection maps to its option', () => {
  const view = views[at('dealer_draw')];
  const model = derive(view, NOW);
  assert.equal(model.decision.kind, 'draw');
  const kept = model.hand.find((c) => c.kept);
  assert.equal(kept.legal, false);
  assert.match(kept.reason, /can never be discarded/);
  const others = model.hand.filter((c) => !c.kept).map((c) => c.code);
  assert.equal(drawOption(view, others.slice(0, 2)).legal, true);
  assert.equal(drawOption(view, [kept.code]).legal, false);
  assert.deepEqual(drawOption(view, []).action, { discards: [], kind: 'draw' });
  assert.equal(drawOption(view, others.slice(0, 3).concat([kept.code])), null, 'four is no option');
});

test("the dealer's fourth card and the face-trump decision", () => {
  const discard = derive(views[at('dealer_discard')], NOW);
  assert.equal(discard.decision.kind, 'discard');
  assert.equal(discard.hand.length, 4);
  assert.equal(discard.hand.filter((c) => c.legal).length, 3);
  const face = derive(views[at('face_trump')], NOW);
  assert.deepEqual(
    face.decision.choices.map((c) => [c.text, c.action]),
    [
      ['Play', { play: true, kind: 'face_trump' }],
      ['Set single', { play: false, kind: 'face_trump' }],
    ],
  );
  assert.match(face.decision.detail, /Set single: drop out and pay 12¢ now/);
});

test('tricks: legal cards are marked, illegal ones carry the reason', () => {
  const mine = views.findIndex((v) => v.phase === 'tricks' && v.to_act.includes(0) && v.trick.length);
  assert.ok(mine > 0);
  const model = derive(views[mine], NOW);
  assert.equal(model.decision.kind, 'play');
  assert.ok(model.hand.some((c) => c.legal));
  for (const card of model.hand.filter((c) => c.legal === false)) assert.ok(card.reason.length > 5);
  assert.equal(model.trick.length, views[mine].trick.length);
});

test('the countdown comes from the deadline, capped at the timer', () => {
  const view = views[at('trump')];
  assert.equal(remaining(view, view.deadline - 12_000), 12_000);
  assert.equal(remaining(view, view.deadline + 5), 0);
  assert.equal(remaining(view, view.deadline - 500_000), 30_000, 'a skewed clock is capped');
  assert.equal(remaining({ ...view, deadline: null }, NOW), null);
  assert.equal(derive(view, view.deadline - 7000).remaining, 7000);
});

test('trick winners: highest trump, else highest of the led suit', () => {
  assert.equal(trickWinner([[1, '9S'], [2, 'JS'], [0, 'QS']], 1), 0);
  assert.equal(trickWinner([[1, '9S'], [2, '7D'], [0, '10S']], 1), 2);
  assert.equal(trickWinner([[1, '9S'], [2, 'AH'], [0, '8S']], 1), 1, 'off-suit does not win');
  assert.equal(trickWinner([[1, '8D'], [2, 'QD'], [0, 'AS']], 1), 2, 'trump led');
  assert.equal(trickWinner([], 1), null);
});

test('a hand result: headline, sets, carry and each change', () => {
  const view = views[at('ready', at('tricks'))];
  const summary = summarizeResult(view, 0);
  assert.equal(summary.ending, 'tricks');
  assert.match(summary.headline, /^Tricks: You 3 \(each worth 4¢\)$/);
  assert.deepEqual(
    summary.sets.map((s) => s.text),
    [`${view.seats[1].player.name} went set for 12¢`, `${view.seats[2].player.name} went set for 12¢`],
  );
  assert.equal(summary.carryOut, 24);
  assert.equal(summary.nextPot, 27);
  assert.match(summary.carryText, /24¢ carries over: next hand is a free ride, pot 27¢/);
  assert.equal(summary.mine, 6);
  assert.equal(summary.lines.reduce((n, l) => n + l.delta, 0) + summary.carryOut - summary.carryIn, 0);
  const last = summarizeResult(views[views.length - 1], 0);
  assert.ok(last.sets.some((s) => s.kind === 'double' && /went set double for 54¢/.test(s.text)));
});

test('special hands and the all-pass ending are worded', () => {
  const base = views[at('ready', at('tricks'))];
  const special = {
    ...base,
    result: {
      ...base.result,
      ending: 'special',
      special: { seat: 1, kind: 'three_aces', cards: ['AS', 'AH', 'AC'] },
      payouts: [0, 12, 0],
    },
  };
  const s = summarizeResult(special, 0);
  assert.match(s.headline, /wins the pot of 12¢ with three Aces/);
  assert.deepEqual(s.special.cards, ['AS', 'AH', 'AC']);
  const passed = { ...base, result: { ...base.result, ending: 'all_passed', payouts: [12, 0, 0] } };
  assert.match(summarizeResult(passed, 0).headline, /^You win the pot of 12¢: everyone else passed$/);
});

test('announcements follow the hand: deal, trump, knocks, draws, plays, tricks, result, turns', () => {
  const said = [];
  for (let i = 1; i < views.length; i++) said.push(...describeChanges(views[i - 1], views[i]));
  const texts = said.map((s) => s.text);
  const has = (pattern) => assert.ok(texts.some((t) => pattern.test(t)), `${pattern} in\n${texts.join('\n')}`);
  has(/^Hand 1 dealt\. Trump is [JQKA][♣♦♥♠], pot 12¢\.$/);
  has(/^You kept the trump card/);
  has(/knocked$/);
  has(/drew 1 card$/);
  has(/^You played /);
  has(/trick 1$/);
  has(/^Hand 1: Tricks: /);
  has(/went set for 12¢\.$/);
  has(/^Your change this hand: \+6¢\.$/);
  has(/^Your turn\. Keep the trump card/);
  has(/^Hand 2 dealt\. Free ride\./);
  assert.equal(texts.filter((t) => / played /.test(t)).length, 18, 'every card of two hands, once');
  assert.equal(texts.filter((t) => /trick \d$/.test(t)).length, 6);
  assert.ok(said.some((s) => s.sound === 'turn') && said.some((s) => s.sound === 'card'));
});

test('announcements: seats, connections and the end of the game', () => {
  const view = views[0];
  const gone = structuredClone(view);
  gone.seats[1].connected = false;
  assert.deepEqual(
    describeChanges(view, gone).map((s) => s.text),
    [`${view.seats[1].player.name} disconnected`],
  );
  const ended = structuredClone(view);
  ended.phase = 'ended';
  ended.to_act = [];
  ended.options = [];
  ended.standings = [
    { seat: 0, name: 'D', net: 6, stack: 10006 },
    { seat: 1, name: 'L', net: -6, stack: 9994 },
  ];
  assert.match(describeChanges(view, ended).at(-1).text, /^The game is over\. Final standings: D \+6¢, L −6¢\.$/);
  ended.end_reason = 'no_dealer';
  const why = 'Nobody at the table can pay the 6¢ a dealer pays, so no hand can start';
  assert.equal(derive(ended, NOW).endText, why);
  assert.equal(derive(ended, NOW).waiting, why);
  assert.equal(describeChanges(view, ended).at(-1).text, `The game is over. ${why}. Final standings: D +6¢, L −6¢.`);
  ended.end_reason = 'host';
  assert.equal(derive(ended, NOW).endText, 'The host ended the game');
  const closed = { ...structuredClone(ended), phase: 'closed', end_reason: 'closed', host: null };
  closed.seats = closed.seats.map((s) => ({ ...s, player: null }));
  const goneWhy = 'The table closed: nobody was left playing at it';
  assert.equal(derive(closed, NOW).endText, goneWhy);
  assert.equal(derive(closed, NOW).waiting, `${goneWhy}. Find another table in the lobby`);
  assert.deepEqual(derive(closed, NOW).canJoin, []);
  assert.equal(describeChanges(ended, closed).at(-1).text, `${goneWhy}.`);
});

test('host controls, sitting out and joining', () => {
  const between = derive(views[at('ante')], NOW);
  assert.equal(between.isHost, true);
  assert.equal(between.host_controls.end.legal, true);
  assert.equal(between.host_controls.start, null);
  const carried = derive(views[at('ready', at('tricks'))], NOW);
  assert.equal(carried.host_controls.end.legal, false);
  assert.match(carried.host_controls.end.reason, /24¢ of set money is carried/);
  assert.equal(carried.canSitOut, true);
  const watching = derive(steps[0].spectator, NOW);
  assert.equal(watching.host_controls, null);
  assert.deepEqual(watching.canJoin, []);
  const open = structuredClone(steps[0].spectator);
  open.seats[2].player = null;
  assert.deepEqual(derive(open, NOW).canJoin, [2]);
});

test('money and cards are written for people', () => {
  assert.equal(cents(4000), '4,000¢');
  assert.equal(cents(-15), '−15¢');
  assert.equal(signed(5), '+5¢');
  assert.equal(signed(0), '±0¢');
  assert.equal(label('10D'), '10♦');
  assert.equal(spoken('AS'), 'ace of spades');
  assert.deepEqual(sortHand(['7S', 'AC', 'KS', '10D'], 3), ['AC', '10D', 'KS', '7S']);
});

test('the rules page markdown: headings, lists, tables, bold', () => {
  const blocks = parseMarkdown('# Title\n\nSome **bold** and `code`.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n');
  assert.deepEqual(
    blocks.map((b) => b.type),
    ['heading', 'paragraph', 'list', 'table'],
  );
  assert.equal(blocks[0].level, 1);
  assert.deepEqual(blocks[2].items.length, 2);
  assert.deepEqual(blocks[3].head, ['a', 'b']);
  assert.deepEqual(blocks[3].rows, [['1', '2']]);
  assert.deepEqual(inline('Some **bold** and `code`.'), [
    { type: 'text', text: 'Some ' },
    { type: 'strong', text: 'bold' },
    { type: 'text', text: ' and ' },
    { type: 'code', text: 'code' },
    { type: 'text', text: '.' },
  ]);
  const rules = readFileSync(new URL('SWICK_RULES.md', root), 'utf8');
  const parsed = parseMarkdown(rules);
  assert.ok(parsed.filter((b) => b.type === 'heading').length > 10);
  assert.ok(parsed.some((b) => b.type === 'table' && b.rows.length >= 30), 'the scenarios table');
});

test('a decision the table took when time ran out is logged as such, not as a choice', () => {
  const knock = views[at('knock')];
  const next = structuredClone(knock);
  next.seq += 1;
  next.seats[0].status = 'passed';
  next.seats[0].timeouts = 1;
  next.seats[1].status = 'in';
  const said = describeChanges(knock, next).map((a) => a.text);
  assert.ok(said.includes('Time ran out: you passed (the default)'), said.join(' | '));
  assert.ok(said.includes('L knocked'), said.join(' | '));
  assert.ok(!said.some((t) => t.startsWith('Time ran out: L')), said.join(' | '));
});

test('the countdown measures an away seat against its short grace, and says the seat is away', () => {
  const knock = views[at('knock')];
  const pending = knock.to_act[0];
  assert.equal(derive(knock, NOW).timerMs, knock.config.timer_ms);
  const away = structuredClone(knock);
  away.seats[pending].away = true;
  away.seats[pending].timeouts = 2;
  assert.equal(derive(away, NOW).timerMs, knock.config.away_grace_ms);
  assert.equal(derive(knock, NOW).away, false);
  const meAway = structuredClone(knock);
  meAway.seats[0].away = true;
  assert.equal(derive(meAway, NOW).away, true);
  meAway.seats[0].connected = false; // a disconnected seat sees nothing; no banner to show
  assert.equal(derive(meAway, NOW).away, false);
});

test('a set-up round that re-opens again and again is announced once', () => {
  const ready = views[at('ready')];
  const ante = views[at('ante')];
  const heard = new Set();
  // The away player sits each hand out; the dealer's round opens again, and again.
  const skipped = structuredClone(ante);
  skipped.seq = ready.seq + 1;
  skipped.seats[2].timeouts = 1;
  const first = unrepeated(describeChanges(ready, skipped), heard, skipped.phase).map((a) => a.text);
  assert.ok(first.includes('Time ran out: M sat this hand out (the default)'), first.join(' | '));
  const again = structuredClone(skipped);
  again.seats[2].timeouts = 2;
  const second = unrepeated(describeChanges(ready, again), heard, again.phase).map((a) => a.text);
  assert.deepEqual(second, []);
  // Once a hand is under way, its own turns are announced each time again.
  const knock = views[at('knock')];
  assert.ok(unrepeated([{ text: 'x', round: true }], heard, knock.phase).length === 1);
  assert.equal(heard.size, 1);
});

test('the last card of a hand, its trick and its result come before who deals the next hand', () => {
  const last = views.findIndex((v, i) => i > 0 && views[i - 1].phase === 'tricks' && v.phase !== 'tricks');
  const before = views[last - 1];
  // The hand ends with the next dealer to set the ante (the fixture's ends in a free ride).
  const after = { ...structuredClone(views[last]), phase: 'ante', free_ride: false, to_act: [views[last].dealer] };
  const texts = describeChanges(before, after).map((a) => a.text);
  const index = (pattern) => texts.findIndex((t) => pattern.test(t));
  const card = index(/ played /);
  const trick = index(/trick 3$/);
  const result = index(/^Hand 1: /);
  const change = index(/^Your change this hand/);
  const deals = index(/deals? the next hand$/);
  assert.ok(card >= 0 && trick > card && result > trick && change > result, texts.join(' | '));
  assert.ok(deals > change, `the dealer last:\n${texts.join('\n')}`);
});
