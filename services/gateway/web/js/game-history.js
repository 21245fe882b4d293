// "Your games" (js/pages/games.js): the words of a finished game as its player reads it — the
// game's name, when it ended, each seat (bots with their level, "you"), the place, the points
// and the chips — and the address of a page of them. Pure (tests/web/games.test.mjs).

import { signed } from './state.js';

/** The games a player can look back on, by the id the server uses, with their names. */
export const GAME_NAMES = {
  swick: 'Swick',
  euchre: 'Euchre',
  'contract-whist': 'Contract Whist',
};

/** The filter's choices: every game, then each game by itself. */
export const GAME_FILTERS = [{ id: '', name: 'All games' }, ...Object.entries(GAME_NAMES).map(([id, name]) => ({ id, name }))];

/** A game's name ("contract-whist" -> "Contract Whist"); an unknown one as readable words. */
export function gameName(id) {
  if (GAME_NAMES[id]) return GAME_NAMES[id];
  const text = String(id || '').replace(/[_-]+/g, ' ').trim();
  return text ? text[0].toUpperCase() + text.slice(1) : 'A game';
}

/** How many games a page asks for at most (the server takes 1..50). */
export const PAGE_SIZE = 20;

/** The address of a page of the player's finished games: of one game (`game`, or every game
 * when empty), older than the cursor `before` (the last page's `next`) when given. */
export function myGamesPath({ game = '', before = null, limit = PAGE_SIZE } = {}) {
  const query = new URLSearchParams();
  if (game) query.set('game', game);
  if (before) query.set('before', before);
  query.set('limit', String(limit));
  return `/api/games/mine?${query}`;
}

/** The games shown after a further page: those already shown, then the page's, each game once
 * (a game that ended while paging could come twice). */
export function appendGames(shown, more) {
  const seen = new Set(shown.map(gameKey));
  return [...shown, ...(more || []).filter((g) => !seen.has(gameKey(g)))];
}

/** What tells one finished game from another: its table and its number there. */
export function gameKey(entry) {
  return `${entry.table_id}/${entry.game_no}`;
}

/** "1st", "2nd", "3rd", "4th", "11th", "21st". */
export function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  const suffix = { 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] || 'th';
  return `${n}${suffix}`;
}

/** Which side a seat played for: at Euchre, its team (seats 0 and 2, 1 and 3); elsewhere itself.
 * Partners share their team's place; only sides do tie. */
function sideOf(game, seat) {
  return game === 'euchre' ? seat % 2 : seat;
}

/** The place of `entry` (a seat of the game, or the game's `me`) in words: "1st of 4", a tie
 * "shared 1st of 4", at Euchre "1st of 2 teams"; "No result" for a game cut short. */
export function placeText(entry, game) {
  const place = entry ? entry.place : null;
  if (place === null || place === undefined) return 'No result';
  const teams = game.game === 'euchre';
  const side = sideOf(game.game, entry.seat);
  const shared = (game.seats || []).some(
    (other) => other.place === place && sideOf(game.game, other.seat) !== side,
  );
  const of = game.places ? ` of ${game.places}${teams ? ' teams' : ''}` : '';
  return `${shared ? 'shared ' : ''}${ordinal(place)}${of}`;
}

/** A count of points in words: "10 team points" at Euchre, "1 point" or "−3 points" at
 * Contract Whist; nothing for a game without points (Swick) or points not known. */
export function pointsText(game, points) {
  if (game === 'swick' || points === null || points === undefined) return '';
  const number = points < 0 ? `−${Math.abs(points)}` : String(points);
  const unit = Math.abs(points) === 1 ? 'point' : 'points';
  return game === 'euchre' ? `${number} team ${unit}` : `${number} ${unit}`;
}

/** The chips a seat won or lost: `{ text, tone }`, `text` signed in cents as the lobby shows
 * them ("+40¢", "−20¢", "±0¢"), `tone` "gain", "loss" or "even"; null when there is nothing to
 * say: the chips are not known, or none changed hands at a game played for nothing (0 and no
 * stake; Swick always has antes, so its 0 is said). */
export function chipsText(chips, { game = '', stake = 0 } = {}) {
  if (chips === null || chips === undefined) return null;
  if (chips === 0 && game !== 'swick' && !stake) return null;
  return { text: signed(chips), tone: chips > 0 ? 'gain' : chips < 0 ? 'loss' : 'even' };
}

/** What a bot seat is called beside its name: "medium bot" (a level the server gave), "bot". */
export function botText(bot) {
  if (!bot) return '';
  return typeof bot === 'string' && bot.trim() ? `${bot.trim()} bot` : 'bot';
}

/** A seat in words: `{ name, marks }`, the marks said beside the name ("you", "medium bot",
 * "left early"), and `text`, the lot as one line ("Bot Ada (easy bot)", "Tess (you)"). */
export function seatText(seat) {
  const name = String((seat && seat.name) || '').trim() || `Seat ${((seat && seat.seat) || 0) + 1}`;
  const marks = [];
  if (seat && seat.me) marks.push('you');
  const bot = botText(seat && seat.bot);
  if (bot) marks.push(bot);
  if (seat && seat.left) marks.push('left early');
  return { name, marks, text: marks.length ? `${name} (${marks.join(', ')})` : name };
}

/** When a game ended, in this browser's own time and words (`Intl.DateTimeFormat`): "7 Dec
 * 2026, 23:10"; `locale` and `timeZone` for a test. '' for a time that is not one. */
export function whenText(endedAt, { locale, timeZone } = {}) {
  const at = typeof endedAt === 'number' ? endedAt : Date.parse(String(endedAt || ''));
  if (Number.isNaN(at)) return '';
  const options = { dateStyle: 'medium', timeStyle: 'short' };
  if (timeZone) options.timeZone = timeZone;
  return new Intl.DateTimeFormat(locale, options).format(new Date(at));
}

/** Where a finished game's replay and its check are: `{ replay, verify }`. */
export function gameLinks(entry) {
  const at = `${encodeURIComponent(entry.table_id)}/${encodeURIComponent(entry.game_no)}`;
  return { replay: `#/replay/${at}`, verify: `#/verify/${at}` };
}

/** The player's result at a game, in words: `{ place, points, chips, left }` (`points` '' and
 * `chips` null when there is nothing to say, `left` "Left early" or ''). */
export function resultOf(entry) {
  const me = entry.me || (entry.seats || []).find((s) => s.me) || null;
  return {
    place: placeText(me, entry),
    points: me ? pointsText(entry.game, me.points) : '',
    chips: me ? chipsText(me.chips, { game: entry.game, stake: entry.stake }) : null,
    left: me && me.left ? 'Left early' : '',
  };
}

/** What the page says when there is no game to show: for every game, or for the one picked. */
export function emptyText(game) {
  return game
    ? `You have not finished a game of ${gameName(game)} yet.`
    : 'You have not finished a game yet.';
}
