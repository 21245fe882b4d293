"""The broker's users and what each may do: RabbitMQ definitions, and an administrator to load them.

Every service kind connects as a user of its own whose permissions (regular expressions over
queue and exchange names, for configure, write and read) cover only what it uses:

- ``<ns>-gateway`` configures only its own exclusive updates queue (``<ns>.gateway.<random>``),
  writes requests, updates (chat) and that queue (to bind it), reads updates and that queue;
- ``<ns>-table`` configures nothing, writes requests (its timers, and the bots' actions it
  forwards), updates, bot turns and postings, reads the shard queues and the bots' actions
  queues;
- ``<ns>-ledger`` configures and writes nothing, reads the postings queue;
- ``<ns>-bot-<name>`` configures nothing, writes its own actions exchange, reads its own turns
  queue; it may hold ``BOT_USER_LIMITS`` connections and channels at most.

So a bot can neither watch a table's updates, nor read another bot's turns, nor send a request
anywhere but into its own actions queue (bounded: a flood is refused there, and fills no
queue but its own); and the broker stamps who sent each message. The
definitions (users, permissions, exchanges, queues, bindings) are one JSON document, the format
of ``rabbitmqctl import_definitions`` and of the management API's ``POST /api/definitions``;
``deploy/rabbitmq/definitions.json`` is the one of the default namespace, without passwords.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import re
import shutil
import time
from collections.abc import Iterable, Mapping
from typing import Any, Protocol
from urllib.parse import quote, urlparse

import httpx

from shared.bus import ROLES, Topology, declarations

HASHING = "rabbit_password_hashing_sha256"
NOTHING = "^$"
# A bots process opens one connection per bot name, with four channels at most (publishing,
# views, its turns, a depth check): this leaves room for several processes and a reconnect,
# and none for a bot that opens connections or channels to wear the broker down.
BOT_USER_LIMITS = {"max-connections": 8, "max-channels": 64}


class BrokerSetupError(RuntimeError):
    """The broker's users could not be set up: the reason says what to do."""


def hash_password(password: str, salt: bytes | None = None) -> str:
    """RabbitMQ's ``rabbit_password_hashing_sha256``: base64(salt + sha256(salt + password))."""
    salt = os.urandom(4) if salt is None else salt
    return base64.b64encode(salt + hashlib.sha256(salt + password.encode()).digest()).decode()


def _names(*patterns: str) -> str:
    return "^(" + "|".join(patterns) + ")$"


def _exactly(*names: str) -> str:
    return _names(*(re.escape(name) for name in names))


def permissions(topology: Topology, role: str) -> tuple[str, str, str]:
    """(configure, write, read) of a service kind's user."""
    t = topology
    if role == "gateway":
        updates, own = re.escape(t.updates), re.escape(t.gateway_queue("")) + ".+"
        return _names(own), _names(re.escape(t.requests), updates, own), _names(updates, own)
    if role == "table":
        shards = re.escape(t.shard_queue(0)).removesuffix("0") + "[0-9]+"
        actions = re.escape(t.bot_actions_prefix) + ".+"
        writes = _exactly(t.requests, t.updates, t.bots, t.postings)
        return NOTHING, writes, _names(shards, actions)
    if role == "ledger":
        return NOTHING, NOTHING, _exactly(t.postings)
    raise ValueError(f"no such role: {role}")


def bot_permissions(topology: Topology, bot: str) -> tuple[str, str, str]:
    """(configure, write, read) of a bot's user: its actions out, its own turns in."""
    return NOTHING, _exactly(topology.bot_actions(bot)), _exactly(topology.bot_queue(bot))


def users_of(topology: Topology, bots: Iterable[str]) -> dict[str, tuple[str, str, str]]:
    """Every user of the platform's services and of ``bots``, with its permissions."""
    users = {topology.user(role): permissions(topology, role) for role in ROLES}
    for bot in bots:
        users[topology.bot_user(bot)] = bot_permissions(topology, bot)
    return users


def definitions(
    topology: Topology,
    *,
    users: Mapping[str, tuple[str, str, str]],
    passwords: Mapping[str, str] | None = None,
    bot_queues: Iterable[str] = (),
    shared: bool = True,
    vhost: str = "/",
) -> dict[str, Any]:
    """The definitions of ``users`` (a user without a password in ``passwords`` gets none, and
    cannot sign in until one is set) and of the topology: all of it (``shared``) or only the
    queues of ``bot_queues``."""
    passwords = passwords or {}
    exchanges, queues, bindings = declarations(topology, bot_queues)
    chosen = {queue for bot in bot_queues for queue in topology.queues_of(bot)}
    queues = [(name, args) for name, args in queues if shared or name in chosen]
    named = {name for name, _ in queues}
    return {
        "users": [
            {
                "name": user,
                "password_hash": hash_password(passwords[user]) if user in passwords else "",
                "hashing_algorithm": HASHING,
                "tags": [],
                **({"limits": BOT_USER_LIMITS} if topology.bot_of(user) is not None else {}),
            }
            for user in users
        ],
        "permissions": [
            {"user": user, "vhost": vhost, "configure": c, "write": w, "read": r}
            for user, (c, w, r) in users.items()
        ],
        "exchanges": [
            {
                "name": name,
                "vhost": vhost,
                "type": kind,
                "durable": True,
                "auto_delete": False,
                "internal": False,
                "arguments": {},
            }
            for name, kind in exchanges
        ],
        "queues": [
            {"name": name, "vhost": vhost, "durable": True, "auto_delete": False, "arguments": args}
            for name, args in queues
        ],
        "bindings": [
            {
                "source": exchange,
                "vhost": vhost,
                "destination": queue,
                "destination_type": "queue",
                "routing_key": key,
                "arguments": {},
            }
            for exchange, queue, key in bindings
            if queue in named
        ],
    }


def with_passwords(document: dict[str, Any], passwords: Mapping[str, str]) -> dict[str, Any]:
    """``document`` with the password of each user named in ``passwords`` set."""
    users = [
        {
            **user,
            "password_hash": hash_password(passwords[user["name"]]),
            "hashing_algorithm": HASHING,
        }
        if user["name"] in passwords
        else user
        for user in document.get("users", [])
    ]
    return {**document, "users": users}


def vhost_of(url: str) -> str:
    """The virtual host an ``amqp://`` URL names (``/`` when it names none)."""
    path = urlparse(url).path
    return "/" if path in ("", "/") else path[1:].replace("%2F", "/").replace("%2f", "/")


class Administrator(Protocol):
    """What setting up the broker needs: load definitions, delete users."""

    async def load(self, document: dict[str, Any]) -> None: ...

    async def delete_users(self, users: Iterable[str]) -> None: ...


class Rabbitmqctl:
    """The broker on this machine, through its ``rabbitmqctl`` (which needs the node's cookie:
    run as root or as the broker's user)."""

    def __init__(self, command: str = "rabbitmqctl") -> None:
        self.command = command

    async def _run(self, *args: str, stdin: bytes | None = None, check: bool = True) -> None:
        process = await asyncio.create_subprocess_exec(
            self.command,
            *args,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        output, _ = await process.communicate(stdin)
        if check and process.returncode != 0:
            raise BrokerSetupError(
                f"rabbitmqctl {args[0]} failed: {output.decode(errors='replace').strip()}"
            )

    async def load(self, document: dict[str, Any]) -> None:
        await self._run(
            "import_definitions", "--format", "json", stdin=json.dumps(document).encode()
        )

    async def delete_users(self, users: Iterable[str]) -> None:
        for user in users:
            await self._run("delete_user", user, check=False)  # gone already: as well


class ManagementApi:
    """The broker's management HTTP API at ``url`` (``http://ADMIN:PASSWORD@host:15672``)."""

    def __init__(self, url: str, patience: float = 60.0) -> None:
        self.patience = patience
        parsed = urlparse(url)
        self.base = parsed._replace(netloc=parsed.netloc.rpartition("@")[2]).geturl().rstrip("/")
        self.auth = (parsed.username or "guest", parsed.password or "guest")

    async def _call(self, method: str, path: str, body: Any = None) -> None:
        # The broker may still be starting (its API comes up after its AMQP port): retry.
        deadline = time.monotonic() + self.patience
        async with httpx.AsyncClient(base_url=self.base, auth=self.auth, timeout=30) as http:
            while True:
                try:
                    reply = await http.request(method, path, json=body)
                    break
                except httpx.TransportError as error:
                    if time.monotonic() > deadline:
                        raise BrokerSetupError(
                            f"the management API at {self.base} did not answer: {error}"
                        ) from None
                    await asyncio.sleep(1.0)
        if reply.status_code >= 400 and not (method == "DELETE" and reply.status_code == 404):
            raise BrokerSetupError(f"{method} {path}: {reply.status_code} {reply.text[:200]}")

    async def load(self, document: dict[str, Any]) -> None:
        await self._call("POST", "/api/definitions", document)

    async def delete_users(self, users: Iterable[str]) -> None:
        for user in users:
            await self._call("DELETE", f"/api/users/{quote(user, safe='')}")


def administrator(api_url: str = "") -> Administrator:
    """The management API if ``api_url`` names one, else the local ``rabbitmqctl``."""
    if api_url:
        return ManagementApi(api_url)
    command = shutil.which("rabbitmqctl")
    if command is None:
        raise BrokerSetupError(
            "no way to set up the broker's users: set SWICK_RABBITMQ_API to its management API"
            " (http://ADMIN:PASSWORD@host:15672), or run this where rabbitmqctl is"
        )
    return Rabbitmqctl(command)
