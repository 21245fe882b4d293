"""The ledger service: applies the tables' postings from the bus, and answers over HTTP.

It takes postings only from the tables' broker user, and answers only holders of a service
credential: ``SWICK_LEDGER_TOKEN`` (table workers: seating, which opens wallets),
``SWICK_LEDGER_READ_TOKEN`` (gateways: balances, transfers, the leaderboard, the operator's
view) and ``SWICK_LEDGER_CLOSE_TOKEN`` (gateways: closing a deleted account's wallet, for an
operator, and nothing else). The probes (``/health``, ``/healthz``, ``/readyz``,
``/metrics``) stay open and name no player.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException, Query
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from services.ledger.ledger import Ledger
from services.ledger.metrics import LedgerMetrics
from services.ledger.storage import AtStake, Closed, LedgerStorage, Outcome, Pending
from shared.bus import Bus, Delivery, given_or_connected
from shared.ids import ACCOUNT_ID, LEDGER_TABLE_ID
from shared.messages import Posting
from shared.observability import add_probes, public_app
from shared.postgres import connect_pool
from shared.settings import Settings
from shared.startup import described
from shared.supervise import Backoff, Readiness, retryable, supervise

log = logging.getLogger("swick.ledger")
BATCH_LIMIT = 64  # postings applied in one transaction at most


POISON_ATTEMPTS = 5  # a posting failing this often for no passing reason is dead-lettered
CONSUMING = "consuming postings"


async def consume(
    bus: Bus,
    ledger: LedgerStorage,
    metrics: LedgerMetrics,
    trusted: str,
    readiness: Readiness | None = None,
    backoff: Callable[[], Backoff] = Backoff,
) -> None:
    """Apply postings as they come, each table's in order, what waits together in one
    transaction (else one by one); only those that the bus says the user ``trusted`` published
    (the broker, or in embedded mode the in-process bus, stamps each delivery with its
    publisher's user). Raises ``ConnectionError`` if the broker ends the subscription (to be
    supervised)."""
    readiness = readiness or Readiness()
    waiting: asyncio.Queue[Delivery] = asyncio.Queue()

    async def feed() -> None:
        async with bus.consume(bus.topology.postings, prefetch=BATCH_LIMIT * 2) as deliveries:
            with readiness.up_while(CONSUMING):
                async for delivery in deliveries:
                    waiting.put_nowait(delivery)
        raise ConnectionError("the broker ended the subscription to the postings")

    async with asyncio.TaskGroup() as tasks:
        tasks.create_task(feed())
        while True:
            batch = [await waiting.get()]
            while len(batch) < BATCH_LIMIT and not waiting.empty():
                batch.append(waiting.get_nowait())
            await _apply_batch(ledger, metrics, trusted, batch, backoff)
            await batch[-1].ack(multiple=True)  # the channel's deliveries up to it, in order


async def _apply_batch(
    ledger: LedgerStorage,
    metrics: LedgerMetrics,
    trusted: str,
    batch: list[Delivery],
    backoff: Callable[[], Backoff],
) -> None:
    postings = [p for d in batch if (p := _posting_of(d, trusted, metrics)) is not None]
    if len(postings) > 1:
        try:
            if await ledger.apply_batch(postings):
                metrics.postings.labels("applied").inc(len(postings))
                return
        except Exception as error:  # one by one, each through its own trouble
            log.warning("a batch of postings failed: %s", described(error))
    for posting in postings:
        metrics.postings.labels(await apply_patiently(ledger, posting, backoff())).inc()


def _posting_of(delivery: Delivery, trusted: str, metrics: LedgerMetrics) -> Posting | None:
    if delivery.user_id != trusted:
        log.error(
            "dropped a posting published by %r, not by the tables' user %r",
            delivery.user_id,
            trusted,
        )
        metrics.postings.labels("forbidden").inc()
        return None
    try:
        return Posting.model_validate_json(delivery.body)
    except ValidationError as error:
        log.error("dropped a posting that does not parse: %s", error.errors()[:1])
        return None


async def apply_patiently(ledger: LedgerStorage, posting: Posting, backoff: Backoff) -> Outcome:
    """Apply ``posting``, through the database's passing trouble (a lost connection, a restart:
    retried for as long as it lasts, the table's later postings waiting behind it). A posting
    that keeps failing for another reason is dead-lettered with it after ``POISON_ATTEMPTS``
    (counted as rejected: its table's later postings wait for an operator)."""
    failures, reason = 0, ""
    while True:
        try:
            if failures >= POISON_ATTEMPTS:
                await ledger.dead_letter(posting, f"failed {failures} times: {reason}")
                return "rejected"
            return await ledger.apply(posting)
        except Exception as error:
            context = {"posting": posting.id, "table": posting.table_id or "-"}
            if retryable(error):
                log.warning("waiting for the database: %s", described(error), extra=context)
            else:
                failures += 1
                reason = described(error)
                log.exception("could not apply a posting (attempt %d)", failures, extra=context)
            await backoff.sleep(backoff.next())


async def watch(
    bus: Bus, ledger: LedgerStorage, metrics: LedgerMetrics, every: float = 15.0
) -> None:
    """Keep the invariants and set-aside gauges and the postings queue depth current."""
    while True:
        with contextlib.suppress(Exception):
            health = await ledger.check()
            metrics.invariants_ok.set(1 if health.ok else 0)
            metrics.set_aside.labels("dead_letters").set(health.dead_letters)
            metrics.set_aside.labels("conflicts").set(health.conflicts)
            metrics.set_aside.labels("blocked_tables").set(len(health.blocked_tables))
            queue = bus.topology.postings
            metrics.queue_depth.labels(queue).set(await bus.depth(queue))
        await asyncio.sleep(every)


# Ids in paths and bodies: checked against their shape before they reach a query.
PlayerId = Annotated[str, PathParam(pattern=f"^{ACCOUNT_ID}$", description="an account id")]
TableId = Annotated[str, PathParam(pattern=f"^{LEDGER_TABLE_ID}$", description="a table id")]
TRANSFER_ID = "^[!-~]{1,200}$"  # printable ASCII: no NUL or space reaches the database


class Strict(BaseModel):
    """A request body taken as sent: no coercion (``"1"`` is no int), no unknown fields."""

    model_config = ConfigDict(strict=True, extra="forbid")


class LastTable(Strict):
    """The table a player left, and its last posting: seating waits until it is applied."""

    table_id: str = Field(pattern=f"^{LEDGER_TABLE_ID}$")
    posting_no: int = Field(ge=0, le=2**62)


class SeatRequest(Strict):
    name: str = Field(min_length=1, max_length=64, pattern="^[^\\x00-\\x1f\\x7f]+$")
    bot: bool = False
    after: LastTable | None = None
    table_id: str | None = Field(
        None, pattern=f"^{LEDGER_TABLE_ID}$", description="the table sat down at"
    )


class CloseRequest(Strict):
    after: LastTable | None = Field(None, description="the table the player left last")


def credential(expected: str, what: str) -> Any:
    """A dependency that lets through only a Bearer token equal to ``expected``."""

    def check(authorization: Annotated[str, Header()] = "") -> None:
        given = authorization.removeprefix("Bearer ").strip()
        if not expected or not hmac.compare_digest(given.encode(), expected.encode()):
            raise HTTPException(401, f"This needs the ledger's {what} credential")

    return Depends(check)


class Balance(BaseModel):
    player_id: str
    balance: int


def create_app(
    settings: Settings | None = None,
    *,
    ledger: LedgerStorage | None = None,
    bus: Bus | None = None,
) -> FastAPI:
    """The ledger's app, consuming postings from the bus; ``ledger`` and ``bus`` are given when
    it runs embedded, and made from ``settings`` otherwise."""
    settings = settings or Settings.from_env()
    trusted = settings.trusted_poster
    reader = credential(settings.ledger_read_token, "read")
    writer = credential(settings.ledger_token, "service")
    closer = credential(settings.ledger_close_token, "closing")
    metrics = LedgerMetrics()
    readiness = Readiness()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as owned:
            books: LedgerStorage | None = ledger
            if books is None:
                pool = await connect_pool(
                    settings.database_url,
                    size=settings.database_pool,
                    application="swick-ledger",
                )
                owned.push_async_callback(pool.close)
                books = Ledger(pool, settings.starting_grant)
                await books.migrate()
            messages = await given_or_connected(bus, settings.amqp_url, settings.topology, owned)
            app.state.ledger = books
            readiness.expect(CONSUMING)
            tasks = [
                asyncio.create_task(watch(messages, books, metrics)),
                asyncio.create_task(
                    supervise(
                        "the ledger's postings consumer",
                        lambda: consume(messages, books, metrics, trusted, readiness),
                        logger=log,
                    )
                ),
            ]
            app.state.background = tasks[1:]  # the process ends if they do (services/serve.py)
            try:
                yield
            finally:
                for task in tasks:
                    task.cancel()
                    with contextlib.suppress(BaseException):
                        await task

    app = public_app("Swick Online ledger", lifespan)

    def the_ledger() -> LedgerStorage:
        value: LedgerStorage = app.state.ledger
        return value

    async def ready() -> bool:
        if not readiness.ready:
            return False
        try:
            await the_ledger().balance("")  # any query: the store answers
        except Exception:
            return False
        return True

    add_probes(app, ready)
    app.state.registries = (metrics.registry,)

    @app.get(
        "/players/{player_id}/balance",
        response_model=Balance,
        summary="A player's chips",
        dependencies=[reader],
    )
    async def balance(player_id: PlayerId) -> Balance:
        value = await the_ledger().balance(player_id)
        if value is None:
            raise HTTPException(404, "This player has no wallet yet")
        return Balance(player_id=player_id, balance=value)

    @app.get(
        "/players/{player_id}/transfers",
        summary="A player's transfers, newest first",
        dependencies=[reader],
    )
    async def transfers(
        player_id: PlayerId,
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
        before: Annotated[
            str | None,
            Query(pattern=TRANSFER_ID, description="a transfer id from the last page"),
        ] = None,
    ) -> dict[str, Any]:
        page = await the_ledger().history(player_id, limit, before)
        return {"transfers": page, "next": page[-1]["id"] if len(page) == limit else None}

    @app.get(
        "/leaderboard", summary="Net winnings at the tables over a period", dependencies=[reader]
    )
    async def leaderboard(
        days: Annotated[int, Query(ge=1, le=3650)] = 7,
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
        game: Annotated[
            str | None,
            Query(max_length=32, description="only the tables of this game (as postings name it)"),
        ] = None,
    ) -> dict[str, Any]:
        since = datetime.now(UTC) - timedelta(days=days)
        players = await the_ledger().leaderboard(since, limit, game)
        if game is None:
            return {"days": days, "players": players}
        return {"days": days, "game": game, "players": players}

    @app.get(
        "/tables/{table_id}/reconciliation",
        summary="The ledger's wallets vs the table's",
        dependencies=[reader],
    )
    async def reconciliation(table_id: TableId) -> dict[str, Any]:
        return await the_ledger().reconciliation(table_id)

    @app.get("/health", summary="The ledger's invariants, checked now")
    async def health() -> JSONResponse:
        """503 while an invariant fails; dead letters, conflicts and blocked tables are
        reported beside them (``attention``) without failing the probe."""
        result = await the_ledger().check()
        return JSONResponse(result.as_dict(), status_code=200 if result.ok else 503)

    @app.get("/problems", summary="Dead-lettered and conflicting postings", dependencies=[reader])
    async def problems(limit: Annotated[int, Query(ge=1, le=1000)] = 100) -> dict[str, Any]:
        return await the_ledger().problems(limit)

    @app.get("/house", summary="The house's exposure to the bots", dependencies=[reader])
    async def house() -> dict[str, int]:
        return await the_ledger().house()

    @app.post(
        "/wallets/{player_id}/seat",
        response_model=Balance,
        summary="For table workers",
        dependencies=[writer],
    )
    async def seat(player_id: PlayerId, body: SeatRequest) -> Balance:
        after = None if body.after is None else (body.after.table_id, body.after.posting_no)
        try:
            value = await the_ledger().seat(player_id, body.name, body.bot, after, body.table_id)
        except Pending as pending:
            raise HTTPException(409, f"earlier postings are not applied yet: {pending}") from None
        except Closed:
            raise HTTPException(410, "This account was deleted: its wallet is closed") from None
        return Balance(player_id=player_id, balance=value)

    @app.post(
        "/wallets/{player_id}/close",
        summary="Close a deleted account's wallet: its chips to the house",
        description="For an operator deleting an account (through a gateway): the whole "
        "balance goes to the house in one posting, and the wallet never opens again. A second "
        "call changes nothing (`already_closed`). 409, changing nothing, while the postings of "
        "the table the player left (`after`) are not all applied, or their chips are in a pot.",
        dependencies=[closer],
    )
    async def close(player_id: PlayerId, body: CloseRequest | None = None) -> dict[str, Any]:
        if player_id.startswith("bot:"):
            raise HTTPException(422, "A bot's wallet goes back to the house when it leaves")
        last = None if body is None or body.after is None else body.after
        after = None if last is None else (last.table_id, last.posting_no)
        try:
            closing = await the_ledger().close_wallet(player_id, after)
        except Pending as pending:
            raise HTTPException(
                409, f"their chips from their last table are still being counted: {pending}"
            ) from None
        except AtStake as stake:
            raise HTTPException(409, f"their chips are at stake: {stake}") from None
        return closing.as_dict()

    return app
