// The HTTP lobby (services/gateway/routes_*.py) and the player's remembered session.

import { myGamesPath } from './game-history.js';

const SESSION_KEY = 'swick.session';
const FORMER_KEY = 'swick.former'; // the name of a session whose token the server refused
const INVITES_KEY = 'swick.invites';

export function loadSession() {
  try {
    const data = JSON.parse(localStorage.getItem(SESSION_KEY) || 'null');
    return data && data.token ? data : null;
  } catch {
    return null;
  }
}

export function saveSession(session) {
  if (session) {
    localStorage.setItem(SESSION_KEY, JSON.stringify(session));
    localStorage.removeItem(FORMER_KEY);
  } else {
    localStorage.removeItem(SESSION_KEY);
  }
}

/** Forget the session if it holds `token`, which the server refused (expired, or signed with a
 * secret it no longer accepts), keeping its name to offer when the player signs in again.
 * Whether it did: a late answer to an old token must not drop the session that replaced it. */
export function dropSession(token) {
  const session = loadSession();
  if (!session || session.token !== token) return false;
  saveSession(null);
  if (session.name) localStorage.setItem(FORMER_KEY, JSON.stringify({ name: session.name }));
  return true;
}

/** Call `listener(session)` when another tab of this browser stores a session (or drops it:
 * null); returns the unsubscribe function. */
export function onSessionStored(listener) {
  const changed = (event) => {
    if (event.key === SESSION_KEY) listener(loadSession());
  };
  window.addEventListener('storage', changed);
  return () => window.removeEventListener('storage', changed);
}

/** The name of the last session the server refused, if the player has not signed in since. */
export function formerName() {
  try {
    const data = JSON.parse(localStorage.getItem(FORMER_KEY) || 'null');
    return data && typeof data.name === 'string' ? data.name : '';
  } catch {
    return '';
  }
}

const refusedListeners = new Set();

/** Call `listener(token)` whenever the server answers a request signed with `token` by 401;
 * returns the unsubscribe function. */
export function onTokenRefused(listener) {
  refusedListeners.add(listener);
  return () => refusedListeners.delete(listener);
}

/** Invite codes of tables this browser opened or was invited to (table id -> code). */
export function rememberInvite(table, code) {
  if (!table || !code) return;
  const all = invites();
  all[table] = code;
  localStorage.setItem(INVITES_KEY, JSON.stringify(all));
}

export function invites() {
  try {
    return JSON.parse(localStorage.getItem(INVITES_KEY) || '{}') || {};
  } catch {
    return {};
  }
}

const GAMES_KEY = 'swick.games';

/** Which game a table plays ("swick" or "euchre"), as this browser last saw it. */
export function gameOf(table) {
  try {
    const all = JSON.parse(localStorage.getItem(GAMES_KEY) || '{}') || {};
    return all[table] || 'swick';
  } catch {
    return 'swick';
  }
}

export function rememberGame(table, game) {
  if (!table || !game) return;
  let all = {};
  try {
    all = JSON.parse(localStorage.getItem(GAMES_KEY) || '{}') || {};
  } catch {
    all = {};
  }
  all[table] = game;
  const ids = Object.keys(all);
  for (const id of ids.slice(0, Math.max(0, ids.length - 50))) delete all[id];
  localStorage.setItem(GAMES_KEY, JSON.stringify(all));
}

export class ApiError extends Error {
  /** `retryAfter`: the seconds a throttled request (429) says to wait, or null. */
  constructor(status, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

/** The seconds of a Retry-After header (a number of seconds or an HTTP date), or null. */
export function retryAfterSeconds(value, now = Date.now()) {
  if (value === null || value === undefined || value === '') return null;
  const text = String(value).trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** "a minute", "5 minutes", "30 seconds": a wait as said to a player. */
export function waitText(seconds) {
  if (seconds < 60) return seconds <= 1 ? 'a second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? 'a minute' : `${minutes} minutes`;
}

// How far the server's clock is ahead of this browser's (ms), from the Date of its answers: a
// code's expiry counts down on the server's time even where this clock is wrong. Dates have
// whole seconds, so an offset under two seconds is taken as none.
let serverOffset = 0;

function noteServerTime(header) {
  const at = header ? Date.parse(header) : NaN;
  if (Number.isNaN(at)) return;
  const offset = at - Date.now();
  serverOffset = Math.abs(offset) < 2000 ? 0 : offset;
}

/** A time of the server's clock (ms) as this browser's clock reads it. */
export function localTime(serverMs) {
  return serverMs - serverOffset;
}

async function request(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'The server is not answering: check your connection');
  }
  noteServerTime(response.headers.get('date'));
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (response.status === 401 && token) {
    for (const listener of refusedListeners) listener(token);
  }
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    if (data && typeof data.detail === 'string') message = data.detail;
    else if (data && Array.isArray(data.detail) && data.detail[0]) message = data.detail[0].msg;
    if (response.status === 429) {
      // Throttled: how long to wait is what the player needs, whatever the server's words.
      const wait = retryAfterSeconds(response.headers.get('retry-after'));
      message = `Too many tries: wait ${wait === null ? 'a few minutes' : waitText(wait)}, then try again.`;
      throw new ApiError(429, message, wait);
    }
    throw new ApiError(response.status, message);
  }
  return data;
}

/** Where a game's record (or its `replay`) is; with this browser's invite code of the table, if
 * it has one. */
export function recordPath(table, game, part = 'record') {
  const code = invites()[table];
  const query = code ? `?invite=${encodeURIComponent(code)}` : '';
  return `/api/tables/${encodeURIComponent(table)}/games/${encodeURIComponent(game)}/${part}${query}`;
}

/** What this browser keeps of a player the server signed in (a new one, or one signing in
 * again): the same for every way in. */
export function sessionOf(player) {
  const session = { id: player.id, name: player.name, token: player.token };
  if (player.handle) session.handle = player.handle;
  return session;
}

export const api = {
  signUp: (name) => request('POST', '/api/players', { body: { name } }),
  // Signing in again (docs/accounts.md): each answers the player, as signing up does.
  signInWithLink: (code) => request('POST', '/api/sign-in/link', { body: { code } }),
  signInWithRecovery: (code) => request('POST', '/api/sign-in/recovery', { body: { code } }),
  // The account page.
  account: (token) => request('GET', '/api/account', { token }),
  rename: (token, name) => request('PATCH', '/api/account', { token, body: { name } }),
  linkCode: (token) => request('POST', '/api/account/link', { token }),
  recoveryCodes: (token) => request('POST', '/api/account/recovery-codes', { token }),
  signOutDevice: (token, id) => request('DELETE', `/api/account/devices/${encodeURIComponent(id)}`, { token }),
  signOut: (token) => request('POST', '/api/account/sign-out', { token }),
  handles: (ids) => request('GET', `/api/handles?ids=${ids.map(encodeURIComponent).join(',')}`),
  me: (token) => request('GET', '/api/me', { token }),
  // Every token of the player dies but the fresh one answered (docs/protocol.md): keep it.
  revoke: (token) => request('POST', '/api/me/revoke', { token }),
  tables: () => request('GET', '/api/tables'),
  table: (id) => request('GET', `/api/tables/${encodeURIComponent(id)}`),
  invite: (code) => request('GET', `/api/invites/${encodeURIComponent(code)}`),
  createTable: (token, body) => request('POST', '/api/tables', { token, body }),
  quickplay: (token, game = null) =>
    request('POST', '/api/quickplay', game ? { token, body: { game } } : { token }),
  // A private table's records need a seat there (the token) or its invite code.
  record: (table, game) => request('GET', recordPath(table, game), { token: loadSession()?.token }),
  // The same access: every step of the game, and the names of its seats when it started.
  replay: (table, game) => request('GET', recordPath(table, game, 'replay'), { token: loadSession()?.token }),
  balance: (token) => request('GET', '/api/me/balance', { token }),
  transfers: (token) => request('GET', '/api/me/transfers?limit=12', { token }),
  // Passkeys (web/js/passkeys.js turns their options and answers into WebAuthn's forms).
  passkeyOptions: (token = loadSession()?.token) => request('POST', '/api/account/passkeys/options', { token }),
  addPasskey: (body, token = loadSession()?.token) => request('POST', '/api/account/passkeys', { token, body }),
  removePasskey: (id, token = loadSession()?.token) =>
    request('DELETE', `/api/account/passkeys/${encodeURIComponent(id)}`, { token }),
  passkeySignInOptions: () => request('POST', '/api/sign-in/passkey/options'),
  signInWithPasskey: (body) => request('POST', '/api/sign-in/passkey', { body }),
  // The player's finished games, newest first: `{ games, next }` (`next`, the cursor of the
  // page after, or null on the last); `query` is `{ game, before, limit }` (js/game-history.js).
  myGames: (token, query = {}) => request('GET', myGamesPath(query), { token }),
  myStats: (token, game) => request('GET', `/api/games/mine/stats?game=${encodeURIComponent(game)}`, { token }),
  myRatings: (token) => request('GET', '/api/ratings/mine', { token }),
  leaderboard: (game) => request('GET', `/api/leaderboard?days=7&limit=10&game=${encodeURIComponent(game)}`),
  rules: async () => {
    const response = await fetch('/rules.md');
    if (!response.ok) throw new ApiError(response.status, 'The rules are not available');
    return response.text();
  },
};
