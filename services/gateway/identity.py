"""Who a player is: a display name and a signed token the browser keeps.

A token is ``<payload>.<signature>``: the payload is base64url JSON ``{"id", "name", "kid",
"iat", "exp"}`` and the signature its HMAC-SHA256 under the key that ``kid`` names, so any
gateway process can check it without a database. Tokens expire (``exp``); keys rotate with a
grace period (see ``Tokens``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

NAME_MIN, NAME_MAX = 2, 20
_NAME = re.compile(r"[\w][\w .'-]*[\w.]", re.UNICODE)
_B64 = re.compile(r"[A-Za-z0-9_-]+")

LIFETIME = 30 * 24 * 3600  # seconds a token is valid
RENEW_AFTER = 24 * 3600  # an older token is replaced when its player shows up
MAX_TOKEN = 1024  # characters; a real token is about 200


@dataclass(frozen=True, slots=True)
class Identity:
    id: str
    name: str


def check_name(raw: str) -> str:
    """A clean display name, or ``ValueError`` saying what is wrong with it."""
    name = " ".join(raw.split())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise ValueError(f"A name is {NAME_MIN} to {NAME_MAX} characters")
    if not _NAME.fullmatch(name) or "_" in name:
        raise ValueError("A name uses letters, digits, spaces and . ' - only")
    if name.lower().endswith(" bot") or name.lower().startswith("bot "):
        raise ValueError("Names that look like a bot's are kept for bots")
    return name


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True, slots=True)
class Key:
    """One signing key: ``kid`` names it in the tokens it signs without revealing it."""

    kid: str
    secret: bytes

    @classmethod
    def of(cls, secret: str) -> Key:
        derived = hashlib.sha256(secret.encode()).digest()
        return cls(hashlib.sha256(b"swick-key-id:" + derived).hexdigest()[:8], derived)

    def sign(self, payload: str) -> str:
        return _b64(hmac.digest(self.secret, payload.encode(), "sha256"))


@dataclass(frozen=True, slots=True)
class Claims:
    """What a valid token says: who, under which key, from when until when (Unix seconds)."""

    identity: Identity
    kid: str
    issued_at: int
    expires_at: int


class Tokens:
    """Issues and checks player tokens.

    ``secret`` signs every new token; ``previous`` secrets still verify the tokens they signed,
    so a rotated secret logs nobody out while the old one stays listed (the grace period). A
    token is valid until its ``exp``; ``renewal`` hands an active player a fresh one.
    """

    def __init__(
        self,
        secret: str,
        previous: Sequence[str] = (),
        *,
        lifetime: float = LIFETIME,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._current = Key.of(secret)
        self._keys = [self._current, *(Key.of(old) for old in previous if old)]
        self._lifetime = int(lifetime)
        self._clock = clock

    @property
    def kid(self) -> str:
        return self._current.kid

    def issue(self, name: str) -> tuple[Identity, str]:
        """A new player named ``name`` (``ValueError`` if the name is not allowed)."""
        identity = Identity(f"p-{secrets.token_hex(8)}", check_name(name))
        return identity, self.sign(identity)

    def sign(self, identity: Identity) -> str:
        """A fresh token for ``identity`` under the current key."""
        now = int(self._clock())
        claims = {
            "id": identity.id,
            "name": identity.name,
            "kid": self._current.kid,
            "iat": now,
            "exp": now + self._lifetime,
        }
        payload = _b64(json.dumps(claims, separators=(",", ":")).encode())
        return f"{payload}.{self._current.sign(payload)}"

    def claims(self, token: str) -> Claims | None:
        """What ``token`` says if one of our keys signed it and it has not expired; ``None``
        for anything else, however malformed."""
        if not token.isascii() or len(token) > MAX_TOKEN:
            return None
        payload, dot, signature = token.partition(".")
        if not dot or not _B64.fullmatch(payload) or not _B64.fullmatch(signature):
            return None
        # Every key is tried, each in constant time: the signature is checked before anything
        # in the payload is believed, the key id included.
        signed_by = [
            key
            for key in self._keys
            if hmac.compare_digest(key.sign(payload).encode(), signature.encode())
        ]
        if not signed_by:
            return None
        try:
            data = json.loads(_unb64(payload))
        except (ValueError, RecursionError):
            return None
        claims = _claims(data)
        if claims is None or claims.kid != signed_by[0].kid:
            return None
        if self._clock() >= claims.expires_at:
            return None
        return claims

    def verify(self, token: str) -> Identity | None:
        claims = self.claims(token)
        return None if claims is None else claims.identity

    def renewal(self, token: str) -> str | None:
        """A fresh token for a valid ``token`` that is a day old or signed by a previous key;
        ``None`` when it needs none (or is not valid)."""
        claims = self.claims(token)
        if claims is None:
            return None
        if claims.kid == self._current.kid and self._clock() - claims.issued_at < RENEW_AFTER:
            return None
        return self.sign(claims.identity)


def _claims(data: object) -> Claims | None:
    """The claims of a decoded payload, if every field has the right type."""
    if not isinstance(data, dict):
        return None
    ident, name, kid = data.get("id"), data.get("name"), data.get("kid")
    issued, expires = _seconds(data.get("iat")), _seconds(data.get("exp"))
    if not (isinstance(ident, str) and isinstance(name, str) and isinstance(kid, str)):
        return None
    if issued is None or expires is None:
        return None
    return Claims(Identity(ident, name), kid, issued, expires)


def _seconds(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
