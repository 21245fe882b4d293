"""Service settings from the environment, with the local defaults of a development machine."""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from urllib.parse import urlparse

from shared.bus import DEFAULT_SHARDS, DEFAULT_URL, Topology

DEFAULT_DATABASE = "postgresql://postgres@127.0.0.1:5432/postgres"
DEV_SECRET = "swick-development-secret-change-me"


def reachable(url: str, default_port: int, timeout: float = 1.0) -> bool:
    """Whether something accepts connections at the host and port of ``url``."""
    parsed = urlparse(url)
    address = (parsed.hostname or "127.0.0.1", parsed.port or default_port)
    try:
        with socket.create_connection(address, timeout):
            return True
    except OSError:
        return False


@dataclass(frozen=True, slots=True)
class Settings:
    amqp_url: str = DEFAULT_URL
    database_url: str = DEFAULT_DATABASE
    namespace: str = "swick"
    shards: int = DEFAULT_SHARDS
    secret: str = DEV_SECRET
    previous_secrets: tuple[str, ...] = ()  # still verify the tokens they signed (rotation)
    starting_grant: int = 4000
    ledger_url: str = "http://127.0.0.1:8001"
    bot_think_ms: int = 900
    admin_token: str = ""  # the operator page is off without one
    # Origins whose pages may open the gateway's WebSocket, comma-separated
    # (https://swick.example.com); empty: the gateway's own origin only.
    allowed_origins: str = ""

    @property
    def topology(self) -> Topology:
        return Topology(self.namespace, self.shards)

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        return cls(
            amqp_url=env.get("SWICK_AMQP_URL", DEFAULT_URL),
            database_url=env.get("SWICK_DATABASE_URL", DEFAULT_DATABASE),
            namespace=env.get("SWICK_NAMESPACE", "swick"),
            shards=int(env.get("SWICK_SHARDS", DEFAULT_SHARDS)),
            secret=env.get("SWICK_SECRET", DEV_SECRET),
            previous_secrets=tuple(
                old.strip()
                for old in env.get("SWICK_SECRET_PREVIOUS", "").split(",")
                if old.strip()
            ),
            starting_grant=int(env.get("SWICK_STARTING_GRANT", 4000)),
            ledger_url=env.get("SWICK_LEDGER_URL", "http://127.0.0.1:8001"),
            bot_think_ms=int(env.get("SWICK_BOT_THINK_MS", 900)),
            admin_token=env.get("SWICK_ADMIN_TOKEN", ""),
            allowed_origins=env.get("SWICK_ALLOWED_ORIGINS", ""),
        )
