// "Verify a game": fetch a finished game's public record (or take a pasted one), re-deal every
// hand in this browser from the revealed seed with js/fair.js, and show the verdict per hand.

import { html, useEffect, useState } from '../../vendor/htm-preact-3.1.1.module.js';
import { api, recordPath } from '../api.js';
import { verifyRecord } from '../fair.js';
import { ALGORITHM as EUCHRE, verifyRecord as verifyEuchre } from '../euchre-fair.js';
import { ALGORITHM as WHIST, verifyRecord as verifyWhist } from '../whist-fair.js';
import { namedSeat, seatNames } from '../shell/words.js';
import { ShownCard } from '../ui.js';

function Verdict({ result, record }) {
  const checked = result.perHand.length;
  const unit = result.whist ? 'round' : 'hand';
  return html`<section class=${`panel verdict ${result.ok ? 'good' : 'bad'}`} aria-labelledby="verdict-title" role="status">
    <h2 id="verdict-title">
      <span class="verdict-mark" aria-hidden="true">${result.ok ? '✓' : '✗'}</span>
      ${result.ok ? 'Verified: every card checks out' : 'Not verified'}
    </h2>
    <p class="verdict-text">
      ${result.ok
        ? `All ${checked} ${unit}${checked === 1 ? '' : 's'} re-dealt in your browser from the revealed seed match the record: ${result.whist ? 'every dealt card and the undealt rest of the deck' : result.euchre ? 'every dealt card, turn-up and kitty' : 'every dealt, turned and drawn card'}.`
        : html`First mismatch: <strong class="mismatch">${result.mismatch}</strong>`}
    </p>
    ${record
      ? html`<dl class="facts compact">
          <div><dt>Algorithm</dt><dd>${String(record.algorithm)}</dd></div>
          <div><dt>Seed</dt><dd><code class="wrap">${String(record.seed)}</code></dd></div>
          <div><dt>Fingerprint (shown at the start)</dt><dd><code class="wrap">${String(record.fingerprint)}</code></dd></div>
        </dl>`
      : null}
    ${result.checks.length || !result.ok
      ? html`<ul class="checks-list">
          <li class=${result.checks.includes('fingerprint') ? 'pass' : 'fail'}>SHA-256 of the seed equals the fingerprint published when the game started</li>
          <li class=${result.checks.includes('first_dealer') ? 'pass' : result.checks.includes('fingerprint') ? 'fail' : 'skip'}>The first ${result.whist ? 'bidder' : 'dealer'} was drawn from the seed</li>
        </ul>`
      : null}
  </section>`;
}

const shownCards = (codes) => codes.map((code) => html`<${ShownCard} code=${code} size="xs" />`);

/** Each seat's cards as the seed deals them (seat and cards), by the seat's player (of `names`),
 * or a dash when the check stopped before the deal. */
function Dealt({ seats, names }) {
  return html`<td class="dealt">
    ${seats
      ? seats.map(([seat, cards]) => html`<span class="dealt-seat"><span class="muted">${namedSeat(names, seat)}</span> ${shownCards(cards)}</span>`)
      : '—'}
  </td>`;
}

const bySeat = (hands) => hands.map((cards, seat) => [seat, cards]);

/** One row per hand (or round) checked: the game's own columns, then the verdict. */
function CheckRows({ result, title, kind, heads, cells }) {
  if (!result.perHand.length) return null;
  return html`<section class="panel" aria-labelledby="hands-title">
    <h2 id="hands-title">${title}</h2>
    <div class="table-scroll">
      <table class=${kind ? `verify-table ${kind}` : 'verify-table'}>
        <thead>
          <tr>${[...heads, 'Verdict'].map((head) => html`<th scope="col">${head}</th>`)}</tr>
        </thead>
        <tbody>
          ${result.perHand.map(
            (entry) => html`<tr class=${entry.ok ? 'pass' : 'fail'}>
              ${cells(entry)}
              <td>${entry.ok ? html`<span class="pass-mark">✓ Matches</span>` : html`<span class="fail-mark">✗ ${entry.mismatch}</span>`}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>
  </section>`;
}

/** A Swick game's hands: each seat's cards, the trump card and the draws the seed deals. */
function HandRows({ result, names }) {
  const cells = (hand) => html`<th scope="row">${hand.handNo}</th>
    <td>${namedSeat(names, hand.dealer)}</td>
    <${Dealt} seats=${hand.shown && hand.shown.hands} names=${names} />
    <td>${hand.shown ? html`<${ShownCard} code=${hand.shown.trump} size="xs" />` : '—'}</td>
    <td>${hand.shown ? hand.shown.draws : '—'}</td>`;
  const heads = ['Hand', 'Dealer', 'Dealt by the seed', 'Trump', 'Draws'];
  return html`<${CheckRows} result=${result} title="Hand by hand" heads=${heads} cells=${cells} />`;
}

/** A Euchre game's hands: each seat's five cards, the turn-up and the kitty the seed deals. */
function EuchreHandRows({ result, names }) {
  const cells = (hand) => html`<th scope="row">${hand.handNo}</th>
    <td>${namedSeat(names, hand.dealer)}</td>
    <${Dealt} seats=${hand.shown && bySeat(hand.shown.hands)} names=${names} />
    <td>${hand.shown ? html`<${ShownCard} code=${hand.shown.turnUp} size="xs" />` : '—'}</td>
    <td>${hand.shown ? shownCards(hand.shown.kitty) : '—'}</td>`;
  const heads = ['Hand', 'Dealer', 'Dealt by the seed', 'Turn-up', 'Kitty'];
  return html`<${CheckRows} result=${result} title="Hand by hand" kind="euchre" heads=${heads} cells=${cells} />`;
}

/** A Contract Whist game's rounds: each seat's cards as the seed deals them. */
function WhistRoundRows({ result, names }) {
  const cells = (rnd) => html`<th scope="row">${rnd.roundNo}</th>
    <td>${rnd.cards}</td>
    <td>${namedSeat(names, rnd.firstBidder)}</td>
    <${Dealt} seats=${rnd.shown && bySeat(rnd.shown.hands)} names=${names} />`;
  const heads = ['Round', 'Cards', 'First bidder', 'Dealt by the seed'];
  return html`<${CheckRows} result=${result} title="Round by round" kind="whist" heads=${heads} cells=${cells} />`;
}

export function VerifyPage({ table, game }) {
  const [text, setText] = useState('');
  const [state, setState] = useState({ busy: false, error: '', result: null, record: null, source: '' });

  const check = async (record, source) => {
    setState({ busy: true, error: '', result: null, record: null, source });
    const euchre = record && record.algorithm === EUCHRE;
    const whist = record && record.algorithm === WHIST;
    let result;
    if (whist) {
      const r = await verifyWhist(record);
      result = { ...r, perHand: r.perRound };
    } else {
      result = euchre ? await verifyEuchre(record) : await verifyRecord(record);
    }
    result.euchre = euchre;
    result.whist = whist;
    setState({ busy: false, error: '', result, record, source });
  };

  useEffect(() => {
    if (!table || !game) return;
    setState({ busy: true, error: '', result: null, record: null, source: '' });
    api
      .record(table, game)
      .then((record) => {
        setText(JSON.stringify(record, null, 2));
        return check(record, `Game ${game} of table ${table}`);
      })
      .catch((e) => setState({ busy: false, error: e.message, result: null, record: null, source: '' }));
  }, [table, game]);

  const submit = (event) => {
    event.preventDefault();
    let record;
    try {
      record = JSON.parse(text);
    } catch (e) {
      setState({ busy: false, error: `That is not JSON: ${e.message}`, result: null, record: null, source: '' });
      return;
    }
    check(record, 'The pasted record');
  };

  // htm does not decode HTML entities: text with angle brackets goes in as a string.
  const download = state.record && table ? recordPath(table, game) : null;
  const names = seatNames(state.record);
  return html`<main id="main" class="verify" tabindex="-1">
    <h1>Verify a game</h1>
    <p class="lead">
      Every shuffle of a game comes from one secret seed whose fingerprint is shown when the game starts.
      When the game ends the seed is revealed: this page re-deals every hand in your browser
      (algorithm <code>swick-fair-v1</code>, HMAC-SHA256 and an unbiased Fisher–Yates shuffle; for Euchre <code>euchre-fair-v1</code>, the same over its 24 cards; for Contract Whist <code>contract-whist-fair-v1</code>, over all 52) and checks each card against the record: for Euchre every hand, turn-up and kitty; for Contract Whist every round's hands and undealt cards.
    </p>
    ${state.source ? html`<p class="muted">${state.source}${download ? html` · <a href=${download} download=${`swick-${table}-game-${game}.json`}>Download the record</a> · <a href=${`#/replay/${encodeURIComponent(table)}/${encodeURIComponent(game)}`}>Watch the replay</a>` : null}</p>` : null}
    ${state.busy ? html`<p role="status"><span class="spinner" aria-hidden="true"></span> Re-dealing every hand…</p>` : null}
    ${state.error ? html`<p class="error" role="alert">${state.error}</p>` : null}
    ${state.result ? html`<${Verdict} result=${state.result} record=${state.record} />` : null}
    ${state.result
      ? state.result.whist
        ? html`<${WhistRoundRows} result=${state.result} names=${names} />`
        : state.result.euchre ? html`<${EuchreHandRows} result=${state.result} names=${names} />` : html`<${HandRows} result=${state.result} names=${names} />`
      : null}
    <form class="panel paste" onSubmit=${submit}>
      <h2><label for="record-input">Check a record yourself</label></h2>
      <p class="hint">Paste a game record (JSON from <code>${'/api/tables/<table>/games/<n>/record'}</code>) and press Verify.</p>
      <textarea id="record-input" rows="8" spellcheck="false" value=${text} onInput=${(e) => setText(e.target.value)}></textarea>
      <div class="form-actions"><button type="submit" class="primary" disabled=${!text.trim() || state.busy}>Verify</button></div>
    </form>
  </main>`;
}
