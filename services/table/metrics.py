"""What a table worker shows on its ``/metrics``."""

from __future__ import annotations

from shared.observability import ServiceMetrics


class TableMetrics(ServiceMetrics):
    def __init__(self) -> None:
        super().__init__()
        self.commands = self.counter(
            "swick_commands", "Requests handled by table workers", ["outcome"]
        )
        self.command_seconds = self.histogram(
            "swick_command_seconds", "Table worker: request received to views published"
        )
        self.batch_commands = self.histogram(
            "swick_batch_commands",
            "Table worker: requests handled together in one batch (one commit)",
            buckets=(1, 2, 4, 8, 16, 32, 64),
        )
        self.tables = self.gauge("swick_tables_loaded", "Tables held in this worker's memory")
        self.shards = self.gauge("swick_shards_owned", "Shards this worker holds the lease of")
        self.takeovers = self.counter(
            "swick_shard_takeovers", "Shards taken over (at start, on rebalance, on failover)"
        )
        self.shards_lost = self.counter(
            "swick_shards_lost", "Shards whose lease this worker lost or was fenced from"
        )
        self.timeouts = self.counter(
            "swick_timeouts", "Decisions the table took for a seat whose deadline passed"
        )
        self.bot_actions = self.counter(
            "swick_bot_actions",
            "Bots' actions taken from their own queues: relayed to a shard, or dropped (forbidden,"
            " malformed, shard_full)",
            ["bot", "outcome"],
        )
        self.queue_depth = self.queue_depth_gauge(
            "Messages waiting in a shard queue this worker owns"
        )
