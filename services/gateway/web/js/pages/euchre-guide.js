// How to play Euchre at the online table (#/rules/euchre): the rules in brief, the points of a
// hand, and how the table works. The exact rules the engine enforces are docs/rules/euchre.md.

import { html } from '../../vendor/htm-preact-3.1.1.module.js';
import { ShownCard } from '../ui.js';

const SECTIONS = [
  ['Teams and the deal', 'Four players in two teams; partners sit across from each other. The deck has 24 cards: the 9, 10, jack, queen, king and ace of each suit. The dealer gives everyone five cards and turns the next card face up on the three that are left: that card is the turn-up, the three below it are the kitty. The deal moves one seat to the left every hand.'],
  ['The bowers', 'The trump suit beats every other suit. Its highest card is the right bower, the jack of trump. Next comes the left bower, the other jack of the same colour: it is a trump card now, not a card of its printed suit. Then the ace, king, queen, 10 and 9 of trump. In the other suits the ace is high, and the suit of the same colour as trump has no jack this hand.'],
  ['Making trump: the first pass', 'Starting on the dealer’s left, each player may order it up (the suit of the turn-up becomes trump) or pass. The dealer speaks last and may pick it up. When trump is made this way, the dealer takes the turn-up into their hand and puts one card face down.'],
  ['Making trump: the second pass', 'If all four pass, the turn-up is turned down and its suit cannot be trump in this hand. Starting on the dealer’s left again, each player may name any other suit or pass. Stick the dealer: when it comes back to the dealer, the dealer must name a suit.'],
  ['Going alone', 'The player who makes trump may go alone. Their partner lays their cards face down and sits out the hand. At our table, when the partner who sits out is the dealer, nobody picks up the turn-up: it stays on the kitty.'],
  ['The tricks', 'The player on the dealer’s left leads (or the next player, if that seat sits out). Follow the suit that was led if you can — the left bower counts as trump, so it follows trump — and otherwise play any card. The highest trump takes the trick; with no trump in it, the highest card of the led suit does. The taker leads the next trick. A hand has five tricks.'],
  ['Points and the end', 'The team that made trump are the makers; the other team are the defenders. After five tricks, points go to one team (see the table). The first team to reach 10 points wins the game.'],
];

const POINTS = [
  ['The makers take 3 or 4 tricks', '1 point'],
  ['The makers take all 5 (a march)', '2 points'],
  ['A player alone takes 3 or 4 tricks', '1 point'],
  ['A player alone takes all 5', '4 points'],
  ['The makers take fewer than 3 (euchred)', '2 points to the defenders'],
];

const ONLINE = [
  'While trump is made, your choice is on the plaque above the table: “Order it up” (the dealer: “Pick it up”) or “Pass”, and in the second pass one carved token for each suit you may name. Turn on “Go alone” first if you want to play without your partner.',
  'Tap a card to lift it, then tap it again (or “Play”) to play it. Only the cards you may play look bright on your turn. The dealer who picks up discards the same way.',
  'The carved token beside the dealer shows trump for the whole hand. In your hand, the two bowers carry a small brass tab.',
  'The score is kept on a pegboard: one rail of ten holes for each team.',
  'Each decision and each card has a 20-second timer. If time runs out, the table passes for you (a stuck dealer gets a suit named), plays a safe card, and never goes alone for you.',
  'On a keyboard: Tab moves between the buttons and your hand; the arrow keys move along your hand; Enter lifts and plays a card; M turns the sound off.',
  'An empty seat is taken by a bot, always marked as a bot.',
  'Point at a card of your hand, the turn-up, the kitty, the trump token or the tricks a player took, or hold a finger on it, to read what it is and why a card cannot be played now.',
];

export function EuchreGuidePage() {
  return html`<main id="main" class="rules guide euchre-guide" tabindex="-1">
    <h1>How to play Euchre</h1>
    <p class="lead">Two teams of two, five cards each, one trump suit: take three of the five tricks.</p>
    <figure class="bowers-figure">
      <div class="bowers-cards">
        <${ShownCard} code="JH" size="sm" tip="With hearts trump: the right bower" />
        <${ShownCard} code="JD" size="sm" tip="With hearts trump: the left bower" />
        <${ShownCard} code="AH" size="sm" tip="With hearts trump: the ace of trump" />
      </div>
      <figcaption>With hearts trump, the three highest cards: J♥ (the right bower), J♦ (the left bower), A♥.</figcaption>
    </figure>
    ${SECTIONS.map(
      ([title, text]) => html`<section class="panel" aria-labelledby=${`eu-${title.replace(/\W+/g, '-').toLowerCase()}`}>
        <h2 id=${`eu-${title.replace(/\W+/g, '-').toLowerCase()}`}>${title}</h2>
        <p>${text}</p>
      </section>`,
    )}
    <section class="panel" aria-labelledby="eu-points">
      <h2 id="eu-points">The points of a hand</h2>
      <div class="table-scroll"><table class="rules-table">
        <thead><tr><th scope="col">After five tricks</th><th scope="col">Points</th></tr></thead>
        <tbody>${POINTS.map(([when, points]) => html`<tr><td>${when}</td><td>${points}</td></tr>`)}</tbody>
      </table></div>
    </section>
    <section class="panel" aria-labelledby="eu-online">
      <h2 id="eu-online">At the online table</h2>
      <ul>${ONLINE.map((line) => html`<li>${line}</li>`)}</ul>
    </section>
    <section class="panel" aria-labelledby="eu-fair">
      <h2 id="eu-fair">Why it is fair</h2>
      <p>A secret seed chooses the first dealer and shuffles every deal of the game. You see its fingerprint when the game starts and the seed itself when it ends, so you can deal every hand again — the turn-ups and the kitties too — and check it. <a href="#/verify">Verify a game</a>.</p>
    </section>
    <p><a href="#/rules">How to play Swick</a> · <a href="#/rules/contract-whist">How to play Contract Whist</a></p>
  </main>`;
}
