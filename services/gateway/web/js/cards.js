// The 32-card Swick deck, as the server and docs/fairness.md number it.
// A card is suit * 8 + rank: suits ♣ 0, ♦ 1, ♥ 2, ♠ 3; ranks 7 = 0 ... A = 7.
// On the wire a card is a code: rank then suit letter ("7C", "10D", "AS").

export const RANKS = ['7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
export const SUIT_LETTERS = ['C', 'D', 'H', 'S'];
export const SUIT_SYMBOLS = ['♣', '♦', '♥', '♠'];
export const SUIT_NAMES = ['clubs', 'diamonds', 'hearts', 'spades'];
export const RANK_NAMES = ['seven', 'eight', 'nine', 'ten', 'jack', 'queen', 'king', 'ace'];

export const CODES = SUIT_LETTERS.flatMap((suit) => RANKS.map((rank) => rank + suit));
const BY_CODE = new Map(CODES.map((code, number) => [code, number]));

// The full 52-card deck (Contract Whist): the same codes with ranks 2 to 6 too. Drawing, naming
// and suits work for any of its cards; card numbers (cardNumber) stay the 32-card deck's.
export const FULL_RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
const FULL_RANK_NAMES = ['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'jack', 'queen', 'king', 'ace'];

/** The rank (0 = 2 ... 12 = A) of any 52-card code, or -1. */
export function fullRankIndex(code) {
  if (typeof code !== 'string' || code.length < 2) return -1;
  return FULL_RANKS.indexOf(code.trim().slice(0, -1).toUpperCase());
}

/** The card number (0..31) of a code such as "10D", or -1. */
export function cardNumber(code) {
  if (typeof code !== 'string') return -1;
  const number = BY_CODE.get(code.trim().toUpperCase());
  return number === undefined ? -1 : number;
}

export function cardCode(number) {
  return CODES[number];
}

export function suitIndex(code) {
  if (typeof code !== 'string' || fullRankIndex(code) < 0) return -1;
  return SUIT_LETTERS.indexOf(code.trim().slice(-1).toUpperCase());
}

export function rankIndex(code) {
  return cardNumber(code) & 7;
}

export function rankText(code) {
  return FULL_RANKS[fullRankIndex(code)];
}

export function suitSymbol(code) {
  return SUIT_SYMBOLS[suitIndex(code)];
}

export function isRed(code) {
  const suit = suitIndex(code);
  return suit === 1 || suit === 2;
}

export function isFace(code) {
  return fullRankIndex(code) >= 9;
}

/** "A♠", as the server's reasons write cards. */
export function label(code) {
  const rank = fullRankIndex(code);
  const suit = suitIndex(code);
  return rank < 0 || suit < 0 ? '?' : FULL_RANKS[rank] + SUIT_SYMBOLS[suit];
}

export function labels(codes) {
  return codes.map(label).join(' ');
}

/** "ace of spades", for screen readers. */
export function spoken(code) {
  const rank = fullRankIndex(code);
  const suit = suitIndex(code);
  return rank < 0 || suit < 0 ? 'a hidden card' : `${FULL_RANK_NAMES[rank]} of ${SUIT_NAMES[suit]}`;
}

/** Sort a hand for display: by suit (♣ ♦ ♥ ♠ with trump last), then rank high to low. */
export function sortHand(codes, trumpSuit = null) {
  const key = (code) => {
    const suit = suitIndex(code);
    const suitKey = suit === trumpSuit ? 4 : suit;
    return suitKey * 8 + (7 - rankIndex(code));
  };
  return [...codes].sort((a, b) => key(a) - key(b));
}
