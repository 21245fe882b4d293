// Telling two players of one name apart: each account's handle ("Rita#4821", GET /api/handles),
// and the tag shown beside a name ("Rita #4821") where two people at one table share a name
// (the same handle key: case- and look-alike-insensitive). The lookups are kept for the page's
// life; the rest is pure (tests/web/handles.test.mjs).

import { useEffect, useState } from '../vendor/htm-preact-3.1.1.module.js';
import { api } from './api.js';

/** The tag of a handle ("Rita#4821" -> "4821"), or "". */
export function tagOf(handle) {
  const at = typeof handle === 'string' ? handle.lastIndexOf('#') : -1;
  return at < 0 ? '' : handle.slice(at + 1);
}

/** A name with its tag when it has one: "Rita #4821". */
export function shownName(name, tag) {
  return tag ? `${name} #${tag}` : name;
}

/**
 * The tags to show at one table (or one list of seats): `players` are its seats' players
 * (`{ id, name, bot }`, empty seats left out or null), `handles` what GET /api/handles
 * answered (id -> `{ handle, key }`). A player gets a tag (id -> "4821") when another person
 * there has the same key; a bot, or a player whose handle is not known yet, gets none.
 */
export function tagsFor(players, handles) {
  const byKey = new Map();
  for (const player of players) {
    if (!player || player.bot) continue;
    const known = handles.get(player.id);
    if (!known || !known.key) continue;
    const ids = byKey.get(known.key) || new Set();
    ids.add(player.id);
    byKey.set(known.key, ids);
  }
  const tags = new Map();
  for (const ids of byKey.values()) {
    if (ids.size < 2) continue;
    for (const id of ids) {
      const tag = tagOf(handles.get(id).handle);
      if (tag) tags.set(id, tag);
    }
  }
  return tags;
}

/** The people (not bots) of a table's `view` whose handles the tags need. */
export function peopleOf(view) {
  if (!view || !Array.isArray(view.seats)) return [];
  return view.seats.map((s) => s && s.player).filter((p) => p && !p.bot && p.id);
}

/** `view` with each tagged player's name shown with its tag, in the seats and in the game's
 * final standings (which name players by seat), every other part the same (the same object
 * when there is no tag to show). */
export function taggedView(view, tags) {
  if (!view || !tags.size || !Array.isArray(view.seats)) return view;
  const tagOfSeat = view.seats.map((s) => (s && s.player && tags.get(s.player.id)) || '');
  if (!tagOfSeat.some(Boolean)) return view;
  const named = (row, tag) => (tag ? { ...row, name: shownName(row.name, tag) } : row);
  const seats = view.seats.map((s, i) => (tagOfSeat[i] ? { ...s, player: named(s.player, tagOfSeat[i]) } : s));
  const standings = Array.isArray(view.standings)
    ? view.standings.map((row) => (row ? named(row, tagOfSeat[row.seat]) : row))
    : view.standings;
  return { ...view, seats, standings };
}

/** A lobby table's seat (`{ id, name, bot }`) named with its tag, if it has one. */
export function seatNameOf(seat, tags) {
  return shownName(seat.name, seat.id ? tags.get(seat.id) : '');
}

// id -> { handle, key }, or null for an id with no account (a bot, a deleted account).
const known = new Map();
const asking = new Set();
// Only an account's id has a handle (a bot's, or a test's made-up one, has none to ask for).
const ACCOUNT_ID = /^p-[0-9a-f]{16}$/;
const listeners = new Set();
const CHUNK = 50;

/** Ask the server for the handles of `ids` not known yet (a failed lookup is asked again next
 * time); every hook hears when they arrive. */
export async function lookUp(ids) {
  const fresh = [...new Set(ids)].filter((id) => id && !known.has(id) && !asking.has(id));
  for (const id of fresh) if (!ACCOUNT_ID.test(id)) known.set(id, null);
  const missing = fresh.filter((id) => ACCOUNT_ID.test(id));
  if (!missing.length) return;
  for (let at = 0; at < missing.length; at += CHUNK) {
    const part = missing.slice(at, at + CHUNK);
    for (const id of part) asking.add(id);
    try {
      const answer = (await api.handles(part)) || {};
      for (const id of part) known.set(id, answer[id] && answer[id].key ? answer[id] : null);
    } catch {
      // No handles (the server is away): names show without tags, and are asked for again.
    } finally {
      for (const id of part) asking.delete(id);
    }
  }
  for (const listener of listeners) listener();
}

/** The handles known now, of every id asked for so far. */
export function knownHandles() {
  const out = new Map();
  for (const [id, value] of known) if (value) out.set(id, value);
  return out;
}

/** The tags of `players` (as tagsFor), looking up their handles as they come and go. */
export function useTags(players) {
  const ids = players.filter((p) => p && !p.bot && p.id).map((p) => p.id);
  const wanted = [...new Set(ids)].sort().join(',');
  const [, setVersion] = useState(0);
  useEffect(() => {
    const heard = () => setVersion((v) => v + 1);
    listeners.add(heard);
    return () => listeners.delete(heard);
  }, []);
  useEffect(() => {
    if (wanted) lookUp(wanted.split(','));
  }, [wanted]);
  return tagsFor(players, knownHandles());
}
