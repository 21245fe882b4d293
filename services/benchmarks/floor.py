"""``swick bench floor``: what the command path costs with no work in it.

A person's command crosses a socket to the gateway and back, two broker hops (gateway to
worker, worker to gateway) and one durable commit. This benchmark times each of those bare,
between two processes of this machine, with nothing done on the way: a TCP echo, a message
echoed through RabbitMQ by another process (two hops), and a one-row insert committed in
PostgreSQL. It samples them spaced as 25 paced tables space their commands (40 ms apart:
every process sleeps in between) and back to back (each process stays warm), so an operator
sees the lowest latency the path can have at low load on this machine.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass

import aio_pika
import asyncpg

from services.load.platform import fresh_database
from shared.bus import DEFAULT_URL
from shared.settings import DEFAULT_DATABASE

PAYLOAD = b"x" * 300  # about one person's request


@dataclass(frozen=True, slots=True)
class Floor:
    gap_ms: float  # between samples
    socket_ms: float  # p50 of a TCP round trip between two processes
    broker_ms: float  # p50 of a message there and back through RabbitMQ (two hops)
    commit_ms: float  # p50 of a one-row insert, committed (WAL flushed)

    @property
    def total_ms(self) -> float:
        return self.socket_ms + self.broker_ms + self.commit_ms


async def _p50(sample: Callable[[], Awaitable[None]], count: int, gap: float) -> float:
    times: list[float] = []
    for _ in range(count):
        start = time.perf_counter()
        await sample()
        times.append((time.perf_counter() - start) * 1000)
        await asyncio.sleep(gap)
    return statistics.median(times)


async def echo(amqp_url: str, requests: str, replies: str) -> None:
    """The other process: echoes TCP data, and each message of ``requests`` to ``replies``;
    prints its port once both are ready."""

    async def on_socket(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(65536):
            writer.write(data)

    server = await asyncio.start_server(on_socket, "127.0.0.1", 0)
    connection = await aio_pika.connect(amqp_url)
    channel = await connection.channel(publisher_confirms=False)
    queue = await channel.get_queue(requests)

    async def on_message(message: aio_pika.abc.AbstractIncomingMessage) -> None:
        await channel.default_exchange.publish(aio_pika.Message(message.body), replies)

    await queue.consume(on_message, no_ack=True)
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


async def run(
    samples: int, gaps: tuple[float, ...], amqp_url: str, database_url: str
) -> list[Floor]:
    tag = secrets.token_hex(4)
    requests, replies = f"swick.floor.{tag}.requests", f"swick.floor.{tag}.replies"
    connection = await aio_pika.connect(amqp_url)
    channel = await connection.channel(publisher_confirms=False)
    await channel.declare_queue(requests, auto_delete=True)
    reply_queue = await channel.declare_queue(replies, auto_delete=True)
    answers: asyncio.Queue[bytes] = asyncio.Queue()
    await reply_queue.consume(lambda m: answers.put_nowait(m.body), no_ack=True)  # type: ignore[arg-type,return-value]
    other = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "services.benchmarks.floor", amqp_url, requests, replies),
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert other.stdout is not None
        port = int(await other.stdout.readline())
        reader, writer = await asyncio.open_connection("127.0.0.1", port)

        async def socket() -> None:
            writer.write(PAYLOAD)
            await reader.readexactly(len(PAYLOAD))

        async def broker() -> None:
            await channel.default_exchange.publish(aio_pika.Message(PAYLOAD), requests)
            await answers.get()

        async with fresh_database(database_url, "floor") as dsn:
            database = await asyncpg.connect(dsn)
            await database.execute("CREATE TABLE log (id bigserial PRIMARY KEY, body bytea)")

            async def commit() -> None:
                await database.execute("INSERT INTO log (body) VALUES ($1)", PAYLOAD)

            floors = [
                Floor(
                    gap * 1000,
                    await _p50(socket, samples, gap),
                    await _p50(broker, samples, gap),
                    await _p50(commit, samples, gap),
                )
                for gap in gaps
            ]
            await database.close()
        writer.close()
        return floors
    finally:
        other.kill()
        await other.wait()
        await connection.close()


def report(floors: list[Floor]) -> dict[str, object]:
    return {"floors": [asdict(f) | {"total_ms": f.total_ms} for f in floors]}


def describe(floors: list[Floor]) -> str:
    lines = ["the command path with no work in it (p50 of each part):"]
    for f in floors:
        lines.append(
            f"  {f.gap_ms:.0f} ms apart: socket round trip {f.socket_ms:.3f} ms"
            f" + broker there and back {f.broker_ms:.3f} ms + commit {f.commit_ms:.3f} ms"
            f" = {f.total_ms:.2f} ms"
        )
    return "\n".join(lines)


def settings_urls() -> tuple[str, str]:
    return (
        os.environ.get("SWICK_AMQP_URL", DEFAULT_URL),
        os.environ.get("SWICK_DATABASE_URL", DEFAULT_DATABASE),
    )


if __name__ == "__main__":
    import uvloop

    uvloop.run(echo(*sys.argv[1:4]))
