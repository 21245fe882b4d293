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
  return cardNumber(code) >> 3;
}

export function rankIndex(code) {
  return cardNumber(code) & 7;
}

export function rankText(code) {
  return RANKS[rankIndex(code)];
}

export function suitSymbol(code) {
  return SUIT_SYMBOLS[suitIndex(code)];
}

export function isRed(code) {
  const suit = suitIndex(code);
  return suit === 1 || suit === 2;
}

export function isFace(code) {
  return rankIndex(code) >= 4;
}

/** "A♠", as the server's reasons write cards. */
export function label(code) {
  const number = cardNumber(code);
  return number < 0 ? '?' : RANKS[number & 7] + SUIT_SYMBOLS[number >> 3];
}

export function labels(codes) {
  return codes.map(label).join(' ');
}

/** "ace of spades", for screen readers. */
export function spoken(code) {
  const number = cardNumber(code);
  return number < 0 ? 'a hidden card' : `${RANK_NAMES[number & 7]} of ${SUIT_NAMES[number >> 3]}`;
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
