"""A TCP proxy in front of the broker, so a chaos run can cut one service's connection to it.

Cutting aborts both sockets of every proxied connection at once: the service sees its broker
connection reset, just as when the network fails, and the broker sees the client vanish (its
exclusive queues go). New connections are accepted again at once, so the service can come back.
"""

from __future__ import annotations

import asyncio
import contextlib
from types import TracebackType
from urllib.parse import urlparse

CHUNK = 65_536


class Proxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self.cuts = 0  # connections cut so far
        self._server: asyncio.Server | None = None
        self._links: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()

    @classmethod
    def to(cls, url: str) -> Proxy:
        """A proxy for the service an ``amqp://`` (or similar) URL names."""
        parsed = urlparse(url)
        return cls(parsed.hostname or "127.0.0.1", parsed.port or 5672)

    def url(self, url: str) -> str:
        """``url`` with its host and port replaced by the proxy's."""
        parsed = urlparse(url)
        credentials = parsed.netloc.rpartition("@")[0]
        netloc = f"{credentials}@" if credentials else ""
        return parsed._replace(netloc=f"{netloc}127.0.0.1:{self.port}").geturl()

    async def __aenter__(self) -> Proxy:
        self._server = await asyncio.start_server(self._link, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._server is not None:
            self._server.close()
        self.cut()
        if self._server is not None:
            await self._server.wait_closed()

    @property
    def connections(self) -> int:
        return len(self._links)

    def cut(self) -> int:
        """Abort every proxied connection, both sides; returns how many there were."""
        links = list(self._links)
        self._links.clear()
        for client, upstream in links:
            client.transport.abort()
            upstream.transport.abort()
        self.cuts += len(links)
        return len(links)

    async def _link(self, client_in: asyncio.StreamReader, client: asyncio.StreamWriter) -> None:
        try:
            upstream_in, upstream = await asyncio.open_connection(*self.target)
        except OSError:
            client.transport.abort()
            return
        link = (client, upstream)
        self._links.add(link)
        pipes = [
            asyncio.create_task(_pipe(client_in, upstream)),
            asyncio.create_task(_pipe(upstream_in, client)),
        ]
        try:
            # Either side closing ends the link: AMQP has no use for half-open connections.
            await asyncio.wait(pipes, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for pipe in pipes:
                pipe.cancel()
            self._links.discard(link)
            client.transport.abort()
            upstream.transport.abort()


async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    with contextlib.suppress(OSError):  # reset or aborted: the link ends either way
        while data := await source.read(CHUNK):
            sink.write(data)
            await sink.drain()
