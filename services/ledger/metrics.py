"""What the ledger shows on its ``/metrics``."""

from __future__ import annotations

from shared.observability import ServiceMetrics


class LedgerMetrics(ServiceMetrics):
    def __init__(self) -> None:
        super().__init__()
        self.postings = self.counter(
            "swick_ledger_postings", "Postings handled by the ledger", ["outcome"]
        )
        # Only the ledger has this gauge, so its absence means no ledger is being scraped.
        self.invariants_ok = self.gauge(
            "swick_ledger_invariants_ok", "1 while the ledger's invariants hold"
        )
        self.queue_depth = self.queue_depth_gauge("Messages waiting in the postings queue")
        self.set_aside = self.gauge(
            "swick_ledger_set_aside",
            "Dead-lettered postings, conflicting duplicates, tables blocked by a dead letter",
            ["kind"],
        )
