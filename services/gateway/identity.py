"""Who a player is: a display name and a signed token the browser keeps.

A token is ``<payload>.<signature>``: the payload is base64url JSON ``{"id", "name"}`` and the
signature its HMAC-SHA256 under the platform's secret, so any gateway process can check it
without a database.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass

NAME_MIN, NAME_MAX = 2, 20
_NAME = re.compile(r"[\w][\w .'-]*[\w.]", re.UNICODE)


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


class Tokens:
    def __init__(self, secret: str) -> None:
        self._key = hashlib.sha256(secret.encode()).digest()

    def _sign(self, payload: str) -> str:
        return _b64(hmac.digest(self._key, payload.encode(), "sha256"))

    def issue(self, name: str) -> tuple[Identity, str]:
        identity = Identity(f"p-{secrets.token_hex(8)}", check_name(name))
        payload = _b64(json.dumps({"id": identity.id, "name": identity.name}).encode())
        return identity, f"{payload}.{self._sign(payload)}"

    def verify(self, token: str) -> Identity | None:
        payload, _, signature = token.partition(".")
        if not signature or not hmac.compare_digest(self._sign(payload), signature):
            return None
        try:
            data = json.loads(_unb64(payload))
            return Identity(str(data["id"]), str(data["name"]))
        except (ValueError, KeyError, TypeError):
            return None
