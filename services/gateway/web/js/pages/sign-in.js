// Signing in again, on the welcome page: "I already have an account", with a passkey (where the
// browser has them), a link code from a device already signed in (#/link/<code> opens it
// filled in) or a recovery code. Each answers the player as signing up does.

import { html, useEffect, useRef, useState } from '../../vendor/htm-preact-3.1.1.module.js';
import { api } from '../api.js';
import { cleanCode, linkCodeOf } from '../account-words.js';
import { passkeyErrorMessage, passkeysSupported, signInWithPasskey } from '../passkeys.js';
import { ErrorText } from '../ui.js';

/** The ways of signing in with a code: the way's name, its field and words, the code as typed
 * (`clean`), and the call that signs in with it. */
const LINK = {
  way: 'link',
  id: 'link-code',
  label: 'Enter a link code',
  hint: 'On a device where you are signed in, open Your account and choose Link a device.',
  missing: 'Type the code your other device shows',
  clean: linkCodeOf,
  signIn: (code) => api.signInWithLink(code),
  autoComplete: 'one-time-code',
};
const RECOVERY = {
  way: 'recovery',
  id: 'recovery-code',
  label: 'Use a recovery code',
  hint: 'One of the ten codes you saved; each works once.',
  missing: 'Type one of your recovery codes',
  clean: cleanCode,
  signIn: (code) => api.signInWithRecovery(code),
  autoComplete: 'off',
};

/** One way of signing in with a code: its field, its button and what went wrong. `onCode`
 * takes the code typed; `onError`, what to say when nothing is. */
function CodeForm({ way, busy, signingIn, error, onCode, onError }) {
  const { id, label, hint } = way;
  const [value, setValue] = useState('');
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const submit = (event) => {
    event.preventDefault();
    const typed = way.clean(value);
    if (typed) onCode(typed);
    else onError(way.missing);
  };
  return html`<form class="code-form" onSubmit=${submit} data-way=${id}>
    <label for=${id}>${label}</label>
    ${hint ? html`<p class="hint" id=${hintId}>${hint}</p>` : null}
    <div class="row">
      <input
        id=${id}
        value=${value}
        onInput=${(e) => setValue(e.target.value)}
        autocomplete=${way.autoComplete}
        autocapitalize="characters"
        spellcheck=${false}
        maxlength="64"
        aria-invalid=${error ? 'true' : undefined}
        aria-describedby=${described}
      />
      <button type="submit" disabled=${busy}>${signingIn ? 'Signing in…' : 'Sign in'}</button>
    </div>
    <${ErrorText} id=${errorId} text=${error} />
  </form>`;
}

/**
 * "I already have an account": `onSignedIn(player)` takes the player the server answers;
 * `code` (from #/link/<code>) opens the link code's way with the code filled in, asking to
 * confirm; `open` shows the ways at once (a browser whose sign-in was refused).
 */
export function SignInAgain({ onSignedIn, code = '', open: openAtFirst = false }) {
  const fromLink = linkCodeOf(code);
  const [open, setOpen] = useState(Boolean(fromLink) || openAtFirst);
  const passkeys = passkeysSupported();
  const [busy, setBusy] = useState('');
  const [errors, setErrors] = useState({});
  const confirmRef = useRef(null);
  useEffect(() => {
    if (fromLink && confirmRef.current) confirmRef.current.focus();
  }, []);

  const attempt = async (way, call) => {
    setBusy(way);
    setErrors({});
    try {
      const player = await call();
      if (!player || !player.token) throw new Error('The server did not sign you in');
      onSignedIn(player);
    } catch (error) {
      setErrors({ [way]: way === 'passkey' ? passkeyErrorMessage(error) : error.message });
      setBusy('');
    }
  };
  const withPasskey = () => attempt('passkey', () => signInWithPasskey(api));
  const withCode = (way) => (typed) => attempt(way.way, () => way.signIn(typed));

  if (fromLink) {
    // Opened from a link (a QR code): nothing signs in before the player says so.
    return html`<section class="sign-in-again from-link" aria-labelledby="link-title">
      <h2 id="link-title">Sign in with a link code</h2>
      <p>Another device signed in to Swick Online made this code to let this one in. Sign in here as that player?</p>
      <p class="link-code-shown"><span class="visually-hidden">Code: </span><code>${fromLink}</code></p>
      <${ErrorText} text=${errors.link} />
      <div class="row wrap">
        <button type="button" class="primary" ref=${confirmRef} disabled=${Boolean(busy)} onClick=${() => withCode(LINK)(fromLink)}>
          ${busy === 'link' ? 'Signing in…' : 'Sign in on this device'}
        </button>
        <a class="button" href="#/">Cancel</a>
      </div>
    </section>`;
  }

  return html`<section class="sign-in-again" aria-labelledby="again-title">
    <h2 id="again-title" class="again-head">
      <button type="button" class="link again-toggle" aria-expanded=${open ? 'true' : 'false'} aria-controls="again-ways" onClick=${() => setOpen(!open)}>
        I already have an account
      </button>
    </h2>
    <div id="again-ways" class="again-ways" hidden=${!open}>
      ${passkeys
        ? html`<div class="again-way" data-way="passkey">
            <button type="button" class="primary" disabled=${Boolean(busy)} onClick=${withPasskey} aria-describedby=${errors.passkey ? 'passkey-error' : undefined}>
              ${busy === 'passkey' ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
            </button>
            <${ErrorText} id="passkey-error" text=${errors.passkey} />
          </div>`
        : null}
      ${[LINK, RECOVERY].map(
        (way) => html`<${CodeForm}
          key=${way.id}
          way=${way}
          busy=${Boolean(busy)}
          signingIn=${busy === way.way}
          error=${errors[way.way]}
          onCode=${withCode(way)}
          onError=${(message) => setErrors({ [way.way]: message })}
        />`,
      )}
    </div>
  </section>`;
}
