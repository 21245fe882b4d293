"""A software passkey authenticator, as a browser and its platform authenticator answer
``navigator.credentials.create`` and ``get``: ES256 keys, "none" attestation, the
authenticator data's flags and counter, the client data with its origin, all as the JSON a
page sends (base64url fields), so the gateway's checks run on the real thing."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP, UV, BE, BS, AT = 0x01, 0x04, 0x08, 0x10, 0x40  # authenticator data flags
AAGUID = bytes(16)  # "none" attestation: no make or model said


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Credential:
    id: bytes
    key: ec.EllipticCurvePrivateKey
    rp_id: str
    user_handle: bytes
    sign_count: int = 0

    def cose_public_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps(
            {
                1: 2,  # kty: EC2
                3: -7,  # alg: ES256
                -1: 1,  # crv: P-256
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )


@dataclass
class Authenticator:
    """One device's authenticator: the passkeys it holds, counting its signatures (or not,
    with ``counts=False``, as some synced passkeys do), backed up or not."""

    origin: str
    user_verified: bool = True
    backed_up: bool = False
    counts: bool = True
    credentials: list[Credential] = field(default_factory=list)

    def _flags(self, *extra: int) -> int:
        flags = UP | (UV if self.user_verified else 0)
        if self.backed_up:
            flags |= BE | BS
        for flag in extra:
            flags |= flag
        return flags

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps(
            {
                "type": kind,
                "challenge": challenge,
                "origin": origin or self.origin,
                "crossOrigin": False,
            }
        ).encode()

    def create(self, options: dict[str, Any], origin: str | None = None) -> dict[str, Any]:
        """Make a passkey for ``options`` (PublicKeyCredentialCreationOptionsJSON): the
        credential's JSON. Refuses, as a browser does, when it holds an excluded one."""
        excluded = {unb64url(c["id"]) for c in options.get("excludeCredentials", [])}
        if any(c.id in excluded for c in self.credentials):
            raise InvalidStateError("this authenticator holds one of the account's passkeys")
        rp_id = options["rp"]["id"]
        credential = Credential(
            id=secrets.token_bytes(16),
            key=ec.generate_private_key(ec.SECP256R1()),
            rp_id=rp_id,
            user_handle=unb64url(options["user"]["id"]),
        )
        self.credentials.append(credential)
        attested = (
            AAGUID
            + struct.pack(">H", len(credential.id))
            + credential.id
            + credential.cose_public_key()
        )
        auth_data = _auth_data(rp_id, self._flags(AT), credential.sign_count) + attested
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        return _public_key_credential(
            credential,
            {
                "clientDataJSON": b64url(client_data),
                "attestationObject": b64url(attestation),
                "transports": ["internal", "hybrid"],
            },
        )

    def get(
        self,
        options: dict[str, Any],
        origin: str | None = None,
        credential: Credential | None = None,
    ) -> dict[str, Any]:
        """Sign in with a passkey for ``options`` (PublicKeyCredentialRequestOptionsJSON):
        the assertion's JSON. The only passkey held for the site, or ``credential``."""
        rp_id = options["rpId"]
        if credential is None:
            mine = [c for c in self.credentials if c.rp_id == rp_id]
            if len(mine) != 1:
                raise LookupError(f"{len(mine)} passkeys for {rp_id}: name one")
            credential = mine[0]
        if self.counts:
            credential.sign_count += 1
        auth_data = _auth_data(rp_id, self._flags(), credential.sign_count)
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = credential.key.sign(
            auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        return _public_key_credential(
            credential,
            {
                "clientDataJSON": b64url(client_data),
                "authenticatorData": b64url(auth_data),
                "signature": b64url(signature),
                "userHandle": b64url(credential.user_handle),
            },
        )


def _auth_data(rp_id: str, flags: int, sign_count: int) -> bytes:
    """The authenticator data's head: the relying party's hash, the flags, the count."""
    return hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + struct.pack(">I", sign_count)


def _public_key_credential(credential: Credential, response: dict[str, Any]) -> dict[str, Any]:
    """A PublicKeyCredential's JSON form (``toJSON()``) around a ceremony's ``response``."""
    return {
        "id": b64url(credential.id),
        "rawId": b64url(credential.id),
        "type": "public-key",
        "response": response,
        "authenticatorAttachment": "platform",
        "clientExtensionResults": {},
    }


class InvalidStateError(Exception):
    """What a browser throws when the authenticator holds an excluded credential."""
