// #/account: your handle and name, your passkeys, a link code for another device, your recovery
// codes, the devices signed in as you, and signing out. What the server keeps is in
// docs/accounts.md.

import { html, useEffect, useRef, useState } from '../../vendor/htm-preact-3.1.1.module.js';
import { api, localTime } from '../api.js';
import {
  ago,
  countdown,
  countdownMark,
  dateText,
  isGuest,
  kindText,
  recoveryFile,
  recoveryFileName,
  svgImageUrl,
  textFileUrl,
  toMs,
} from '../account-words.js';
import { useApp } from '../context.js';
import { tagOf } from '../handles.js';
import { ErrorText, nameTyped, useAction, useTicker } from '../ui.js';
import { passkeyErrorMessage, passkeysSupported, registerPasskey } from '../passkeys.js';

/** Copy `text` to the clipboard: the words to say how it went. */
async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    return `${what} copied.`;
  } catch {
    return `This browser did not let the page copy: select the ${what.toLowerCase()} and copy it yourself.`;
  }
}

/** A question asked in place before something that cannot be undone: the safe answer is
 * focused, Escape gives it. */
function Confirm({ id, question, detail, yes, no = 'Cancel', busy, onYes, onNo, error }) {
  const cancel = useRef(null);
  useEffect(() => {
    if (cancel.current) cancel.current.focus();
  }, []);
  const key = (event) => {
    if (event.key === 'Escape' && !busy) {
      event.preventDefault();
      onNo();
    }
  };
  return html`<div class="confirm-inline" role="alertdialog" aria-labelledby=${`${id}-q`} aria-describedby=${detail ? `${id}-d` : undefined} onKeyDown=${key}>
    <p id=${`${id}-q`} class="confirm-question">${question}</p>
    ${detail ? html`<p id=${`${id}-d`} class="small">${detail}</p>` : null}
    <${ErrorText} text=${error} />
    <div class="row wrap">
      <button type="button" class="danger" disabled=${busy} onClick=${onYes}>${yes}</button>
      <button type="button" class="primary" ref=${cancel} disabled=${busy} onClick=${onNo}>${no}</button>
    </div>
  </div>`;
}

/** A button (its id `${id}-open`) that asks `Confirm`'s question (`question`) in its place
 * while `asking`: Cancel or Escape (`onNo`) puts the focus back on the button. */
function AskFirst({ id, asking, opener, openerClass, openerLabel, disabled, onAsk, onNo, ...question }) {
  if (asking) {
    const no = () => {
      onNo();
      focusLater(`${id}-open`);
    };
    return html`<${Confirm} id=${id} ...${question} onNo=${no} />`;
  }
  return html`<button type="button" id=${`${id}-open`} class=${openerClass} aria-label=${openerLabel} disabled=${disabled} onClick=${onAsk}>${opener}</button>`;
}

function Section({ id, title, children, className = '' }) {
  return html`<section class=${`panel account-part ${className}`} aria-labelledby=${`${id}-title`} id=${id}>
    <h2 id=${`${id}-title`} tabindex="-1">${title}</h2>
    ${children}
  </section>`;
}

/** What a part of the page just did, said to a screen reader and shown. */
function Said({ text }) {
  return html`<p class="account-said" role="status">${text}</p>`;
}

/** Focus the element `id` once the page has drawn what changed (a question closed: back to
 * the button that asked it, or to the part's heading when that button is gone). */
function focusLater(id) {
  setTimeout(() => {
    const element = document.getElementById(id);
    if (element) element.focus();
  }, 0);
}

function focusPart(id) {
  const heading = document.getElementById(`${id}-title`);
  if (heading) {
    heading.scrollIntoView({ block: 'start' });
    heading.focus();
  }
}

/** A guest (no passkey, no recovery codes) is asked once, here, to keep their account. */
function KeepIt({ account }) {
  if (!isGuest(account)) return null;
  return html`<div class="notice keep-it" role="note">
    <p>Only this browser can sign in as <strong>${account.handle}</strong> for now. Add a passkey or make recovery codes, so a new phone or a cleared browser does not cost you your chips and your seat.</p>
    <div class="row wrap">
      <button type="button" class="small" onClick=${() => focusPart('passkeys')}>Passkeys</button>
      <button type="button" class="small" onClick=${() => focusPart('recovery')}>Recovery codes</button>
    </div>
  </div>`;
}

function Rename({ account, onDone }) {
  const { session, setSession } = useApp();
  const [name, setName] = useState(account.name);
  const { busy, error, setError, run } = useAction();
  const [said, setSaid] = useState('');
  const submit = (event) => {
    event.preventDefault();
    const clean = nameTyped(name, setError);
    if (!clean) return;
    if (clean === account.name) {
      setError('');
      setSaid('That is your name already.');
      return;
    }
    run(async () => {
      setSaid('');
      const player = await api.rename(session.token, clean);
      // The name is in the token: keep the fresh one.
      setSession({ ...session, name: player.name, token: player.token, ...(player.handle ? { handle: player.handle } : {}) });
      setSaid(`Your name is now ${player.name}${player.handle ? ` (${player.handle})` : ''}.`);
      onDone();
    });
  };
  return html`<${Section} id="name" title="Your name">
    <form class="account-form" onSubmit=${submit}>
      <label for="account-name">Name at the table</label>
      <div class="row">
        <input
          id="account-name"
          autocomplete="nickname"
          maxlength="32"
          value=${name}
          onInput=${(e) => setName(e.target.value)}
          aria-invalid=${error ? 'true' : undefined}
          aria-describedby="account-name-hint"
        />
        <button type="submit" disabled=${busy}>${busy ? 'Saving…' : 'Rename'}</button>
      </div>
      <p class="hint" id="account-name-hint">Your tag stays the same unless another player of that name holds it.</p>
      <${ErrorText} text=${error} />
    </form>
    <${Said} text=${said} />
  <//>`;
}

function Passkeys({ account, now, onDone }) {
  const { session } = useApp();
  const supported = passkeysSupported();
  const [label, setLabel] = useState('');
  const adding = useAction(passkeyErrorMessage);
  const removal = useAction();
  const busy = adding.busy || removal.busy; // one at a time
  const [said, setSaid] = useState('');
  const [removing, setRemoving] = useState(null);
  const keys = account.passkeys || [];
  const add = (event) => {
    event.preventDefault();
    adding.run(async () => {
      setSaid('');
      await registerPasskey(api, label.trim());
      setLabel('');
      setSaid('Passkey added: it signs you in on any device that holds it.');
      onDone();
    });
  };
  const remove = () =>
    removal.run(async () => {
      await api.removePasskey(removing.id, session.token);
      setSaid(`Passkey ${removing.label || ''} removed.`.replace('  ', ' '));
      setRemoving(null);
      focusLater('passkeys-title');
      onDone();
    });
  return html`<${Section} id="passkeys" title="Passkeys">
    <p class="small muted">A passkey signs you in with this device's screen lock (a fingerprint, a face or a PIN), or a phone or security key nearby: nothing to type or remember.</p>
    ${keys.length
      ? html`<ul class="account-list passkey-list">
          ${keys.map(
            (k) => html`<li key=${k.id} data-passkey=${k.id}>
              <div class="item-text">
                <strong>${k.label || 'Passkey'}</strong>
                <span class="small muted">Added ${dateText(k.created_at)} · last used ${ago(k.last_used_at, now)}${k.backed_up ? ' · synced to your other devices' : ''}</span>
              </div>
              <${AskFirst}
                id=${`remove-${k.id}`}
                asking=${removing && removing.id === k.id}
                opener="Remove"
                openerClass="small"
                openerLabel=${`Remove passkey ${k.label || ''}`.trim()}
                onAsk=${() => {
                  removal.setError('');
                  setRemoving(k);
                }}
                question=${`Remove the passkey ${k.label || ''}?`.replace(' ?', '?')}
                detail=${keys.length === 1 && !account.recovery_codes_left ? 'It is your only passkey and you have no recovery codes: only this browser will sign in as you.' : 'It will no longer sign you in.'}
                yes="Remove"
                busy=${busy}
                error=${removal.error}
                onYes=${remove}
                onNo=${() => setRemoving(null)}
              />
            </li>`,
          )}
        </ul>`
      : html`<p>No passkeys yet.</p>`}
    ${supported
      ? html`<form class="account-form" onSubmit=${add}>
          <label for="passkey-label">Name for a new passkey <span class="muted">(optional)</span></label>
          <div class="row">
            <input id="passkey-label" maxlength="64" placeholder="e.g. My phone" value=${label} onInput=${(e) => setLabel(e.target.value)} />
            <button type="submit" class="primary" disabled=${busy}>${adding.busy && !removing ? 'Waiting for your device…' : 'Add a passkey'}</button>
          </div>
          <${ErrorText} text=${adding.error} />
        </form>`
      : html`<p class="small">This browser cannot make passkeys: make recovery codes, or link another device, to sign in elsewhere.</p>`}
    <${Said} text=${said} />
  <//>`;
}

function LinkDevice() {
  const { session } = useApp();
  const [link, setLink] = useState(null);
  useTicker(Boolean(link), 1000);
  const now = Date.now();
  const { busy, error, run } = useAction();
  const [said, setSaid] = useState('');
  const codeRef = useRef(null);
  const make = () =>
    run(async () => {
      setSaid('');
      const made = await api.linkCode(session.token);
      setLink({ ...made, until: localTime(toMs(made.expires_at)) });
      setSaid(`Link code ${made.code} made: enter it on your other device.`);
    });
  useEffect(() => {
    if (link && codeRef.current) codeRef.current.focus();
  }, [link && link.code]);
  const left = link ? countdown(link.until, now) : null;
  const mark = left ? countdownMark(left.ms) : null;
  useEffect(() => {
    if (mark === 'last minute') setSaid('The link code has less than a minute left.');
    if (mark === 'expired') setSaid('The link code expired: make another if you still need one.');
  }, [mark]);
  return html`<${Section} id="link" title="Link a device">
    <p class="small muted">Sign in on another phone, tablet or computer: show a code here, then on the other device choose "I already have an account" and enter it, or scan the QR code. It works once, for ${link && left && !left.expired ? 'a few minutes' : '10 minutes'}.</p>
    ${link
      ? left.expired
        ? html`<div class="link-expired">
            <p><strong>This code expired.</strong> It no longer signs anyone in.</p>
            <div class="row wrap">
              <button type="button" class="primary" disabled=${busy} onClick=${make}>${busy ? 'Making…' : 'Make another'}</button>
              <button type="button" onClick=${() => {
                setLink(null);
                focusLater('link-open');
              }}>Done</button>
            </div>
          </div>`
        : html`<div class="link-shown">
            <div class="link-code-box">
              <p class="link-code" tabindex="-1" ref=${codeRef} aria-label=${`Link code ${link.code.split('').join(' ')}`}><code>${link.code}</code></p>
              <p class="link-left" role="timer" aria-live="off">Expires in <span class="link-clock">${left.text}</span><span class="visually-hidden"> (${left.spoken})</span></p>
              <p class="small link-warning">Enter it only on a device of your own: whoever has this code can sign in as you. No one from Swick Online will ever ask for it.</p>
              <div class="row wrap">
                <button type="button" class="small" onClick=${async () => setSaid(await copy(link.code, 'Code'))}>Copy code</button>
                <button type="button" class="small" onClick=${async () => setSaid(await copy(link.url, 'Link'))}>Copy link</button>
                <button type="button" class="small" onClick=${() => {
                setLink(null);
                focusLater('link-open');
              }}>Done</button>
              </div>
            </div>
            ${link.qr_svg
              ? html`<img class="link-qr" src=${svgImageUrl(link.qr_svg)} width="180" height="180" alt=${`QR code of the sign-in link, for your other device's camera: ${link.url}`} />`
              : null}
          </div>`
      : html`<button type="button" id="link-open" class="primary" disabled=${busy} onClick=${make}>${busy ? 'Making…' : 'Show a link code'}</button>`}
    <${ErrorText} text=${error} />
    <${Said} text=${said} />
  <//>`;
}

function RecoveryCodes({ account, onDone }) {
  const { session } = useApp();
  const [codes, setCodes] = useState(null);
  const [asking, setAsking] = useState(false);
  const { busy, error, run } = useAction();
  const [said, setSaid] = useState('');
  const listRef = useRef(null);
  const left = account.recovery_codes_left || 0;
  const make = () =>
    run(async () => {
      setSaid('');
      const made = await api.recoveryCodes(session.token);
      setCodes(made.codes);
      setAsking(false);
      onDone();
    });
  useEffect(() => {
    if (codes && listRef.current) listRef.current.focus();
  }, [codes]);
  const start = () => (left ? setAsking(true) : make());
  const file = codes ? recoveryFile(account.handle, codes, Date.now()) : '';
  return html`<${Section} id="recovery" title="Recovery codes">
    <p class="small muted">Ten codes to keep somewhere safe (a password manager, or on paper): each signs you in once, on any device, if you lose the others.</p>
    <p class="codes-left"><strong>${left ? `${left} ${left === 1 ? 'code' : 'codes'} left` : 'No recovery codes yet'}</strong></p>
    ${codes
      ? html`<div class="codes-shown">
          <p class="warning" role="note"><strong>Save them now: they are shown only this once.</strong> Making new codes later ends these.</p>
          <ol class="recovery-list" tabindex="-1" ref=${listRef} aria-label="Your new recovery codes">
            ${codes.map((c) => html`<li><code>${c}</code></li>`)}
          </ol>
          <div class="row wrap">
            <button type="button" class="small" onClick=${async () => setSaid(await copy(codes.join('\n'), 'Codes'))}>Copy all</button>
            <a class="button small" href=${textFileUrl(file)} download=${recoveryFileName(account.handle)}>Download as a text file</a>
            <button type="button" class="small" onClick=${() => {
              setCodes(null);
              setSaid('The codes are hidden. You have them saved.');
              focusLater('new-codes-open');
            }}>I have saved them</button>
          </div>
        </div>`
      : html`<${AskFirst}
            id="new-codes"
            asking=${asking}
            opener=${left ? 'Make new recovery codes…' : busy ? 'Making…' : 'Make recovery codes'}
            openerClass=${left ? '' : 'primary'}
            disabled=${busy}
            onAsk=${start}
            question="Make new recovery codes?"
            detail=${`The ${left} ${left === 1 ? 'code' : 'codes'} you have now stop working at once.`}
            yes="Make new codes"
            busy=${busy}
            error=${error}
            onYes=${make}
            onNo=${() => setAsking(false)}
          />
          ${left && !asking ? html`<p class="hint">Making new codes ends the ones you have.</p>` : null}`}
    <${ErrorText} text=${asking ? '' : error} />
    <${Said} text=${said} />
  <//>`;
}

function deviceName(d) {
  return `${kindText(d.kind)}${d.where ? `, ${d.where}` : ''}`;
}

const HOW = {
  new: 'as a new player',
  passkey: 'with a passkey',
  link: 'with a link code',
  recovery: 'with a recovery code',
};

/** When and how a device signed in, and when it was last seen (or signed out). */
function deviceLine(d, now) {
  const how = HOW[d.how] ? ` ${HOW[d.how]}` : '';
  const last = d.signed_out_at ? `signed out ${ago(d.signed_out_at, now)}` : `last seen ${d.current ? 'now' : ago(d.last_seen, now)}`;
  return `Signed in ${dateText(d.created_at)}${how} · ${last}`;
}

function Devices({ account, now, onDone }) {
  const { session, signOutEverywhere } = useApp();
  const [out, setOut] = useState(null); // the device being signed out, or 'others'
  const { busy, error, setError, run } = useAction();
  const [said, setSaid] = useState('');
  const devices = account.devices || [];
  const others = devices.filter((d) => !d.current && !d.signed_out_at);
  const ask = (what) => () => {
    setError('');
    setOut(what);
  };
  const signOut = () =>
    run(async () => {
      if (out === 'others') {
        await signOutEverywhere();
        setSaid('Every other device is signed out. This one stays signed in.');
      } else {
        await api.signOutDevice(session.token, out.id);
        setSaid(`${deviceName(out)} is signed out.`);
      }
      setOut(null);
      focusLater('devices-title');
      onDone();
    });
  // The question, for one device or for every other: the same answers.
  const answers = { busy, error, onYes: signOut, onNo: () => setOut(null) };
  return html`<${Section} id="devices" title="Devices signed in">
    <ul class="account-list device-list">
      ${devices.map(
        (d) => html`<li key=${d.id} data-device=${d.id} class=${d.current ? 'current' : d.signed_out_at ? 'signed-out' : ''}>
          <div class="item-text">
            <strong>${deviceName(d)}${d.current ? html` <span class="badge this-device">This device</span>` : null}${d.signed_out_at ? html` <span class="badge">Signed out</span>` : null}</strong>
            <span class="small muted">${deviceLine(d, now)}</span>
          </div>
          ${d.current || d.signed_out_at
            ? null
            : html`<${AskFirst}
                id=${`out-${d.id}`}
                asking=${out && out.id === d.id}
                opener="Sign out"
                openerClass="small"
                openerLabel=${`Sign out ${deviceName(d)}, last seen ${ago(d.last_seen, now)}`}
                onAsk=${ask(d)}
                question=${`Sign out ${deviceName(d)}?`}
                detail="It can sign in again only with a passkey, a link code or a recovery code."
                yes="Sign out"
                ...${answers}
              />`}
        </li>`,
      )}
    </ul>
    ${others.length
      ? html`<${AskFirst}
          id="out-others"
          asking=${out === 'others'}
          opener="Sign out everywhere else…"
          onAsk=${ask('others')}
          question="Sign out every other device?"
          detail="Every other device and browser signed in as you is signed out. This one stays signed in, with your chips and your seat."
          yes="Sign out everywhere else"
          ...${answers}
        />`
      : html`<p class="small muted">No other device is signed in as you.</p>`}
    <${Said} text=${said} />
  <//>`;
}

function SignOutHere({ account }) {
  const { signOutHere } = useApp();
  const [asking, setAsking] = useState(false);
  const { busy, error, run } = useAction();
  const guest = isGuest(account);
  return html`<${Section} id="sign-out" title="Sign out">
    <${AskFirst}
      id="out-here"
      asking=${asking}
      opener="Sign out on this device…"
      onAsk=${() => setAsking(true)}
      question="Sign out on this device?"
      detail=${guest
        ? `You have no passkey and no recovery codes: once signed out, nobody can sign in as ${account.handle} again, and its chips are lost.`
        : 'You can sign in again here with a passkey, a link code or a recovery code.'}
      yes="Sign out"
      busy=${busy}
      error=${error}
      onYes=${() => run(signOutHere)}
      onNo=${() => setAsking(false)}
    />
  <//>`;
}

export function AccountPage() {
  const { session } = useApp();
  const [state, setState] = useState({ account: null, error: '' });
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  useEffect(() => {
    let alive = true;
    api
      .account(session.token)
      .then((account) => alive && setState({ account, error: '' }))
      .catch((e) => alive && setState((s) => ({ account: s.account, error: e.message })));
    return () => {
      alive = false;
    };
  }, [session.token, version]);
  const now = Date.now();
  const { account, error } = state;
  const tag = account ? tagOf(account.handle) : '';
  return html`<main id="main" class="account" tabindex="-1">
    <h1>Your account</h1>
    ${!account
      ? html`<p class=${error ? 'error' : 'muted'} role=${error ? 'alert' : 'status'}>${error || 'Loading your account…'}</p>`
      : html`<div class="account-head">
            <p class="handle-line">
              <span class="handle" aria-label=${`Your handle: ${account.handle}`}><span class="handle-name">${account.name}</span><span class="handle-tag">#${tag}</span></span>
            </p>
            <p class="small muted">Others see your name; where two players of that name meet, the tag tells you apart. Playing since ${dateText(account.created_at)}.</p>
            <p class="small"><a href="#/games">Your games</a>: every game you finished, with its replay and its check.</p>
            <${ErrorText} text=${error} />
          </div>
          <${KeepIt} account=${account} />
          <div class="account-grid">
            <${Passkeys} account=${account} now=${now} onDone=${reload} />
            <${RecoveryCodes} account=${account} onDone=${reload} />
            <${LinkDevice} />
            <${Devices} account=${account} now=${now} onDone=${reload} />
            <${Rename} key=${account.id} account=${account} onDone=${reload} />
            <${SignOutHere} account=${account} />
          </div>`}
  </main>`;
}
