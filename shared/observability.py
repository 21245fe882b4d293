"""What every service shows an operator: Prometheus metrics, health and readiness, and
structured log lines.

The probes (``/healthz``, ``/readyz``) answer on a service's own port. Metrics and the API's
documentation are for operators, not the public: the gateway and the ledger serve them on a
second, internal listener (``internal_app``), which no Service or Ingress routes to; the table
workers and the bots have only such a port.

Log lines are ``key=value`` after the message (``table=... seq=...``), readable by people and
parsed by log tools alike. Each service keeps its metrics on its own registry
(``services/*/metrics.py``) and shows them with ``add_metrics``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

import uvicorn
from fastapi import FastAPI, Response
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, JSONResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)

from shared.request_limits import limit_requests

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
_RESERVED = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.025, 0.05, 0.1, 0.25, 1.0)

# What any Python process shows (CPU, memory, file descriptors, GC), whatever services it runs.
PROCESS = CollectorRegistry()
ProcessCollector(registry=PROCESS)
PlatformCollector(registry=PROCESS)
GCCollector(registry=PROCESS)


class ServiceMetrics:
    """A service's metrics on a registry of their own, made when the service starts: its
    ``/metrics`` shows only what that service measures (an alert on a metric that a service
    lacks, such as ``absent(swick_ledger_invariants_ok)``, can then fire)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()

    def counter(self, name: str, documentation: str, labels: Sequence[str] = ()) -> Counter:
        return Counter(name, documentation, labels, registry=self.registry)

    def gauge(self, name: str, documentation: str, labels: Sequence[str] = ()) -> Gauge:
        return Gauge(name, documentation, labels, registry=self.registry)

    def histogram(
        self, name: str, documentation: str, buckets: Sequence[float] = LATENCY_BUCKETS
    ) -> Histogram:
        return Histogram(name, documentation, buckets=buckets, registry=self.registry)

    def queue_depth_gauge(self, documentation: str) -> Gauge:
        """``swick_queue_depth`` by queue: the one name the queues of every service are
        watched by."""
        return self.gauge("swick_queue_depth", documentation, ["queue"])


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


def metrics_response(registries: Iterable[CollectorRegistry]) -> Response:
    body = b"".join(generate_latest(registry) for registry in (*registries, PROCESS))
    return Response(body, media_type=CONTENT_TYPE_LATEST)


def add_probes(app: FastAPI, ready: Callable[[], Awaitable[bool]]) -> None:
    """``/healthz`` (the process answers) and ``/readyz`` (``ready()``)."""

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> JSONResponse:
        return JSONResponse({"ok": True})

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        ok = await ready()
        return JSONResponse({"ready": ok}, status_code=200 if ok else 503)


def add_metrics(app: FastAPI, *registries: CollectorRegistry) -> None:
    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        return metrics_response(registries)


def _undocumented(title: str, **options: Any) -> FastAPI:
    """An app that serves no documentation of its own."""
    return FastAPI(title=title, docs_url=None, redoc_url=None, openapi_url=None, **options)


def public_app(
    title: str, lifespan: Callable[[FastAPI], AbstractAsyncContextManager[None]]
) -> FastAPI:
    """A service's HTTP API, its request bodies limited (``limit_requests``); its metrics and
    documentation are on the internal listener (``internal_app``)."""
    app = _undocumented(title, version="1", lifespan=lifespan)
    limit_requests(app)
    return app


def internal_app(public: FastAPI) -> FastAPI:
    """The operators' listener of a service with an HTTP API: ``/metrics`` (the metrics on
    ``public.state.registries``: the service's own, and in embedded mode those of the services
    that share its process and have no port of their own), and ``public``'s OpenAPI schema
    (``/openapi.json``) with its pages (``/docs``, ``/redoc``)."""
    app = _undocumented(f"{public.title} (internal)")
    add_metrics(app, *public.state.registries)

    @app.get("/openapi.json", include_in_schema=False)
    async def schema() -> JSONResponse:
        return JSONResponse(
            get_openapi(title=public.title, version=public.version, routes=public.routes)
        )

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(openapi_url="/openapi.json", title=public.title)

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> HTMLResponse:
        return get_redoc_html(openapi_url="/openapi.json", title=public.title)

    return app


async def serve_probes(
    ready: Callable[[], Awaitable[bool]], host: str, port: int, registry: CollectorRegistry
) -> None:
    """For services without an HTTP API of their own: the probes and the metrics on
    ``host:port`` (an internal port)."""
    app = _undocumented("probes")
    add_probes(app, ready)
    add_metrics(app, registry)
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
