// The browser's globals that the client's modules touch, as small in-memory stand-ins.

import { afterEach, beforeEach } from 'node:test';

export class MemoryStorage {
  constructor() {
    this.items = new Map();
  }
  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }
  setItem(key, value) {
    this.items.set(key, String(value));
  }
  removeItem(key) {
    this.items.delete(key);
  }
}

/** A WebSocket that keeps what the client sends; `welcome()` opens it as the gateway would. */
export class FakeSocket {
  static OPEN = 1;
  static opened = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.opened.push(this);
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close() {}
  welcome() {
    this.readyState = FakeSocket.OPEN;
    this.onmessage({ data: JSON.stringify({ type: 'welcome' }) });
  }
}

/** A page at http://swick.test whose sockets are FakeSockets, none opened yet. */
export function fakePage() {
  globalThis.location = { protocol: 'http:', host: 'swick.test' };
  globalThis.WebSocket = FakeSocket;
  FakeSocket.opened = [];
}

/** Every test of the file on a fresh `fakePage()` with an empty localStorage, and no fake
 * fetch left over from the test before. */
export function freshPageEachTest() {
  beforeEach(() => {
    globalThis.localStorage = new MemoryStorage();
    fakePage();
  });
  afterEach(() => {
    delete globalThis.fetch;
  });
}

/** A fetch that answers `status` with `body` as JSON (and `headers`). */
export const answer = (status, body, headers = {}) => async () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
