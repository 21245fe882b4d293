// Passkeys in the browser (WebAuthn): the gateway's options (services/gateway/routes_passkeys.py)
// become what navigator.credentials.create() and get() take, and the credential they give
// back becomes the JSON the gateway checks. Binary fields travel as base64url, unpadded.

/** Whether this browser can make and use passkeys (WebAuthn, on a secure page). */
export function passkeysSupported() {
  return (
    typeof globalThis.PublicKeyCredential === 'function' &&
    typeof globalThis.navigator?.credentials?.create === 'function' &&
    typeof globalThis.navigator?.credentials?.get === 'function'
  );
}

/** base64url text as an ArrayBuffer. */
export function toBuffer(text) {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

/** An ArrayBuffer (or a view of one) as base64url text. */
export function toBase64url(buffer) {
  const bytes = ArrayBuffer.isView(buffer)
    ? new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
    : new Uint8Array(buffer);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const descriptors = (list) => (list || []).map((c) => ({ ...c, id: toBuffer(c.id) }));

/** PublicKeyCredentialCreationOptionsJSON -> the `publicKey` of navigator.credentials.create(). */
export function creationOptions(json) {
  return {
    ...json,
    challenge: toBuffer(json.challenge),
    user: { ...json.user, id: toBuffer(json.user.id) },
    excludeCredentials: descriptors(json.excludeCredentials),
  };
}

/** PublicKeyCredentialRequestOptionsJSON -> the `publicKey` of navigator.credentials.get(). */
export function requestOptions(json) {
  return { ...json, challenge: toBuffer(json.challenge), allowCredentials: descriptors(json.allowCredentials) };
}

/** A credential from navigator.credentials (a new one or a sign-in's) as its JSON form. */
export function credentialJSON(credential) {
  const answer = credential.response;
  const response = { clientDataJSON: toBase64url(answer.clientDataJSON) };
  if (answer.attestationObject) {
    response.attestationObject = toBase64url(answer.attestationObject);
    if (typeof answer.getTransports === 'function') response.transports = answer.getTransports();
  }
  if (answer.authenticatorData) {
    response.authenticatorData = toBase64url(answer.authenticatorData);
    response.signature = toBase64url(answer.signature);
    if (answer.userHandle) response.userHandle = toBase64url(answer.userHandle);
  }
  const json = { id: credential.id, rawId: toBase64url(credential.rawId), type: credential.type, response };
  if (credential.authenticatorAttachment) json.authenticatorAttachment = credential.authenticatorAttachment;
  return json;
}

/** What to tell the player when a passkey ceremony failed in the browser (the gateway's own
 * refusals come as ApiErrors with their message). */
export function passkeyErrorMessage(error) {
  switch (error?.name) {
    case 'NotAllowedError':
      return 'No passkey was used: the request was cancelled or timed out';
    case 'InvalidStateError':
      return 'This device already holds a passkey of your account';
    case 'SecurityError':
      return 'Passkeys do not work on this address of the site';
    case 'NotSupportedError':
      return 'This device cannot make a passkey the site accepts';
    default:
      return error?.message || 'The passkey did not work';
  }
}

/** Add a passkey to the signed-in account (`api`: web/js/api.js's), named `label` (the
 * gateway calls it "Passkey" if empty): the passkey's row, {id, label, created_at, ...}. */
export async function registerPasskey(api, label = '') {
  const { ticket, options } = await api.passkeyOptions();
  const credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
  const body = { ticket, credential: credentialJSON(credential) };
  if (label) body.label = label;
  return api.addPasskey(body);
}

/** Sign in with a passkey this device holds or reaches (a phone nearby): the account's
 * session, {id, name, handle, token, seated, ...}, for the caller to keep (saveSession). */
export async function signInWithPasskey(api, { signal } = {}) {
  const { ticket, options } = await api.passkeySignInOptions();
  const credential = await navigator.credentials.get({ publicKey: requestOptions(options), signal });
  return api.signInWithPasskey({ ticket, credential: credentialJSON(credential) });
}
