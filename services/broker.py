"""The broker's users (``swick broker setup``) and the bot accounts (``swick bots register``).

The setup creates a user for each service kind and for each built-in bot, with the passwords
it is given, then declares the durable topology, including the turns queue of every registered
bot; the built-in bots are registered first. A bot account is a name tables may seat, its
owner, and a broker user whose password is printed once, when the account is made.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import aio_pika

from services.bots.levels import LEVELS
from services.table.store import TableStore
from shared.broker import (
    Administrator,
    BrokerSetupError,
    bot_permissions,
    definitions,
    users_of,
    vhost_of,
    with_passwords,
)
from shared.bus import ROLES, Topology
from shared.messages import BOT_NAME
from shared.postgres import connect_pool
from shared.settings import Settings, role_variable, with_credentials

BUILT_IN_BOTS = tuple(LEVELS)
BUILT_IN_OWNER = "swick"
OPEN_WITHIN = 30.0  # seconds for the broker to let new users in (imports are asynchronous)


def roles(bots: Iterable[str] = BUILT_IN_BOTS) -> list[str]:
    """The roles that connect to the broker: the services', then each bot's ``bot-<name>``."""
    return [*ROLES, *(f"bot-{bot}" for bot in bots)]


def user_of(topology: Topology, role: str) -> str:
    if role.startswith("bot-"):
        return topology.bot_user(role.removeprefix("bot-"))
    return topology.user(role)


def new_passwords(bots: Iterable[str] = BUILT_IN_BOTS) -> dict[str, str]:
    return {role: secrets.token_urlsafe(24) for role in roles(bots)}


def passwords_from(settings: Settings) -> dict[str, str]:
    """The password of each role, from its URL (``SWICK_AMQP_URL_<ROLE>``); all are needed."""
    found: dict[str, str] = {}
    missing = []
    for role in roles():
        variable = role_variable(role)
        url = urlparse(settings.amqp_urls.get(variable, ""))
        password = unquote(url.password or "")
        if not password:
            missing.append(variable)
            continue
        user = user_of(settings.topology, role)
        if unquote(url.username or "") != user:
            raise BrokerSetupError(f"{variable} must sign in as the user {user}")
        found[role] = password
    if missing:
        raise BrokerSetupError(
            "set the broker URL, with a password, of every service user: " + ", ".join(missing)
        )
    return found


def kept_passwords(path: Path) -> dict[str, str]:
    """The passwords kept in ``path`` (readable by its owner only), made there the first time."""
    if path.exists():
        path.chmod(0o600)
        kept: dict[str, str] = json.loads(path.read_text())
        if set(kept) >= set(roles()):
            return kept
    made = new_passwords()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(mode=0o600)
    path.chmod(0o600)
    path.write_text(json.dumps(made, indent=2))
    return made


def urls(settings: Settings, passwords: Mapping[str, str]) -> dict[str, str]:
    """``SWICK_AMQP_URL_<ROLE>`` -> that role's URL: the one the settings give it, else one at
    the address of ``settings.amqp_url``."""
    t = settings.topology
    return {
        role_variable(role): settings.amqp_urls.get(role_variable(role))
        or with_credentials(settings.amqp_url, user_of(t, role), password)
        for role, password in passwords.items()
    }


async def registered_bots(settings: Settings) -> list[str]:
    """Register the built-in bots (once), and list every bot account."""
    pool = await connect_pool(settings.database_url, size=1)
    try:
        store = TableStore(pool)
        await store.migrate(settings.shards)
        for bot in BUILT_IN_BOTS:
            await store.register_bot(bot, BUILT_IN_OWNER)
        return [account.name for account in await store.bot_accounts()]
    finally:
        await pool.close()


async def setup(
    settings: Settings,
    passwords: Mapping[str, str],
    admin: Administrator,
    *,
    document: dict[str, Any] | None = None,
) -> None:
    """Create the service users with ``passwords`` (by role), their permissions and the
    topology. ``document``: definitions to load instead of the ones made here (the shipped
    file), for this namespace; the turns queues of registered bots are added to it."""
    t = settings.topology
    bots = await registered_bots(settings)
    vhost = vhost_of(settings.amqp_url_for("gateway"))
    by_user = {user_of(t, role): password for role, password in passwords.items()}
    if document is None:
        document = definitions(t, users=users_of(t, BUILT_IN_BOTS), bot_queues=bots, vhost=vhost)
    else:
        queues = {queue.get("name") for queue in document.get("queues", [])}
        if t.shard_queue(0) not in queues:
            raise BrokerSetupError(f"the definitions are not those of namespace {t.namespace}")
        vhosts = {queue.get("vhost") for queue in document.get("queues", [])}
        if vhosts != {vhost}:
            raise BrokerSetupError(
                f"the definitions are for the virtual host {', '.join(map(str, vhosts))}, the"
                f" services use {vhost}: make them with `swick broker definitions --vhost`"
            )
        await admin.load(definitions(t, users={}, bot_queues=bots, shared=False, vhost=vhost))
    await admin.load(with_passwords(document, by_user))
    await until_open(urls(settings, passwords).values())


async def register_bot(settings: Settings, name: str, owner: str, admin: Administrator) -> str:
    """A new bot account: its broker user (with a new password), its turns queue, and the name
    registered for tables. Returns its broker URL, which is shown only this once."""
    if not BOT_NAME.fullmatch(name):
        raise BrokerSetupError("a bot name is 1 to 24 lower-case letters, digits, - or _")
    if not owner.strip():
        raise BrokerSetupError("name the bot's owner")
    pool = await connect_pool(settings.database_url, size=1)
    try:
        store = TableStore(pool)
        await store.migrate(settings.shards)
        if await store.bot_account(name) is not None:
            raise BrokerSetupError(f"the bot name {name} is taken")
        t = settings.topology
        user, password = t.bot_user(name), secrets.token_urlsafe(24)
        document = definitions(
            t,
            users={user: bot_permissions(t, name)},
            passwords={user: password},
            bot_queues=[name],
            shared=False,
            vhost=vhost_of(settings.amqp_url),
        )
        await admin.load(document)
        if not await store.register_bot(name, owner.strip()):
            raise BrokerSetupError(f"the bot name {name} is taken")
    finally:
        await pool.close()
    url = with_credentials(settings.amqp_url, user, password)
    await until_open([url])
    return url


async def until_open(addresses: Iterable[str], within: float = OPEN_WITHIN) -> None:
    """Wait until each URL's user can connect (a definitions import finishes in the
    background)."""
    deadline = time.monotonic() + within
    for url in addresses:
        while True:
            try:
                connection = await aio_pika.connect(url)
            except (ConnectionError, aio_pika.exceptions.AMQPError) as error:
                if time.monotonic() > deadline:
                    raise BrokerSetupError(
                        f"the broker does not let its users in: {error}"
                    ) from None
                await asyncio.sleep(0.2)
            else:
                await connection.close()
                break
