// Swick Online in the browser: the shell (header, routes, sign-in, the socket) around the pages.
// Routes live in the hash: #/ lobby, #/table/<id>[/<invite>], #/join/<code>, #/rules[/exact|/euchre|/contract-whist],
// #/verify[/<table>/<game>], #/replay/<table>/<game>, #/games (your finished games), #/account,
// #/link/<code> (signing in with a device link).

import {
  html,
  render,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from '../vendor/htm-preact-3.1.1.module.js';
import {
  api,
  dropSession,
  gameOf,
  rememberGame,
  formerName,
  invites,
  loadSession,
  onSessionStored,
  onTokenRefused,
  saveSession,
  sessionOf,
} from './api.js';
import { App, go, useApp } from './context.js';
import { Connection } from './net.js';
import { isMuted, onMuteChange, setMuted, unlockOnGesture } from './sound.js';
import { ErrorText, TipLayer, nameTyped, useAction } from './ui.js';
import { GAMES, LobbyPage, JoinPage } from './pages/lobby.js';
import { TablePage } from './pages/table.js';
import { EuchrePage } from './pages/euchre.js';
import { WhistPage } from './pages/whist.js';
import { RulesPage } from './pages/rules.js';
import { EuchreGuidePage } from './pages/euchre-guide.js';
import { WhistGuidePage } from './pages/whist-guide.js';
import { VerifyPage } from './pages/verify.js';
import { ReplayPage } from './pages/replay.js';
import { AccountPage } from './pages/account.js';
import { GamesPage } from './pages/games.js';
import { SignInAgain } from './pages/sign-in.js';
import { landingOf } from './account-words.js';

export function parseRoute(hash) {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [page = 'lobby', ...rest] = parts;
  return { page, args: rest };
}

function useRoute() {
  const [route, setRoute] = useState(parseRoute(location.hash));
  useEffect(() => {
    const changed = () => {
      setRoute(parseRoute(location.hash));
      window.scrollTo(0, 0);
    };
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}

/** Each game's How to play page: the header's Rules link at a table of that game. */
const GUIDES = { swick: '#/rules', euchre: '#/rules/euchre', 'contract-whist': '#/rules/contract-whist' };

/** A table's page: the Swick table, or the Euchre or Contract Whist table once the table's view
 * (or the lobby) says it plays that game; `onShown` hears which game the table shows. */
function TableRoute({ table, invite, autoJoin, onShown }) {
  const [game, setGame] = useState(() => gameOf(table));
  useEffect(() => {
    onShown({ table, game });
  }, [table, game]);
  const switchTo = useCallback(
    (next) => {
      rememberGame(table, next);
      setGame(next);
    },
    [table],
  );
  if (game !== 'swick' && game !== 'euchre' && game !== 'contract-whist') {
    return html`<main id="main" class="table-page" tabindex="-1">
      <section class="panel gate-panel">
        <h1>No web table for this game yet</h1>
        <p>This table plays ${game}, which this web client cannot show yet.</p>
        <a class="button" href="#/">Back to the lobby</a>
      </section>
    </main>`;
  }
  if (game === 'contract-whist') {
    return html`<${WhistPage} key=${`whist-${table}`} table=${table} invite=${invite} autoJoin=${autoJoin} onGame=${switchTo} />`;
  }
  return game === 'euchre'
    ? html`<${EuchrePage} key=${`euchre-${table}`} table=${table} invite=${invite} autoJoin=${autoJoin} onGame=${switchTo} />`
    : html`<${TablePage} key=${`swick-${table}`} table=${table} invite=${invite} autoJoin=${autoJoin} onGame=${switchTo} />`;
}

function Logo() {
  return html`<svg class="logo" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
    <rect x="8" y="6" width="34" height="46" rx="5" fill="#fff" stroke="#1b4332" stroke-width="2" transform="rotate(-12 25 29)" />
    <rect x="22" y="10" width="34" height="46" rx="5" fill="#fff" stroke="#1b4332" stroke-width="2" transform="rotate(10 39 33)" />
    <path d="M40 20 C34 30 26 34 26 41 C26 46 30 49 34 49 C37 49 39 47 40 45 C40 49 38 52 35 54 L45 54 C42 52 40 49 40 45 C41 47 43 49 46 49 C50 49 54 46 54 41 C54 34 46 30 40 20 Z" fill="#1d1d1f" />
  </svg>`;
}

function Header({ route, shown }) {
  const { session, status, muted, toggleMute } = useApp();
  const table = route.page === 'table' ? route.args[0] : null;
  const tableGame = table && (shown && shown.table === table ? shown.game : gameOf(table));
  const rulesHref = GUIDES[tableGame] || '#/rules';
  const link = (page, text, href, more = '') => html`<a
    href=${href}
    class=${route.page === page ? 'active' : ''}
    aria-current=${route.page === page ? 'page' : undefined}
  >${text}${more ? html`<span class="nav-long">${more}</span>` : null}</a>`;
  const online = status.state === 'open';
  return html`<header class="top">
    <a class="brand" href="#/" aria-label="Swick Online, lobby"><${Logo} /><span>Swick Online</span></a>
    <nav aria-label="Main">
      ${link('lobby', 'Lobby', '#/')}
      ${link('rules', 'Rules', rulesHref)}
      ${link('games', 'Games', '#/games', ' played')}
      ${link('verify', 'Verify', '#/verify', ' a game')}
    </nav>
    <div class="top-right">
      ${session
        ? html`<a
            class=${`me ${route.page === 'account' ? 'active' : ''}`}
            href="#/account"
            title=${`Your account: ${online ? 'connected' : 'not connected'}`}
            aria-current=${route.page === 'account' ? 'page' : undefined}
          >
            <span class=${`dot ${online ? 'on' : 'off'}`} aria-hidden="true"></span>
            <span class="visually-hidden">Your account: </span>
            <span class="me-name">${session.name}</span>
            <span class="visually-hidden">${online ? '(connected)' : '(not connected)'}</span>
          </a>`
        : null}
      <button
        type="button"
        class="icon-button"
        aria-pressed=${muted ? 'true' : 'false'}
        aria-label="Mute sounds (M)"
        title=${muted ? 'Sound is off: press M to turn it on' : 'Sound is on: press M to mute'}
        onClick=${toggleMute}
      >
        ${muted
          ? html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor" /><path d="M16 9l5 6M21 9l-5 6" stroke="currentColor" stroke-width="2" /></svg>`
          : html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor" /><path d="M16 8c2 2 2 6 0 8M18.5 5.5c3.5 3.5 3.5 9.5 0 13" stroke="currentColor" stroke-width="2" fill="none" /></svg>`}
      </button>
    </div>
  </header>`;
}

const SIGN_IN_AGAIN =
  'Your sign-in is no longer valid: this device was signed out from your account on another one, you signed out everywhere from another device, it expired, or the server changed its keys. Sign in again below, or pick a name to start as a new player.';

/** Pick a name once: the token is kept in this browser. After the server refused the token, the
 * name it had is offered again. A player who already has an account signs in again instead
 * (`linkCode`: the code of #/link/<code>). */
function NameGate({ why, page, linkCode = '', again = false }) {
  const { session, setSession } = useApp();
  const signedIn = (player) => {
    setSession(sessionOf(player));
    const to = landingOf(player, page);
    if (to) go(to);
  };
  if (linkCode) {
    return html`<main id="main" class="gate" tabindex="-1">
      <section class="panel gate-panel">
        <h1 class="visually-hidden">Swick Online: sign in with a link code</h1>
        ${session
          ? html`<p class="notice" role="note">This browser is signed in as ${session.name} now: signing in with the code switches it to the player who made the code.</p>`
          : null}
        <${SignInAgain} onSignedIn=${signedIn} code=${linkCode} />
      </section>
    </main>`;
  }
  return html`<${NewPlayer} why=${why} onSignedIn=${signedIn} again=${again} />`;
}

function NewPlayer({ why, onSignedIn, again }) {
  const [name, setName] = useState(formerName);
  const { busy, error, setError, run } = useAction();
  const submit = (event) => {
    event.preventDefault();
    const clean = nameTyped(name, setError);
    if (clean) run(async () => onSignedIn(await api.signUp(clean)));
  };
  return html`<main id="main" class="gate">
    <section class="panel gate-panel" aria-labelledby="gate-title">
      <div class="gate-cards" aria-hidden="true">
        <span class="fan-card c1">A<i>♠</i></span><span class="fan-card c2 red">K<i>♥</i></span><span class="fan-card c3 red">Q<i>♦</i></span>
      </div>
      <h1 id="gate-title">Welcome to Swick Online</h1>
      <p class="lead">${why || 'Three trick-taking card games to play online, with friends or bots.'}</p>
      <ul class="gate-games" aria-label="The games">
        ${GAMES.map((g) => html`<li data-game=${g.id}><strong class="gate-game-name">${g.name}</strong> <span class="gate-game-blurb">${g.blurb}</span></li>`)}
      </ul>
      <form onSubmit=${submit} class="gate-form">
        <label for="name-input">Your name at the table</label>
        <div class="row">
          <input
            id="name-input"
            name="name"
            autocomplete="nickname"
            maxlength="32"
            value=${name}
            onInput=${(e) => setName(e.target.value)}
            placeholder="e.g. Ada"
            autofocus
          />
          <button class="primary" type="submit" disabled=${busy}>${busy ? 'Joining…' : 'Continue'}</button>
        </div>
        <${ErrorText} text=${error} />
        <p class="hint">Your name and chips are remembered in this browser. Add a passkey or recovery codes later to play on other devices too.</p>
      </form>
      <${SignInAgain} onSignedIn=${onSignedIn} open=${again || Boolean(formerName())} />
    </section>
  </main>`;
}

function Root() {
  const route = useRoute();
  const [session, setSessionState] = useState(loadSession());
  const [status, setStatus] = useState({ state: 'idle', retryAt: null, welcome: null });
  const [muted, setMutedState] = useState(isMuted());
  // The game the table page shows, for the header's Rules link.
  const [shownGame, setShownGame] = useState(null);
  const listeners = useRef(new Set());
  const connRef = useRef(null);

  // Why the welcome page shows, when this page signed out itself.
  const [gateWhy, setGateWhy] = useState('');
  const setSession = useCallback((value) => {
    saveSession(value);
    setSessionState(value);
    if (value) setGateWhy('');
  }, []);

  // One socket while signed in.
  useEffect(() => {
    if (!session) return undefined;
    const conn = new Connection(session.token, {
      onFrame: (frame) => {
        for (const listener of listeners.current) listener(frame);
      },
      onStatus: (s) => setStatus(s),
    });
    connRef.current = conn;
    conn.start();
    return () => {
      conn.stop();
      connRef.current = null;
    };
  }, [session && session.token]);

  // Signing out everywhere refuses this page's own token too, and closes its socket with 4401,
  // before the answer with the fresh token arrives: refusals of the token being replaced are
  // expected then, not a reason to sign in again as a new player.
  const replacing = useRef(null);

  // A token the server refuses (expired, signed with a secret it no longer accepts, or signed
  // out everywhere), over HTTP (401) or the socket (closed with 4401): sign in again, keeping
  // the name and the page, instead of retrying with it forever.
  const signInAgain = useCallback((token) => {
    if (token === replacing.current) return;
    if (dropSession(token)) {
      setSessionState(null);
      return;
    }
    // Another tab of this browser already keeps a newer token (it signed out everywhere): use it.
    const stored = loadSession();
    if (stored) setSessionState((current) => (current && current.token === stored.token ? current : stored));
  }, []);
  useEffect(() => onTokenRefused(signInAgain), []);
  // A tab of this browser that signed out everywhere stores the fresh token: a tab that dropped
  // the old one first (its socket was closed sooner) takes it instead of asking for a name.
  useEffect(
    () =>
      onSessionStored((stored) => {
        if (stored) setSessionState((current) => current || stored);
      }),
    [],
  );

  /** Every other token of this player dies (POST /api/me/revoke); this page keeps the fresh
   * one, and the socket reconnects with it. Resolves with the answer, or throws an ApiError. */
  const signOutEverywhere = useCallback(async () => {
    const old = session.token;
    replacing.current = old;
    try {
      const me = await api.revoke(old);
      setSession({ ...session, id: me.id, name: me.name, token: me.token });
      return me;
    } catch (error) {
      replacing.current = null;
      // Refused, or revoked with the answer lost: the old token opens nothing any more.
      const conn = connRef.current;
      if (error.status === 401 || (conn && conn.token === old && conn.status.state === 'unauthorized')) {
        signInAgain(old);
      }
      throw error;
    } finally {
      replacing.current = null;
    }
  }, [session]);
  /** Sign out on this device (POST /api/account/sign-out), then forget its token: the welcome
   * page follows. A token the server refuses already is signed out all the same. */
  const signOutHere = useCallback(async () => {
    const old = session.token;
    replacing.current = old;
    try {
      await api.signOut(old);
    } catch (error) {
      if (error.status !== 401) throw error;
    } finally {
      replacing.current = null;
    }
    setGateWhy('You signed out on this device. Sign in again below, or pick a name to start as a new player.');
    go('/');
    setSession(null);
  }, [session]);
  useEffect(() => {
    if (status.state === 'unauthorized' && connRef.current) signInAgain(connRef.current.token);
  }, [status.state]);
  // The server hands a fresh token for one getting old: keep it.
  useEffect(() => {
    if (!session) return;
    api
      .me(session.token)
      .then((me) => {
        if (me && me.token && me.token !== session.token) setSession({ ...session, token: me.token });
      })
      .catch(() => {}); // a 401 signs in again (onTokenRefused); otherwise the socket says more
  }, [session && session.token]);

  useEffect(() => onMuteChange(setMutedState), []);
  const toggleMute = useCallback(() => setMuted(!isMuted()), []);
  useEffect(() => {
    unlockOnGesture();
    const key = (event) => {
      const typing = event.target.closest && event.target.closest('input, textarea, select, [contenteditable]');
      if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'm' || event.key === 'M') {
        event.preventDefault();
        toggleMute();
      }
    };
    window.addEventListener('keydown', key);
    return () => window.removeEventListener('keydown', key);
  }, []);

  const app = useMemo(
    () => ({
      session,
      setSession,
      signOutEverywhere,
      signOutHere,
      status,
      muted,
      toggleMute,
      conn: () => connRef.current,
      send: (message) =>
        connRef.current
          ? connRef.current.send(message)
          : Promise.resolve({ type: 'reject', code: 'offline', message: 'Not connected' }),
      onFrame: (listener) => {
        listeners.current.add(listener);
        return () => listeners.current.delete(listener);
      },
    }),
    [session, status, muted, signOutEverywhere, signOutHere],
  );

  let page;
  const needsName = ['lobby', 'table', 'join', 'account', 'games', 'link'].includes(route.page) && !session;
  if (route.page === 'link' && route.args[0]) {
    page = html`<${NameGate} key=${route.args[0]} page="link" linkCode=${route.args[0]} />`;
  } else if (needsName) {
    const why = gateWhy || (formerName()
      ? SIGN_IN_AGAIN
      : route.page === 'join'
        ? 'You were invited to a table. Pick a name to sit down.'
        : route.page === 'table'
          ? 'Pick a name to sit at or watch this table.'
          : route.page === 'account'
            ? 'Sign in to see your account.'
            : route.page === 'games'
              ? 'Sign in to see the games you played.'
              : '');
    page = html`<${NameGate} why=${why} page=${route.page} again=${Boolean(gateWhy) || route.page === 'account' || route.page === 'link'} />`;
  } else if (route.page === 'account') {
    page = html`<${AccountPage} />`;
  } else if (route.page === 'games') {
    page = html`<${GamesPage} key=${session.id} />`;
  } else if (route.page === 'table' && route.args[0]) {
    const [table, ...rest] = route.args;
    const invite = rest.find((arg) => arg !== 'join') || invites()[table] || null;
    page = html`<${TableRoute} key=${table} table=${table} invite=${invite} autoJoin=${rest.includes('join')} onShown=${setShownGame} />`;
  } else if (route.page === 'join' && route.args[0]) {
    page = html`<${JoinPage} code=${route.args[0]} />`;
  } else if (route.page === 'rules' && route.args[0] === 'euchre') {
    page = html`<${EuchreGuidePage} />`;
  } else if (route.page === 'rules' && route.args[0] === 'contract-whist') {
    page = html`<${WhistGuidePage} />`;
  } else if (route.page === 'rules') {
    page = html`<${RulesPage} exact=${route.args[0] === 'exact'} />`;
  } else if (route.page === 'verify') {
    page = html`<${VerifyPage} table=${route.args[0] || null} game=${route.args[1] || null} />`;
  } else if (route.page === 'replay' && route.args[1]) {
    page = html`<${ReplayPage} key=${route.args.join('/')} table=${route.args[0]} game=${route.args[1]} />`;
  } else {
    page = html`<${LobbyPage} />`;
  }
  return html`<${App.Provider} value=${app}>
    <a class="skip-link" href="#main" onClick=${(e) => {
      e.preventDefault();
      const main = document.getElementById('main');
      if (main) main.focus();
    }}>Skip to content</a>
    <${Header} route=${route} shown=${shownGame} />
    ${page}
    <${TipLayer} />
  <//>`;
}

render(html`<${Root} />`, document.getElementById('app'));
