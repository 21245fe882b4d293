// The card room: seats around an oval table, the trump card, stock, pot and trick in the
// middle, your hand and your decision at the bottom, the hand log and chat at the side.

import { html, useEffect, useMemo, useRef, useState } from '../../vendor/htm-preact-3.1.1.module.js';
import { label, sortHand, spoken } from '../cards.js';
import { cents, derive, drawOption, historySince, signed, wordHistory, wordView } from '../state.js';
import { Chat, useSmallScreen } from '../shell/chat.js';
import { useTableFeed } from '../shell/feed.js';
import { GameOverActions, TableGate, connectionBanner } from '../shell/frame.js';
import { FairPill } from '../shell/head.js';
import { useHandKeys, useTableKeys, useTurnFocus } from '../shell/keys.js';
import { useTableMotion } from '../shell/motion.js';
import { tableSight } from '../shell/moves.js';
import { AddBot, LEVELS } from '../shell/seats.js';
import { TableFrame, useDockHeight } from '../shell/table-frame.js';
import { BotIcon, CardBack, CardFace, Chips, Countdown, ShownCard, useTicker } from '../ui.js';

// The fair-deal pill's shield.
const SHIELD = html`<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M12 2l8 3v6c0 5-3.4 9.4-8 11-4.6-1.6-8-6-8-11V5z" fill="currentColor" /><path d="M8 12l3 3 5-6" stroke="#0b3d2a" stroke-width="2.2" fill="none" stroke-linecap="round" /></svg>`;
const TRICK_FLASH_MS = 2200;
const LEAD_FLASH_MS = 1000;
const RESULT_MS = 9000;

/** What the Swick table holds, for the table's motion (shell/moves.js). */
const swickSight = (model, flash) =>
  tableSight({
    deal: model.handNo,
    hand: model.hand.filter((c) => !c.hidden).map((c) => c.code),
    hidden: model.hand.filter((c) => c.hidden).length,
    held: model.seats.map((s) => [s.seat, s.cards || 0]),
    trick: model.trick,
    flash,
    stacks: model.seats.filter((s) => !s.empty).map((s) => [s.seat, s.stack]),
  });

const randomEntropy = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');

/** The direction of seat position `pos` of `n` from the felt's middle (0 is you, at the bottom). */
const angleOf = (pos, n) => ((90 + (pos * 360) / n) * Math.PI) / 180;

/** Where seat position `pos` of `n` sits on the oval: percentages of the felt. */
function around(pos, n, rx, ry) {
  const angle = angleOf(pos, n);
  return { x: 50 + rx * Math.cos(angle), y: 50 + ry * Math.sin(angle) };
}

/** Where a seat sits: its column (-1 left, 0 middle, 1 right) and whether on the far half. */
function sideOf(pos, n) {
  const angle = angleOf(pos, n);
  const across = Math.cos(angle);
  return { column: across < -0.3 ? -1 : across > 0.3 ? 1 : 0, far: Math.sin(angle) < 0 };
}

/** A side seat of a five- or six-seat table, for the screens that draw those seats apart. */
function sideSpot(pos, n) {
  const { column, far } = sideOf(pos, n);
  return column ? `${far ? 'side-far' : 'side-near'} ${column < 0 ? 'side-left' : 'side-right'}` : '';
}

function Seat({ seat, n, model, onAddBot, onJoin }) {
  const { x, y } = around(seat.pos, n, 47, 45);
  const acting = seat.acting;
  const classes = [
    'seat',
    seat.isMe ? 'me' : '',
    seat.empty ? 'empty' : '',
    acting ? 'acting' : '',
    seat.status === 'passed' || seat.status === 'dropped' ? 'out' : '',
    seat.away || (!seat.connected && !seat.bot && !seat.empty) ? 'away' : '',
    n >= 5 ? sideSpot(seat.pos, n) : '',
  ].join(' ');
  const style = `--x:${x}%;--y:${y}%`;
  if (seat.empty) {
    return html`<div class=${classes} style=${style} data-seat=${seat.seat}>
      <div class="plate" data-motion="plate">
        <span class="seat-name">Seat ${seat.seat + 1}</span>
        <span class="seat-status">Empty</span>
        ${onJoin ? html`<button type="button" class="small primary" onClick=${() => onJoin(seat.seat)}>Sit here</button>` : null}
        ${onAddBot ? html`<${AddBot} seat=${seat.seat} onAdd=${onAddBot} id="seat-bot" />` : null}
      </div>
    </div>`;
  }
  const tip = [
    `${seat.name}${seat.isMe ? ' (you)' : ''}, seat ${seat.seat + 1}`,
    seat.bot ? `${seat.bot} bot` : '',
    seat.isDealer ? 'dealer this hand' : '',
    seat.isHost ? 'host' : '',
    `${cents(seat.stack)} in chips (${signed(seat.net)} this game)`,
    seat.ante ? `paid ${cents(seat.ante)} into this hand` : '',
    seat.statusText,
    seat.tricks ? `${seat.tricks} trick${seat.tricks > 1 ? 's' : ''} won` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const initial = seat.name.trim()[0] ? seat.name.trim()[0].toUpperCase() : '?';
  return html`<div class=${classes} style=${style} data-seat=${seat.seat}>
    ${!seat.isMe && seat.cards
      ? html`<div class="held" aria-hidden="true">
          ${Array.from({ length: seat.cards }, (_, k) => html`<span class="held-card" data-motion="back" style=${`--k:${k};--n:${seat.cards}`}><${CardBack} size="xs" /></span>`)}
        </div>`
      : null}
    <div class="plate" data-motion="plate" title=${tip} data-tip=${tip} role="group" aria-label=${tip}>
      <div class="avatar-wrap">
        ${acting && model.remaining !== null
          ? html`<${Countdown} left=${model.remaining} total=${model.timerMs || 30000} small=${true} />`
          : null}
        <span class=${`avatar ${seat.bot ? 'bot' : ''}`} aria-hidden="true">${seat.bot ? html`<${BotIcon} />` : initial}</span>
        ${seat.isDealer ? html`<span class="dealer-button" aria-hidden="true" title="Dealer">D</span>` : null}
      </div>
      <div class="seat-info">
        <span class="seat-name" title=${seat.bot ? `${seat.name}, a ${seat.bot} bot` : seat.name}>
          ${seat.name}${seat.isMe ? html` <span class="you-tag">you</span>` : null}
          ${seat.isHost ? html` <span class="host-tag" aria-hidden="true" title="Host">★</span>` : null}
        </span>
        <span class="seat-line">
          <span class="seat-stack">${cents(seat.stack)}</span>
          ${seat.bot ? html`<span class="bot-badge" title=${`A ${seat.bot} bot`}><${BotIcon} /> ${seat.bot}</span>` : null}
        </span>
        <span class="seat-tags">
          ${seat.ante ? html`<span class="tag ante">Ante ${cents(seat.ante)}</span>` : null}
          ${seat.statusText ? html`<span class=${`tag status-${seat.status || 'none'}`}>${seat.statusText}</span>` : null}
          ${seat.drew !== null ? html`<span class="tag drew">Drew ${seat.drew}</span>` : null}
        </span>
      </div>
      ${seat.tricks
        ? html`<span class="tricks-won" aria-hidden="true" title=${`${seat.tricks} tricks won`}>
            ${Array.from({ length: seat.tricks }, () => html`<span class="trick-pip"></span>`)}
            <span class="tricks-count">${seat.tricks}</span>
          </span>`
        : null}
    </div>
  </div>`;
}

/** At five or six seats the trick is two rows of three, the far players' cards above the near
    ones', each on its player's side: a ring that size would reach under the plates. `slot` is
    the card's place, left to right, in the single row a phone on its side has room for. */
function gridSpot(pos, n) {
  const { column, far } = sideOf(pos, n);
  return { x: 50 + column * 34, y: far ? 26 : 74, slot: (column + 1) * 2 + (far ? 0 : 1) };
}

function TrickCards({ cards, n, model, caption, winner = null }) {
  const positions = new Map(model.seats.map((s) => [s.seat, s.pos]));
  // Each card lies in front of its player, named, so six seats' cards stay apart and readable;
  // a slight turn, never more than 4 degrees, keeps every corner index where it is looked for
  // (none in the rows of five or six).
  return html`<ul class="trick" aria-label=${caption || 'The current trick'}>
    ${cards.map(({ seat, code }, k) => {
      const { x, y, slot = 0 } = n >= 5 ? gridSpot(positions.get(seat), n) : around(positions.get(seat), n, 20, 24);
      const who = model.seats[seat];
      const won = seat === winner;
      const said = `${who.isMe ? 'You' : who.name} played ${label(code)}${won ? ', and won the trick' : ''}`;
      return html`<li
        class=${`trick-card${won ? ' winner' : ''}`}
        style=${`--x:${x}%;--y:${y}%;--slot:${slot};--r:${n >= 5 ? 0 : ((k % 3) - 1) * 4}deg;z-index:${k + 1}`}
        aria-label=${said}
        data-seat=${seat}
        data-card=${code}
      >
        <${ShownCard} code=${code} size="sm" tip=${said} />
        <span class="trick-name" aria-hidden="true">${who.isMe ? 'You' : who.name}</span>
      </li>`;
    })}
  </ul>`;
}

/** The last finished trick, on demand at every phase: who played what, and who won it. */
function LastTrick({ model, last }) {
  const [open, setOpen] = useState(false);
  if (!last) return null;
  const winner = model.seats[last.winner];
  return html`<span class="last-trick">
    <button type="button" class="link" aria-expanded=${open ? 'true' : 'false'} aria-controls="last-trick-panel" onClick=${() => setOpen(!open)}>Last trick</button>
    ${open
      ? html`<div class="last-trick-panel" id="last-trick-panel" role="group" aria-label="The last trick">
          <ol>
            ${last.cards.map(({ seat, code }) => html`<li key=${seat} class=${seat === last.winner ? 'winner' : ''}>
              <${ShownCard} code=${code} size="xs" />
              <span>${model.seats[seat].isMe ? 'You' : model.seats[seat].name}: ${label(code)}</span>
            </li>`)}
          </ol>
          <p>${winner.isMe ? 'You' : winner.name} won it.</p>
        </div>`
      : null}
  </span>`;
}

function Centre({ model, flash }) {
  const n = model.seats.length;
  const trumpTip = model.trump
    ? `Trump card: ${spoken(model.trump.code)}. ${['Clubs', 'Diamonds', 'Hearts', 'Spades'][model.trump.suit]} are trump this hand.${
        model.trump.kept ? ' The dealer kept it: it is in the dealer’s hand and can never be discarded.' : ''
      }`
    : '';
  const potTip = model.between
    ? `The carry: ${cents(model.carry)} of set money waits for the next hand.`
    : `The pot: ${cents(model.pot)}. Each of the 3 tricks wins a third (${cents(model.trickValue)}).${
        model.freeRide ? ' A free ride: only the dealer anted.' : ''
      }`;
  const showFlash = flash && !model.trick.length;
  const winner = showFlash ? model.seats[flash.winner] : null;
  const caption = winner ? `${winner.isMe ? 'You win' : `${winner.name} wins`} the trick` : '';
  return html`${caption ? html`<span class="trick-caption" aria-hidden="true">${caption}</span>` : null}
  <div class="centre-hub" data-motion="centre">
    <div class="deck-area">
      ${model.trump
        ? html`<div class=${`trump ${model.trump.kept ? 'kept' : ''}`} title=${trumpTip} data-tip=${trumpTip}>
            <span role="img" aria-label=${trumpTip}><${CardFace} code=${model.trump.code} size="sm" /></span>
            <span class="trump-label">${model.trump.kept ? 'Trump · kept' : 'Trump'}</span>
          </div>`
        : null}
      ${model.stock
        ? html`<div class="stock" title=${`The stock: ${model.stock} cards, drawn from the top`} data-tip=${`The stock: ${model.stock} cards left to draw`}>
            <span class="stock-pile" data-motion="deck" aria-hidden="true"><${CardBack} size="sm" /><${CardBack} size="sm" /></span>
            <span class="stock-count"><span class="visually-hidden">Stock: </span>${model.stock}<span class="visually-hidden"> cards</span></span>
          </div>`
        : null}
    </div>
    <div class="play-area" data-motion="trick">
      ${model.trick.length
        ? html`<${TrickCards} cards=${model.trick} n=${n} model=${model} />`
        : showFlash
          ? html`<${TrickCards} cards=${flash.cards} n=${n} model=${model} caption=${caption} winner=${flash.winner} />`
          : null}
    </div>
    <div class="money-area" data-motion="pot">
      ${!model.between || model.pot
        ? html`<${Chips} amount=${model.between ? model.carry : model.pot} label=${model.between ? 'Carry' : 'Pot'} tip=${potTip} />`
        : null}
      ${!model.between && model.carry
        ? html`<${Chips} amount=${model.carry} label="Carried in" tone="red" tip=${`${cents(model.carry)} of set money carried into this pot`} />`
        : null}
      ${!model.between ? html`<span class="trick-value" title="Each trick wins a third of the pot">Trick ${cents(model.trickValue)}</span>` : null}
    </div>
  </div>`;
}

function ResultPanel({ result, onClose }) {
  return html`<section class="result-panel" aria-labelledby="result-title">
    <header>
      <h2 id="result-title">Hand ${result.handNo}</h2>
      <button type="button" class="icon-button small" aria-label="Close the hand result" onClick=${onClose}>×</button>
    </header>
    <p class="headline">${result.headline}</p>
    ${result.special
      ? html`<div class="special">
          <span class="special-name">${result.special.name}: ${result.special.kindText}</span>
          <span class="special-cards">${result.special.cards.map((code) => html`<${ShownCard} code=${code} size="sm" />`)}</span>
        </div>`
      : null}
    ${result.sets.length
      ? html`<ul class="sets">${result.sets.map((s) => html`<li>${s.text}</li>`)}</ul>`
      : html`<p class="no-sets">Nobody went set.</p>`}
    <table class="deltas">
      <caption class="visually-hidden">Each player's change this hand</caption>
      <thead><tr><th scope="col">Player</th><th scope="col">Tricks</th><th scope="col">Change</th></tr></thead>
      <tbody>
        ${result.lines.map(
          (l) => html`<tr class=${l.isMe ? 'me' : ''}>
            <th scope="row">${l.name}${l.set ? html` <span class="tag set">set ${l.set}</span>` : null}</th>
            <td>${l.tricks}</td>
            <td class=${l.delta > 0 ? 'gain' : l.delta < 0 ? 'loss' : ''}>${signed(l.delta)}</td>
          </tr>`,
        )}
      </tbody>
    </table>
    <p class="carry-line">${result.carryText}</p>
  </section>`;
}

function GameOver({ model, view, table, onStart, onLeave }) {
  return html`<section class="result-panel game-over" aria-labelledby="over-title">
    <header><h2 id="over-title">Game ${model.gameNo} is over</h2></header>
    ${model.endText ? html`<p class="end-reason">${model.endText}</p>` : null}
    <ol class="standings">
      ${model.standings.map(
        (s, k) => html`<li class=${s.seat === model.seat ? 'me' : ''}>
          <span class="place">${k + 1}</span>
          <span class="who">${s.name}</span>
          <span class=${s.net > 0 ? 'gain' : s.net < 0 ? 'loss' : ''}>${signed(s.net)}</span>
          <span class="muted">${cents(s.stack)}</span>
        </li>`,
      )}
    </ol>
    ${model.seed ? html`<p class="seed-line">Seed revealed: <code>${model.seed.slice(0, 16)}…</code></p>` : null}
    <${GameOverActions} view=${view} start=${model.host_controls && model.host_controls.start} onStart=${onStart} onLeave=${onLeave}>
      <a class="button" href=${`#/verify/${encodeURIComponent(table)}/${model.gameNo}`}>Verify this game</a>
      <a class="button" href=${`#/replay/${encodeURIComponent(table)}/${model.gameNo}`}>Watch the replay</a>
    </${GameOverActions}>
  </section>`;
}

function Hand({ model, lifted, selected, onCard, onKey, handRef }) {
  const decision = model.decision;
  const trumpSuit = model.trump ? model.trump.suit : null;
  const cards = useMemo(() => {
    if (model.hand.some((c) => c.hidden)) return model.hand;
    const order = sortHand(model.hand.map((c) => c.code), trumpSuit);
    return order.map((code) => model.hand.find((c) => c.code === code));
  }, [model.hand, trumpSuit]);
  const { focused: clamped, setFocus, keyDown } = useHandKeys(cards.length, handRef, onKey);
  if (!cards.length) {
    return model.spectator ? null : html`<div class="hand empty-hand" aria-hidden="true"></div>`;
  }
  const kind = decision ? decision.kind : null;
  return html`<div
    class=${`hand ${kind ? `deciding decide-${kind}` : ''}`}
    role="group"
    aria-label=${`Your hand: ${cards.length} cards${kind === 'play' ? '. Arrow keys to choose, Enter to lift, Enter again to play' : kind === 'draw' ? '. Arrow keys to choose, Enter to mark a discard' : ''}`}
    ref=${handRef}
    onKeyDown=${keyDown}
    style=${`--n:${cards.length}`}
    data-motion="hand"
  >
    ${cards.map((card, k) => {
      if (card.hidden) {
        return html`<button
          type="button"
          class="hand-card hidden-card"
          tabindex=${k === clamped ? 0 : -1}
          aria-label="A face-down card: the dealer sees their cards at the dealer's knock"
          title="The dealer is blind: your cards turn up at your knock"
          data-tip="The dealer is blind: your cards turn up at your knock"
          onFocus=${() => setFocus(k)}
          onClick=${() => onCard(card)}
        ><${CardBack} size="lg" /></button>`;
      }
      const isLifted = lifted === card.code;
      const isSelected = selected.includes(card.code);
      const state = card.legal === true ? 'legal' : card.legal === false ? 'illegal' : 'idle';
      const why = card.legal === false ? card.reason : '';
      const kept = card.kept ? ' (the kept trump card)' : '';
      const what =
        kind === 'play'
          ? card.legal
            ? isLifted
              ? 'lifted: press Enter again to play it'
              : 'playable'
            : `cannot be played: ${why}`
          : kind === 'discard'
            ? card.legal
              ? isLifted
                ? 'lifted: press Enter again to discard it'
                : 'can be discarded'
              : `cannot be discarded: ${why}`
            : kind === 'draw'
              ? card.legal
                ? isSelected
                  ? 'marked to discard'
                  : 'keep'
                : `cannot be discarded: ${why}`
              : '';
      const can =
        card.legal === true
          ? { play: 'you may play it', discard: 'you may discard it', draw: 'you may discard it' }[kind] || ''
          : '';
      const tip = `${label(card.code)}${kept}${why ? ` — ${why}` : can ? ` — ${can}` : ''}`;
      return html`<button
        type="button"
        class=${`hand-card ${state} ${isLifted || isSelected ? 'lifted' : ''} ${isSelected ? 'selected' : ''}`}
        tabindex=${k === clamped ? 0 : -1}
        aria-label=${`${spoken(card.code)}${kept}${what ? `, ${what}` : ''}`}
        aria-pressed=${kind === 'draw' ? (isSelected ? 'true' : 'false') : kind ? (isLifted ? 'true' : 'false') : undefined}
        aria-disabled=${card.legal === false ? 'true' : undefined}
        title=${tip}
        data-tip=${tip}
        data-card=${card.code}
        style=${`--k:${k}`}
        onFocus=${() => setFocus(k)}
        onClick=${() => onCard(card)}
      >
        <${CardFace} code=${card.code} size="lg" kept=${card.kept} />
        ${isSelected ? html`<span class="discard-mark" aria-hidden="true">Discard</span>` : null}
      </button>`;
    })}
  </div>`;
}

function Decision({ model, lifted, selected, act, view, onClear }) {
  const d = model.decision;
  const left = model.remaining;
  const timer = left !== null ? html`<${Countdown} left=${left} total=${model.timerMs || 30000} pause=${model.phase === 'interlude'} />` : null;
  if (!d) return null;
  let buttons;
  if (d.kind === 'draw') {
    const option = drawOption(view, selected);
    const n = selected.length;
    buttons = html`
      <button
        type="button"
        class="primary"
        disabled=${!n || !option || !option.legal}
        title=${option && !option.legal ? option.reason : n ? `Discard ${labelsOf(selected)} and draw ${n}` : 'Choose cards first'}
        onClick=${() => option && act(option.action)}
      >${n ? `Discard ${n} & draw ${n}` : 'Discard & draw'}</button>
      <button type="button" onClick=${() => act({ kind: 'draw', discards: [] })}>Keep all</button>
      ${n ? html`<button type="button" class="link" onClick=${onClear}>Clear</button>` : null}`;
  } else if (d.kind === 'play' || d.kind === 'discard') {
    const card = lifted ? model.hand.find((c) => c.code === lifted) : null;
    const verb = d.kind === 'play' ? 'Play' : 'Discard';
    buttons = html`<button
        type="button"
        class="primary"
        disabled=${!card || !card.legal}
        onClick=${() => card && act({ kind: d.kind, card: card.code })}
      >${card ? `${verb} ${label(card.code)}` : `${verb} a card`}</button>
      ${card ? html`<button type="button" class="link" onClick=${onClear}>Put it back</button>` : null}`;
  } else {
    buttons = d.choices.map(
      (c) => html`<button
        type="button"
        class=${c.primary || d.kind === 'ante' ? 'primary' : ''}
        disabled=${!c.legal}
        title=${c.reason || c.text}
        onClick=${() => act(c.action)}
      >${c.text}</button>`,
    );
  }
  return html`<div class="decision" role="group" aria-labelledby="decision-prompt" data-decision=${d.kind}>
    <div class="decision-text">
      ${timer}
      <div>
        <p id="decision-prompt" class="prompt">${d.prompt}</p>
        ${d.detail ? html`<p class="detail">${d.detail}</p>` : null}
        ${d.kind === 'play' || d.kind === 'discard'
          ? html`<p class="detail">${lifted ? 'Tap the card again, or the button, to confirm.' : 'Tap a bright card to lift it.'}</p>`
          : null}
      </div>
    </div>
    <div class="decision-buttons">${buttons}</div>
  </div>`;
}

const labelsOf = (codes) => codes.map(label).join(' ');

function TableControls({ model, act, onLeave }) {
  if (model.spectator) return null;
  return html`<div class="seat-controls" role="group" aria-label="Your seat">
    <button
      type="button"
      class="small"
      onClick=${() => act({ kind: 'sit_out', sitting_out: !model.sittingOut })}
      title=${model.sittingOut ? 'Be dealt in again from the next hand' : 'Stop being dealt in from the next hand'}
    >${model.sittingOut ? "I'm back" : 'Sit out'}</button>
    <button
      type="button"
      class="small"
      disabled=${model.leaving}
      onClick=${onLeave}
      title=${model.inHand ? 'You play on by the defaults until this hand ends, then your seat is freed' : 'Leave the table now'}
    >${model.leaving ? 'Leaving after this hand' : model.inHand ? 'Leave after this hand' : 'Leave table'}</button>
  </div>`;
}

function HostMenu({ model, act }) {
  const host = model.host_controls;
  const [heir, setHeir] = useState('');
  const [botSeat, setBotSeat] = useState('');
  const [level, setLevel] = useState('medium');
  if (!host) return null;
  const names = new Map(model.seats.map((s) => [s.seat, s.name]));
  // Alone with bots, the host's tools stay folded away: only starting or ending a game matters.
  return html`<details class="panel host-menu" open=${!model.solo}>
    <summary>${model.solo ? 'Game' : 'Host menu'}</summary>
    <div class="host-actions">
      ${host.start
        ? html`<button type="button" class="primary small" disabled=${!host.start.legal} title=${host.start.reason || 'Deal the first hand'} onClick=${() => act({ kind: 'start_game' })}>Start game</button>`
        : null}
      ${host.end
        ? html`<button type="button" class="small" disabled=${!host.end.legal} title=${host.end.reason || 'End the game and reveal its seed'} onClick=${() => act({ kind: 'end_game' })}>End game</button>`
        : null}
      ${host.end && !host.end.legal ? html`<p class="hint">${host.end.reason}</p>` : null}
    </div>
    ${host.handOver.length
      ? html`<div class="host-row">
          <label for="heir">Hand over host to</label>
          <select id="heir" value=${heir} onChange=${(e) => setHeir(e.target.value)}>
            <option value="">Choose a player</option>
            ${host.handOver.map((seat) => html`<option value=${seat}>${names.get(seat)}</option>`)}
          </select>
          <button type="button" class="small" disabled=${heir === ''} onClick=${() => act({ kind: 'hand_over_host', seat: Number(heir) })}>Hand over</button>
        </div>`
      : null}
    ${host.addBot.length
      ? html`<div class="host-row">
          <label for="bot-seat">Add a bot at</label>
          <select id="bot-seat" value=${botSeat} onChange=${(e) => setBotSeat(e.target.value)}>
            <option value="">Choose a seat</option>
            ${host.addBot.map((seat) => html`<option value=${seat}>Seat ${seat + 1}</option>`)}
          </select>
          <label class="visually-hidden" for="bot-level">Bot level</label>
          <select id="bot-level" value=${level} onChange=${(e) => setLevel(e.target.value)}>
            ${LEVELS.map((l) => html`<option value=${l}>${l}</option>`)}
          </select>
          <button type="button" class="small" disabled=${botSeat === ''} onClick=${() => act({ kind: 'add_bot', seat: Number(botSeat), bot: level })}>Add bot</button>
        </div>`
      : null}
  </details>`;
}

function SidePanel({ model, table, invite, log, chat, sendChat, me, act, tab, setTab, onLeave, small }) {
  const link = invite ? `${location.origin}${location.pathname}#/join/${encodeURIComponent(invite)}` : '';
  const [copied, setCopied] = useState('');
  const copy = async (text, what) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(what);
    } catch {
      setCopied('');
    }
  };
  const fingerTip =
    'Provably fair: this is the SHA-256 of the secret seed every shuffle of this game comes from. The seed is revealed when the game ends, so anyone can re-deal every hand and check it.';
  return html`<aside class="side-panel" aria-label="Table details">
    <section class="panel info" aria-labelledby="info-title">
      <h2 id="info-title">Table</h2>
      <dl class="facts compact">
        <div><dt>Game</dt><dd>${model.gameNo || '—'}${model.handNo ? ` · hand ${model.handNo}` : ''}</dd></div>
        <div><dt>Phase</dt><dd>${model.phaseText}</dd></div>
        <div><dt>Timer</dt><dd>${model.decisionTimerMs ? `${model.decisionTimerMs / 1000} s a decision` : 'None'}</dd></div>
        ${model.fingerprint && !model.solo
          ? html`<div title=${fingerTip} data-tip=${fingerTip}>
              <dt>Seed fingerprint</dt>
              <dd><code class="fingerprint">${model.fingerprint.slice(0, 12)}…${model.fingerprint.slice(-6)}</code>
                <button type="button" class="link small" onClick=${() => copy(model.fingerprint, 'fingerprint')}>${copied === 'fingerprint' ? 'Copied' : 'Copy'}</button>
              </dd>
            </div>`
          : null}
      </dl>
      <${TableControls} model=${model} act=${act} onLeave=${onLeave} />
      ${link && !model.solo
        ? html`<div class="invite">
            <label for="invite-link">Invite link</label>
            <div class="row">
              <input id="invite-link" readonly value=${link} onFocus=${(e) => e.target.select()} />
              <button type="button" class="small" onClick=${() => copy(link, 'invite')}>${copied === 'invite' ? 'Copied' : 'Copy'}</button>
            </div>
          </div>`
        : null}
    </section>
    <${HostMenu} model=${model} act=${act} />
    <section class="panel feed">
      <div class="tabs" role="tablist" aria-label="Hand log and chat">
        <button type="button" role="tab" id="tab-log" aria-controls="panel-log" aria-selected=${small || tab === 'log' ? 'true' : 'false'} onClick=${() => setTab('log')}>Hand log</button>
        ${small
          ? null
          : html`<button type="button" role="tab" id="tab-chat" aria-controls="panel-chat" aria-selected=${tab === 'chat' ? 'true' : 'false'} onClick=${() => setTab('chat')}>
              Chat${chat.unread ? html` <span class="unread">${chat.unread}</span>` : null}
            </button>`}
      </div>
      <div role="tabpanel" id="panel-log" aria-labelledby="tab-log" hidden=${!small && tab !== 'log'}>
        <ol class="hand-log" tabindex="0" aria-label="What happened, newest first">
          ${log.length
            ? log
                .slice(-80)
                .reverse()
                .map((entry) => html`<li key=${entry.id}>${entry.text}</li>`)
            : html`<li class="muted">Nothing has happened yet.</li>`}
        </ol>
      </div>
      ${small
        ? null
        : html`<div role="tabpanel" id="panel-chat" aria-labelledby="tab-chat" hidden=${tab !== 'chat'}>
            <${Chat} lines=${chat.lines} send=${sendChat} me=${me} />
          </div>`}
    </section>
    ${model.result
      ? html`<section class="panel last-hand" aria-labelledby="last-title">
          <h2 id="last-title">Last hand (${model.result.handNo})</h2>
          <p>${model.result.headline}</p>
          ${model.result.mine !== null
            ? html`<p class="my-change">Your change: <strong class=${model.result.mine > 0 ? 'gain' : model.result.mine < 0 ? 'loss' : ''}>${signed(model.result.mine)}</strong></p>`
            : null}
          ${model.result.sets.map((s) => html`<p class="loss small">${s.text}</p>`)}
          <p class="small">${model.result.carryText}</p>
        </section>`
      : null}
  </aside>`;
}

/** The current decision's enabled buttons, in order. */
function decisionControls() {
  return [...document.querySelectorAll('.my-area [data-decision] button:not([disabled])')];
}

const SHORTCUTS = [
  ['1 – 9', "Take the decision's first, second… button (ante, knock, pass, keep…)"],
  ['D', 'Go to the decision'],
  ['H', 'Go to your hand'],
  ['← → Home End', 'Move along your hand'],
  ['Enter', 'Lift a card, Enter again to play it (in a draw: mark it)'],
  ['Esc', 'Put a lifted card back, clear marks, close this list'],
  ['C', 'Chat'],
  ['M', 'Sound on or off'],
  ['?', 'Show or hide this list'],
];

function Shortcuts({ onClose }) {
  const closeRef = useRef(null);
  useEffect(() => {
    const back = document.activeElement;
    closeRef.current?.focus();
    const key = (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onClose();
      }
    };
    window.addEventListener('keydown', key);
    return () => {
      window.removeEventListener('keydown', key);
      if (back && back.focus) back.focus();
    };
  }, []);
  return html`<div class="shortcuts" role="dialog" aria-modal="true" aria-labelledby="shortcuts-title">
    <h2 id="shortcuts-title">Keyboard shortcuts</h2>
    <dl>
      ${SHORTCUTS.map(([keys, what]) => html`<div key=${keys}><dt><kbd>${keys}</kbd></dt><dd>${what}</dd></div>`)}
    </dl>
    <button type="button" ref=${closeRef} onClick=${onClose}>Close</button>
  </div>`;
}

export function TablePage({ table, invite, autoJoin, onGame }) {
  const heard = useRef(new Set());
  const [closed, setClosed] = useState({});
  const [lifted, setLifted] = useState(null);
  const [selected, setSelected] = useState([]);
  const handRef = useRef(null);
  const cover = useRef(null); // what the log has worded so far (state.js wordView)
  const resultAt = useRef(new Map()); // hand number -> when its result arrived
  // Swick's words for the table's feed (shell/feed.js): the log worded once a view, and again
  // from the history after a reload.
  const feed = useTableFeed({
    table,
    invite,
    autoJoin,
    onGame,
    game: {
      name: 'swick',
      said: (prev, next) => {
        const worded = wordView(cover.current, next, heard.current);
        cover.current = worded.cover;
        return worded.said;
      },
      history: (views) => {
        const words = wordHistory(cover.current, views, heard.current);
        cover.current = words.cover;
        return words;
      },
      // `seq`: the history leaves out the views this page has worded.
      since: () => historySince(cover.current),
      changed: (prev, next) => {
        if (next.result && !resultAt.current.has(next.result.hand_no)) resultAt.current.set(next.result.hand_no, prev ? Date.now() : 0);
      },
      trickTaken: (prev, next) => {
        if (next.hand_no !== prev.hand_no || next.played.length <= prev.played.length) return null;
        const trick = next.played[next.played.length - 1];
        const derived = derive(next);
        return {
          cards: trick.map(([seat, code]) => ({ seat, code })),
          winner: derived.lastTrick ? derived.lastTrick.winner : trick[0][0],
          // Shown long enough to see who won; shorter when you lead next, so your lead is
          // not played beside the old trick.
          ms: next.to_act.includes(next.seat) ? LEAD_FLASH_MS : TRICK_FLASH_MS,
        };
      },
      // Readying up (or setting the ante) adds this browser's own randomness to the shuffle.
      prepare: (chosen) => ((chosen.kind === 'ready' || chosen.kind === 'ante') && !chosen.entropy ? { ...chosen, entropy: randomEntropy() } : chosen),
      acted: () => {
        setLifted(null);
        setSelected([]);
      },
    },
  });
  const { app, ts, view, missing, log, chat, tab, setTab, showToast, flash, act, join, sendChat } = feed;

  const model = view ? derive(view, Date.now()) : null;
  // The last finished trick stays reviewable after the next deal clears the table's tricks.
  const lastTrick = useRef(null);
  if (model && model.lastTrick) lastTrick.current = model.lastTrick;
  useTicker(Boolean(view && view.deadline), 250);

  // A new decision: nothing lifted or marked.
  const decisionKey = model ? `${model.handNo}:${model.phase}:${model.myTurn}:${model.tricksPlayed}:${model.trick.length}` : '';
  useEffect(() => {
    setLifted(null);
    setSelected([]);
  }, [decisionKey]);

  // Your turn: focus goes to the decision (its first legal card, or its first button), unless
  // you are typing, so a keyboard player acts at once and chat keeps its text. A new decision
  // asks for focus until its controls are on the page (they may come a render later) and no
  // dialog is open; focus placed there that falls to the page because its element was
  // re-rendered away goes back.
  const myTurn = Boolean(model && model.myTurn);
  useTurnFocus(decisionKey, myTurn, () => document.querySelector('.hand .hand-card.legal') || decisionControls()[0]);

  // Shortcuts (listed by "?"): digits take the decision's buttons, H the hand, D the decision,
  // C the chat.
  const [helpOpen, setHelpOpen] = useState(false);
  useTableKeys({ decision: '.my-area [data-decision]', hand: '.hand', onChat: () => setTab('chat'), keys: { '?': () => setHelpOpen((open) => !open) } });

  // On a small screen the hand and the decision are docked at the bottom.
  const small = useSmallScreen();
  const mainRef = useRef(null);
  const dockRef = useRef(null);
  const openerRef = useRef(null);
  useDockHeight(mainRef, dockRef, Boolean(view), true);
  // The deal, the play, the trick going to its winner and the chips: motion over the view shown.
  useTableMotion(model ? swickSight(model, flash) : null, mainRef);

  const banner = connectionBanner(app, view, ts.resync);
  if (!view) return html`<${TableGate} missing=${missing} banner=${banner} />`;
  const n = model.seats.length;
  const onCard = (card) => {
    const d = model.decision;
    if (!d || card.hidden) return;
    if (card.legal === false) {
      showToast(card.reason || 'That card cannot be chosen now', 'info');
      return;
    }
    if (card.legal !== true) return;
    if (d.kind === 'draw') {
      setSelected((list) => (list.includes(card.code) ? list.filter((c) => c !== card.code) : list.length >= 3 ? list : [...list, card.code]));
    } else if (d.kind === 'play' || d.kind === 'discard') {
      if (lifted === card.code) act({ kind: d.kind, card: card.code });
      else setLifted(card.code);
    }
  };
  const onHandKey = (event) => {
    if (event.key === 'Escape') {
      setLifted(null);
      setSelected([]);
    }
  };
  const leave = () => feed.leave(model.inHand);
  // A hand's result shows between hands, and for a few seconds into the next one.
  const fresh = model.result && Date.now() - (resultAt.current.get(model.result.handNo) || 0) < RESULT_MS;
  const resultShown =
    model.result &&
    model.phase !== 'ended' &&
    !closed[model.result.handNo] &&
    !flash &&
    !model.trick.length &&
    (model.interludes
      ? model.phase === 'interlude'
      : (model.between && model.result.handNo === model.handNo) || fresh);
  const addBot = model.host_controls && model.host_controls.addBot.length
    ? (seat, level) => act({ kind: 'add_bot', seat, bot: level })
    : null;
  const canJoin = new Set(model.canJoin);
  return html`<${TableFrame}
    feed=${feed}
    model=${model}
    refs=${{ main: mainRef, dock: dockRef, opener: openerRef }}
    small=${small}
    className=${`seats-${n}`}
    game="swick"
    title="Swick table"
    layout="table-layout"
    area="table-area"
    over=${helpOpen ? html`<${Shortcuts} onClose=${() => setHelpOpen(false)} />` : null}
    head=${html`
      ${model.handNo ? html`<span>Hand ${model.handNo}</span>` : null}
      ${model.freeRide && !model.between ? html`<span class="tag ride">Free ride</span>` : null}
      ${model.spectator ? html`<span class="tag watching">Watching</span>` : null}
      <${LastTrick} model=${model} last=${model.lastTrick || lastTrick.current} />
      <${FairPill} model=${model} icon=${SHIELD} focusable=${false} />
      <span class="waiting" aria-hidden=${model.myTurn ? 'true' : 'false'}>${model.myTurn ? 'Your turn' : model.waiting}</span>`}
    felt=${html`
      <div class="felt-wrap">
      <div class="felt" data-motion="felt">
        <div class="felt-logo" aria-hidden="true">SWICK</div>
        <${Centre} model=${model} flash=${flash} />
        ${model.seats.map(
          (seat) => html`<${Seat}
            key=${seat.seat}
            seat=${seat}
            n=${n}
            model=${model}
            onAddBot=${seat.empty ? addBot : null}
            onJoin=${seat.empty && canJoin.has(seat.seat) ? () => join(seat.seat) : null}
          />`,
        )}
        ${resultShown ? html`<${ResultPanel} result=${model.result} onClose=${() => setClosed({ ...closed, [model.result.handNo]: true })} />` : null}
        ${model.phase === 'ended' ? html`<${GameOver} model=${model} view=${view} table=${table} onStart=${() => act({ kind: 'start_game' })} onLeave=${feed.leave} />` : null}
      </div>
      </div>`}
    dockClass="my-area"
    dock=${html`
      <${Hand} model=${model} lifted=${lifted} selected=${selected} onCard=${onCard} onKey=${onHandKey} handRef=${handRef} />
      ${model.myTurn
        ? html`<${Decision} model=${model} view=${view} lifted=${lifted} selected=${selected} act=${act} onClear=${() => {
            setLifted(null);
            setSelected([]);
          }} />`
        : html`<div class="decision waiting-bar">
            <p class="prompt">${model.spectator ? 'You are watching this table.' : model.waiting}</p>
            ${model.host_controls && model.host_controls.start && model.phase === 'lobby'
              ? html`<button
                  type="button"
                  class="primary"
                  disabled=${!model.host_controls.start.legal}
                  title=${model.host_controls.start.reason || 'Deal the first hand'}
                  onClick=${() => act({ kind: 'start_game' })}
                >Start the game</button>`
              : null}
            ${model.spectator && model.canJoin.length
              ? html`<button type="button" class="primary" onClick=${() => join(null)}>Take a seat</button>`
              : null}
            ${model.spectator && !model.canJoin.length ? html`<p class="detail">Seats open between hands when a player leaves.</p>` : null}
          </div>`}`}
    side=${html`
      <${SidePanel}
      model=${model}
      table=${table}
      invite=${invite}
      log=${log}
      chat=${chat}
      sendChat=${sendChat}
      me=${app.session && app.session.id}
      act=${act}
      tab=${tab}
      setTab=${setTab}
      onLeave=${leave}
      small=${small}
      />`}
    graceMs=${model.graceMs}
  />`;
}
