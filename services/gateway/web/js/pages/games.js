// #/games, "Your games": every finished game the signed-in player sat in, newest first, a page
// at a time (GET /api/games/mine), of every game or of one; each with when it ended, the seats,
// the player's result and links to its replay and its check. The words are js/game-history.js's.

import { html, useEffect, useRef, useState } from '../../vendor/htm-preact-3.1.1.module.js';
import { api } from '../api.js';
import { useApp } from '../context.js';
import {
  GAME_FILTERS,
  appendGames,
  emptyText,
  gameKey,
  gameLinks,
  gameName,
  resultOf,
  seatText,
  whenText,
} from '../game-history.js';
import { ratingWords, statsLines } from '../game-stats.js';
import { ErrorText, useAction } from '../ui.js';

/** One seat of a game: the name, then what it was ("you", "medium bot", "left early"). */
function Seat({ seat }) {
  const { name, marks } = seatText(seat);
  return html`<li class=${`game-seat ${seat.me ? 'mine' : ''}`}>
    <span class="game-seat-name">${name}</span>
    ${marks.map(
      (mark) => html` <span class=${mark === 'you' ? 'you-tag' : mark.endsWith('bot') ? 'bot-badge' : 'badge'}>${mark}</span>`,
    )}
  </li>`;
}

/** One finished game: its name and when it ended (the item's heading), the player's result,
 * the seats, and its Replay and Verify links (described by the heading). */
function GameItem({ entry, index }) {
  const id = `game-${index}`;
  const result = resultOf(entry);
  const links = gameLinks(entry);
  const when = whenText(entry.ended_at);
  return html`<li class="panel game-item" data-game=${entry.game} data-table=${entry.table_id} data-game-no=${entry.game_no}>
    <h2 id=${id} class="game-item-title" tabindex="-1">
      <span class=${`game-tag ${entry.game}`}>${gameName(entry.game)}</span>
      ${when ? html` <time datetime=${entry.ended_at}>${when}</time>` : null}
    </h2>
    <dl class="game-result">
      <div><dt>Result</dt><dd class="game-place">${result.place}${result.left ? html` <span class="badge left-early">${result.left}</span>` : null}</dd></div>
      ${result.points ? html`<div><dt>Points</dt><dd class="game-points">${result.points}</dd></div>` : null}
      ${result.chips ? html`<div><dt>Chips</dt><dd class=${`game-chips ${result.chips.tone}`}>${result.chips.text}</dd></div>` : null}
    </dl>
    <h3 class="visually-hidden">Seats</h3>
    <ul class="game-seats">
      ${(entry.seats || []).map((seat, k) => html`<${Seat} key=${k} seat=${seat} />`)}
    </ul>
    <p class="game-links">
      <a class="button small" href=${links.replay} aria-describedby=${id}>Replay</a>
      <a class="button small" href=${links.verify} aria-describedby=${id}>Verify</a>
    </p>
  </li>`;
}

/** The player's rating and statistics at the picked game; with every game picked, their
 * rating at each. Nothing while it loads or if it cannot be read (the list says why). */
function StatsPanel({ game, token }) {
  const [data, setData] = useState(null);
  useEffect(() => {
    let live = true;
    setData(null);
    Promise.all([api.myRatings(token), game ? api.myStats(token, game) : null])
      .then(([ratings, stats]) => live && setData({ game, ratings, stats }))
      .catch(() => live && setData(null));
    return () => {
      live = false;
    };
  }, [game, token]);
  if (!data || data.game !== game) return null; // (the first render after a change of game)
  const ratingOf = (id) => ratingWords((data.ratings || []).find((r) => r.game === id));
  const lines = game
    ? [['Rating', ratingOf(game)], ...statsLines(data.stats).map(([term, text]) => [term, { text }])]
    : GAME_FILTERS.filter((g) => g.id).map((g) => [`${g.name} rating`, ratingOf(g.id)]);
  return html`<section class="panel games-stats" aria-labelledby="games-stats-title">
    <h2 id="games-stats-title">${game ? `You at ${gameName(game)}` : 'Your ratings'}</h2>
    <dl class="stats-lines">
      ${lines.map(
        ([term, value]) => html`<div>
          <dt>${term}</dt>
          <dd title=${value.tip || undefined}>${value.text}${value.tip ? html`<span class="visually-hidden">, ${value.tip}</span>` : null}</dd>
        </div>`,
      )}
    </dl>
    <p class="small muted">Every finished game with a result moves your rating: a newcomer starts at 1500, and a ? marks a rating not yet settled. Bots are rated on a ladder of their own, on <a href="#/">the lobby's leaderboard</a>.</p>
  </section>`;
}

export function GamesPage() {
  const { session } = useApp();
  const [game, setGame] = useState('');
  // The games shown, the cursor of the page after them (null: no more), and whether the first
  // page came yet.
  const [shown, setShown] = useState({ games: [], next: null, loaded: false });
  const { busy, error, run } = useAction();
  const asked = useRef(0); // the latest request: an answer to an older one (another filter) is dropped
  const focusFrom = useRef(null); // after Show more, the first new game takes the focus

  const load = (filter, before = null) => {
    const ticket = ++asked.current;
    return run(async () => {
      let page;
      try {
        page = await api.myGames(session.token, { game: filter, before });
      } catch (e) {
        if (ticket === asked.current) throw e;
        return;
      }
      if (ticket !== asked.current) return;
      const games = (page && page.games) || [];
      setShown((now) => {
        if (before) focusFrom.current = now.games.length;
        return { games: before ? appendGames(now.games, games) : games, next: (page && page.next) || null, loaded: true };
      });
    });
  };

  useEffect(() => {
    setShown({ games: [], next: null, loaded: false });
    load(game);
  }, [game, session.token]);

  useEffect(() => {
    if (focusFrom.current === null) return;
    const first = document.getElementById(`game-${focusFrom.current}`);
    focusFrom.current = null;
    if (first) first.focus();
  }, [shown]);

  const { games, next, loaded } = shown;
  const count = games.length;
  return html`<main id="main" class="games" tabindex="-1">
    <h1>Your games</h1>
    <p class="muted">Every game you finished, newest first: how it ended for you, who sat in, and its replay and its check.</p>
    <div class="games-filter">
      <label for="games-game">Game</label>
      <select id="games-game" value=${game} onChange=${(e) => setGame(e.target.value)}>
        ${GAME_FILTERS.map((g) => html`<option value=${g.id} selected=${g.id === game}>${g.name}</option>`)}
      </select>
    </div>
    <${StatsPanel} game=${game} token=${session.token} />
    <p class="visually-hidden" role="status">${loaded ? `${count} game${count === 1 ? '' : 's'} shown${next ? ', more to show' : ''}` : ''}</p>
    ${count
      ? html`<ol class="games-list" aria-label=${game ? `Your games of ${gameName(game)}, newest first` : 'Your games, newest first'}>
          ${games.map((entry, index) => html`<${GameItem} key=${gameKey(entry)} entry=${entry} index=${index} />`)}
        </ol>`
      : loaded
        ? html`<p class="games-empty">${emptyText(game)} <a href="#/">Play one from the lobby</a>.</p>`
        : !error
          ? html`<p class="muted">Loading your games…</p>`
          : null}
    <${ErrorText} text=${error} />
    ${error && !loaded ? html`<button type="button" class="small" onClick=${() => load(game)} disabled=${busy}>Try again</button>` : null}
    ${next
      ? html`<p class="games-more">
          <button type="button" aria-busy=${busy ? 'true' : 'false'} onClick=${() => busy || load(game, next)}>Show more</button>
        </p>`
      : null}
  </main>`;
}
