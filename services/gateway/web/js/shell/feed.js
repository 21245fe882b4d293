// The table's feed, the same for every game: watching the table whenever the socket (re)opens,
// each frame applied to the view, the chat, the hand log and the announcements worded by the
// game's own words, a finished trick kept on show a while, and the moves sent to the table.
// Each game's page passes its words (`game`, below); everything else is written here once.

import { useCallback, useEffect, useMemo, useRef, useState } from '../../vendor/htm-preact-3.1.1.module.js';
import { rememberInvite } from '../api.js';
import { go, useApp } from '../context.js';
import { peopleOf, taggedView, useTags } from '../handles.js';
import { buzz, play as playSound } from '../sound.js';
import { applyFrame, markStale, mergeChat, mergeLog, newTableState } from '../state.js';
import { SOUNDS, foreignGame, logEntries, ranOutForYou, secondsLeftWords, warningDelay } from './words.js';

const WATCH_TRIES = 40;
const TOAST_MS = 4500;

/**
 * `game` says what differs between games (only `name` and `said` are needed):
 * - `name`: the game's name in its views ('swick', 'euchre', 'contract-whist');
 * - `said(prev, next)`: what the change from view `prev` (or null) to `next` says, as
 *   `{ text, sound?, logged? }` lines (`logged: false`: announced, not logged);
 * - `history(views)`: after a reload, the log's lines from the views so far (`{ before, after }`,
 *   state.js mergeLog), or nothing;
 * - `trickTaken(prev, next)`: the trick a change finished, `{ cards, winner, ms }`, or null;
 * - `since(state)`: the `seq` to watch from; `changed(prev, next)`: anything else to note;
 * - `prepare(action)`: an action as sent; `acted()`: after the table took a move.
 */
export function useTableFeed({ table, invite, autoJoin, onGame, game }) {
  const app = useApp();
  const words = useRef(game);
  words.current = game;
  const [ts, setTs] = useState(() => newTableState(table));
  const tsRef = useRef(ts);
  const [missing, setMissing] = useState('');
  const [log, setLog] = useState([]);
  const [live, setLive] = useState('');
  const [chat, setChat] = useState({ lines: [], unread: 0 });
  const [tab, setTab] = useState('log');
  const [toast, setToast] = useState(null);
  const [flash, setFlash] = useState(null);
  const [joining, setJoining] = useState(autoJoin);
  const logId = useRef(0);
  const tabRef = useRef(tab);
  tabRef.current = tab;
  // Two people of one name at the table: each shown with the tag of their handle, in the
  // view every game draws and in the words said of it.
  const tags = useTags(peopleOf(ts.view));
  const tagsRef = useRef(tags);
  tagsRef.current = tags;
  const tagKey = [...tags].map(([id, tag]) => `${id}#${tag}`).join(',');
  const view = useMemo(() => taggedView(ts.view, tags), [ts.view, tagKey]);
  const toEntry = (s) => ({ id: (logId.current += 1), text: s.text, base: s.base });

  useEffect(() => {
    if (invite) rememberInvite(table, invite);
  }, [table, invite]);

  const showToast = useCallback((text, kind = 'error') => setToast({ text, kind, at: Date.now() }), []);
  useEffect(() => {
    if (!toast) return undefined;
    const timer = setTimeout(() => setToast(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast]);

  // Frames from the socket.
  useEffect(
    () =>
      app.onFrame((frame) => {
        if (frame.table !== table) return;
        const w = words.current;
        // Another game's table has a page of its own.
        const other = foreignGame(frame, w.name);
        if (other && onGame) {
          onGame(other);
          return;
        }
        if (frame.type === 'chat') {
          setChat((c) => {
            const merged = mergeChat(c.lines, [frame]);
            return merged.added ? { lines: merged.lines, unread: tabRef.current === 'chat' ? 0 : c.unread + merged.added } : c;
          });
          return;
        }
        if (frame.type === 'history') {
          // After a reload or a reconnect: the chat and the hand log so far, each line once.
          setChat((c) => ({ ...c, lines: mergeChat(c.lines, frame.chat || []).lines }));
          const lines = w.history ? w.history((frame.views || []).map((v) => taggedView(v, tagsRef.current))) : null;
          if (lines && (lines.before.length || lines.after.length)) setLog((entries) => mergeLog(entries, lines, toEntry));
          return;
        }
        if (frame.type !== 'snapshot' && frame.type !== 'update') return;
        const before = tsRef.current;
        const r = applyFrame(before, frame);
        if (r.sync) app.send({ type: 'sync', table, seq: before.seq });
        tsRef.current = r.state;
        if (!r.changed) return;
        setTs(r.state);
        setMissing('');
        const prev = taggedView(before.view, tagsRef.current);
        const next = taggedView(r.state.view, tagsRef.current);
        const said = w.said(prev, next);
        if (said.length) {
          setLog((entries) => [...entries.slice(-200), ...logEntries(said).map(toEntry)]);
          setLive(said.map((s) => s.text).join(' '));
          const sound = SOUNDS.find((cue) => said.some((s) => s.sound === cue));
          if (sound) playSound(sound);
          // What the table did for you when your time ran out is shown, not only logged.
          const forYou = ranOutForYou(said);
          if (forYou) setToast({ text: forYou, kind: 'info', at: Date.now() });
        }
        if (w.changed) w.changed(prev, next);
        const taken = prev && w.trickTaken ? w.trickTaken(prev, next) : null;
        if (taken) setFlash({ cards: taken.cards, winner: taken.winner, until: Date.now() + taken.ms });
      }),
    [table],
  );

  // Your decision's last seconds: a sound, a buzz where the device has one, and the words.
  const warnIn = warningDelay(view, Date.now());
  useEffect(() => {
    if (warnIn === null) return undefined;
    const timer = setTimeout(() => {
      // The words first: the sound and the buzz are extras a browser may refuse.
      setLive(secondsLeftWords(view.deadline - Date.now()));
      playSound('warning');
      buzz(200);
    }, warnIn);
    return () => clearTimeout(timer);
  }, [view && view.deadline, warnIn === null]);

  // A finished trick stays on show until its time is up.
  useEffect(() => {
    if (!flash) return undefined;
    const timer = setTimeout(() => setFlash(null), Math.max(0, flash.until - Date.now()));
    return () => clearTimeout(timer);
  }, [flash]);

  // Watch the table whenever the socket (re)opens; the snapshot follows.
  useEffect(() => {
    if (app.status.state !== 'open') {
      if (tsRef.current.view) {
        tsRef.current = markStale(tsRef.current);
        setTs(tsRef.current);
      }
      return undefined;
    }
    let cancelled = false;
    (async () => {
      for (let attempt = 0; attempt < WATCH_TRIES && !cancelled; attempt++) {
        // With the table named, retries while a new table is created are not wrong guesses.
        const since = words.current.since;
        const seq = since ? since(tsRef.current) : tsRef.current.seq || 0;
        const message = invite ? { type: 'watch', table, invite, seq } : { type: 'watch', table, seq };
        const answer = await app.send(message);
        if (answer.type === 'ack' || answer.code === 'offline') return;
        if (answer.code !== 'no_table' && answer.code !== 'rate_limited') {
          setMissing(answer.message);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 250)); // a new table may be on its way
      }
      if (!cancelled) setMissing('There is no such table (or the invite is wrong).');
    })();
    return () => {
      cancelled = true;
    };
  }, [app.status.state, app.status.welcome, table, invite]);

  // Leaving the page: stop watching (a seat stays a seat).
  useEffect(() => () => app.send({ type: 'unwatch', table }), [table]);

  const act = useCallback(
    async (chosen) => {
      if (!chosen) return null;
      const w = words.current;
      const action = w.prepare ? w.prepare(chosen) : chosen;
      for (let tries = 0; tries < 5; tries++) {
        const answer = await app.send({ type: 'act', table, seq: tsRef.current.seq, action });
        // "duplicate": a move sent again after a reconnect had been made the first time.
        if (answer.type === 'ack' || answer.code === 'duplicate') {
          if (words.current.acted) words.current.acted();
          return answer;
        }
        if (answer.code === 'rate_limited') {
          await new Promise((resolve) => setTimeout(resolve, 300));
          continue;
        }
        // Offline: the connection banner says so already; a toast would cover it.
        if (answer.code !== 'offline') showToast(answer.message);
        return answer;
      }
      return null;
    },
    [table],
  );

  const join = useCallback(
    async (seat = null) => {
      const answer = await app.send({ type: 'join', table, seat });
      if (answer.type === 'reject' && !['duplicate', 'offline'].includes(answer.code)) showToast(answer.message);
      return answer;
    },
    [table],
  );

  // Arriving from "Join" or an invite's "Take a seat": sit down once the table is in view.
  useEffect(() => {
    if (!joining || !view) return;
    setJoining(false);
    if (view.seat === null) join(null);
  }, [joining, view]);

  useEffect(() => {
    if (tab === 'chat') setChat((c) => (c.unread ? { ...c, unread: 0 } : c));
  }, [tab]);

  const sendChat = useCallback((text) => app.send({ type: 'chat', table, text }), [table]);

  // Leaving: between hands the seat is vacated at once and the lobby opens; during a hand the
  // seat leaves when the hand ends, and the page stays on the table until then.
  const leave = useCallback(
    async (inPlay) => {
      const answer = await act({ kind: 'leave' });
      if (answer && answer.type === 'ack' && !inPlay) go('/');
      return answer;
    },
    [act],
  );

  return { app, ts, view, missing, log, live, chat, tab, setTab, toast, showToast, flash, act, join, leave, sendChat };
}
