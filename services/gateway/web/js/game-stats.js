// "Your games" (js/pages/games.js), the panel of one game: the player's rating and what their
// finished games of it add up to (GET /api/games/mine/stats, GET /api/ratings/mine), in words.
// Pure (tests/web/games.test.mjs).

import { signed } from './state.js';

/** A rating in words: "1612", or "1540?" while it is provisional (not yet settled). */
export function ratingWords(rating) {
  if (!rating) return { text: 'Not rated yet', tip: 'A finished game with a result rates you' };
  const games = `${rating.games} rated game${rating.games === 1 ? '' : 's'}`;
  return rating.provisional
    ? { text: `${rating.rating}?`, tip: `Provisional: ${games}, not yet settled` }
    : { text: String(rating.rating), tip: `${games}, deviation ${rating.deviation}` };
}

function share(part, whole) {
  return whole ? ` (${Math.round((100 * part) / whole)}%)` : '';
}

/** Cents to one decimal, signed: "+3.2¢", "−1.0¢". */
function centsWords(value) {
  const rounded = Math.round(value * 10) / 10;
  const text = `${Math.abs(rounded).toFixed(1)}¢`;
  return rounded > 0 ? `+${text}` : rounded < 0 ? `−${text}` : `±${text}`;
}

/** The lines of a game's panel, `[term, value]` each: games, first places and games left, then
 * the game's own counts (Euchre: hands, made trump, euchred, alone, marches; Contract Whist:
 * rounds, exact bids, points a round; Swick: hands, knocks, sets, net a hand with its interval). */
export function statsLines(stats) {
  const c = stats.counts || {};
  const lines = [
    ['Games', String(stats.games)],
    ['First place', `${stats.first}${share(stats.first, stats.games)}`],
  ];
  if (stats.left) lines.push(['Left early', String(stats.left)]);
  if (stats.game === 'euchre') {
    const called = (c.made || 0) + (c.euchred || 0);
    lines.push(
      ['Hands', String(c.hands || 0)],
      ['Made trump', `${called}, made ${c.made || 0}${share(c.made || 0, called)}`],
      ['Euchred', String(c.euchred || 0)],
      ['Alone', String(c.loners || 0)],
      ['Marches', String(c.marches || 0)],
    );
  } else if (stats.game === 'contract-whist') {
    lines.push(
      ['Rounds', String(c.rounds || 0)],
      ['Exact bids', `${c.exact || 0}${share(c.exact || 0, c.rounds || 0)}`],
    );
    if (stats.points_per_round !== null && stats.points_per_round !== undefined) {
      lines.push(['Points a round', stats.points_per_round.toFixed(1)]);
    }
  } else if (stats.game === 'swick') {
    lines.push(
      ['Hands', String(c.hands || 0)],
      ['Knocked in', `${c.knocks || 0}${share(c.knocks || 0, c.hands || 0)}`],
      ['Set', String(c.sets || 0)],
      ['Net', signed(c.net || 0)],
    );
    if (stats.net_per_hand !== null && stats.net_per_hand !== undefined) {
      const [low, high] = stats.net_per_hand_interval || [];
      const range = low === undefined ? '' : ` (95%: ${centsWords(low)} to ${centsWords(high)})`;
      lines.push(['Net a hand', `${centsWords(stats.net_per_hand)}${range}`]);
    }
  }
  return lines;
}
