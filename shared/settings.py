"""Service settings from the environment, with the local defaults of a development machine."""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import quote, urlparse

from shared.bus import DEFAULT_BOT_TURN_TTL_MS, DEFAULT_SHARDS, DEFAULT_URL, Topology

DEFAULT_DATABASE = "postgresql://postgres@127.0.0.1:5432/postgres"
DEV_SECRET = "swick-development-secret-change-me"
# The ledger's service credentials on a development machine: refused off loopback.
DEV_LEDGER_TOKEN = "swick-development-ledger-token-change-me"
DEV_LEDGER_READ_TOKEN = "swick-development-ledger-read-token-change-me"
DEV_LEDGER_CLOSE_TOKEN = "swick-development-ledger-close-token-change-me"


ROLE_URL_PREFIX = "SWICK_AMQP_URL_"


def role_variable(role: str) -> str:
    """The variable holding the broker URL of ``role`` (``gateway``, ``bot-easy``, ...)."""
    return ROLE_URL_PREFIX + role.upper().replace("-", "_")


def with_credentials(url: str, user: str, password: str) -> str:
    """``url`` with its user and password replaced."""
    parsed = urlparse(url)
    address = parsed.netloc.rpartition("@")[2]
    return parsed._replace(
        netloc=f"{quote(user, safe='')}:{quote(password, safe='')}@{address}"
    ).geturl()


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
    database_pool: int = 10  # connections each service process may hold
    namespace: str = "swick"
    shards: int = DEFAULT_SHARDS
    secret: str = DEV_SECRET
    previous_secrets: tuple[str, ...] = ()  # still verify the tokens they signed (rotation)
    starting_grant: int = 4000
    ledger_url: str = "http://127.0.0.1:8001"
    bot_think_ms: int = 900
    admin_token: str = ""  # the operator page is off without one
    ledger_token: str = DEV_LEDGER_TOKEN  # moves chips: the ledger and table workers
    ledger_read_token: str = DEV_LEDGER_READ_TOKEN  # reads books: the ledger and gateways
    # Closes a deleted account's wallet, its chips to the house, and nothing else: the ledger
    # and gateways (an operator deletes accounts through a gateway).
    ledger_close_token: str = DEV_LEDGER_CLOSE_TOKEN
    grants_per_address: int = 3  # sign-ups (each a starting grant) per client address...
    grant_period_hours: float = 24.0  # ... per this many hours
    abandon_seconds: float = 300.0  # a table no connected person attends closes after this
    host_tables: int = 3  # open tables one player may host at a time
    # Origins whose pages may open the gateway's WebSocket, comma-separated
    # (https://swick.example.com); empty: the gateway's own origin only.
    allowed_origins: str = ""
    # The reverse proxies whose X-Forwarded-For names the client, comma-separated addresses and
    # CIDRs (services/gateway/proxies.py); empty: none, every peer is the client.
    trusted_proxies: str = ""
    session_days: float = 90.0  # renewal keeps a sign-in alive this long, then it ends
    # Passkeys (docs/accounts.md): the relying party's id, a domain the site's pages are on,
    # and the origins whose pages may use them, comma-separated (empty: the origins on that
    # domain, plain http only for localhost).
    passkey_rp_id: str = "localhost"
    passkey_origins: str = ""
    # Signing in again (passkey, device link, recovery code) from one client address: at most
    # this many attempts per period, and as many again against one account from anywhere.
    sign_in_attempts: int = 10
    sign_in_period_minutes: float = 15.0
    link_code_minutes: float = 10.0  # how long a device link's code stays good
    bot_turn_ttl_ms: int = DEFAULT_BOT_TURN_TTL_MS
    # Broker URLs by role, where a process needs several (the built-in bots: one per bot) or
    # sets up the others' users (``swick broker setup``): ``SWICK_AMQP_URL_<ROLE>``.
    amqp_urls: Mapping[str, str] = field(default_factory=dict)
    rabbitmq_api: str = ""  # the management API, with an administrator's credentials

    @property
    def topology(self) -> Topology:
        return Topology(self.namespace, self.shards)

    @property
    def trusted_poster(self) -> str:
        """The broker user the ledger takes postings from: the table workers' own."""
        return self.topology.user("table")

    def ledger_auth(self, *, write: bool = False) -> dict[str, str]:
        """The header that authenticates a call to the ledger's API: with the read credential,
        or (``write``) the service credential that may seat players."""
        token = self.ledger_token if write else self.ledger_read_token
        return {"Authorization": f"Bearer {token}"}

    def amqp_url_for(self, role: str) -> str:
        """The broker URL of ``role`` (``gateway``, ``table``, ``ledger``, ``bot-<name>``):
        its own variable if set, else ``SWICK_AMQP_URL``."""
        return self.amqp_urls.get(role_variable(role), self.amqp_url)

    def amqp_variable_for(self, role: str) -> str:
        """The variable ``amqp_url_for(role)`` comes from."""
        variable = role_variable(role)
        return variable if variable in self.amqp_urls else "SWICK_AMQP_URL"

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        return cls(
            amqp_url=env.get("SWICK_AMQP_URL", DEFAULT_URL),
            database_url=env.get("SWICK_DATABASE_URL", DEFAULT_DATABASE),
            database_pool=int(env.get("SWICK_DATABASE_POOL", 10)),
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
            ledger_token=env.get("SWICK_LEDGER_TOKEN", DEV_LEDGER_TOKEN),
            ledger_read_token=env.get("SWICK_LEDGER_READ_TOKEN", DEV_LEDGER_READ_TOKEN),
            ledger_close_token=env.get("SWICK_LEDGER_CLOSE_TOKEN", DEV_LEDGER_CLOSE_TOKEN),
            grants_per_address=int(env.get("SWICK_GRANTS_PER_ADDRESS", 3)),
            grant_period_hours=float(env.get("SWICK_GRANT_PERIOD_HOURS", 24)),
            abandon_seconds=float(env.get("SWICK_ABANDON_SECONDS", 300)),
            host_tables=int(env.get("SWICK_HOST_TABLES", 3)),
            allowed_origins=env.get("SWICK_ALLOWED_ORIGINS", ""),
            # uvicorn's variable still counts where a deployment set it and not ours.
            trusted_proxies=env.get("SWICK_TRUSTED_PROXIES", env.get("FORWARDED_ALLOW_IPS", "")),
            session_days=float(env.get("SWICK_SESSION_DAYS", 90)),
            passkey_rp_id=env.get("SWICK_PASSKEY_RP_ID", "localhost"),
            passkey_origins=env.get("SWICK_PASSKEY_ORIGINS", ""),
            sign_in_attempts=int(env.get("SWICK_SIGN_IN_ATTEMPTS", 10)),
            sign_in_period_minutes=float(env.get("SWICK_SIGN_IN_PERIOD_MINUTES", 15)),
            link_code_minutes=float(env.get("SWICK_LINK_CODE_MINUTES", 10)),
            bot_turn_ttl_ms=int(env.get("SWICK_BOT_TURN_TTL_MS", DEFAULT_BOT_TURN_TTL_MS)),
            amqp_urls={k: v for k, v in env.items() if k.startswith(ROLE_URL_PREFIX) and v},
            rabbitmq_api=env.get("SWICK_RABBITMQ_API", ""),
        )
