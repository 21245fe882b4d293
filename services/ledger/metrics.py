"""What the ledger shows on its ``/metrics``."""

from __future__ import annotations

from prometheus_client import Counter, Gauge

from shared.observability import ServiceMetrics


class LedgerMetrics(ServiceMetrics):
    def __init__(self) -> None:
        super().__init__()
        self.postings = Counter(
            "swick_ledger_postings",
            "Postings handled by the ledger",
            ["outcome"],
            registry=self.registry,
        )
        # Only the ledger has this gauge, so its absence means no ledger is being scraped.
        self.invariants_ok = Gauge(
            "swick_ledger_invariants_ok",
            "1 while the ledger's invariants hold",
            registry=self.registry,
        )
        self.queue_depth = Gauge(
            "swick_queue_depth",
            "Messages waiting in the postings queue",
            ["queue"],
            registry=self.registry,
        )
        self.set_aside = Gauge(
            "swick_ledger_set_aside",
            "Dead-lettered postings, conflicting duplicates, tables blocked by a dead letter",
            ["kind"],
            registry=self.registry,
        )
