"""The two WebAuthn ceremonies (with the ``webauthn`` package): adding a passkey to a signed-in
account, and signing in with one, no user name asked.

Each ceremony starts with options the browser passes to ``navigator.credentials``, their
challenge kept under a ticket (``passkeys.PasskeyStore``), and ends with the browser's answer
and that ticket; the challenge is taken as the answer is checked, so it serves once.

- The relying party is ``settings.passkey_rp_id``; the pages that may use it, the origins of
  ``settings.passkey_origins``, or without those the request's own origin when it is on that
  domain (https, or plain http on localhost only).
- Passkeys are discoverable (resident) credentials, so the sign-in options name none and the
  authenticator offers the ones it holds; user verification is preferred, not required.
- Each sign-in's count must grow past the stored one unless both are 0 (authenticators that
  do not count): a count that does not is a cloned authenticator, refused.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    bytes_to_base64url,
    options_to_json_dict,
    parse_authentication_credential_json,
    parse_registration_credential_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticationCredential,
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from services.gateway.passkeys import Challenge, Passkey, PasskeyStore

RP_NAME = "Swick Online"
CHALLENGE_SECONDS = 300.0  # how long a ceremony's options stay good
MAX_PASSKEYS = 20  # per account
# What a malformed answer raises inside the package, besides its own errors (a bad base64,
# CBOR or key structure).
_MALFORMED = (WebAuthnException, ValueError, TypeError, KeyError, IndexError, AttributeError)


class PasskeyRefused(Exception):
    """A passkey could not be added: the message says why, to the signed-in player."""


class NotSignedIn(Exception):
    """A passkey sign-in failed (why is kept from the client: all failures look alike)."""


def expected_origins(configured: str, rp_id: str, origin: str | None) -> list[str]:
    """The origins a ceremony's answer may come from: the configured ones, or ``origin`` (the
    request's) when it is on the relying party's domain and https, or http on localhost."""
    listed = [o.strip().rstrip("/") for o in configured.split(",") if o.strip()]
    if listed:
        return listed
    if not origin:
        return []
    try:
        parts = urlsplit(origin)
        host = parts.hostname or ""
        parts.port  # noqa: B018  (a malformed port raises here)
    except ValueError:
        return []
    if f"{parts.scheme}://{parts.netloc}" != origin or parts.username or parts.password:
        return []  # not an origin: a path, a query or credentials came with it
    on_domain = host == rp_id or host.endswith(f".{rp_id}")
    local = host == "localhost" or host.endswith(".localhost")
    if on_domain and (parts.scheme == "https" or (parts.scheme == "http" and local)):
        return [origin]
    return []


@dataclass(frozen=True)
class SignInAnswer:
    """A sign-in's answer, its challenge taken, and the passkey it names."""

    challenge: bytes
    credential: AuthenticationCredential
    passkey: Passkey


@dataclass
class Ceremonies:
    store: PasskeyStore
    rp_id: str
    origins: str = ""  # configured origins, comma-separated (``expected_origins``)
    clock: Callable[[], float] = time.time

    def _now_ms(self) -> int:
        return int(self.clock() * 1000)

    async def _ticket(self, challenge: Challenge) -> str:
        ticket = secrets.token_urlsafe(24)
        now = self._now_ms()
        expires = now + int(CHALLENGE_SECONDS * 1000)
        await self.store.put_challenge(ticket, challenge, expires, now)
        return ticket

    async def registration_options(
        self, account_id: str, user_name: str, display_name: str
    ) -> tuple[str, dict[str, Any]]:
        """A ticket and the creation options for a new passkey of the account (its own
        passkeys excluded, so an authenticator already holding one says so)."""
        existing = await self.store.of(account_id)
        if len(existing) >= MAX_PASSKEYS:
            raise PasskeyRefused(
                f"You have {MAX_PASSKEYS} passkeys already: remove one before adding another"
            )
        options = generate_registration_options(
            rp_id=self.rp_id,
            rp_name=RP_NAME,
            user_id=account_id.encode(),  # the user handle a sign-in hands back
            user_name=user_name,
            user_display_name=display_name,
            timeout=int(CHALLENGE_SECONDS * 1000),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.id)) for p in existing
            ],
        )
        ticket = await self._ticket(Challenge("register", account_id, options.challenge))
        return ticket, options_to_json_dict(options)

    async def register(
        self,
        account_id: str,
        ticket: str,
        credential: dict[str, Any],
        label: str,
        origin: str | None,
    ) -> Passkey:
        """Check the browser's answer to the account's creation options and keep the passkey."""
        challenge = await self.store.take_challenge(ticket, self._now_ms())
        expected = ("register", account_id)
        if challenge is None or (challenge.purpose, challenge.account_id) != expected:
            raise PasskeyRefused("That request to add a passkey expired or was used: start again")
        try:
            parsed = parse_registration_credential_json(credential)
            verified = verify_registration_response(
                credential=parsed,
                expected_challenge=challenge.challenge,
                expected_rp_id=self.rp_id,
                expected_origin=expected_origins(self.origins, self.rp_id, origin),
            )
        except _MALFORMED:
            raise PasskeyRefused(
                "Your device's answer did not check out: try adding the passkey again"
            ) from None
        credential_id = bytes_to_base64url(verified.credential_id)
        if credential_id != parsed.id:
            raise PasskeyRefused("Your device's answer did not check out: its ids differ")
        if len(await self.store.of(account_id)) >= MAX_PASSKEYS:
            raise PasskeyRefused(
                f"You have {MAX_PASSKEYS} passkeys already: remove one before adding another"
            )
        passkey = Passkey(
            id=credential_id,
            account_id=account_id,
            public_key=verified.credential_public_key,
            sign_count=verified.sign_count,
            backed_up=verified.credential_backed_up,
            device_type=verified.credential_device_type.value,
            transports=tuple(t.value for t in parsed.response.transports or ()),
            label=label,
            created_at=self._now_ms(),
        )
        if not await self.store.add(passkey):
            raise PasskeyRefused("That passkey is registered already")
        return passkey

    async def sign_in_options(self) -> tuple[str, dict[str, Any]]:
        """A ticket and the request options of a sign-in: no credentials named, so the
        authenticator offers the passkeys it holds for this site."""
        options = generate_authentication_options(
            rp_id=self.rp_id,
            timeout=int(CHALLENGE_SECONDS * 1000),
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        ticket = await self._ticket(Challenge("sign-in", "", options.challenge))
        return ticket, options_to_json_dict(options)

    async def answer(self, ticket: str, credential: dict[str, Any]) -> SignInAnswer:
        """Take the sign-in's challenge and find the passkey its answer names (checked next,
        by ``check``, once the caller has counted the attempt against the passkey's account)."""
        challenge = await self.store.take_challenge(ticket, self._now_ms())
        if challenge is None or challenge.purpose != "sign-in":
            raise NotSignedIn("expired, used or unknown ticket")
        try:
            parsed = parse_authentication_credential_json(credential)
        except _MALFORMED:
            raise NotSignedIn("malformed answer") from None
        passkey = await self.store.get(parsed.id)
        if passkey is None:
            raise NotSignedIn("unknown passkey")
        handle = parsed.response.user_handle
        if handle is not None and handle != passkey.account_id.encode():
            raise NotSignedIn("the user handle is not the passkey's")
        return SignInAnswer(challenge.challenge, parsed, passkey)

    async def check(self, answer: SignInAnswer, origin: str | None) -> Passkey:
        """Check a sign-in's answer against its passkey and record the use: the passkey as it
        is now."""
        passkey = answer.passkey
        try:
            verified = verify_authentication_response(
                credential=answer.credential,
                expected_challenge=answer.challenge,
                expected_rp_id=self.rp_id,
                expected_origin=expected_origins(self.origins, self.rp_id, origin),
                credential_public_key=passkey.public_key,
                credential_current_sign_count=passkey.sign_count,
            )
        except _MALFORMED:
            raise NotSignedIn("the answer did not check out") from None
        now = self._now_ms()
        count, backed_up = verified.new_sign_count, verified.credential_backed_up
        if not await self.store.used(passkey.id, passkey.sign_count, count, backed_up, now):
            raise NotSignedIn("another sign-in used that count")  # a replay racing its original
        return replace(passkey, sign_count=count, backed_up=backed_up, last_used_at=now)
