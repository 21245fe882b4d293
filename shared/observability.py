"""What every service shows an operator: Prometheus metrics, health and readiness, and
structured log lines.

Log lines are ``key=value`` after the message (``table=... seq=...``), readable by people and
parsed by log tools alike. Metrics are module-level so any part of a service can count.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator

import uvicorn
from fastapi import FastAPI, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
_RESERVED = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.025, 0.05, 0.1, 0.25, 1.0)

COMMANDS = Counter("swick_commands", "Requests handled by table workers", ["outcome"])
COMMAND_SECONDS = Histogram(
    "swick_command_seconds",
    "Table worker: request received to views published",
    buckets=LATENCY_BUCKETS,
)
TABLES = Gauge("swick_tables_loaded", "Tables held in this worker's memory")
SHARDS = Gauge("swick_shards_owned", "Shards this worker holds the lease of")
TAKEOVERS = Counter(
    "swick_shard_takeovers", "Shards taken over (at start, on rebalance, on failover)"
)
SHARDS_LOST = Counter("swick_shards_lost", "Shards whose lease this worker lost or was fenced from")
TIMEOUTS = Counter("swick_timeouts", "Decisions the table took for a seat whose deadline passed")
QUEUE_DEPTH = Gauge("swick_queue_depth", "Messages waiting in a RabbitMQ queue", ["queue"])
CONNECTED = Gauge("swick_connected_players", "Players with an open WebSocket on this gateway")
COMMAND_TO_VIEW = Histogram(
    "swick_gateway_command_to_view_seconds",
    "Gateway: a player's action received to that player's updated view sent",
    buckets=LATENCY_BUCKETS,
)
POSTINGS = Counter("swick_ledger_postings", "Postings handled by the ledger", ["outcome"])
INVARIANTS_OK = Gauge("swick_ledger_invariants_ok", "1 while the ledger's invariants hold")
SET_ASIDE = Gauge(
    "swick_ledger_set_aside",
    "Ledger: dead-lettered postings, conflicting duplicates, tables blocked by a dead letter",
    ["kind"],
)
BOT_TURNS = Counter("swick_bot_turns", "Turns played by this bots service", ["bot"])


class KeyValueFormatter(logging.Formatter):
    """Appends a record's extra fields as ``key=value``."""

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        extra = {k: v for k, v in record.__dict__.items() if k not in _RESERVED}
        if extra:
            line += " " + " ".join(f"{key}={value}" for key, value in sorted(extra.items()))
        return line


def configure_logging() -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(KeyValueFormatter(LOG_FORMAT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request is noise


def metrics_response() -> Response:
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)


def add_probes(app: FastAPI, ready: Callable[[], Awaitable[bool]]) -> None:
    """``/healthz`` (the process answers), ``/readyz`` (``ready()``) and ``/metrics``."""

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> JSONResponse:
        return JSONResponse({"ok": True})

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        ok = await ready()
        return JSONResponse({"ready": ok}, status_code=200 if ok else 503)

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        return metrics_response()


async def serve_probes(ready: Callable[[], Awaitable[bool]], host: str, port: int) -> None:
    """For services without an HTTP API of their own: the probes on ``host:port``."""
    app = FastAPI(title="probes", docs_url=None, redoc_url=None, openapi_url=None)
    add_probes(app, ready)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="off")
    await serve_in_task(QuietServer(config))


class QuietServer(uvicorn.Server):
    """A uvicorn server that leaves signals to its process (several may share one loop)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


async def serve_in_task(server: uvicorn.Server) -> None:
    """Serve until cancelled, then shut down gracefully (connections and lifespan closed)."""
    serving = asyncio.ensure_future(server.serve())
    try:
        await asyncio.shield(serving)
    except asyncio.CancelledError:
        server.should_exit = True
        await serving
        raise
