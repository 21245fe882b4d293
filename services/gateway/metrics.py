"""What a gateway shows on its ``/metrics``."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

from shared.observability import LATENCY_BUCKETS, ServiceMetrics


class GatewayMetrics(ServiceMetrics):
    def __init__(self) -> None:
        super().__init__()
        self.connected = Gauge(
            "swick_connected_players",
            "Players with an open WebSocket on this gateway",
            registry=self.registry,
        )
        self.resent = Counter(
            "swick_gateway_requests_resent_total",
            "Gateway: people's requests sent again for want of an answer (a lost one, or a slow"
            " table)",
            registry=self.registry,
        )
        self.command_to_view = Histogram(
            "swick_gateway_command_to_view_seconds",
            "Gateway: a player's action received to that player's updated view sent",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
