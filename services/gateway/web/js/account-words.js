// The account's words (js/pages/account.js, js/pages/sign-in.js): codes as typed and as shown,
// a link code's countdown, times as said to a player, the recovery codes' file. Pure
// (tests/web/account.test.mjs).

/** A code as typed (a link code such as "k7qf 9m2x", a recovery code): its letters and digits
 * upper-cased, spaces dropped, dashes kept where typed (the server takes either). */
export function cleanCode(text) {
  return String(text || '')
    .toUpperCase()
    .replace(/\s+/g, '');
}

/** A link code as typed in the URL (#/link/<code>) or a field: "" when it holds nothing. */
export function linkCodeOf(text) {
  return cleanCode(decodeSafely(text)).replace(/[^0-9A-Z-]/g, '');
}

function decodeSafely(text) {
  try {
    return decodeURIComponent(String(text || ''));
  } catch {
    return String(text || '');
  }
}

/** A time the server gives (milliseconds or seconds since 1970, or an ISO date) in
 * milliseconds, or null. */
export function toMs(value) {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return value < 1e11 ? value * 1000 : value;
  const at = Date.parse(String(value));
  return Number.isNaN(at) ? null : at;
}

/** What is left of a code good until `expiresAt` at `now`: `{ ms, expired, text }`, `text`
 * as a clock ("9:05"), `spoken` as words ("9 minutes 5 seconds"). */
export function countdown(expiresAt, now) {
  const until = toMs(expiresAt);
  const ms = until === null ? 0 : Math.max(0, until - now);
  const seconds = Math.ceil(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  const words = [];
  if (minutes) words.push(`${minutes} minute${minutes === 1 ? '' : 's'}`);
  if (rest || !minutes) words.push(`${rest} second${rest === 1 ? '' : 's'}`);
  return {
    ms,
    expired: ms <= 0,
    text: `${minutes}:${String(rest).padStart(2, '0')}`,
    spoken: words.join(' '),
  };
}

/** The minute marks a countdown announces to a screen reader (not every second). */
export function countdownMark(ms) {
  if (ms <= 0) return 'expired';
  if (ms <= 60_000) return 'last minute';
  return null;
}

const UNITS = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
];

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago": how long ago `at` was at `now`;
 * `never` for none. */
export function ago(at, now, never = 'never') {
  const when = toMs(at);
  if (when === null) return never;
  const past = Math.max(0, now - when);
  if (past < 60_000) return 'just now';
  for (const [unit, size] of UNITS) {
    if (past >= size) {
      const count = Math.floor(past / size);
      if (unit === 'day' && count === 1) return 'yesterday';
      return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
    }
  }
  return 'just now';
}

/** A date as a player reads it: "7 Dec 2026". */
export function dateText(at) {
  const when = toMs(at);
  if (when === null) return '';
  return new Date(when).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** A device's kind as shown ("phone" -> "Phone"), "Device" when the server could not tell. */
export function kindText(kind) {
  const text = String(kind || '').trim();
  return text ? text[0].toUpperCase() + text.slice(1) : 'Device';
}

/** The text file of a new set of recovery codes, for `handle`, made at `now`. */
export function recoveryFile(handle, codes, now) {
  const made = new Date(now).toISOString().slice(0, 16).replace('T', ' ');
  return [
    `Swick Online recovery codes for ${handle}`,
    `Made ${made} UTC. Each code signs you in once; making new codes ends these.`,
    'Keep them somewhere safe and private.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/** A data: URL of `text` as a plain text file (downloads need no Blob URL, which the page's
 * Content Security Policy would have to allow). */
export function textFileUrl(text) {
  return `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
}

/** An SVG image (the link's QR code) as a data: URL for an <img>: never markup in the page. */
export function svgImageUrl(svg) {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(String(svg || ''))}`;
}

/** Whether an account can only be reached from this browser: no passkey and no recovery codes
 * (a device link needs another device signed in already). */
export function isGuest(account) {
  return Boolean(account) && !(account.passkeys || []).length && !account.recovery_codes_left;
}

/** The file name of an account's recovery codes. */
export function recoveryFileName(handle) {
  const safe = String(handle || 'account').replace(/[^0-9A-Za-z]+/g, '-').replace(/^-|-$/g, '');
  return `swick-recovery-codes-${safe || 'account'}.txt`;
}

/** Where a player who just signed in goes (a route, or null to stay): to their seat, if they
 * hold one in play; from a link code's page (`page` "link") to the lobby. */
export function landingOf(player, page) {
  if (player.seated && !player.seated_game_over) return `/table/${player.seated}`;
  return page === 'link' ? '/' : null;
}
