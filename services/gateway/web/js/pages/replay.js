// "Watch the replay": a finished game step by step (#/replay/<table>/<game>), every seat's hand
// shown (the seed is revealed once a game ends), the trick with who played what, trump, the score
// and what happened at each step. The game's own words come from js/replay-games.js.

import { html, useEffect, useMemo, useRef, useState } from '../../vendor/htm-preact-3.1.1.module.js';
import { api } from '../api.js';
import { handStarts, stepModel } from '../replay-games.js';
import { CardBack, ShownCard } from '../ui.js';

const PLAY_MS = 1000; // a step a second while playing

/** The replay's own stylesheet, added once. */
function useStyles() {
  useEffect(() => {
    if (document.getElementById('replay-css')) return;
    const link = document.createElement('link');
    link.id = 'replay-css';
    link.rel = 'stylesheet';
    link.href = '/replay.css';
    document.head.appendChild(link);
  }, []);
}

function Seat({ seat }) {
  return html`<li class=${`replay-seat${seat.toAct ? ' to-act' : ''}`} data-seat=${seat.seat}>
    <h3 class="replay-seat-name">${seat.name}${seat.toAct ? html` <span class="replay-turn">to act</span>` : null}</h3>
    <p class="replay-seat-line">${seat.line}</p>
    <div class="replay-hand" role="list" aria-label=${`${seat.name}'s hand`}>
      ${seat.hand.length
        ? seat.hand.map(
            (code) => html`<span role="listitem" class="replay-card" data-code=${code || ''}>${code
              ? html`<${ShownCard} code=${code} size="sm" />`
              : html`<span role="img" aria-label="A card not yet seen"><${CardBack} size="sm" /></span>`}</span>`,
          )
        : html`<span class="muted">No cards</span>`}
    </div>
  </li>`;
}

function Trick({ model }) {
  const { cards, done } = model.trick;
  const title = done ? 'Last trick' : 'Trick';
  return html`<section class="replay-trick" aria-label=${title}>
    <h3>${title}</h3>
    ${cards.length
      ? html`<ol class="replay-trick-cards">
          ${cards.map(
            ([seat, code]) => html`<li data-seat=${seat} data-code=${code}>
              <${ShownCard} code=${code} size="sm" />
              <span class="replay-player">${model.seats[seat] ? model.seats[seat].name : `Seat ${seat + 1}`}</span>
            </li>`,
          )}
        </ol>`
      : html`<p class="muted">No cards on the table</p>`}
  </section>`;
}

function Felt({ model }) {
  const unit = model.adapter.unit;
  return html`<section class="replay-felt" aria-label="The table at this step">
    <div class="replay-facts">
      <p class="replay-phase"><strong>${model.hand ? `${unit} ${model.hand}` : 'Before the deal'}</strong> · ${model.phase}</p>
      ${model.trump
        ? html`<p class="replay-trump">${model.trump.card ? html`<${ShownCard} code=${model.trump.card} size="sm" />` : null}<span>${model.trump.text}</span></p>`
        : null}
      <dl class="replay-score">
        ${model.score.map((row) => html`<div><dt>${row.label}</dt><dd>${row.value}</dd></div>`)}
      </dl>
    </div>
    <${Trick} model=${model} />
    <ul class="replay-seats">
      ${model.seats.map((seat) => html`<${Seat} key=${seat.seat} seat=${seat} />`)}
    </ul>
  </section>`;
}

function Controls({ index, count, setIndex, playing, setPlaying, starts, unit, hand }) {
  const last = count - 1;
  const go = (i) => {
    setPlaying(false);
    setIndex(Math.max(0, Math.min(last, i)));
  };
  const current = starts.findIndex((s) => s.number === hand);
  const jump = (k) => {
    const target = starts[k];
    if (target) go(target.index);
  };
  return html`<div class="replay-controls">
    <div class="replay-buttons" role="group" aria-label="Step controls">
      <button type="button" onClick=${() => go(0)} disabled=${index === 0} title="The first step (Home)"><span aria-hidden="true">« </span>First</button>
      <button type="button" onClick=${() => go(index - 1)} disabled=${index === 0} title="A step back (←)"><span aria-hidden="true">‹ </span>Back</button>
      <button type="button" class="primary replay-play" onClick=${() => (index >= last ? (setIndex(0), setPlaying(true)) : setPlaying(!playing))} title="Play or pause (Space)">${playing ? 'Pause' : html`<span aria-hidden="true">▶ </span>Play`}</button>
      <button type="button" onClick=${() => go(index + 1)} disabled=${index >= last} title="A step forward (→)">Forward<span aria-hidden="true"> ›</span></button>
      <button type="button" onClick=${() => go(last)} disabled=${index >= last} title="The last step (End)">Last<span aria-hidden="true"> »</span></button>
    </div>
    <label class="replay-slider">
      <span class="replay-count">Step ${index + 1} of ${count}</span>
      <input type="range" min="1" max=${count} value=${index + 1} aria-label="Step" aria-valuetext=${`Step ${index + 1} of ${count}`}
        onInput=${(e) => go(Number(e.target.value) - 1)} />
    </label>
    ${starts.length > 1
      ? html`<div class="replay-jump" role="group" aria-label=${`Jump by ${unit.toLowerCase()}`}>
          <button type="button" onClick=${() => jump(current - 1)} disabled=${current <= 0}>Previous ${unit.toLowerCase()}</button>
          <label><span class="visually-hidden">${unit}</span>
            <select value=${current < 0 ? '' : String(current)} onChange=${(e) => jump(Number(e.target.value))}>
              ${current < 0 ? html`<option value="">—</option>` : null}
              ${starts.map((s, k) => html`<option value=${String(k)}>${unit} ${s.number}</option>`)}
            </select>
          </label>
          <button type="button" onClick=${() => jump(current + 1)} disabled=${current >= starts.length - 1}>Next ${unit.toLowerCase()}</button>
        </div>`
      : null}
  </div>`;
}

export function ReplayPage({ table, game }) {
  useStyles();
  const [replay, setReplay] = useState(null);
  const [error, setError] = useState('');
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
  const count = replay ? replay.frames.length : 0;

  useEffect(() => {
    setReplay(null);
    setError('');
    setIndex(0);
    api.replay(table, game).then(setReplay, (e) => setError(e.message));
  }, [table, game]);

  // Playing: a step a second, stopping at the end.
  useEffect(() => {
    if (!playing || !replay) return undefined;
    if (index >= count - 1) {
      setPlaying(false);
      return undefined;
    }
    const timer = setTimeout(() => setIndex((i) => Math.min(count - 1, i + 1)), PLAY_MS);
    return () => clearTimeout(timer);
  }, [playing, index, replay]);

  // Keys: ←/→ a step, Home/End the first and last, Space plays or pauses.
  const keys = useRef(null);
  keys.current = (event) => {
    if (!replay || event.altKey || event.ctrlKey || event.metaKey) return;
    const tag = event.target && event.target.tagName;
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(tag)) return;
    const go = (i) => {
      event.preventDefault();
      setPlaying(false);
      setIndex(Math.max(0, Math.min(count - 1, i)));
    };
    if (event.key === 'ArrowRight') go(index + 1);
    else if (event.key === 'ArrowLeft') go(index - 1);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(count - 1);
    else if (event.key === ' ' && tag !== 'BUTTON') {
      event.preventDefault();
      setPlaying((p) => !p);
    }
  };
  useEffect(() => {
    const listener = (event) => keys.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const starts = useMemo(() => (replay ? handStarts(stepModel(replay, 0).adapter, replay.frames) : []), [replay]);
  const model = replay && count ? stepModel(replay, Math.min(index, count - 1)) : null;
  const verify = `#/verify/${encodeURIComponent(table)}/${encodeURIComponent(game)}`;
  return html`<main id="main" class="replay" tabindex="-1">
    <h1>Replay${model ? `: ${model.adapter.title}` : ''}, game ${game}</h1>
    <p class="muted replay-sub">
      ${replay ? `${replay.seats.filter(Boolean).join(', ')} · ` : ''}Every hand is shown: the seed was revealed when the game ended. <a href=${verify}>Verify this game</a>
    </p>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    ${!replay && !error ? html`<p role="status"><span class="spinner" aria-hidden="true"></span> Loading the replay…</p>` : null}
    ${model
      ? html`<p class="replay-step-line" aria-live="polite" aria-atomic="true">${model.text}</p>
          <${Controls} index=${index} count=${count} setIndex=${setIndex} playing=${playing} setPlaying=${setPlaying}
            starts=${starts} unit=${model.adapter.unit} hand=${model.hand} />
          <${Felt} model=${model} />
          <p class="muted small">Keys: ← → a step, Home and End the first and last, Space plays or pauses.</p>`
      : null}
  </main>`;
}
