// How to play Contract Whist at the online table (#/rules/contract-whist): the rounds, the bids
// and the hook, trump, the tricks and the points, drawn with the real card faces, and how the
// table works. The exact rules the engine enforces are docs/rules/contract-whist.md.

import { html } from '../../vendor/htm-preact-3.1.1.module.js';
import { label } from '../cards.js';
import { SCHEDULE } from '../whist-state.js';
import { Figure, Hand, Trick } from './guide.js';

const SEATS = ['Ana', 'Ben', 'Cleo', 'Dev'];

// The hook at four seats with 10 cards each (the rules' scenario 6): after 3, 2 and 1 the last
// bidder may not bid 4.
const HOOK = { cards: 10, bids: [['Ana', 3], ['Ben', 2], ['Cleo', 1]], last: 'Dev', barred: 4 };

// Two tricks of the rules' scenarios 16 and 13: a low trump beats the ace led; at no trumps the
// highest card of the suit led takes the trick, an off-suit ace never does.
const TRUMP_TRICK = { plays: [['Ana', 'AH'], ['Ben', 'KH'], ['Cleo', '2S'], ['Dev', '5H']], winner: 'Cleo' };
const NO_TRUMPS_TRICK = { plays: [['Ana', 'QH'], ['Ben', 'JH'], ['Cleo', 'AD'], ['Dev', '4H']], winner: 'Ana' };

const POINTS = [
  ['You made your bid, and it was 1 or more', 'the cards + your bid'],
  ['You bid 0 and took none; the bids were over the cards', 'half the cards, rounded down'],
  ['You bid 0 and took none; the bids were under the cards', 'half the cards, rounded up'],
  ['You missed: took more or fewer than you bid', 'minus the difference'],
];

const EXAMPLES = [
  '10 cards, bid 3, took 3: 10 + 3 = 13.',
  '7 cards, bid 0, took 0, the bids totalled 9 (over): half of 7 rounded down, 3.',
  '7 cards, bid 0, took 0, the bids totalled 5 (under): half of 7 rounded up, 4.',
  '2 cards, bid 0, took 0: 1 either way.',
  '5 cards, bid 2, took 4: −2; bid 3, took 0: −3; bid 0, took 1: −1.',
];

const ONLINE = [
  'When it is your turn to bid, the plaque above the table has one button for each bid from 0 to the cards. When you bid last, the barred bid is greyed out and says why: the bids would total the cards.',
  'The bidding panel above the felt lists every bid so far and their total against the cards, and says who bids last and which bid is barred to them.',
  'Each seat plate shows the tricks taken against the bid (“2/3”), and the player’s total points. “First” marks the seat that bids first and leads; “Chose” the seat that chose trump.',
  'Trump, or no trumps, shows in the bar above the table for the whole round; your trumps are marked in your hand.',
  'Tap a card to lift it, then tap it again (or “Play”) to play it. Only the cards you may play look bright on your turn.',
  'The score sheet (the “Score sheet” button, or S) has a line for every round: each player’s bid, tricks, points and total. At the end of the game the table ranks everyone, first to last, with their total and the bids they made.',
  'Each decision has a timer, 30 seconds unless the table says otherwise. If time runs out the table decides for you: the allowed bid closest to your aces and guarded kings, your longest suit as trump (never no trumps), and a safe low card. Twice in a row and you are away, with only 3 seconds a decision, until you are back.',
  'On a keyboard: the digit keys bid; Tab moves between the buttons and your hand; the arrow keys move along your hand; Enter lifts and plays a card; M turns the sound off.',
  'An empty seat can be taken by a bot, always marked as a bot.',
];

const sectionId = (title) => `wh-${title.replace(/\W+/g, '-').toLowerCase()}`;

function Section({ title, children }) {
  return html`<section class="panel" aria-labelledby=${sectionId(title)}>
    <h2 id=${sectionId(title)}>${title}</h2>
    ${children}
  </section>`;
}

/** The hook drawn as the bidding panel shows it: every bid, and the last bidder's barred one. */
function HookFigure() {
  const total = HOOK.bids.reduce((sum, [, bid]) => sum + bid, 0);
  return html`<${Figure} caption=${`10 cards each: ${HOOK.bids.map(([name, bid]) => `${name} bids ${bid}`).join(', ')}. The bids total ${total}, so ${HOOK.last} may bid anything but ${HOOK.barred}.`}>
    <ol class="wh-bids wh-guide-bids">
      ${HOOK.bids.map(([name, bid]) => html`<li><span class="wh-bidder">${name}</span> <strong>${bid}</strong></li>`)}
      <li class="barred"><span class="wh-bidder">${HOOK.last}</span> <strong>not ${HOOK.barred}</strong></li>
    </ol>
  <//>`;
}

export function WhistGuidePage() {
  return html`<main id="main" class="rules guide euchre-guide whist-guide" tabindex="-1">
    <h1>How to play Contract Whist</h1>
    <p class="lead">2 to 5 players, each on their own: before every round, say exactly how many tricks you will take. Make it and score; miss and lose points.</p>
    <${Figure} caption=${`The cards in each hand, round by round: ${SCHEDULE.join(', ')}.`}>
      <ol class="wh-schedule">${SCHEDULE.map((cards, k) => html`<li data-round=${k + 1}><span class="visually-hidden">Round ${k + 1}: </span>${cards}</li>`)}</ol>
    <//>
    <${Section} title="Players and the deal">
      <p>Two to five people play, each for themselves, with a full deck of 52 cards; the ace is high, then king, queen, jack, 10 and down to 2. Every round is shuffled afresh and dealt one card at a time, starting with the round’s first bidder and going round the table. The cards left over are not dealt and nobody sees them. The first bidder moves one seat round the table every round.</p>
    <//>
    <${Section} title="The rounds">
      <p>The first round deals 10 cards to each player, the next 9, and so on down to 2; then back up, 3, 4 and on to 10 again: 17 rounds in all. A table can play a shorter game: it plays only the first rounds of that list (3 rounds deal 10, 9 and 8 cards). Each round goes: the bids, then trump, then the tricks, then the points.</p>
    <//>
    <${Section} title="Bidding and the hook">
      <p>Starting with the first bidder and going round the table, each player bids once: the number of tricks they will take, from 0 to the cards in their hand. The aim is to take exactly that many, no more and no fewer.</p>
      <p><strong>The hook:</strong> the bids may never add up to the cards in each hand, so somebody must miss. Only the last bidder is held to it: the one bid that would make the total equal the cards is barred to them. It may be 0 (the others bid all the cards between them) or all the cards (they all bid 0). When the others have already bid more than the cards, the last bidder may bid anything.</p>
      <${HookFigure} />
    <//>
    <${Section} title="Trump">
      <p>The highest bidder chooses trump: one of the four suits, or no trumps. When two or more bid the same highest number, the one who bid first of them chooses. If everybody bid 0, the first bidder chooses.</p>
    <//>
    <${Section} title="The tricks">
      <p>The round’s first bidder leads the first trick, whoever chose trump. Play goes round the table: you must follow the suit that was led if you can; if you cannot, play any card. The highest trump takes the trick; with no trump in it (always so at no trumps), the highest card of the suit led does. A card of another suit never takes a trick. The player who took a trick leads the next, and a round has as many tricks as cards in each hand.</p>
      <${Figure} wide=${true} caption=${`Left, spades are trump: Cleo has no hearts and plays the ${label('2S')}, which beats the ${label('AH')} led. Right, at no trumps: the ${label('QH')} led takes the trick; the ${label('AD')} is of another suit and takes nothing.`}>
        <div class="guide-tricks">
          <${Trick} number=${1} title="Spades trump" trick=${TRUMP_TRICK} />
          <${Trick} number=${2} title="No trumps" trick=${NO_TRUMPS_TRICK} />
        </div>
      <//>
    <//>
    <${Section} title="Points">
      <p>After the last trick of a round, every player scores by their bid and the tricks they took:</p>
      <div class="table-scroll"><table class="rules-table">
        <thead><tr><th scope="col">After the round</th><th scope="col">Points</th></tr></thead>
        <tbody>${POINTS.map(([when, points]) => html`<tr><td>${when}</td><td>${points}</td></tr>`)}</tbody>
      </table></div>
      <ul>${EXAMPLES.map((line) => html`<li>${line}</li>`)}</ul>
      <${Figure} caption=${`Ben bids 2 with 5 cards, holding ${['AS', 'KH', '7C', '4D', '2S'].map(label).join(' ')}. Taking 2 tricks scores 5 + 2 = 7; taking 3 or 1 scores −1.`}>
        <div class="guide-row"><${Hand} name="Ben" note="bids 2" cards=${['AS', 'KH', '7C', '4D', '2S']} /></div>
      <//>
    <//>
    <${Section} title="The end">
      <p>Your total is the sum of your points over the rounds. After the last round, the highest total wins; players level on the top total share the win. With a stake, everyone pays it into the pot when the game starts and the winners share the pot. A game ended early is conceded: the host who ends it, or the last person to leave, forfeits their stake, and the other players share the pot equally.</p>
    <//>
    <${Section} title="At the online table">
      <ul>${ONLINE.map((line) => html`<li>${line}</li>`)}</ul>
    <//>
    <${Section} title="Why it is fair">
      <p>A secret seed chooses the first bidder and shuffles every round of the game. You see its fingerprint when the game starts and the seed itself when it ends, so you can deal every round again — the cards nobody was dealt too — and check it. <a href="#/verify">Verify a game</a>.</p>
    <//>
    <p><a href="#/rules">How to play Swick</a> · <a href="#/rules/euchre">How to play Euchre</a></p>
  </main>`;
}
