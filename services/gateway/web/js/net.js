// The WebSocket to the gateway (docs/protocol.md): one per page, reconnecting with backoff.
//
// Every client message gets an id unique across reconnects (a random prefix per page load and a
// counter), because the server treats a repeated id as a replay. `send` resolves with the
// server's `ack` or `reject` for that id (or a local reject when the socket is down). A move
// (`act`, `join`) already sent waits through a reconnect instead, and is sent again.

const randomHex = (bytes) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');

export const PAGE_ID = randomHex(6);
let counter = 0;
export const nextId = () => `${PAGE_ID}-${(counter += 1)}`;

const PING_EVERY = 20_000;
const PING_PATIENCE = 10_000;
const STABLE_AFTER = 15_000; // a connection this old counts as healthy: the backoff starts over
export const REPLACED = 4409; // the server's close code for "this player connected elsewhere"
export const UNAUTHORIZED = 4401; // "this token is not (or no longer) valid: sign in again"
// Messages that change a table: sent again after a reconnect until answered.
const RESENT = new Set(['act', 'join']);

/** What a closed socket calls for: 'sign-in' (the token was refused: reconnecting with it would
 * be refused forever), 'wait' (another tab took over) or 'reconnect'. */
export function afterClose(code) {
  if (code === UNAUTHORIZED) return 'sign-in';
  if (code === REPLACED) return 'wait';
  return 'reconnect';
}

export const BACKOFF_FIRST = 500;
export const BACKOFF_MAX = 2_000; // a gateway back from a restart is found within ~2 s

/** The delay before reconnect attempt `attempt` (0, 1, 2...): 0.5 s doubling to 2 s, each
 * jittered down to half of it (so that the pages of a restarted gateway do not all come back
 * at once), never more than 2 s. */
export function backoff(attempt, random = Math.random) {
  const base = Math.min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** Math.max(0, attempt));
  return Math.round(base * (0.5 + random() / 2));
}

export class Connection {
  constructor(token, { onFrame = () => {}, onStatus = () => {} } = {}) {
    this.token = token;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.socket = null;
    this.pending = new Map(); // id -> resolve
    // Moves sent but not answered when the socket closed: sent again, same id, once it is back
    // (a table applies an id once, so a move is neither lost nor made twice).
    this.unanswered = new Map(); // id -> message
    this.attempt = 0;
    this.timer = null;
    this.pinger = null;
    this.stable = null;
    this.stopped = false;
    this.status = { state: 'connecting', retryAt: null, welcome: null };
  }

  setStatus(patch) {
    this.status = { ...this.status, ...patch };
    this.onStatus(this.status);
  }

  start() {
    this.stopped = false;
    this.open();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.stable);
    clearInterval(this.pinger);
    if (this.socket) this.socket.close();
    this.socket = null;
  }

  /** Reconnect now (the banner's "Retry now"). */
  retry() {
    clearTimeout(this.timer);
    if (!this.socket) this.open();
  }

  open() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const url = `${scheme}://${location.host}/ws?token=${encodeURIComponent(this.token)}`;
    this.setStatus({ state: 'connecting', retryAt: null });
    let socket;
    try {
      socket = new WebSocket(url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      clearInterval(this.pinger);
      clearTimeout(this.stable);
      const next = afterClose(event.code);
      this.failPending(next !== 'reconnect');
      if (next === 'sign-in') {
        this.setStatus({ state: 'unauthorized', retryAt: null });
        return;
      }
      if (next === 'wait') {
        this.setStatus({ state: 'replaced', retryAt: null });
        return; // another tab took over: wait for the player to take it back
      }
      if (!this.stopped) this.scheduleReconnect();
    };
  }

  scheduleReconnect() {
    const delay = backoff(this.attempt);
    this.attempt += 1;
    this.setStatus({ state: 'offline', retryAt: Date.now() + delay });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), delay);
  }

  /** Answer what waits with a local reject, but for the moves kept to send again (unless
   * `all`: the socket will not come back by itself). */
  failPending(all = false) {
    for (const [id, resolve] of this.pending) {
      if (!all && this.unanswered.has(id)) continue;
      this.unanswered.delete(id);
      this.pending.delete(id);
      resolve({ type: 'reject', id, code: 'offline', message: 'Not connected: trying again…' });
    }
  }

  resendUnanswered() {
    for (const message of this.unanswered.values()) this.socket.send(JSON.stringify(message));
  }

  receive(data) {
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    if (frame.type === 'welcome') {
      // The backoff starts over only once the connection has held for a while, so that two
      // tabs of one player that keep replacing each other slow down instead of spinning.
      clearTimeout(this.stable);
      this.stable = setTimeout(() => {
        this.attempt = 0;
      }, STABLE_AFTER);
      this.setStatus({ state: 'open', retryAt: null, welcome: frame });
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.ping(), PING_EVERY);
      this.resendUnanswered();
    }
    if ((frame.type === 'ack' || frame.type === 'reject') && frame.id && this.pending.has(frame.id)) {
      const resolve = this.pending.get(frame.id);
      this.pending.delete(frame.id);
      this.unanswered.delete(frame.id);
      resolve(frame);
    }
    this.onFrame(frame);
  }

  async ping() {
    const answer = await Promise.race([
      this.send({ type: 'ping' }),
      new Promise((resolve) => setTimeout(() => resolve(null), PING_PATIENCE)),
    ]);
    if (answer === null && this.socket) this.socket.close(); // a dead socket: reconnect
  }

  /** Send a message; resolves with its ack or reject. */
  send(message) {
    const full = { seq: 0, ...message, id: nextId() };
    return new Promise((resolve) => {
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
        resolve({ type: 'reject', id: full.id, code: 'offline', message: 'Not connected: trying again…' });
        return;
      }
      this.pending.set(full.id, resolve);
      if (RESENT.has(full.type)) this.unanswered.set(full.id, full);
      this.socket.send(JSON.stringify(full));
    });
  }
}
