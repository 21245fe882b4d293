"""The built-in Contract Whist bots: ``easy``, ``medium`` and ``hard`` (see docs/bots.md)."""
