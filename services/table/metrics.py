"""What a table worker shows on its ``/metrics``."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

from shared.observability import LATENCY_BUCKETS, ServiceMetrics


class TableMetrics(ServiceMetrics):
    def __init__(self) -> None:
        super().__init__()
        self.commands = Counter(
            "swick_commands",
            "Requests handled by table workers",
            ["outcome"],
            registry=self.registry,
        )
        self.command_seconds = Histogram(
            "swick_command_seconds",
            "Table worker: request received to views published",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.batch_commands = Histogram(
            "swick_batch_commands",
            "Table worker: requests handled together in one batch (one commit)",
            buckets=(1, 2, 4, 8, 16, 32, 64),
            registry=self.registry,
        )
        self.tables = Gauge(
            "swick_tables_loaded", "Tables held in this worker's memory", registry=self.registry
        )
        self.shards = Gauge(
            "swick_shards_owned", "Shards this worker holds the lease of", registry=self.registry
        )
        self.takeovers = Counter(
            "swick_shard_takeovers",
            "Shards taken over (at start, on rebalance, on failover)",
            registry=self.registry,
        )
        self.shards_lost = Counter(
            "swick_shards_lost",
            "Shards whose lease this worker lost or was fenced from",
            registry=self.registry,
        )
        self.timeouts = Counter(
            "swick_timeouts",
            "Decisions the table took for a seat whose deadline passed",
            registry=self.registry,
        )
        self.bot_actions = Counter(
            "swick_bot_actions",
            "Bots' actions taken from their own queues: relayed to a shard, or dropped (forbidden,"
            " malformed, shard_full)",
            ["bot", "outcome"],
            registry=self.registry,
        )
        self.queue_depth = Gauge(
            "swick_queue_depth",
            "Messages waiting in a shard queue this worker owns",
            ["queue"],
            registry=self.registry,
        )
