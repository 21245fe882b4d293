// The player's guide (the Rules page): how a hand of Swick goes, drawn with the real card faces
// and chips, and one real hand worked through to the cent. Its figures come from js/guide-data.js,
// which the engine checks. The exact rules (SWICK_RULES.md) are one link away, at #/rules/exact.

import { html } from '../../vendor/htm-preact-3.1.1.module.js';
import { label } from '../cards.js';
import { DOUBLE, EXAMPLE } from '../guide-data.js';
import { cents, signed } from '../state.js';
import { CardBack, Chips, Countdown, ShownCard } from '../ui.js';

const X = EXAMPLE;
const others = X.seats.filter((name) => name !== X.dealer);
const playing = X.seats.filter((name) => !X.passes.includes(name));
const FINGERPRINT = '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd';

export function Figure({ caption, children, wide = false }) {
  return html`<figure class=${`guide-figure ${wide ? 'wide' : ''}`}>
    <div class="guide-picture">${children}</div>
    <figcaption>${caption}</figcaption>
  </figure>`;
}

/** A player's cards, face up, with their name underneath. */
export function Hand({ name, cards, note = '', kept = null, size = 'sm' }) {
  return html`<div class="guide-hand">
    <div class="guide-cards">
      ${cards.map((code) => html`<${ShownCard} code=${code} size=${size} kept=${code === kept} />`)}
    </div>
    <div class="guide-who">${name}${note ? html` <span class="guide-note">${note}</span>` : null}</div>
  </div>`;
}

/** A finished trick: each card with who played it, the winner's marked in words too. */
export function Trick({ number, trick, title = `Trick ${number}` }) {
  return html`<div class="guide-trick" data-trick=${number}>
    <div class="guide-trick-title">${title}</div>
    <ol class="guide-trick-cards">
      ${trick.plays.map(([name, code], k) => html`<li class=${name === trick.winner ? 'winner' : ''}>
        <${ShownCard} code=${code} size="sm" />
        <span class="guide-who">${name}${k === 0 ? ' led' : ''}</span>
        ${name === trick.winner ? html`<span class="guide-wins">Wins</span>` : null}
      </li>`)}
    </ol>
  </div>`;
}

function Money({ data }) {
  return html`<table class="guide-money">
    <caption class="visually-hidden">What each player paid and won</caption>
    <thead><tr>
      <th scope="col">Player</th><th scope="col">Ante</th><th scope="col">Tricks</th>
      <th scope="col">Won</th><th scope="col">Set</th><th scope="col">Net</th>
    </tr></thead>
    <tbody>
      ${data.seats.map((name) => html`<tr data-player=${name}>
        <th scope="row">${name}${name === data.dealer ? ' (dealer)' : ''}</th>
        <td>${cents(-data.antes[name])}</td>
        <td>${data.passes.includes(name) ? 'passed' : data.tricksWon[name]}</td>
        <td>${data.payouts[name] ? `+${cents(data.payouts[name])}` : '0¢'}</td>
        <td>${data.penalties[name] ? cents(-data.penalties[name]) : '—'}</td>
        <td class=${`net ${data.delta[name] > 0 ? 'gain' : data.delta[name] < 0 ? 'loss' : ''}`} data-net=${data.delta[name]}>
          <strong>${signed(data.delta[name])}</strong>
        </td>
      </tr>`)}
    </tbody>
    <tfoot><tr><th scope="row">Carry</th><td colspan="5">${cents(data.carry)} into the next pot</td></tr></tfoot>
  </table>`;
}

const SECTIONS = [
  ['aim', 'The aim'],
  ['hand', 'A hand step by step'],
  ['set', 'Going set and the carry'],
  ['free', 'Free rides'],
  ['timers', 'Timers and being away'],
  ['fair', 'Fair deals'],
];

function ExactLink({ where }) {
  return html`<a class="button primary guide-exact" href="#/rules/exact" data-where=${where}>The exact rules</a>`;
}

export function GuidePage() {
  const dealerAnte = X.antes[X.dealer];
  const d = DOUBLE;
  return html`<main id="main" class="rules guide" tabindex="-1">
    <div class="guide-head">
      <h1>How to play Swick</h1>
      <p class="guide-lead">Three cards each, three tricks, one pot. Every trick you take is worth a
        third of the pot, and if you knock in and take none, you pay the pot.</p>
      <${ExactLink} where="top" />
    </div>

    <nav class="panel guide-toc" aria-label="Guide sections">
      <ol>${SECTIONS.map(([id, text]) => html`<li><a href="#/rules" onClick=${(e) => {
        e.preventDefault();
        const target = document.getElementById(`guide-${id}`);
        if (target) target.scrollIntoView({ behavior: 'smooth' });
      }}>${text}</a></li>`)}</ol>
    </nav>

    <section class="panel guide-section" id="guide-aim" aria-labelledby="guide-aim-h">
      <h2 id="guide-aim-h">The aim</h2>
      <p>Swick is played by 3 to 6 players with a 32-card deck: 7 8 9 10 J Q K A in each suit,
        the Ace highest. Everyone puts money in the pot; then the players who dare <em>knock in</em> play three tricks. Each trick pays a third of the pot to whoever takes it.</p>
      <p>Knocking in is a promise: a player who knocks in and takes no trick <strong>goes set</strong> and
        pays the size of the pot, which stays on the table for the next hand. If your cards are
        poor, pass: you lose only your ante.</p>
      <${Figure} caption=${`A pot of ${cents(X.pot)} is three tricks of ${cents(X.trickValue)} each.`}>
        <div class="guide-row">
          <${Chips} amount=${X.pot} label="Pot" />
          <span class="guide-op" aria-hidden="true">=</span>
          ${[1, 2, 3].map((k) => html`<${Chips} amount=${X.trickValue} label=${`Trick ${k}`} />`)}
        </div>
      <//>
    </section>

    <section class="panel guide-section" id="guide-hand" aria-labelledby="guide-hand-h">
      <h2 id="guide-hand-h">A hand step by step</h2>
      <p>Here is a real hand between ${X.seats.slice(0, -1).join(', ')} and ${X.seats[X.seats.length - 1]},
        seated clockwise in that order. ${X.dealer} deals; ${others[0]} sits on the dealer's left.</p>

      <h3>1. Ante</h3>
      <p>The dealer picks the ante: 3¢, 6¢, 9¢, 12¢ or 15¢ (some tables allow more). Every other player pays it, and the dealer
        pays it plus 3¢. ${X.dealer} picks ${cents(X.ante)}: ${others.join(', ')} pay ${cents(X.ante)} each
        and ${X.dealer} pays ${cents(X.ante)} + 3¢ = ${cents(dealerAnte)}.</p>
      <p class="guide-sum" data-sum="pot">Pot: ${X.seats.length} × ${cents(X.ante)} + 3¢ = <strong>${cents(X.pot)}</strong>,
        so each trick is worth ${cents(X.pot)} ÷ 3 = <strong>${cents(X.trickValue)}</strong>.</p>
      <${Figure} caption=${`The antes: ${X.seats.map((name) => `${name} ${cents(X.antes[name])}`).join(', ')}; the pot is ${cents(X.pot)}.`}>
        <div class="guide-row">
          ${X.seats.map((name) => html`<${Chips} amount=${X.antes[name]} label=${name} />`)}
          <span class="guide-op" aria-hidden="true">→</span>
          <${Chips} amount=${X.pot} label="Pot" />
        </div>
      <//>

      <h3>2. Deal and trump</h3>
      <p>Everyone gets three cards, one at a time, starting on the dealer's left. The next card is
        turned face up: the <strong>trump card</strong>. Its suit is trump for the hand and beats every other suit.
        The dealer deals <em>blind</em>: ${X.dealer} may not look at her own cards until her turn to knock.</p>
      <p>The dealer alone decides what happens to the trump card: <strong>keep</strong> it (it joins her hand
        and can never be thrown away, but from then on she can go set) or <strong>leave</strong> it on the
        table. Here the ${label(X.trump)} is turned, so spades are trump, and ${X.dealer} leaves it.</p>
      <${Figure} caption=${`The trump card ${label(X.trump)}, and ${others[0]}'s three cards as dealt.`}>
        <div class="guide-row">
          <${Hand} name="Trump card" cards=${[X.trump]} />
          <${Hand} name=${others[0]} cards=${X.dealt[others[0]]} />
          <div class="guide-hand">
            <div class="guide-cards">${[0, 1, 2].map(() => html`<${CardBack} size="sm" />`)}</div>
            <div class="guide-who">${X.dealer} (blind)</div>
          </div>
        </div>
      <//>

      <h3>3. Knock or pass</h3>
      <p>Starting on the dealer's left, each of the other players knocks (plays) or passes (is out; the ante stays
        in the pot). ${playing.filter((n) => n !== X.dealer).join(' and ')} knock; ${X.passes.join(', ')} passes with ${X.dealt[X.passes[0]].map(label).join(' ')}: no trump, no Ace. If every one of them had passed, ${X.dealer} would have taken the whole pot at once.</p>
      <${Figure} caption=${`${X.passes[0]} passes with ${X.dealt[X.passes[0]].map(label).join(' ')} and is out for ${cents(X.antes[X.passes[0]])}.`}>
        <div class="guide-row"><${Hand} name=${X.passes[0]} note="passes" cards=${X.dealt[X.passes[0]]} /></div>
      <//>

      <h3>4. Draw</h3>
      <p>Each player who knocked throws away 0 to 3 cards and draws as many. ${others[0]} keeps ${label(X.final[others[0]][0])} and swaps ${X.discards[others[0]].map(label).join(' and ')} for ${X.drawn[others[0]].map(label).join(' and ')}. ${others[1]} keeps her cards.
        Then the dealer looks at her cards for the first time and knocks or passes; ${X.dealer} knocks and keeps hers.
        A dealer who kept the trump card throws away one more card after drawing, so everyone plays
        with three; if she passes instead, she goes set. When only one player is left in, that
        player takes the whole pot without playing.</p>
      <${Figure} caption=${`${others[0]} before and after the draw.`}>
        <div class="guide-row">
          <${Hand} name=${`${others[0]}, dealt`} cards=${X.dealt[others[0]]} />
          <span class="guide-op" aria-hidden="true">→</span>
          <${Hand} name=${`${others[0]}, after drawing 2`} cards=${X.final[others[0]]} />
        </div>
      <//>

      <h3>5. The three tricks</h3>
      <p>The first player still in on the dealer's left leads; whoever wins a trick leads the next.
        When a card is led you must follow its suit, and <strong>beat the best card of that suit so far if
        you can</strong>. With none of that suit you must play a trump if you have one; otherwise play anything.
        The highest trump wins the trick; with no trump in it, the highest card of the suit led.</p>
      <p>Before the tricks, three special hands win the whole pot at once: three Aces, then three 7s,
        then A-K-Q of trump; everyone else still in goes set. (A leader holding the Ace of trump must lead it to the first trick.)</p>
      <${Figure} wide=${true} caption=${`The three tricks: ${X.tricks.map((t) => t.winner).join(', ')} win them.`}>
        <div class="guide-tricks">
          ${X.tricks.map((trick, k) => html`<${Trick} number=${k + 1} trick=${trick} />`)}
        </div>
      <//>
      <ul class="guide-notes">
        <li>Trick 1: ${others[1]} must follow hearts but cannot beat the ${label('AH')}; ${others[0]} wins.</li>
        <li>Trick 2: ${others[1]} has no clubs and no trump, so she may play anything; ${X.dealer} must play a club
          and beat the ${label('10C')} if she can, and she can, with the ${label('AC')}.</li>
        <li>Trick 3: ${others[0]} has no diamonds, so he must trump: his ${label('KS')} wins.</li>
      </ul>

      <h3>6. Settling</h3>
      <p>Each trick pays ${cents(X.trickValue)}. ${others[1]} knocked in and took no trick: she goes set and
        pays the pot, ${cents(X.pot)}, which carries into the next hand.</p>
      <${Figure} wide=${true} caption="The hand's money: antes, winnings, the set and each player's net.">
        <${Money} data=${X} />
      <//>
      <p class="guide-sum" data-sum="check">No money is made or lost: the nets add up to ${cents(X.seats.reduce((sum, n) => sum + X.delta[n], 0))}, exactly the ${cents(X.carry)} that carries on.</p>
    </section>

    <section class="panel guide-section" id="guide-set" aria-labelledby="guide-set-h">
      <h2 id="guide-set-h">Going set and the carry</h2>
      <p>Only players who knocked in can go set, and so can a dealer who kept the trump card. Everyone
        needs one trick, with one exception: a dealer who kept a <strong>face</strong> trump (J, Q, K or A)
        chooses before the tricks either to <em>play</em>, and then needs <strong>two</strong> tricks or pays <strong>double</strong> the pot, or to go set single at once and drop out. A dealer who kept the trump
        and passes at her knock pays a single set at once.</p>
      <p>Every set of a hand is added up into the <strong>carry</strong>: the starting pot of the next hand. A game
        cannot end while a carry is waiting to be won.</p>
      <p>A real hand: three players, ante ${cents(d.ante)}, pot ${cents(d.pot)}, tricks worth ${cents(d.trickValue)}. ${d.dealer} keeps the ${label(d.trump)} as trump, throws away ${label(d.fourth)}, chooses to play, and
        wins only trick 3 with it.</p>
      <${Figure} wide=${true} caption=${`${d.dealer}'s hand with the kept ${label(d.trump)}, and the trick she wins.`}>
        <div class="guide-row">
          <${Hand} name=${`${d.dealer} (dealer)`} note="kept the trump" cards=${d.final[d.dealer]} kept=${d.trump} />
          <${Trick} number=${3} trick=${d.tricks[2]} />
        </div>
      <//>
      <p class="guide-sum" data-sum="double">${d.dealer} is set double: 2 × ${cents(d.pot)} = <strong>${cents(d.penalties[d.dealer])}</strong>,
        but keeps the ${cents(d.payouts[d.dealer])} of her trick. Her net: −${cents(d.antes[d.dealer])} ante
        + ${cents(d.payouts[d.dealer])} − ${cents(d.penalties[d.dealer])} = <strong>${signed(d.delta[d.dealer])}</strong>. ${d.seats[2]}, in with no trick, is set single: ${cents(d.penalties[d.seats[2]])}.
        The carry is ${cents(d.penalties[d.dealer])} + ${cents(d.penalties[d.seats[2]])} = <strong>${cents(d.carry)}</strong>.</p>
      <${Figure} wide=${true} caption="That hand's money.">
        <${Money} data=${d} />
      <//>
    </section>

    <section class="panel guide-section" id="guide-free" aria-labelledby="guide-free-h">
      <h2 id="guide-free-h">Free rides</h2>
      <p>The hand after anyone went set is a <strong>free ride</strong>: nobody antes except the new dealer,
        who pays exactly 3¢. The pot is the carry plus those 3¢.</p>
      <p class="guide-sum" data-sum="free">After the first hand above, the deal passes to ${X.next.dealer}. The pot is ${cents(X.carry)} carried + 3¢ = <strong>${cents(X.next.pot)}</strong>, so each trick is worth <strong>${cents(X.next.trickValue)}</strong>, and only ${X.next.dealer} paid to be there.</p>
      <${Figure} caption=${`The free ride's pot: ${cents(X.carry)} carried and ${X.next.dealer}'s 3¢.`}>
        <div class="guide-row">
          <${Chips} amount=${X.carry} label="Carry" />
          <span class="guide-op" aria-hidden="true">+</span>
          <${Chips} amount=${X.next.antes[X.next.dealer]} label=${X.next.dealer} />
          <span class="guide-op" aria-hidden="true">=</span>
          <${Chips} amount=${X.next.pot} label="Pot" />
        </div>
      <//>
      <p>If everyone else passes in a free ride, the dealer takes the carry for 3¢. That is the luck of the deal.</p>
    </section>

    <section class="panel guide-section" id="guide-timers" aria-labelledby="guide-timers-h">
      <h2 id="guide-timers-h">Timers and being away</h2>
      <p>Every decision has a visible countdown, 30 seconds unless the table says otherwise (10 to 120
        seconds; a private table may have none). If it runs out, the table decides for you, cautiously:
        the lowest ante, leave the trump card, pass (a dealer who kept the trump knocks), keep all your
        cards, play on with a kept face trump, and play your lowest legal card; if you had not
        readied for a hand, you sit it out.</p>
      <p>Miss two decisions in a row, or lose your connection, and your seat is marked <em>away</em>: it is
        played for you after a few seconds' grace until you act again. The game never waits for
        anyone, and the money your seat wins or owes stands.</p>
      <${Figure} caption="A decision's countdown: 12 seconds of 30 left.">
        <div class="guide-row"><${Countdown} left=${12000} total=${30000} /></div>
      <//>
    </section>

    <section class="panel guide-section" id="guide-fair" aria-labelledby="guide-fair-h">
      <h2 id="guide-fair-h">Fair deals</h2>
      <p>Every shuffle of a game comes from one secret seed, mixed with a little randomness each
        player adds when they ready up. When the game starts, everyone is shown
        the seed's <strong>fingerprint</strong> (its SHA-256); when the game ends, the seed itself is revealed.
        Anyone can then re-deal every hand from the seed and the game's record and see that nothing
        was changed: the fingerprint proves the seed was fixed before the first card.</p>
      <${Figure} wide=${true} caption="A seed fingerprint, as the table shows it at the start of a game.">
        <dl class="guide-fingerprint">
          <dt>Seed fingerprint</dt>
          <dd><code>${FINGERPRINT}</code></dd>
        </dl>
      <//>
      <p>Check a finished game yourself on the <a href="#/verify">Verify a game</a> page.</p>
    </section>

    <div class="guide-foot">
      <p>Every corner case, decided: the rules the server enforces.</p>
      <${ExactLink} where="bottom" />
    </div>
    <p class="guide-games">The other games: <a href="#/rules/euchre">How to play Euchre</a> · <a href="#/rules/contract-whist">How to play Contract Whist</a></p>
  </main>`;
}
