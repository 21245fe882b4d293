// The lobby: quick play, open tables, creating a table, your chips, recent hands, the
// leaderboard; and the page an invite link opens.

import { html, useEffect, useRef, useState } from '../../vendor/htm-preact-3.1.1.module.js';
import { ApiError, api, rememberGame, rememberInvite } from '../api.js';
import { go, useApp } from '../context.js';
import { isGuest } from '../account-words.js';
import { knownHandles, seatNameOf, tagsFor, useTags } from '../handles.js';
import { cents, signed } from '../state.js';
import { CreateEuchreTable, CreateTable, CreateWhistTable } from './create-table.js';

/** The site's games, each with a line on how it plays (the welcome page and the picker). */
export const GAMES = [
  { id: 'swick', name: 'Swick', blurb: '3–6 players, chips: ante, knock in or pass, three tricks' },
  { id: 'euchre', name: 'Euchre', blurb: '4 players in two teams, points: make trump, take three tricks' },
  { id: 'contract-whist', name: 'Contract Whist', blurb: '2–5 players, 17 rounds of 10 cards down to 2 and back: bid your tricks exactly' },
];
const GAME_KEY = 'swick.lobby-game';
const gameName = (id) => {
  const known = GAMES.find((g) => g.id === id);
  return known ? known.name : String(id || 'swick').replace(/[_-]+/g, ' ').replace(/^./, (c) => c.toUpperCase());
};

function savedGame() {
  try {
    const id = localStorage.getItem(GAME_KEY);
    return GAMES.some((g) => g.id === id) ? id : 'swick';
  } catch {
    return 'swick';
  }
}

/** Swick, Euchre or Contract Whist: what Quick play and Create a table open. */
function GamePicker({ game, setGame }) {
  return html`<fieldset class="game-picker">
    <legend>Game</legend>
    ${GAMES.map(
      (g) => html`<label class=${`game-choice ${game === g.id ? 'on' : ''}`} data-game=${g.id}>
        <input type="radio" name="lobby-game" value=${g.id} checked=${game === g.id} onChange=${() => setGame(g.id)} />
        <span class="game-choice-name">${g.name}</span>
        <small>${g.blurb}</small>
      </label>`,
    )}
  </fieldset>`;
}

function anteRange(antes) {
  if (!antes || !antes.length) return '—';
  const low = Math.min(...antes);
  const high = Math.max(...antes);
  return low === high ? cents(low) : `${cents(low)}–${cents(high)}`;
}

function seatSummary(table) {
  const taken = table.seats.filter(Boolean);
  return `${taken.length} of ${table.seats.length}`;
}

function usePolling(load, every, deps = []) {
  const [state, setState] = useState({ data: null, error: '' });
  useEffect(() => {
    let alive = true;
    const run = async () => {
      try {
        const data = await load();
        if (alive) setState({ data, error: '' });
      } catch (e) {
        if (alive) setState((s) => ({ data: s.data, error: e.message }));
      }
    };
    run();
    const timer = every ? setInterval(run, every) : null;
    return () => {
      alive = false;
      if (timer) clearInterval(timer);
    };
  }, deps);
  return state;
}

/** The names of a lobby table's seats, each with its tag where two people there share one. */
function seatNames(table) {
  const seated = table.seats.filter(Boolean);
  const tags = tagsFor(seated, knownHandles());
  return seated.map((s) => seatNameOf(s, tags));
}

function TableRow({ table, seatedAt, onJoin }) {
  const free = table.seats.some((s) => !s);
  const names = seatNames(table);
  const mine = seatedAt === table.id;
  return html`<tr>
    <th scope="row">
      <span class="table-name">${names[0] ? `${names[0]}'s table` : table.id}</span>
      <span class="table-players">${names.join(', ')}</span>
    </th>
    <td>
      <span class="seat-dots" aria-hidden="true">
        ${table.seats.map((s) => html`<span class=${`seat-dot ${s ? (s.bot ? 'bot' : 'taken') : ''}`}></span>`)}
      </span>
      <span>${seatSummary(table)}</span>
    </td>
    <td><span class=${`game-tag ${table.game || 'swick'}`}>${gameName(table.game || 'swick')}</span></td>
    <td>${(table.game || 'swick') === 'swick'
      ? anteRange(table.antes)
      : table.game === 'contract-whist'
        ? `${table.rounds || 17} rounds${table.stake ? `, stake ${cents(table.stake)}` : ''}`
        : table.target ? `To ${table.target} points` : anteRange(table.antes)}</td>
    <td>${table.timer_seconds ? `${table.timer_seconds} s` : 'None'}</td>
    <td>
      <span class=${`badge ${table.in_progress ? 'live' : 'open'}`}>${table.in_progress ? 'In progress' : 'Waiting'}</span>
    </td>
    <td class="actions">
      ${mine
        ? html`<a class="button primary small" href=${`#/table/${table.id}`}>Return</a>`
        : html`${free && !seatedAt
            ? html`<button type="button" class="primary small" onClick=${() => onJoin(table)} aria-label=${`Join ${names[0] || table.id}'s table`}>Join</button>`
            : null}
          <a class="button small" href=${`#/table/${table.id}`} aria-label=${`Watch ${names[0] || table.id}'s table`}>Watch</a>`}
    </td>
  </tr>`;
}

function Balance() {
  const { session } = useApp();
  // Before the first seat there is no wallet: the balance is null, with the grant it opens with.
  const balance = usePolling(() => api.balance(session.token), 15000, [session.token]);
  const transfers = usePolling(() => api.transfers(session.token).catch((e) => {
    if (e instanceof ApiError && e.status === 404) return { transfers: [] };
    throw e;
  }), 15000, [session.token]);
  const value = balance.data ? balance.data.balance : undefined;
  const rows = transfers.data ? transfers.data.transfers || [] : [];
  const CODE_TEXT = {
    grant: 'Welcome chips',
    ante: 'Ante',
    trick_payout: 'Won tricks',
    all_pass_win: 'Won: all passed',
    last_standing_win: 'Won: last standing',
    special_hand: 'Won: special hand',
    set_single: 'Went set',
    set_double: 'Went set double',
    dealer_set_single: 'Went set (dealer)',
    dealer_set_double: 'Went set double (dealer)',
  };
  return html`<section class="panel" aria-labelledby="chips-title">
    <h2 id="chips-title">Your chips</h2>
    ${value === undefined
      ? html`<p class="muted">${balance.error || 'Counting your chips…'}</p>`
      : value === null
        ? html`<p class="muted">Your ${balance.data.starting_grant ? `${cents(balance.data.starting_grant)} of ` : ''}welcome chips arrive when you first sit down.</p>`
        : html`<p class="balance"><strong>${cents(value)}</strong></p>`}
    <h3>Recent hands</h3>
    ${rows.length
      ? html`<ul class="transfers">
          ${rows.map(
            (t) => html`<li>
              <span>${CODE_TEXT[t.code] || t.code}${t.hand_no ? ` · hand ${t.hand_no}` : ''}</span>
              <span class=${t.amount >= 0 ? 'gain' : 'loss'}>${signed(t.amount)}</span>
            </li>`,
          )}
        </ul>`
      : html`<p class="muted">No hands played yet.</p>`}
    <p class="small"><a href="#/games">Your games</a>: every game you finished, with its result, its replay and its check.</p>
  </section>`;
}

/** A guest (no passkey, no recovery codes) is told once here how to keep the account; an
 * account that has a way back in hears nothing. */
function KeepAccount() {
  const { session } = useApp();
  const [guest, setGuest] = useState(false);
  useEffect(() => {
    let alive = true;
    api
      .account(session.token)
      .then((account) => alive && setGuest(isGuest(account)))
      .catch(() => {});
    return () => {
      alive = false;
    };
  }, [session.id]);
  return guest
    ? html`<p class="small keep-account">Only this browser can sign in as you. <a href="#/account">Add a passkey or recovery codes</a> to play on another device or after clearing this one.</p>`
    : html`<p class="small"><a href="#/account">Your account</a>: passkeys, device links, recovery codes.</p>`;
}

/** Sign out everywhere (POST /api/me/revoke), for a sign-in left on another device or copied by
 * someone: every other token of the player stops working, this browser keeps a fresh one. Asks
 * first, with Cancel focused (Escape cancels too), and says how it went in a live region. */
function SignOutEverywhere() {
  const { session, signOutEverywhere } = useApp();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  const opener = useRef(null);
  const cancel = useRef(null);
  useEffect(() => {
    if (asking && cancel.current) cancel.current.focus();
  }, [asking]);
  const close = () => {
    setAsking(false);
    setError('');
    if (opener.current) opener.current.focus();
  };
  const open = () => {
    setDone('');
    setAsking(true);
  };
  const confirm = async () => {
    setBusy(true);
    setError('');
    try {
      const me = await signOutEverywhere();
      setDone(`Signed out everywhere else: every other device or browser must sign in again. This browser stays signed in as ${me.name}.`);
      close();
    } catch (e) {
      setError(e.message);
    } finally {
      setBusy(false);
    }
  };
  const key = (event) => {
    if (event.key === 'Escape' && !busy) {
      event.preventDefault();
      close();
    }
  };
  return html`<section class="panel sign-in-panel" aria-labelledby="sign-in-title">
    <h2 id="sign-in-title">Your sign-in</h2>
    <${KeepAccount} />
    <p class="muted small">Signed in on another device, or afraid someone copied your sign-in? Sign the others out, or see <a href="#/account">your devices</a>.</p>
    <button type="button" class="small" ref=${opener} aria-expanded=${asking ? 'true' : 'false'} onClick=${asking ? close : open}>Sign out everywhere…</button>
    ${asking
      ? html`<div class="confirm-sign-out" role="alertdialog" aria-labelledby="sign-out-title" aria-describedby="sign-out-text" onKeyDown=${key}>
          <h3 id="sign-out-title">Sign out everywhere?</h3>
          <p id="sign-out-text">Every other device or browser signed in as ${session.name} is signed out: there, you sign in again with a passkey, a link code or a recovery code (picking a name makes a new player). This browser stays signed in as you, with your chips and your seat.</p>
          ${error ? html`<p class="error" role="alert">${error}</p>` : null}
          <div class="row">
            <button type="button" disabled=${busy} onClick=${confirm}>${busy ? 'Signing out…' : 'Sign out everywhere'}</button>
            <button type="button" class="primary" ref=${cancel} disabled=${busy} onClick=${close}>Cancel</button>
          </div>
        </div>`
      : null}
    <p class="sign-out-result" role="status">${done}</p>
  </section>`;
}

/** A rating as a board shows it: provisional ones (still unsure) with a "?". */
export function ratingText(row) {
  return `${row.rating}${row.provisional ? '?' : ''}`;
}

export function ratingTip(row) {
  const games = `${row.games} rated game${row.games === 1 ? '' : 's'}`;
  return row.provisional ? `Provisional: ${games}, not yet settled` : games;
}

function RatingList({ rows, kind }) {
  return html`<ol class=${`leaders ${kind}`}>
    ${rows.map(
      (r) => html`<li>
        <span>${r.name}${kind === 'bots' ? html` <span class="bot-badge">bot</span>` : null}</span>
        <span class="rating" title=${ratingTip(r)}>
          ${ratingText(r)}<span class="visually-hidden">, ${ratingTip(r)}</span>
          <span class="muted small" aria-hidden="true"> · ${r.games}</span>
        </span>
      </li>`,
    )}
  </ol>`;
}

/** The picked game's board: the people's ratings (bots have a ladder of their own), the games
 * each person won over the last week (at the games played for points) and chips won or lost at
 * its tables. */
function Leaderboard({ game }) {
  const board = usePolling(() => api.leaderboard(game), 30000, [game]);
  const data = board.data && board.data.game === game ? board.data : null;
  const players = data ? data.players || [] : [];
  const ratings = data ? data.ratings || [] : [];
  const bots = data ? data.bots || [] : [];
  const won = data && data.games_won ? data.games_won.filter((p) => p.won > 0) : null;
  const name = gameName(game);
  const nothing = data && !ratings.length && !(won && won.length) && !players.length;
  return html`<section class="panel" aria-labelledby="board-title">
    <h2 id="board-title">Leaderboard <span class="muted small">${name}</span></h2>
    ${board.error && !data
      ? html`<p class="muted">${board.error}</p>`
      : !data
        ? html`<p class="muted">Loading…</p>`
        : nothing
          ? html`<p class="muted">Nobody has finished a rated game of ${name} yet.</p>`
          : null}
    ${ratings.length
      ? html`<h3 class="board-kind">Ratings</h3>
          <${RatingList} rows=${ratings} kind="ratings" />`
      : null}
    ${won && won.length
      ? html`<h3 class="board-kind">Games won <span class="muted small">last 7 days</span></h3>
          <ol class="leaders won">
            ${won.map((p) => html`<li><span>${p.name}</span><span>${p.won}</span></li>`)}
          </ol>`
      : null}
    ${players.length
      ? html`<h3 class="board-kind">Chips at stake tables <span class="muted small">last 7 days</span></h3>
          <ol class="leaders chips">
            ${players.map(
              (p) => html`<li>
                <span>${p.name}${p.bot ? html` <span class="bot-badge">bot</span>` : null}</span>
                <span class=${p.net >= 0 ? 'gain' : 'loss'}>${signed(p.net)}</span>
              </li>`,
            )}
          </ol>`
      : null}
    ${bots.length
      ? html`<h3 class="board-kind">Bot ladder</h3>
          <${RatingList} rows=${bots} kind="bots" />`
      : null}
  </section>`;
}

const STEPS = [
  ['Ante', 'The dealer sets the ante; everyone pays it, the dealer 3¢ more. That is the pot.'],
  ['Trump', 'A card is turned for trump. The dealer, still blind, keeps it or leaves it.'],
  ['Knock or pass', 'In turn, knock in to play the hand, or pass and lose only your ante.'],
  ['Draw', 'Throw away up to three cards and draw as many from the stock.'],
  ['Three tricks', 'Follow suit and beat it if you can. Each trick wins a third of the pot.'],
  ['Go set', 'Knocked in and won no trick? Match the pot: it carries to the next hand.'],
];

const EUCHRE_STEPS = [
  ['The deal', 'Five cards each; the next card is turned up on the kitty.'],
  ['Make trump', 'Order up the turn-up’s suit, or pass; then name another suit, or pass. The dealer is stuck last.'],
  ['The bowers', 'The jack of trump is highest, then the other jack of its colour.'],
  ['Go alone', 'The maker may play without their partner: 4 points for all five tricks.'],
  ['Five tricks', 'Follow suit if you can; the highest trump, or the highest of the suit led, takes it.'],
  ['Score', 'Makers take 3 or 4: 1 point, all 5: 2. Fewer than 3: euchred, 2 to the others. First to 10.'],
];

const WHIST_STEPS = [
  ['The deal', 'Ten cards each in round 1, one fewer each round down to 2, then back up to 10: 17 rounds.'],
  ['Bid', 'Say how many tricks you will take, exactly. The last bidder may not make the bids total the cards: someone must miss.'],
  ['Trump', 'The highest bidder names trump, or no trumps.'],
  ['Tricks', 'Follow suit if you can; the highest trump, or the highest of the suit led, takes it.'],
  ['Score', 'Make your bid: cards + bid. Make 0: half the cards. Miss: minus the difference. Highest total wins.'],
];

function WhistHowToPlay() {
  return html`<section class="panel how" aria-labelledby="how-title">
    <h2 id="how-title">How a Contract Whist round goes</h2>
    <ol class="steps">
      ${WHIST_STEPS.map(([title, text]) => html`<li><strong>${title}</strong><span>${text}</span></li>`)}
    </ol>
    <p class="small"><a href="#/rules/contract-whist">How to play Contract Whist</a></p>
  </section>`;
}

function EuchreHowToPlay() {
  return html`<section class="panel how" aria-labelledby="how-title">
    <h2 id="how-title">How a Euchre hand goes</h2>
    <ol class="steps">
      ${EUCHRE_STEPS.map(([title, text]) => html`<li><strong>${title}</strong><span>${text}</span></li>`)}
    </ol>
    <p class="small"><a href="#/rules/euchre">How to play Euchre</a></p>
  </section>`;
}

function HowToPlay() {
  return html`<section class="panel how" aria-labelledby="how-title">
    <h2 id="how-title">How a hand goes</h2>
    <ol class="steps">
      ${STEPS.map(([title, text]) => html`<li><strong>${title}</strong><span>${text}</span></li>`)}
    </ol>
    <p class="small"><a href="#/rules">How to play</a> · <a href="#/rules/exact">the exact rules</a> · special hands: three Aces, three 7s, A-K-Q of trump win the pot at once.</p>
  </section>`;
}

export function LobbyPage() {
  const { session, status } = useApp();
  // Arriving with the focus nowhere (just signed in, or the link that led here is gone): it
  // goes to the game picker, the lobby's first choice, not back to the top of the page.
  useEffect(() => {
    if (document.activeElement && document.activeElement !== document.body) return;
    const picked = document.querySelector("input[name='lobby-game']:checked");
    if (picked) picked.focus();
  }, []);
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // Your seat, if any: one at a table in play keeps you there (one seat at a time); one whose
  // game is over is left by going elsewhere, so it blocks nothing.
  const [seat, setSeat] = useState({ at: null, over: false });
  const tables = usePolling(() => api.tables(), 5000, []);
  useEffect(() => {
    api.me(session.token).then((me) => setSeat({ at: me.seated || null, over: Boolean(me.seated_game_over) })).catch(() => {});
  }, [session.token, status.welcome]);
  const seatedAt = seat.over ? null : seat.at;
  const held = seatedAt ? 'You have a seat at a table still in play: return to it, or leave it first.' : null;
  const [game, setGameState] = useState(savedGame);
  const setGame = (id) => {
    setGameState(id);
    setCreating(false);
    try {
      localStorage.setItem(GAME_KEY, id);
    } catch {
      // a browser that keeps nothing still plays
    }
  };
  const opened = (table) => {
    rememberInvite(table.id, table.invite_code);
    if (table.game) rememberGame(table.id, table.game);
    go(`/table/${table.id}`);
  };
  const quickplay = async () => {
    setBusy(true);
    setError('');
    try {
      const table = game === 'swick' ? await api.quickplay(session.token) : await api.quickplay(session.token, game);
      opened({ ...table, game: table.game || game });
    } catch (e) {
      setError(e.message);
      setBusy(false);
    }
  };
  const join = (table) => {
    if (table.game) rememberGame(table.id, table.game);
    go(`/table/${table.id}/join`);
  };
  const list = tables.data || [];
  // The handles of everyone listed, asked for at once: a row tags two people of one name.
  useTags(list.flatMap((t) => t.seats.filter(Boolean)));
  return html`<main id="main" class="lobby" tabindex="-1">
    <h1 class="visually-hidden">Lobby</h1>
    ${seat.at
      ? html`<div class="notice" role="status">
          ${seat.over
            ? 'Your last game is over: a new table leaves that one.'
            : 'You have a seat at a table.'}
          <a class=${`button small ${seat.over ? '' : 'primary'}`} href=${`#/table/${seat.at}`}>Return to your table</a>
        </div>`
      : null}
    <section class="hero" aria-labelledby="hero-title">
      <div class="hero-text">
        <h2 id="hero-title">Hello, ${session.name}</h2>
        <p>${game === 'euchre'
          ? 'Make trump, go alone if you dare, take three of five tricks with your partner — first team to ten points wins.'
          : game === 'contract-whist'
            ? 'Bid exactly the tricks you will take — the bids may never add up — and score the most over 17 rounds.'
            : 'Ante, take or leave the trump, knock in or pass, draw, and win a trick — or go set and pay the pot.'}</p>
        <${GamePicker} game=${game} setGame=${setGame} />
      </div>
      <div class="hero-actions">
        <button type="button" class="primary big" onClick=${quickplay} disabled=${busy || Boolean(held)} title=${held || null} aria-describedby=${held ? 'held-why' : null} data-game=${game}>
          <span>Quick play</span><small>${game === 'euchre' ? 'Euchre: you, a bot partner and 2 bots' : game === 'contract-whist' ? 'Contract Whist: you and 3 bots' : 'You and 2 bots, dealt at once'}</small>
        </button>
        <button type="button" class="big secondary" onClick=${() => setCreating(!creating)} aria-expanded=${creating ? 'true' : 'false'} disabled=${Boolean(held)} title=${held || null} aria-describedby=${held ? 'held-why' : null} data-game=${game}>
          <span>Create a table</span><small>${game === 'euchre' ? 'Euchre: bots, target, timer' : game === 'contract-whist' ? 'Contract Whist: seats, rounds, stake' : 'Seats, bots, antes, timer'}</small>
        </button>
        ${held ? html`<p class="small muted held-why" id="held-why">${held}</p>` : null}
      </div>
    </section>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    ${creating && game === 'swick' ? html`<${CreateTable} onCreated=${opened} onCancel=${() => setCreating(false)} />` : null}
    ${creating && game === 'euchre' ? html`<${CreateEuchreTable} onCreated=${opened} onCancel=${() => setCreating(false)} />` : null}
    ${creating && game === 'contract-whist' ? html`<${CreateWhistTable} onCreated=${opened} onCancel=${() => setCreating(false)} />` : null}
    <div class="lobby-grid">
      <div class="main-column">
      <section class="panel tables" aria-labelledby="tables-title">
        <h2 id="tables-title">Open tables</h2>
        ${list.length
          ? html`<div class="table-scroll"><table class="lobby-table">
              <thead>
                <tr><th scope="col">Table</th><th scope="col">Seats</th><th scope="col">Game</th><th scope="col">Stakes</th><th scope="col">Timer</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>
              </thead>
              <tbody>
                ${list.map((t) => html`<${TableRow} key=${t.id} table=${t} seatedAt=${seatedAt} onJoin=${join} />`)}
              </tbody>
            </table></div>`
          : html`<p class="muted empty">${tables.error || (tables.data ? 'No open tables right now: start one!' : 'Loading tables…')}</p>`}
      </section>
      ${game === 'euchre' ? html`<${EuchreHowToPlay} />` : game === 'contract-whist' ? html`<${WhistHowToPlay} />` : html`<${HowToPlay} />`}
      </div>
      <div class="side">
        <${Balance} />
        <${SignOutEverywhere} />
        <${Leaderboard} game=${game} />
      </div>
    </div>
  </main>`;
}

/** #/join/<code>: a table by its invite code. */
export function JoinPage({ code }) {
  const [state, setState] = useState({ table: null, error: '' });
  useEffect(() => {
    api
      .invite(code)
      .then((table) => {
        rememberInvite(table.id, code);
        if (table.game) rememberGame(table.id, table.game);
        setState({ table, error: '' });
      })
      .catch((e) => setState({ table: null, error: e.message }));
  }, [code]);
  const { table, error } = state;
  useTags(table ? table.seats.filter(Boolean) : []);
  return html`<main id="main" class="join" tabindex="-1">
    <section class="panel gate-panel" aria-labelledby="join-title">
      <h1 id="join-title">You are invited to a table</h1>
      ${error
        ? html`<p class="error" role="alert">${error}</p><a class="button" href="#/">Go to the lobby</a>`
        : !table
          ? html`<p>Looking up the invite…</p>`
          : html`<dl class="facts">
                <div><dt>Players</dt><dd>${seatNames(table).join(', ') || 'Nobody yet'}</dd></div>
                <div><dt>Seats</dt><dd>${seatSummary(table)} taken</dd></div>
                <div><dt>Game</dt><dd>${gameName(table.game || 'swick')}</dd></div>
                ${(table.game || 'swick') === 'swick'
                  ? html`<div><dt>Antes</dt><dd>${anteRange(table.antes)}</dd></div>`
                  : table.game === 'contract-whist'
                    ? html`<div><dt>Rounds</dt><dd>${table.rounds || 17}${table.stake ? `, stake ${cents(table.stake)}` : ', points only'}</dd></div>`
                    : html`<div><dt>Play to</dt><dd>${table.target || 10} points</dd></div>`}
                <div><dt>Timer</dt><dd>${table.timer_seconds ? `${table.timer_seconds} s` : 'None'}</dd></div>
                <div><dt>Status</dt><dd>${table.in_progress ? 'A hand is in progress: you can sit down between hands' : 'Waiting for players'}</dd></div>
              </dl>
              <div class="form-actions">
                <a class="button" href=${`#/table/${table.id}/${encodeURIComponent(code)}`}>Watch</a>
                <a class="button primary" href=${`#/table/${table.id}/${encodeURIComponent(code)}/join`}>Take a seat</a>
              </div>`}
    </section>
  </main>`;
}
