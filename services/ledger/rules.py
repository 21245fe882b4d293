"""The ledger's rules, the same whichever database holds the books: pure functions.

A storage reads the balances of the accounts a posting touches (``accounts``, locked in that
order where the database locks rows), asks ``settle`` what the posting does to them, and
writes that; ``settle`` raises ``Rejected`` for a posting that breaks a rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from services.ledger.storage import Rejected
from shared.messages import Leg, Posting

BANK = "bank"
KINDS = frozenset({"bank", "wallet", "pot", "carry"})
NEVER_NEGATIVE = frozenset({"pot", "carry"})


def wallet(player_id: str) -> str:
    return f"wallet:{player_id}"


def kind_of(account: str) -> str:
    return account.split(":", 1)[0]


def grant_posting(player_id: str, amount: int) -> Posting:
    """The starting grant of a new wallet: ``amount`` from the bank, applied once by its id."""
    return Posting(
        id=f"grant:{player_id}",
        table_id="",
        posting_no=0,
        hand_no=0,
        legs=(Leg(debit=BANK, credit=wallet(player_id), amount=amount, code="grant"),),
        stacks={},
        names={},
    )


def accounts(posting: Posting) -> list[str]:
    """The accounts the posting moves chips between, sorted (the order to lock them in).

    Raises ``Rejected`` if a leg moves nothing, or moves between an account and itself, or
    from or to an account of no known kind.
    """
    for leg in posting.legs:
        if leg.amount <= 0:
            raise Rejected(f"leg {leg.code} moves {leg.amount}")
        if leg.debit == leg.credit or not {kind_of(leg.debit), kind_of(leg.credit)} <= KINDS:
            raise Rejected(f"leg {leg.code} moves from {leg.debit} to {leg.credit}")
    return sorted({leg.debit for leg in posting.legs} | {leg.credit for leg in posting.legs})


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a posting does to its accounts."""

    names: list[str]  # the accounts, sorted
    debits: dict[str, int]  # per account, what its debits grow by
    credits: dict[str, int]  # per account, what its credits grow by
    balances: dict[str, int]  # per account, its balance afterwards
    reconciled: list[tuple[str, int, int]]  # (player, the table's stack, the wallet's balance)


def settle(posting: Posting, balances: Mapping[str, int]) -> Settlement:
    """What ``posting`` does, given the balances before it of every account it touches.

    Raises ``Rejected`` (besides the leg checks of ``accounts``) if an ante is more than its
    wallet holds when the ante's turn comes (earlier legs counted), or if a pot or carry would
    end below zero. A table's posting reconciles each player of its ``stacks`` whose wallet it
    touches.
    """
    names = accounts(posting)
    balance = {name: balances[name] for name in names}
    debits = dict.fromkeys(names, 0)
    credits = dict.fromkeys(names, 0)
    for leg in posting.legs:
        if leg.code == "ante" and balance[leg.debit] < leg.amount:
            raise Rejected(f"{leg.debit} cannot cover an ante of {leg.amount}")
        balance[leg.debit] -= leg.amount
        balance[leg.credit] += leg.amount
        debits[leg.debit] += leg.amount
        credits[leg.credit] += leg.amount
    for name in names:
        if kind_of(name) in NEVER_NEGATIVE and balance[name] < 0:
            raise Rejected(f"{name} would go below zero")
    reconciled = [
        (pid, stack, balance[wallet(pid)])
        for pid, stack in posting.stacks.items()
        if posting.table_id and wallet(pid) in balance
    ]
    return Settlement(names, debits, credits, balance, reconciled)


class Row(Protocol):
    """A database row read by column name (asyncpg's ``Record``, sqlite's ``Row``)."""

    def __getitem__(self, key: str) -> Any: ...


def reconciliation_report(
    table_id: str, rows: Iterable[Row], postings_applied: int
) -> dict[str, Any]:
    """Each player's stack as the table last reported it against the ledger's wallet then."""
    players = [
        {
            "player_id": r["player_id"],
            "posting_no": r["posting_no"],
            "table_says": r["table_says"],
            "ledger_says": r["ledger_says"],
            "matches": r["table_says"] == r["ledger_says"],
        }
        for r in rows
    ]
    return {
        "table_id": table_id,
        "postings_applied": postings_applied,
        "players": players,
        "matches": all(p["matches"] for p in players),
    }
