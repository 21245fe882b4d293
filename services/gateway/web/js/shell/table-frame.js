// The page round every game's table: the banners, the table's head, what sits above the felt,
// the felt, your dock (the hand and the decision, and the chat button of a small screen), the
// side, the chat sheet, the announcer and the toast. Each game passes its own pieces; how the
// table fits each screen is decided here, once.

import { html, useEffect } from '../../vendor/htm-preact-3.1.1.module.js';
import { ChatSheet } from './chat.js';
import { AwayBanner, ChatOpener, TableVoice, connectionBanner } from './frame.js';

/**
 * On a small screen the dock sits at the bottom: with `measure`, the page keeps room for the
 * dock's height (--dock-h), and the chat sheet sits above it.
 */
export function useDockHeight(mainRef, dockRef, shown, measure) {
  useEffect(() => {
    const main = mainRef.current;
    const dock = dockRef.current;
    if (!measure || !main || !dock || typeof ResizeObserver === 'undefined') return undefined;
    const fit = () => main.style.setProperty('--dock-h', `${Math.ceil(dock.getBoundingClientRect().height)}px`);
    const observer = new ResizeObserver(fit);
    observer.observe(dock);
    fit();
    return () => observer.disconnect();
  }, [shown]);
}

/**
 * `feed` is the table's feed (shell/feed.js), `model` the game's derived view (`phaseText`,
 * `away`, `myTurn`); `refs` the page's `main`, `dock` and chat `opener`; `small` a phone.
 * The game's pieces: `className` and `game` mark the page, `title` names it, `layout` and
 * `area` are the classes of its two columns and its table, `head` follows the phase in the
 * head, `top` comes above the felt, `felt` is the felt, `dockClass` its dock's class, `dockTop`
 * and `dock` go before and after the chat button, `side` beside the table, `over` and `after`
 * above the page (dialogs); `graceMs` is how long the table waits for you when you are away.
 */
export function TableFrame({
  feed,
  model,
  refs,
  small,
  className,
  game,
  title,
  layout,
  area,
  head,
  top = null,
  felt,
  dockClass,
  dockTop = null,
  dock,
  openerClass = 'chat-opener',
  side,
  over = null,
  after = null,
  graceMs,
}) {
  const { app, view, ts, chat, tab, setTab, sendChat, live, toast, act } = feed;
  const banner = connectionBanner(app, view, ts.resync);
  // One notice at a time: the connection's comes first.
  const away = model.away && !banner ? html`<${AwayBanner} graceMs=${graceMs} onBack=${() => act({ kind: 'sit_out', sitting_out: false })} />` : null;
  const sheetOpen = small && tab === 'chat';
  const me = app.session && app.session.id;
  return html`<main id="main" class=${`table-page ${className}`} tabindex="-1" data-game=${game} ref=${refs.main}>
    ${banner}
    ${away}
    ${over}
    <h1 class="visually-hidden">${title}</h1>
    <div class=${layout}>
      <section class=${area} aria-label="The table">
        <div class="table-head">
          <span class="phase-pill">${model.phaseText}</span>
          ${head}
        </div>
        ${top}
        ${felt}
        <div class=${`${dockClass} ${model.myTurn ? 'my-turn' : ''}`} ref=${refs.dock}>
          ${dockTop}
          ${small ? html`<${ChatOpener} className=${openerClass} chat=${chat} open=${sheetOpen} opener=${refs.opener} onToggle=${() => setTab(sheetOpen ? 'log' : 'chat')} />` : null}
          ${dock}
        </div>
      </section>
      ${side}
    </div>
    ${sheetOpen ? html`<${ChatSheet} chat=${chat} send=${sendChat} me=${me} opener=${refs.opener} onClose=${() => setTab('log')} />` : null}
    ${after}
    <${TableVoice} live=${live} toast=${toast} />
  </main>`;
}
