// web/js/passkeys.js: the gateway's WebAuthn options become navigator.credentials' binary
// forms and the credentials come back as the JSON the gateway checks, every byte intact.

import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';

import {
  creationOptions,
  credentialJSON,
  passkeyErrorMessage,
  passkeysSupported,
  registerPasskey,
  requestOptions,
  signInWithPasskey,
  toBase64url,
  toBuffer,
} from '../../services/gateway/web/js/passkeys.js';

const bytes = (...values) => new Uint8Array(values).buffer;
const same = (buffer, expected) => assert.deepEqual([...new Uint8Array(buffer)], [...new Uint8Array(expected)]);

afterEach(() => {
  delete globalThis.PublicKeyCredential;
  Object.defineProperty(globalThis, 'navigator', { value: undefined, configurable: true, writable: true });
});

/** A browser whose navigator.credentials answers with `credential`, keeping what it was asked. */
function fakeBrowser(credential) {
  const asked = [];
  const credentials = {
    create: async (request) => (asked.push(['create', request]), credential),
    get: async (request) => (asked.push(['get', request]), credential),
  };
  globalThis.PublicKeyCredential = function PublicKeyCredential() {};
  Object.defineProperty(globalThis, 'navigator', { value: { credentials }, configurable: true, writable: true });
  return asked;
}

test('base64url round-trips every byte, unpadded', () => {
  const all = new Uint8Array(256).map((_, i) => i);
  for (let length = 0; length <= 256; length += 1) {
    const text = toBase64url(all.slice(0, length).buffer);
    assert.doesNotMatch(text, /[+/=]/);
    same(toBuffer(text), all.slice(0, length).buffer);
  }
  assert.equal(toBase64url(bytes(0xfb, 0xff)), '-_8');
  assert.equal(toBase64url(new Uint8Array([9, 0xfb, 0xff, 9]).subarray(1, 3)), '-_8'); // a view
});

test('the options become binary where WebAuthn wants it, the rest kept', () => {
  const created = creationOptions({
    rp: { id: 'swick.example', name: 'Swick Online' },
    user: { id: 'cC0x', name: 'Rita#4821', displayName: 'Rita' },
    challenge: 'AAEC',
    pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    excludeCredentials: [{ id: '_-8', type: 'public-key', transports: ['internal'] }],
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    timeout: 300000,
  });
  same(created.challenge, bytes(0, 1, 2));
  same(created.user.id, bytes(0x70, 0x2d, 0x31));
  assert.equal(created.user.name, 'Rita#4821');
  same(created.excludeCredentials[0].id, bytes(0xff, 0xef));
  assert.deepEqual(created.excludeCredentials[0].transports, ['internal']);
  assert.equal(created.authenticatorSelection.residentKey, 'required');
  const requested = requestOptions({ challenge: 'AAEC', rpId: 'swick.example', allowCredentials: [] });
  same(requested.challenge, bytes(0, 1, 2));
  assert.deepEqual(requested.allowCredentials, []);
  assert.equal(requested.rpId, 'swick.example');
});

const newCredential = {
  id: 'AQID',
  rawId: bytes(1, 2, 3),
  type: 'public-key',
  authenticatorAttachment: 'platform',
  response: {
    clientDataJSON: bytes(123, 125),
    attestationObject: bytes(0xa0),
    getTransports: () => ['internal', 'hybrid'],
  },
};

test('adding a passkey sends the new credential and its label', async () => {
  const asked = fakeBrowser(newCredential);
  assert.equal(passkeysSupported(), true);
  const calls = [];
  const api = {
    passkeyOptions: async () => ({
      ticket: 't1',
      options: { rp: { id: 'swick.example' }, user: { id: 'cA', name: 'R', displayName: 'R' }, challenge: 'AAEC' },
    }),
    addPasskey: async (body) => (calls.push(body), { id: 'AQID', label: body.label }),
  };
  assert.deepEqual(await registerPasskey(api, 'Phone'), { id: 'AQID', label: 'Phone' });
  same(asked[0][1].publicKey.challenge, bytes(0, 1, 2));
  assert.deepEqual(calls, [
    {
      ticket: 't1',
      label: 'Phone',
      credential: {
        id: 'AQID',
        rawId: 'AQID',
        type: 'public-key',
        authenticatorAttachment: 'platform',
        response: { clientDataJSON: 'e30', attestationObject: 'oA', transports: ['internal', 'hybrid'] },
      },
    },
  ]);
  await registerPasskey(api);
  assert.equal('label' in calls[1], false); // no label: the gateway names it
});

test('signing in sends the assertion, user handle included', async () => {
  const assertion = {
    id: 'BAU',
    rawId: bytes(4, 5),
    type: 'public-key',
    authenticatorAttachment: null,
    response: {
      clientDataJSON: bytes(123, 125),
      authenticatorData: bytes(7),
      signature: bytes(8, 9),
      userHandle: bytes(0x70),
    },
  };
  const asked = fakeBrowser(assertion);
  const sent = [];
  const api = {
    passkeySignInOptions: async () => ({ ticket: 't2', options: { challenge: 'AAEC', rpId: 'swick.example', allowCredentials: [] } }),
    signInWithPasskey: async (body) => (sent.push(body), { id: 'p-1', token: 'tok' }),
  };
  assert.deepEqual(await signInWithPasskey(api), { id: 'p-1', token: 'tok' });
  assert.equal(asked[0][0], 'get');
  assert.deepEqual(sent[0], {
    ticket: 't2',
    credential: {
      id: 'BAU',
      rawId: 'BAU',
      type: 'public-key',
      response: { clientDataJSON: 'e30', authenticatorData: 'Bw', signature: 'CAk', userHandle: 'cA' },
    },
  });
  assert.deepEqual(credentialJSON({ ...assertion, response: { ...assertion.response, userHandle: null } }).response, {
    clientDataJSON: 'e30',
    authenticatorData: 'Bw',
    signature: 'CAk',
  });
});

test('without WebAuthn passkeys are not offered', () => {
  assert.equal(passkeysSupported(), false);
  Object.defineProperty(globalThis, 'navigator', { value: {}, configurable: true, writable: true });
  assert.equal(passkeysSupported(), false);
});

test('a browser refusal reads as what happened', () => {
  const named = (name) => Object.assign(new Error('raw'), { name });
  assert.match(passkeyErrorMessage(named('NotAllowedError')), /cancelled or timed out/);
  assert.match(passkeyErrorMessage(named('InvalidStateError')), /already holds/);
  assert.equal(passkeyErrorMessage(named('Other')), 'raw');
});
