// The table's chat, the same for every game: the messages and the form, and on a small screen
// a sheet above the decision.

import { html, useEffect, useRef, useState } from '../../vendor/htm-preact-3.1.1.module.js';

export function Chat({ lines, send, me }) {
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const logRef = useRef(null);
  useEffect(() => {
    if (logRef.current) logRef.current.scrollTop = logRef.current.scrollHeight;
  }, [lines.length]);
  const submit = async (event) => {
    event.preventDefault();
    const clean = text.trim();
    if (!clean) return;
    const answer = await send(clean);
    if (answer.type === 'reject') setError(answer.message);
    else {
      setError('');
      setText('');
    }
  };
  return html`<div class="chat">
    <div class="chat-log" role="log" aria-label="Table chat" tabindex="0" ref=${logRef}><ol class="chat-lines">
      ${lines.length
        ? lines.map(
            (line) => html`<li class=${line.player === me ? 'mine' : ''}>
              <span class="chat-name">${line.name}</span> <span class="chat-text">${line.text}</span>
            </li>`,
          )
        : html`<li class="muted">No messages yet. Be nice!</li>`}
    </ol></div>
    <form class="chat-form" onSubmit=${submit}>
      <label class="visually-hidden" for="chat-input">Message the table</label>
      <input id="chat-input" maxlength="280" value=${text} placeholder="Say something…" autocomplete="off" onInput=${(e) => setText(e.target.value)} />
      <button type="submit" class="small">Send</button>
    </form>
    ${error ? html`<p class="error small" role="alert">${error}</p>` : null}
    <p class="hint">Up to 280 characters; a few messages at a time.</p>
  </div>`;
}

// Phones, upright or on their side: the decision bar is docked at the bottom of the screen and
// chat opens as a sheet above it (styles.css uses the same query).
const SMALL_SCREEN = '(max-width: 760px), (max-height: 500px)';

export function useSmallScreen() {
  const [small, setSmall] = useState(() => window.matchMedia(SMALL_SCREEN).matches);
  useEffect(() => {
    const query = window.matchMedia(SMALL_SCREEN);
    const change = () => setSmall(query.matches);
    query.addEventListener('change', change);
    change();
    return () => query.removeEventListener('change', change);
  }, []);
  return small;
}

/** Chat on a small screen: a sheet above the decision bar, so the decision stays in reach.
 * Focus moves into it, and back to where it was (or the Chat button) when it closes. */
export function ChatSheet({ chat, send, me, onClose, opener }) {
  useEffect(() => {
    const before = document.activeElement;
    const input = document.getElementById('chat-input');
    if (input) input.focus();
    return () => {
      const back = before && before !== document.body && before.isConnected ? before : opener.current;
      if (back && back.focus) back.focus();
    };
  }, []);
  const key = (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  };
  return html`<div class="chat-sheet" role="dialog" aria-labelledby="chat-sheet-title" onKeyDown=${key}>
    <div class="chat-sheet-head">
      <h2 id="chat-sheet-title">Chat</h2>
      <button type="button" class="icon-button small" aria-label="Close the chat" onClick=${onClose}>×</button>
    </div>
    <${Chat} lines=${chat.lines} send=${send} me=${me} />
  </div>`;
}
