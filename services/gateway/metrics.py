"""What a gateway shows on its ``/metrics``."""

from __future__ import annotations

from shared.observability import ServiceMetrics


class GatewayMetrics(ServiceMetrics):
    def __init__(self) -> None:
        super().__init__()
        self.connected = self.gauge(
            "swick_connected_players", "Players with an open WebSocket on this gateway"
        )
        self.resent = self.counter(
            "swick_gateway_requests_resent_total",
            "Gateway: people's requests sent again for want of an answer (a lost one, or a slow"
            " table)",
        )
        self.command_to_view = self.histogram(
            "swick_gateway_command_to_view_seconds",
            "Gateway: a player's action received to that player's updated view sent",
        )
