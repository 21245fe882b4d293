"""The shapes of the ids that appear in URLs, checked before an id is used anywhere.

An id from a URL (or from a token) ends up in database queries and in the paths of calls to
other services; one that is not of its shape is refused at the door, so that no ``/``, ``..``,
``?`` or ``%`` can change which resource a path names.
"""

from __future__ import annotations

import re

# Any account the ledger knows: a person (``p-<hex>``), a bot seat (``bot:<table>:<seat>``),
# the names tools and tests give. Letters, digits and ``:_-``: nothing a path treats specially.
ACCOUNT_ID = r"[A-Za-z0-9][A-Za-z0-9:_-]{0,99}"
# A table, as the gateway names them (``t-<hex>``) and tools do (``t-<name>``).
TABLE_ID = r"t-[A-Za-z0-9_-]{1,64}"
# A table as the ledger's postings name it: any id of the account shape.
LEDGER_TABLE_ID = ACCOUNT_ID
INVITE_CODE = r"[A-Za-z0-9_-]{1,64}"  # ``secrets.token_urlsafe``'s alphabet

_ACCOUNT = re.compile(ACCOUNT_ID)


def is_account_id(value: str) -> bool:
    """Whether ``value`` has the shape of an account id (a player's, a bot's)."""
    return _ACCOUNT.fullmatch(value) is not None
