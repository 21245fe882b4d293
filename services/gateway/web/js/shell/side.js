// The side of a plaque table (Euchre, Contract Whist): the game, leaving and ending it (a staked
// game's forfeit said and confirmed first), the invite, and the hand log and chat in tabs.

import { html, useEffect, useRef, useState } from '../../vendor/htm-preact-3.1.1.module.js';
import { ConfirmCost, endCost, leaveCost } from '../forfeit.js';
import { Chat } from './chat.js';

/** The hand log, oldest first, kept scrolled to the newest line. */
export function HandLog({ log }) {
  const ref = useRef(null);
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [log.length]);
  return html`<ol class="eu-log" tabindex="0" aria-label="Hand log" ref=${ref}>
    ${log.length ? log.slice(-80).map((e) => html`<li key=${e.id}>${e.text}</li>`) : html`<li class="muted">Nothing yet.</li>`}
  </ol>`;
}

/**
 * `title` and `about` say what game this is; `inPlay` whether a hand (`unit`) is under way;
 * `feed` is the table's feed (shell/feed.js), `invite` the table's invite, `small` a phone.
 */
export function TableSide({ title, about, model, view, inPlay, unit, feed, invite, small }) {
  const { act, log, chat, tab, setTab, sendChat, app } = feed;
  const leave = () => feed.leave(inPlay);
  // `{ what: 'leave' | 'end', gameNo }` while that cost shows; a later game never shows it.
  const [confirming, setConfirming] = useState(null);
  const endGame = () => act({ kind: 'end_game' });
  // Leaving or ending a staked game forfeits: the cost is said, and confirmed, first.
  const costs = { leave: leaveCost(view, model.me), end: endCost(view, model.me) };
  const ask = (what, run) => () => (costs[what] ? setConfirming({ what, gameNo: view.game_no }) : run());
  const asking = confirming && confirming.gameNo === view.game_no && costs[confirming.what] ? confirming.what : null;
  const confirmed = () => {
    const what = asking;
    setConfirming(null);
    if (what === 'leave') leave();
    else if (what === 'end') endGame();
  };
  const canEnd = model.isHost && (model.phase === 'interlude' || model.phase === 'waiting');
  const inviteLink = invite ? `${location.origin}${location.pathname}#/join/${encodeURIComponent(invite)}` : '';
  // Alone with bots, an invite is clutter.
  const solo = model.seats.every((s) => s.isMe || s.bot);
  const me = app.session && app.session.id;
  return html`<aside class="side-panel eu-side" aria-label="Table details">
    <section class="panel info">
      <h2>${title}</h2>
      <p class="small muted">${about}</p>
      ${!model.spectator
        ? html`<button type="button" class="small" onClick=${ask('leave', leave)}>${inPlay ? `Leave after this ${unit}` : 'Leave table'}</button>`
        : null}
      ${canEnd ? html`<button type="button" class="small" onClick=${ask('end', endGame)}>End game</button>` : null}
      ${asking
        ? html`<${ConfirmCost}
            id="forfeit"
            text=${costs[asking]}
            confirmLabel=${asking === 'leave' ? 'Leave and forfeit' : 'End and forfeit'}
            onConfirm=${confirmed}
            onCancel=${() => setConfirming(null)}
          />`
        : null}
      ${inviteLink && !solo
        ? html`<div class="invite">
            <label for="invite-link">Invite link</label>
            <div class="row">
              <input id="invite-link" readonly value=${inviteLink} onFocus=${(e) => e.target.select()} />
              <button type="button" class="small" onClick=${() => navigator.clipboard && navigator.clipboard.writeText(inviteLink).catch(() => {})}>Copy</button>
            </div>
          </div>`
        : null}
    </section>
    <section class="panel">
      <div class="tabs" role="tablist" aria-label="Hand log and chat">
        <button type="button" role="tab" id="eu-tab-log" aria-controls="eu-pane-log" aria-selected=${small || tab === 'log' ? 'true' : 'false'} onClick=${() => setTab('log')}>Log</button>
        ${small
          ? null
          : html`<button type="button" role="tab" id="eu-tab-chat" aria-controls="eu-pane-chat" aria-selected=${tab === 'chat' ? 'true' : 'false'} onClick=${() => setTab('chat')}>
              Chat${chat.unread ? html` <span class="unread">${chat.unread}<span class="visually-hidden"> unread</span></span>` : null}
            </button>`}
      </div>
      ${tab === 'chat' && !small
        ? html`<div role="tabpanel" id="eu-pane-chat" aria-labelledby="eu-tab-chat"><${Chat} lines=${chat.lines} send=${sendChat} me=${me} /></div>`
        : html`<div role="tabpanel" id="eu-pane-log" aria-labelledby="eu-tab-log"><${HandLog} log=${log} /></div>`}
    </section>
  </aside>`;
}
