// The table's words, the same for every game: which game a frame belongs to, which lines of a
// change go to the hand log, which sound a change makes. Pure (tests/web/shell.test.mjs).

/** The cues a change may sound, the first that any line of it asks for winning. */
export const SOUNDS = ['turn', 'win', 'set', 'deal', 'card'];

const gameOf = (view) => view.game || 'swick';

/** The game of another table a frame speaks of (a page of its own shows it), or null. */
export function foreignGame(frame, game) {
  const views = frame.type === 'history' ? frame.views || [] : frame.view ? [frame.view] : [];
  const other = views.find((view) => view && gameOf(view) !== game);
  return other ? gameOf(other) : null;
}

/** The lines of a change the hand log keeps (some are only announced, as "Your turn."). */
export function logEntries(said) {
  return said.filter((line) => line.logged !== false);
}

/**
 * The lines of a game that words its changes as plain sentences (Euchre, Contract Whist): your
 * turn is announced, not logged, and sounds as such; a trick taken sounds a win; the rest a card.
 */
export function spokenLines(texts) {
  return texts.map((text) =>
    text === 'Your turn.'
      ? { text, sound: 'turn', logged: false }
      : { text, sound: text.includes('take') && text.includes('trick') ? 'win' : 'card' },
  );
}

/** A seat as the table names it to you. */
export function whoIs(seat) {
  return seat.isMe ? 'You' : seat.name;
}
