// The table's keyboard, the same for every game: the arrow keys along your hand, the focus put
// on your decision when your turn comes, and the shortcuts (digits take the decision's buttons,
// H the hand, D the decision, C the chat; a page may add keys of its own).

import { useEffect, useRef, useState } from '../../vendor/htm-preact-3.1.1.module.js';

const TYPING = 'input, textarea, select, [contenteditable]';

/**
 * Your hand as one tab stop: ←/↑ and →/↓ move along its `count` cards (round the end), Home
 * and End to its ends; any other key goes to `onKey`. `focused` is the card that takes Tab.
 */
export function useHandKeys(count, handRef, onKey) {
  const [focus, setFocus] = useState(0);
  const focused = Math.min(focus, Math.max(0, count - 1));
  const keyDown = (event) => {
    const moves = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
    let next = null;
    if (event.key in moves) next = (focused + moves[event.key] + count) % count;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = count - 1;
    if (next !== null) {
      event.preventDefault();
      setFocus(next);
      const buttons = handRef.current ? handRef.current.querySelectorAll('.hand-card') : [];
      if (buttons[next]) buttons[next].focus();
      return;
    }
    onKey(event);
  };
  return { focused, setFocus, keyDown };
}

/**
 * Your turn: focus goes to the decision (`target()`: its first legal card, or its first
 * button), unless you are typing, so a keyboard player acts at once and chat keeps its text.
 * A new decision (`decisionKey`) asks for focus until its controls are on the page (they may
 * come a render later) and no dialog is open; focus placed there that falls to the page because
 * its element was re-rendered away goes back. Focus already inside `keep` (a selector) stays.
 */
export function useTurnFocus(decisionKey, myTurn, target, keep = null) {
  const wanted = useRef(false);
  const placed = useRef(null);
  useEffect(() => {
    wanted.current = myTurn;
  }, [decisionKey, myTurn]);
  useEffect(() => {
    const moved = (event) => {
      if (event.target !== placed.current) placed.current = null;
    };
    document.addEventListener('focusin', moved);
    return () => document.removeEventListener('focusin', moved);
  }, []);
  useEffect(() => {
    if (!myTurn) return;
    const fell = placed.current && !placed.current.isConnected && document.activeElement === document.body;
    if (!wanted.current && !fell) return;
    requestAnimationFrame(() => {
      const active = document.activeElement;
      const inside = (selector) => Boolean(active && active.closest && active.closest(selector));
      if (inside('input, textarea, select') || (keep && inside(keep) && active.isConnected)) {
        wanted.current = false; // typing, or already at the decision: the focus stays
        return;
      }
      if (inside('[role="dialog"]')) return; // asked again once the dialog closes
      const element = target();
      if (!element) return;
      element.focus();
      wanted.current = false;
      placed.current = element;
    });
  });
}

/**
 * The table's shortcuts. `decision` selects the decision's box (its enabled buttons go by
 * number, 1 the first; a button with `data-digit` takes its own digit), `hand` the hand,
 * `onChat` opens the chat; `keys` maps a page's own keys (lower case) to what they do, and
 * comes first. While a modal dialog is open only the page's own keys work.
 */
export function useTableKeys({ decision, hand, onChat, keys = {} }) {
  const latest = useRef(null);
  latest.current = { decision, hand, onChat, keys };
  useEffect(() => {
    const key = (event) => {
      const typing = event.target.closest && event.target.closest(TYPING);
      if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
      const { decision: box, hand: cards, onChat: chat, keys: own } = latest.current;
      const name = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      if (own[name]) {
        event.preventDefault();
        own[name]();
        return;
      }
      if (document.querySelector('[role="dialog"][aria-modal="true"]')) return;
      const controls = () => [...document.querySelectorAll(`${box} button:not([disabled])`)];
      if (/^[0-9]$/.test(name)) {
        const digit = Number(name);
        const mine = document.querySelector(`${box} button[data-digit="${digit}"]`);
        const button = mine || (digit ? controls()[digit - 1] : null);
        if (button) {
          event.preventDefault();
          if (!button.disabled) button.click();
        }
        return;
      }
      const target =
        name === 'h'
          ? document.querySelector(`${cards} .hand-card.legal`) || document.querySelector(`${cards} .hand-card`)
          : name === 'd'
            ? controls()[0]
            : null;
      if (target) {
        event.preventDefault();
        target.focus();
      } else if (name === 'c' && chat) {
        event.preventDefault();
        chat();
        requestAnimationFrame(() => document.getElementById('chat-input')?.focus());
      }
    };
    window.addEventListener('keydown', key);
    return () => window.removeEventListener('keydown', key);
  }, []);
}
