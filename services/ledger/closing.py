"""Closing a deleted account's wallet, the same whichever database keeps the books.

The ledger records who sat at which table, never who still sits there (seats are the table
service's: a gateway asks its read model before it asks to close). What the ledger knows
itself is refused here: a wallet does not close while its last table's postings are not all
applied (the chips it won there may be on their way), nor while chips it put in a pot are
still there (a hand or a game-long pot that has not paid out since). Then its whole balance
goes to the house in one posting, and the closing is recorded, so that a later grant or seat
never opens it again.
"""

from __future__ import annotations

from services.ledger.rules import MAX_AMOUNT, wallet
from services.ledger.storage import AtStake, Pending
from shared.messages import CLOSE, HOUSE, Leg, Posting


def close_posting(player_id: str, balance: int) -> Posting | None:
    """The posting that empties a wallet holding ``balance`` into the house (a debt: the house
    pays it off), in legs of at most ``MAX_AMOUNT``; ``None`` for an empty wallet."""
    if balance == 0:
        return None
    account = wallet(player_id)
    debit, credit = (account, HOUSE) if balance > 0 else (HOUSE, account)
    left, legs = abs(balance), []
    while left:
        amount = min(left, MAX_AMOUNT)
        legs.append(Leg(debit=debit, credit=credit, amount=amount, code=CLOSE))
        left -= amount
    return Posting(
        id=f"close:{player_id}",
        table_id="",
        posting_no=0,
        hand_no=0,
        legs=tuple(legs),
        stacks={},
        names={},
    )


def check_closable(after: tuple[str, int] | None, applied: int, pot: str | None) -> None:
    """Raises ``Pending`` if the postings of the table the player left (``after``: the table
    and its posting that settled them) are applied only up to ``applied``, and ``AtStake`` if
    ``pot`` (a pot holding chips of theirs, as ``AT_STAKE`` finds it) is not ``None``."""
    if after is not None and applied < after[1]:
        raise Pending(f"{after[0]} is applied to {applied} of {after[1]}")
    if pot is not None:
        table = pot.removeprefix("pot:")
        raise AtStake(f"their chips are in the pot at table {table}, which has not paid out")


# A pot holding chips of the wallet ($1): it holds chips, and the wallet paid into it after the
# last posting that paid out of it (a hand's pot, or a game-long one, pays out whole). Written
# for PostgreSQL; the SQLite store swaps the schema's dots and the parameter's sign.
AT_STAKE = (
    "SELECT t.credit FROM ledger.transfers t"
    " JOIN ledger.postings p ON p.id = t.posting_id"
    " JOIN ledger.accounts a ON a.name = t.credit"
    " WHERE t.debit = $1 AND a.kind = 'pot' AND a.credits > a.debits"
    " AND p.posting_no > coalesce(("
    "  SELECT max(p2.posting_no) FROM ledger.transfers t2"
    "  JOIN ledger.postings p2 ON p2.id = t2.posting_id WHERE t2.debit = t.credit), 0)"
    " LIMIT 1"
)
AT_STAKE_SQLITE = AT_STAKE.replace("ledger.", "ledger_").replace("$1", "?")
