// The table page's frame, the same for every game: the gate before there is a table (not found,
// or joining), the connection's banner, the away banner, the chat button of a small screen, the
// announcer and the toast, and the game-over panel's seed and links.

import { html } from '../../vendor/htm-preact-3.1.1.module.js';
import { forfeitText } from '../forfeit.js';

/** Before the table is in view: the reason it is missing, or the wait while it comes. */
export function TableGate({ missing, banner }) {
  if (missing) {
    return html`<main id="main" class="table-page" tabindex="-1">
      <section class="panel gate-panel"><h1>Table not found</h1><p class="error">${missing}</p><a class="button" href="#/">Back to the lobby</a></section>
    </main>`;
  }
  return html`<main id="main" class="table-page" tabindex="-1">
    ${banner}
    <div class="loading"><span class="spinner" aria-hidden="true"></span> Joining the table…</div>
  </main>`;
}

/** The connection's state, when it is not simply open: the first connection is no loss; a later
 * one shows the banner until the table is back. */
export function connectionBanner(app, view, resync) {
  const retry = () => app.conn() && app.conn().retry();
  if (app.status.state === 'replaced') {
    return html`<div class="banner" role="alert">
      <span>This table is open in another tab or window.</span>
      <button type="button" class="small" onClick=${retry}>Use it here</button>
    </div>`;
  }
  const offline = app.status.state === 'offline' || (app.status.state === 'connecting' && view !== null);
  if (offline) {
    const at = app.status.retryAt;
    return html`<div class="banner" role="alert">
      <span>Connection lost. ${at ? `Reconnecting in ${Math.max(0, Math.ceil((at - Date.now()) / 1000))} s…` : 'Reconnecting…'}</span>
      <button type="button" class="small" onClick=${retry}>Retry now</button>
    </div>`;
  }
  return view && resync ? html`<div class="banner ok" role="status">Reconnected: catching up with the table…</div>` : null;
}

/** You are away: the table plays your turns after a grace; one button brings you back. */
export function AwayBanner({ graceMs, onBack }) {
  return html`<div class="banner away-banner" role="alert">
    <span>You are away: on your turn the table plays the default for you after ${Math.round((graceMs || 3000) / 1000)} s.</span>
    <button type="button" class="primary" onClick=${onBack}>I'm back</button>
  </div>`;
}

/** On a small screen, the button that opens the chat sheet, with the messages not yet read. */
export function ChatOpener({ chat, open, onToggle, opener, className = 'chat-opener' }) {
  return html`<button type="button" class=${className} ref=${opener} aria-expanded=${open ? 'true' : 'false'} onClick=${onToggle}>
    Chat${chat.unread ? html` <span class="unread">${chat.unread}<span class="visually-hidden"> unread</span></span>` : null}</button>`;
}

/** What the table says to a screen reader, and the toast of a refused move. */
export function TableVoice({ live, toast }) {
  return html`<div class="visually-hidden" aria-live="polite" aria-atomic="true" id="announcer">${live}</div>
    ${toast ? html`<div class=${`toast ${toast.kind}`} role=${toast.kind === 'error' ? 'alert' : 'status'}>${toast.text}</div>` : null}`;
}

/** The end of a game: its seed revealed, and the ways to check it and to watch it again. */
export function SeedLinks({ table, gameNo, seed, dealt }) {
  if (!seed) return null;
  return html`<p class="small">Seed: <code class="wrap seed">${seed}</code></p>
    <p class="small"><a href=${`#/verify/${encodeURIComponent(table)}/${gameNo}`}>Verify this game</a>: ${dealt}</p>
    <p class="small"><a href=${`#/replay/${encodeURIComponent(table)}/${gameNo}`}>Watch the replay</a>: every step, every hand shown.</p>`;
}

/** A hand's result on a plaque table, over the felt. */
export function ResultFrame({ id, className = '', title, children }) {
  return html`<section class=${`eu-result panel ${className}`} aria-labelledby=${id} role="status">
    <h2 id=${id}>${title}</h2>
    ${children}
  </section>`;
}

/**
 * The ways on from a game's end, for every game: Play again (the host deals a new game at this
 * table, with a new seed, to everyone seated, bots included) and Back to the lobby (the seat is
 * left). Whoever cannot start the next game is told why; a spectator only goes back.
 * `start` is the host's start control where the game has one (`{ legal, reason }`).
 */
export function GameOverActions({ view, start = null, onStart, onLeave, children = null }) {
  if (view.seat === null || view.seat === undefined) {
    return html`<div class="form-actions over-actions">${children}<a class="button" href="#/">Back to the lobby</a></div>`;
  }
  const host = view.host === null || view.host === undefined ? null : view.seats[view.host];
  const hostName = host && host.player ? host.player.name : null;
  const why =
    view.host !== view.seat
      ? `Only the host${hostName ? `, ${hostName},` : ''} can start the next game.`
      : start && !start.legal
        ? start.reason
        : '';
  return html`<div class="form-actions over-actions">
    <button type="button" class="primary" onClick=${onStart} disabled=${Boolean(why)} aria-describedby=${why ? 'over-why' : null}>Play again</button>
    ${children}
    <button type="button" onClick=${() => onLeave(false)}>Back to the lobby</button>
    ${why ? html`<p class="small muted over-why" id="over-why">${why}</p>` : null}
  </div>`;
}

/** A plaque table's game over: who won, what a forfeit cost, the seed and its links, and the
 * ways on; `children` are the game's own lines. */
export function GameOverFrame({ id, className = '', winner, model, table, dealt, onStart, onLeave, children }) {
  const forfeit = forfeitText(model.view, model.me);
  return html`<section class=${`eu-result panel game-over ${className}`} aria-labelledby=${id}>
    <h2 id=${id}>Game over</h2>
    <p class="eu-winner">${winner || 'The game ended.'}</p>
    ${forfeit ? html`<p class="forfeit">${forfeit}</p>` : null}
    ${children}
    <${SeedLinks} table=${table} gameNo=${model.gameNo} seed=${model.seed} dealt=${dealt} />
    <${GameOverActions} view=${model.view} onStart=${onStart} onLeave=${onLeave} />
  </section>`;
}
