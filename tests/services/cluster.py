"""The services as real processes, for integration tests (the platform the load test drives)."""

from services.load.platform import Platform as Cluster

__all__ = ["Cluster"]
