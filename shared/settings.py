"""Service settings from the environment, with the local defaults of a development machine."""

from __future__ import annotations

import ipaddress
import os
import socket
from dataclasses import dataclass
from urllib.parse import urlparse

from shared.bus import DEFAULT_SHARDS, DEFAULT_URL, Topology

DEFAULT_DATABASE = "postgresql://postgres@127.0.0.1:5432/postgres"
DEV_SECRET = "swick-development-secret-change-me"
# The ledger's service credentials on a development machine: refused off loopback.
DEV_LEDGER_TOKEN = "swick-development-ledger-token-change-me"
DEV_LEDGER_READ_TOKEN = "swick-development-ledger-read-token-change-me"


def reachable(url: str, default_port: int, timeout: float = 1.0) -> bool:
    """Whether something accepts connections at the host and port of ``url``."""
    parsed = urlparse(url)
    address = (parsed.hostname or "127.0.0.1", parsed.port or default_port)
    try:
        with socket.create_connection(address, timeout):
            return True
    except OSError:
        return False


def loopback(host: str) -> bool:
    """Whether ``host`` (an address to listen on) is reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _looks_made_up(value: str) -> bool:
    """A value the deploy files ship as a placeholder ("change me", "REPLACE-ME")."""
    lowered = value.lower()
    return "change-me" in lowered or "replace-me" in lowered


@dataclass(frozen=True, slots=True)
class Settings:
    amqp_url: str = DEFAULT_URL
    database_url: str = DEFAULT_DATABASE
    namespace: str = "swick"
    shards: int = DEFAULT_SHARDS
    secret: str = DEV_SECRET
    starting_grant: int = 4000
    ledger_url: str = "http://127.0.0.1:8001"
    bot_think_ms: int = 900
    admin_token: str = ""  # the operator page is off without one
    ledger_token: str = DEV_LEDGER_TOKEN  # moves chips: the ledger and table workers
    ledger_read_token: str = DEV_LEDGER_READ_TOKEN  # reads books: the ledger and gateways
    postings_user: str = ""  # the broker user whose postings the ledger takes ("": the tables')
    grants_per_address: int = 3  # sign-ups (each a starting grant) per client address...
    grant_period_hours: float = 24.0  # ... per this many hours

    @property
    def topology(self) -> Topology:
        return Topology(self.namespace, self.shards)

    @property
    def trusted_poster(self) -> str:
        """The broker user the ledger takes postings from: ``postings_user`` if set; else the
        tables' user, or ``guest`` when the ledger itself connects as RabbitMQ's loopback-only
        ``guest`` (a development broker with one user for everything)."""
        if self.postings_user:
            return self.postings_user
        login = urlparse(self.amqp_url).username or "guest"
        return "guest" if login == "guest" else self.topology.user("table")

    def ledger_auth(self, *, write: bool = False) -> dict[str, str]:
        """The header that authenticates a call to the ledger's API: with the read credential,
        or (``write``) the service credential that may seat players."""
        token = self.ledger_token if write else self.ledger_read_token
        return {"Authorization": f"Bearer {token}"}

    def refusal(self, service: str, host: str) -> str | None:
        """Why ``service`` must not start listening on ``host``: a ledger credential it needs is
        empty or the development one while the address is not loopback; ``None`` if fine."""
        needs = {
            "ledger": ("SWICK_LEDGER_TOKEN", "SWICK_LEDGER_READ_TOKEN"),
            "table": ("SWICK_LEDGER_TOKEN",),
            "gateway": ("SWICK_LEDGER_READ_TOKEN",),
        }.get(service, ())
        values = {
            "SWICK_LEDGER_TOKEN": (self.ledger_token, DEV_LEDGER_TOKEN),
            "SWICK_LEDGER_READ_TOKEN": (self.ledger_read_token, DEV_LEDGER_READ_TOKEN),
        }
        if loopback(host):
            return None
        for name in needs:
            value, placeholder = values[name]
            if not value or value == placeholder or _looks_made_up(value):
                return f"refusing to start {service} on {host}: set {name} to a secret of its own"
        return None

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        return cls(
            amqp_url=env.get("SWICK_AMQP_URL", DEFAULT_URL),
            database_url=env.get("SWICK_DATABASE_URL", DEFAULT_DATABASE),
            namespace=env.get("SWICK_NAMESPACE", "swick"),
            shards=int(env.get("SWICK_SHARDS", DEFAULT_SHARDS)),
            secret=env.get("SWICK_SECRET", DEV_SECRET),
            starting_grant=int(env.get("SWICK_STARTING_GRANT", 4000)),
            ledger_url=env.get("SWICK_LEDGER_URL", "http://127.0.0.1:8001"),
            bot_think_ms=int(env.get("SWICK_BOT_THINK_MS", 900)),
            admin_token=env.get("SWICK_ADMIN_TOKEN", ""),
            ledger_token=env.get("SWICK_LEDGER_TOKEN", DEV_LEDGER_TOKEN),
            ledger_read_token=env.get("SWICK_LEDGER_READ_TOKEN", DEV_LEDGER_READ_TOKEN),
            postings_user=env.get("SWICK_POSTINGS_USER", ""),
            grants_per_address=int(env.get("SWICK_GRANTS_PER_ADDRESS", 3)),
            grant_period_hours=float(env.get("SWICK_GRANT_PERIOD_HOURS", 24)),
        )
