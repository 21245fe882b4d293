"""The bots service."""
