"""Who a player is: a display name and a signed token the browser keeps.

A token is ``<payload>.<signature>``: the payload is base64url JSON ``{"id", "name", "kid",
"iat", "exp", "auth", "ver", "sid"}`` and the signature its HMAC-SHA256 under the key that ``kid``
names, so any gateway process can check it without a database. Tokens expire (``exp``); keys
rotate with a grace period (see ``Tokens``).

A sign-in ends: renewal carries the first sign-in's time (``auth``) into every fresh token and
stops ``session_lifetime`` after it, however active the player. ``ver`` is the player's token
version when it was signed: signing out everywhere raises the version, and the gateway refuses
tokens of an older one (``services.gateway.sessions``). ``sid`` names the signed-in device
(``services.gateway.devices``), which its player can sign out on its own. A token from before
these claims counts as signed in at its ``iat`` with version 0, on no device (the gateway
gives it one when it next shows up).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from services.gateway.names import impersonation
from shared.ids import is_account_id

NAME_MIN, NAME_MAX = 2, 20
_NAME = re.compile(r"[\w][\w .'-]*[\w.]", re.UNICODE)
_WORD_BREAKS = re.compile(r"[ .'-]+")
_B64 = re.compile(r"[A-Za-z0-9_-]+")

LIFETIME = 30 * 24 * 3600  # seconds a token is valid
RENEW_AFTER = 24 * 3600  # an older token is replaced when its player shows up
SESSION_LIFETIME = 90 * 24 * 3600  # seconds from sign-in after which no renewal is given
MAX_TOKEN = 1024  # characters; a real token is about 200


@dataclass(frozen=True, slots=True)
class Identity:
    id: str
    name: str


def check_name(raw: str) -> str:
    """A clean display name (NFC), or ``ValueError`` saying what is wrong with it: a name that
    could pass for a bot's is refused too (``services.gateway.names``)."""
    name = unicodedata.normalize("NFC", " ".join(raw.split()))
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise ValueError(f"A name is {NAME_MIN} to {NAME_MAX} characters")
    if not _NAME.fullmatch(name) or "_" in name:
        raise ValueError("A name uses letters, digits, spaces and . ' - only")
    reason = impersonation(name, _WORD_BREAKS.split(name))
    if reason is not None:
        raise ValueError(reason)
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
    """What a valid token says: who, under which key, from when until when (Unix seconds),
    since when signed in, and under which of the player's token versions."""

    identity: Identity
    kid: str
    issued_at: int
    expires_at: int
    authenticated_at: int
    version: int = 0
    session: str = ""  # the device's id; "" for a token from before devices


class Tokens:
    """Issues and checks player tokens.

    ``secret`` signs every new token; ``previous`` secrets still verify the tokens they signed,
    so a rotated secret logs nobody out while the old one stays listed (the grace period). A
    token is valid until its ``exp``; ``renewal`` hands an active player a fresh one, until
    ``session_lifetime`` after they signed in (no token outlives that).
    """

    def __init__(
        self,
        secret: str,
        previous: Sequence[str] = (),
        *,
        lifetime: float = LIFETIME,
        session_lifetime: float = SESSION_LIFETIME,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if lifetime <= 0 or session_lifetime <= 0:
            raise ValueError("token and session lifetimes are positive (SWICK_SESSION_DAYS)")
        self._current = Key.of(secret)
        self._keys = [self._current, *(Key.of(old) for old in previous if old)]
        self._lifetime = int(lifetime)
        self._session_lifetime = int(session_lifetime)
        self._clock = clock

    @property
    def kid(self) -> str:
        return self._current.kid

    def issue(self, name: str) -> tuple[Identity, str]:
        """A new player named ``name`` (``ValueError`` if the name is not allowed)."""
        identity = Identity(f"p-{secrets.token_hex(8)}", check_name(name))
        return identity, self.sign(identity)

    def sign(
        self,
        identity: Identity,
        *,
        authenticated_at: int | None = None,
        version: int = 0,
        session: str = "",
    ) -> str:
        """A fresh token for ``identity`` under the current key, for a sign-in at
        ``authenticated_at`` (now if not given) under the player's token ``version``, on the
        device ``session``."""
        now = int(self._clock())
        auth = now if authenticated_at is None else authenticated_at
        claims = {
            "id": identity.id,
            "name": identity.name,
            "kid": self._current.kid,
            "iat": now,
            "exp": min(now + self._lifetime, auth + self._session_lifetime),
            "auth": auth,
            "ver": version,
            **({"sid": session} if session else {}),
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
        now = self._clock()
        if now >= claims.expires_at or now >= claims.authenticated_at + self._session_lifetime:
            return None
        return claims

    def verify(self, token: str) -> Identity | None:
        claims = self.claims(token)
        return None if claims is None else claims.identity

    def renewal(self, token: str) -> str | None:
        """A fresh token for a valid ``token`` that is a day old or signed by a previous key,
        of the same sign-in and version; ``None`` when it needs none (or is not valid)."""
        claims = self.claims(token)
        if claims is None:
            return None
        if claims.kid == self._current.kid and self._clock() - claims.issued_at < RENEW_AFTER:
            return None
        return self.resign(claims)

    def resign(self, claims: Claims, identity: Identity | None = None) -> str:
        """A fresh token of the same sign-in, version and device as ``claims`` (for
        ``identity`` when the player's name changed)."""
        return self.sign(
            identity or claims.identity,
            authenticated_at=claims.authenticated_at,
            version=claims.version,
            session=claims.session,
        )


def _claims(data: object) -> Claims | None:
    """The claims of a decoded payload, if every field has the right type."""
    if not isinstance(data, dict):
        return None
    ident, name, kid = data.get("id"), data.get("name"), data.get("kid")
    issued, expires = _seconds(data.get("iat")), _seconds(data.get("exp"))
    # A token from before sessions ended: signed in when it was issued, at version 0.
    auth, version = _seconds(data.get("auth", issued)), _seconds(data.get("ver", 0))
    session = data.get("sid", "")
    if not (isinstance(ident, str) and isinstance(name, str) and isinstance(kid, str)):
        return None
    if not isinstance(session, str) or len(session) > 32:
        return None
    if not is_account_id(ident):  # an id goes into paths and queries: only of its shape
        return None
    if issued is None or expires is None or auth is None or version is None:
        return None
    return Claims(Identity(ident, name), kid, issued, expires, auth, version, session)


def _seconds(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
