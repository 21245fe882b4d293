"""Whose an action id is: a bot's ids are filed under its own seat's player id.

The engines refuse an action id already applied at a table, so an id a sender may choose freely
lets it pre-empt another's: a bot that sends ``<a person's id>/7`` first makes the person's
``7`` a duplicate, never applied (and ``timeout:57`` would cost the table its deadline). A
gateway files every person's request under ``<their player id>/`` (from their verified token);
the table files a bot's the same way, whatever the bot sent. A request id that starts with the
bot's own prefix already (the bots service's ``<player id>/turn-<seq>``) is kept as it is, and
any other is put under it, so a redelivered request maps to the same id and is a duplicate.
"""

from __future__ import annotations


def bot_action_id(player_id: str, request_id: str) -> str:
    """The action id of a bot seat's (``player_id``'s) request ``request_id``."""
    prefix = f"{player_id}/"
    return request_id if request_id.startswith(prefix) else prefix + request_id
