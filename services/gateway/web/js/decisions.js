// What Euchre and Contract Whist offer alike on a player's turn: an option found by its kind and
// fields, the turn to play a card, and the button that moves on from a result.

/** The option of `kind` whose action has every field of `extra`, if offered. */
export function findOption(options, kind, extra = {}) {
  return options.find(
    (o) => o.action.kind === kind && Object.entries(extra).every(([k, v]) => o.action[k] === v),
  );
}

/** Your turn in a trick: to lead it or to follow. */
export function playDecision(view) {
  const lead = !(view.trick || []).length;
  return { kind: 'play', prompt: lead ? 'Your lead: play a card.' : 'Your turn: play a card.', choices: [] };
}

/** The result on the table, and the one button that deals on (`text`), if offered. */
export function nextDecision(options, prompt, text) {
  const next = findOption(options, 'next_hand');
  if (!next) return null;
  return {
    kind: 'next_hand',
    prompt,
    choices: [{ text, key: 'next', action: next.action, legal: next.legal, reason: next.reason, primary: true }],
  };
}
