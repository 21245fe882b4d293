// What moved on a table between two sights of it: the cards dealt, the cards played, a finished
// trick to gather, chips to and from the pot, scores that changed. Pure: js/motion.js plays the
// moves over the page, and each game's page says what its table holds (a sight).

/**
 * One sight of a table, in the same terms for every game.
 * `deal` names the deal (a new one means every card in hand is new); `hand` the codes you hold
 * face up and `hidden` how many face down; `held` each seat's card count; `trick` the cards of
 * the trick under way and `flash` the finished trick on show ({ cards, winner, until });
 * `stacks` each seat's chips; `scores` any score by its key (a team, a seat).
 */
export function tableSight({ deal = null, hand = [], hidden = 0, held = [], trick = [], flash = null, stacks = [], scores = [] }) {
  const onFelt = trick.length ? trick : flash ? flash.cards : [];
  return {
    deal,
    hand: new Set(hand),
    hidden,
    held: new Map(held),
    live: trick.length > 0,
    trick: new Set(onFelt.map(({ seat, code }) => `${seat}:${code}`)),
    flash,
    stacks: new Map(stacks),
    scores: new Map(scores),
  };
}

/** How many chips fly for a change of `amount` cents: one to four, more for more. */
export function chipCount(amount) {
  return Math.max(1, Math.min(4, Math.ceil(Math.log2(Math.abs(amount) + 1) / 2)));
}

/**
 * The moves from sight `before` to sight `now` (null `before`: the first sight, nothing moves).
 * `dealt(code)` says whether a card in hand is new (a face-down one when `code` is null);
 * `backs` each seat's first new face-down card; `played` the cards new on the felt; `gather`
 * the finished trick newly on show; `stopGather` whether a gathering under way must end (a
 * new trick began, or another finished); `chips` from seat to pot (`into`) or back; `scores`
 * the keys whose score changed.
 */
export function movesBetween(before, now) {
  if (!before) return null;
  const sameDeal = now.deal === before.deal;
  const backs = [];
  for (const [seat, count] of now.held) {
    const had = sameDeal ? before.held.get(seat) || 0 : 0;
    if (count > had) backs.push({ seat, from: had });
  }
  const chips = [];
  for (const [seat, stack] of now.stacks) {
    const had = before.stacks.get(seat);
    if (had === undefined || had === stack) continue;
    chips.push({ seat, count: chipCount(stack - had), into: stack < had });
  }
  const scores = [];
  for (const [key, score] of now.scores) {
    const had = before.scores.get(key);
    if (had !== undefined && had !== score) scores.push({ key, from: had, to: score });
  }
  const newFlash = Boolean(now.flash) && now.flash !== before.flash;
  return {
    dealt: (code) => (code ? !before.hand.has(code) : now.hidden > before.hidden || !sameDeal),
    backs,
    played: [...now.trick].filter((key) => !before.trick.has(key)),
    gather: newFlash && !now.live ? now.flash : null,
    stopGather: now.flash !== before.flash || now.live,
    chips,
    scores,
  };
}

/** How long a finished trick rests where it was played before it goes to its winner. */
export function gatherDelay(flash, now, gatherMs) {
  return Math.max(0, flash.until - now - gatherMs - 60);
}
