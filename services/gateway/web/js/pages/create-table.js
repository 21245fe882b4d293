// Creating a table from the lobby, one form per game: who sits where, the game's own settings,
// and what every table offers (the decision timer, a private table, dealing at once).

import { html, useState } from '../../vendor/htm-preact-3.1.1.module.js';
import { api } from '../api.js';
import { useApp } from '../context.js';
import { cents } from '../state.js';

const LEVELS = ['easy', 'medium', 'hard'];
const ANTE_CHOICES = [3, 6, 9, 12, 15, 30, 60];
const WHIST_ROUNDS = [
  [17, 'Full game: 17 rounds (10 cards down to 2 and back to 10)'],
  [9, 'Down only: 9 rounds (10 cards down to 2)'],
  [5, 'Short: 5 rounds (10 cards down to 6)'],
  [3, 'Quick: 3 rounds (10, 9 and 8 cards)'],
  [2, 'Quicker: 2 rounds (10 and 9 cards)'],
];

/** The settings every game's form holds besides its own, and the request that opens the table. */
function useTableForm(firstTimer, firstStart) {
  const { session } = useApp();
  const [timer, setTimer] = useState(firstTimer);
  const [noTimer, setNoTimer] = useState(false);
  const [isPrivate, setPrivate] = useState(false);
  const [start, setStart] = useState(firstStart);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // `settings` are the game's own; a game other than Swick is named on the table it opens.
  const open = async (settings, canStart, onCreated) => {
    setBusy(true);
    setError('');
    try {
      const table = await api.createTable(session.token, {
        ...settings,
        timer_seconds: isPrivate && noTimer ? null : Number(timer),
        private: isPrivate,
        start: start && canStart,
      });
      onCreated(settings.game ? { ...table, game: table.game || settings.game } : table);
    } catch (e) {
      setError(e.message);
    } finally {
      setBusy(false);
    }
  };
  return { timer, setTimer, noTimer, setNoTimer, isPrivate, setPrivate, start, setStart, error, setError, busy, open };
}

/** One seat of the plan after the host's: open for a player, or a bot of a level. */
function BotSeat({ id, seat, role, level, onChange }) {
  return html`<li>
    <label class="seat-no" for=${id}>Seat ${seat + 1}${role ? html` <span class="muted small">(${role})</span>` : null}</label>
    <select id=${id} value=${level || ''} onChange=${(e) => onChange(e.target.value)}>
      <option value="">Open for a player</option>
      ${LEVELS.map((l) => html`<option value=${l}>${l[0].toUpperCase() + l.slice(1)} bot</option>`)}
    </select>
  </li>`;
}

/** The seat plan: the host in seat 1, then a BotSeat for each of `seats`. */
function SeatPlan({ prefix, seats, bots, setBots, roles = {} }) {
  return html`<ol class="seat-plan">
    <li><span class="seat-no">Seat 1</span> <span class="you-tag">You (host)</span></li>
    ${seats.map(
      (seat) => html`<${BotSeat}
        id=${`${prefix}${seat}`}
        seat=${seat}
        role=${roles[seat]}
        level=${bots[seat]}
        onChange=${(level) => setBots({ ...bots, [seat]: level })}
      />`,
    )}
  </ol>`;
}

/** The decision timer, a private table and dealing at once; `deal` says what dealing needs. */
function TimerFieldset({ form, canStart, deal }) {
  const off = form.isPrivate && form.noTimer;
  return html`<fieldset>
    <legend>Decision timer</legend>
    <div class="timer-row">
      <input
        type="range"
        min="10"
        max="120"
        step="5"
        value=${form.timer}
        disabled=${off}
        aria-label="Seconds per decision"
        onInput=${(e) => form.setTimer(Number(e.target.value))}
      />
      <output aria-live="off">${off ? 'No timer' : `${form.timer} s`}</output>
    </div>
    <label class="check-line">
      <input type="checkbox" checked=${form.isPrivate} onChange=${(e) => form.setPrivate(e.target.checked)} />
      Private table (only people with the invite link)
    </label>
    <label class=${`check-line ${form.isPrivate ? '' : 'muted'}`}>
      <input type="checkbox" checked=${form.noTimer} disabled=${!form.isPrivate} onChange=${(e) => form.setNoTimer(e.target.checked)} />
      No timer (private tables only)
    </label>
    <label class=${`check-line ${canStart ? '' : 'muted'}`}>
      <input type="checkbox" checked=${form.start && canStart} disabled=${!canStart} onChange=${(e) => form.setStart(e.target.checked)} />
      ${deal}
    </label>
  </fieldset>`;
}

/** A create form around its fieldsets: the title, the error if any, Cancel and Open. */
function CreateForm({ title, form, onSubmit, onCancel, children }) {
  const submit = (event) => {
    event.preventDefault();
    onSubmit();
  };
  return html`<form class="panel create" onSubmit=${submit} aria-labelledby="create-title">
    <h2 id="create-title">${title}</h2>
    <div class="form-grid">${children}</div>
    ${form.error ? html`<p class="error" role="alert">${form.error}</p>` : null}
    <div class="form-actions">
      <button type="button" onClick=${onCancel}>Cancel</button>
      <button type="submit" class="primary" disabled=${form.busy}>${form.busy ? 'Opening…' : 'Open the table'}</button>
    </div>
  </form>`;
}

export function CreateTable({ onCreated, onCancel }) {
  const form = useTableForm(30, false);
  const [seats, setSeats] = useState(4);
  const [bots, setBots] = useState({ 1: 'medium', 2: '', 3: '', 4: '', 5: '' });
  const [antes, setAntes] = useState([3, 6, 9, 12, 15]);
  const botSeats = Object.fromEntries(
    Object.entries(bots).filter(([seat, level]) => level && Number(seat) < seats),
  );
  const filled = 1 + Object.keys(botSeats).length;
  const canStart = filled >= 3;
  const toggleAnte = (amount) =>
    setAntes((list) => (list.includes(amount) ? list.filter((a) => a !== amount) : [...list, amount].sort((a, b) => a - b)));
  const submit = () => {
    if (!antes.length) {
      form.setError('Choose at least one ante');
      return;
    }
    form.open({ seats, antes, bots: botSeats }, canStart, onCreated);
  };
  return html`<${CreateForm} title="Create a table" form=${form} onSubmit=${submit} onCancel=${onCancel}>
    <fieldset>
      <legend>Seats</legend>
      <div class="segmented">
        ${[3, 4, 5, 6].map(
          (n) => html`<label class=${seats === n ? 'on' : ''}>
            <input type="radio" name="seats" value=${n} checked=${seats === n} onChange=${() => setSeats(n)} />${n}
          </label>`,
        )}
      </div>
    </fieldset>
    <fieldset>
      <legend>Who sits where</legend>
      <${SeatPlan} prefix="bot-" seats=${Array.from({ length: seats - 1 }, (_, k) => k + 1)} bots=${bots} setBots=${setBots} />
    </fieldset>
    <fieldset>
      <legend>Antes the dealer may choose</legend>
      <div class="checks">
        ${ANTE_CHOICES.map(
          (amount) => html`<label class=${`check ${antes.includes(amount) ? 'on' : ''}`}>
            <input type="checkbox" checked=${antes.includes(amount)} onChange=${() => toggleAnte(amount)} />${cents(amount)}
          </label>`,
        )}
      </div>
    </fieldset>
    <${TimerFieldset} form=${form} canStart=${canStart} deal="Deal at once (needs 3 seated: add bots)" />
  </${CreateForm}>`;
}

const EUCHRE_ROLES = { 1: 'left opponent', 2: 'your partner', 3: 'right opponent' };

export function CreateEuchreTable({ onCreated, onCancel }) {
  const form = useTableForm(20, true);
  const [bots, setBots] = useState({ 1: 'medium', 2: 'medium', 3: 'medium' });
  const [target, setTarget] = useState(10);
  const botSeats = Object.fromEntries(Object.entries(bots).filter(([, level]) => level));
  const canStart = Object.keys(botSeats).length === 3;
  const submit = () =>
    form.open({ game: 'euchre', seats: 4, target: Number(target), bots: botSeats }, canStart, onCreated);
  return html`<${CreateForm} title="Create a Euchre table" form=${form} onSubmit=${submit} onCancel=${onCancel}>
    <fieldset>
      <legend>Who sits where</legend>
      <${SeatPlan} prefix="eu-bot-" seats=${[1, 2, 3]} bots=${bots} setBots=${setBots} roles=${EUCHRE_ROLES} />
    </fieldset>
    <fieldset>
      <legend>Points to win</legend>
      <label class="check-line" for="eu-target">Play to
        <select id="eu-target" value=${target} onChange=${(e) => setTarget(Number(e.target.value))}>
          ${[5, 7, 10].map((n) => html`<option value=${n}>${n} points</option>`)}
        </select>
      </label>
    </fieldset>
    <${TimerFieldset} form=${form} canStart=${canStart} deal="Deal at once (needs all four seated: add bots)" />
  </${CreateForm}>`;
}

export function CreateWhistTable({ onCreated, onCancel }) {
  const form = useTableForm(30, true);
  const [seats, setSeats] = useState(4);
  const [bots, setBots] = useState({ 1: 'medium', 2: 'medium', 3: 'medium', 4: 'medium' });
  const [rounds, setRounds] = useState(17);
  const [stake, setStake] = useState(0);
  const others = Array.from({ length: seats - 1 }, (_, k) => k + 1);
  const botSeats = Object.fromEntries(others.filter((seat) => bots[seat]).map((seat) => [seat, bots[seat]]));
  const canStart = Object.keys(botSeats).length === seats - 1;
  const submit = () =>
    form.open(
      { game: 'contract-whist', seats, rounds: Number(rounds), stake: Number(stake), bots: botSeats },
      canStart,
      onCreated,
    );
  return html`<${CreateForm} title="Create a Contract Whist table" form=${form} onSubmit=${submit} onCancel=${onCancel}>
    <fieldset>
      <legend>Who sits where</legend>
      <label class="check-line" for="wh-seats">Players
        <select id="wh-seats" value=${seats} onChange=${(e) => setSeats(Number(e.target.value))}>
          ${[2, 3, 4, 5].map((n) => html`<option value=${n}>${n} players</option>`)}
        </select>
      </label>
      <${SeatPlan} prefix="wh-bot-" seats=${others} bots=${bots} setBots=${setBots} />
    </fieldset>
    <fieldset>
      <legend>Length and stake</legend>
      <label class="check-line" for="wh-rounds">Rounds
        <select id="wh-rounds" value=${rounds} onChange=${(e) => setRounds(Number(e.target.value))}>
          ${WHIST_ROUNDS.map(([n, text]) => html`<option value=${n}>${text}</option>`)}
        </select>
      </label>
      <label class="check-line" for="wh-stake">Stake
        <select id="wh-stake" value=${stake} onChange=${(e) => setStake(Number(e.target.value))}>
          <option value="0">None: points only</option>
          ${[5, 10, 25, 50, 100].map((c) => html`<option value=${c}>${cents(c)} each into the pot</option>`)}
        </select>
      </label>
      <p class="hint">With a stake, everyone pays it when the game starts and the highest total takes the pot (a tie shares it).</p>
    </fieldset>
    <${TimerFieldset} form=${form} canStart=${canStart} deal="Deal at once (needs every seat taken: add bots)" />
  </${CreateForm}>`;
}
