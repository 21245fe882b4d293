"""The ledger's rules, the same whichever database holds the books: pure functions.

A storage checks a table's posting on arrival (``check_table_posting``: its shape, bounds and
accounts) and again in its turn (``check_seated``: every player it names was seated at its
table by the ledger), reads the balances of the accounts it touches (``accounts``, locked in
that order where the database locks rows), asks ``settle`` what the posting does to them, and
writes that; each raises ``Rejected`` for a posting that breaks a rule. See docs/chips.md.
"""

from __future__ import annotations

import hashlib
import json
import re
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from services.ledger.storage import Health, Outcome, Rejected
from shared.messages import HOUSE, UNSTAKE, Leg, Posting
from shared.rows import Row

BANK = "bank"  # issues the starting grants; HOUSE stakes the bots (below zero: its exposure)
KINDS = frozenset({"bank", "wallet", "pot", "carry"})
NEVER_NEGATIVE = frozenset({"pot", "carry"})

# A game-long pot (Contract Whist's, a staked Euchre game's) is paid in by ``stake`` legs when a
# game starts and paid out by one of ``GAME_PAYOUTS`` when it ends: it settles per game, not
# per hand, and its wallets' legs must be covered like antes.
GAME_STAKE = "stake"
GAME_PAYOUTS = ("whist_win", "euchre_win", "stake_return")
GAME_POT_CODES = ", ".join(f"'{code}'" for code in (GAME_STAKE, *GAME_PAYOUTS))  # for SQL
PAYOUT_CODES = ", ".join(f"'{code}'" for code in GAME_PAYOUTS)  # for SQL
COVERED = frozenset({"ante", GAME_STAKE, UNSTAKE})  # what a wallet must hold when its leg comes

MAX_AMOUNT = 10**9  # cents a single leg may move
MAX_LEGS = 64  # a Swick command moves at most 6 antes, a carry, 6 payouts and 6 penalties
MAX_PLAYERS = 16  # players one posting may name
MAX_NUMBER = 10**15  # posting numbers (far below PostgreSQL's bigint)
MAX_HAND = 2**31 - 1  # hand numbers (PostgreSQL's integer)
MAX_STACK = 10**12  # a stack the table reports, either way of zero
MAX_ID = 200  # characters of a table, posting or player id
CODE = re.compile(r"[a-z][a-z0-9_]{0,31}")


def wallet(player_id: str) -> str:
    return f"wallet:{player_id}"


def kind_of(account: str) -> str:
    return account.split(":", 1)[0]


def _funding(posting_id: str, source: str, player_id: str, amount: int, code: str) -> Posting:
    """Chips into a wallet from outside the tables, applied once by ``posting_id``."""
    return Posting(
        id=posting_id,
        table_id="",
        posting_no=0,
        hand_no=0,
        legs=(Leg(debit=source, credit=wallet(player_id), amount=amount, code=code),),
        stacks={},
        names={},
    )


def grant_posting(player_id: str, amount: int) -> Posting:
    """The starting grant of a new wallet: ``amount`` from the bank, applied once by its id."""
    return _funding(f"grant:{player_id}", BANK, player_id, amount, "grant")


def stake_posting(player_id: str, amount: int, serial: int) -> Posting:
    """A bot's stake: ``amount`` from the house to the bot's wallet (its ``serial``-th stake)."""
    return _funding(f"stake:{player_id}:{serial}", HOUSE, player_id, amount, "stake")


def digest(posting: Posting) -> str:
    """A fingerprint of the posting's whole body, the same however its JSON was ordered."""
    canonical = json.dumps(posting.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def players_of(posting: Posting) -> set[str]:
    """Every player a posting names: whose wallet it moves, whose stack, name or bot it gives."""
    moved = {
        name.removeprefix("wallet:")
        for leg in posting.legs
        for name in (leg.debit, leg.credit)
        if name.startswith("wallet:")
    }
    return moved | set(posting.stacks) | set(posting.names) | set(posting.bots)


async def apply_in_order(
    posting: Posting,
    apply_one: Callable[[Posting], Awaitable[tuple[Outcome, str | None]]],
    dead_letter: Callable[[Posting, str], Awaitable[None]],
) -> Outcome:
    """``LedgerStorage.apply`` over a store's own steps: ``posting`` checked (dead-lettered if
    it breaks a rule), applied, then each posting of its table that was waiting for it, once.
    ``apply_one`` gives a posting's outcome and the body of the one that may follow it."""
    try:
        check_table_posting(posting)
    except Rejected as error:
        await dead_letter(posting, str(error))
        return "rejected"
    outcome, following = await apply_one(posting)
    seen: set[str] = set()
    while following is not None and following not in seen:
        seen.add(following)
        _, following = await apply_one(Posting.model_validate_json(following))
    return outcome


class InOrder(ABC):
    """``LedgerStorage.apply`` for a store that gives ``apply_in_order`` its steps."""

    async def apply(self, posting: Posting) -> Outcome:
        """Apply ``posting`` (and any postings of its table that were waiting for it)."""
        return await apply_in_order(posting, self._apply_one, self.dead_letter)

    @abstractmethod
    async def _apply_one(self, posting: Posting) -> tuple[Outcome, str | None]:
        """The posting's outcome, and the body of the table's posting that may follow it."""

    @abstractmethod
    async def dead_letter(self, posting: Posting, reason: str) -> None:
        """Set aside a posting that breaks a rule (or keeps failing), with its reason."""


def check_table_posting(posting: Posting) -> None:
    """What a table's posting must be, whatever the books hold. Raises ``Rejected`` unless:
    it names its table and its id is the table's (``<table>:<n>``); its numbers are in bounds;
    it has 1 to ``MAX_LEGS`` legs, each moving 1 to ``MAX_AMOUNT`` cents under a plain code,
    only between the table's own pot and carry and players' wallets (never the bank or the
    house), but for an ``unstake`` leg, from a wallet of the table's own bot to the house; it
    names at most ``MAX_PLAYERS`` players; its stacks are in bounds.
    """
    table = posting.table_id
    if not table or len(table) > MAX_ID:
        raise Rejected("a posting names its table")
    if not posting.id.startswith(f"{table}:") or len(posting.id) > 2 * MAX_ID:
        raise Rejected(f"posting id {posting.id[:MAX_ID]!r} is not one of table {table}")
    if not 1 <= posting.posting_no <= MAX_NUMBER or not 0 <= posting.hand_no <= MAX_HAND:
        raise Rejected("a posting or hand number out of bounds")
    if "\\u0000" in posting.model_dump_json():
        raise Rejected("a posting with a NUL character")  # no database stores one in text
    if not 1 <= len(posting.legs) <= MAX_LEGS:
        raise Rejected(f"a posting moves 1 to {MAX_LEGS} legs, not {len(posting.legs)}")
    players = players_of(posting)
    if len(players) > MAX_PLAYERS or any(not 0 < len(pid) <= MAX_ID for pid in players):
        raise Rejected("too many players, or an id empty or too long")
    if any(not -MAX_STACK <= stack <= MAX_STACK for stack in posting.stacks.values()):
        raise Rejected("a stack out of bounds")
    if any(len(name) > 64 for name in posting.names.values()):
        raise Rejected("a name longer than 64 characters")
    own = {f"pot:{table}", f"carry:{table}"} | {wallet(pid) for pid in players}
    for leg in posting.legs:
        if not 1 <= leg.amount <= MAX_AMOUNT:
            raise Rejected(f"leg {leg.code[:32]} moves {leg.amount}, not 1 to {MAX_AMOUNT}")
        if not CODE.fullmatch(leg.code):
            raise Rejected(f"leg code {leg.code[:32]!r} is not a plain code")
        if leg.code == UNSTAKE:
            _check_unstake(table, leg)
            continue
        for name in (leg.debit, leg.credit):
            if name not in own:
                raise Rejected(f"leg {leg.code} moves {name[:MAX_ID]}: not of this table")


def _check_unstake(table: str, leg: Leg) -> None:
    """An ``unstake`` leg returns a bot's chips to the house: only from one of the table's own
    bots (whose ids name the table), only to the house."""
    if leg.credit != HOUSE or not leg.debit.startswith(wallet(f"bot:{table}:")):
        raise Rejected(
            f"leg {UNSTAKE} moves {leg.debit[:MAX_ID]} to {leg.credit[:MAX_ID]}:"
            " only a bot of this table's to the house"
        )


def check_seated(posting: Posting, seated: Iterable[str], bots: Iterable[str] = ()) -> None:
    """Raises ``Rejected`` unless every player the posting names (``players_of``) was seated at
    its table (``seated``: the players the ledger seated there), and every wallet an
    ``unstake`` leg empties is of a player seated there as a bot (``bots``)."""
    strangers = sorted(players_of(posting) - set(seated))
    if strangers:
        raise Rejected(f"{', '.join(strangers)} never sat at table {posting.table_id}")
    seated_bots = {wallet(pid) for pid in bots}
    people = sorted({leg.debit for leg in posting.legs if leg.code == UNSTAKE} - seated_bots)
    if people:
        raise Rejected(f"{', '.join(people)} sat at table {posting.table_id} as no bot")


def accounts(posting: Posting) -> list[str]:
    """The accounts the posting moves chips between, sorted (the order to lock them in).

    Raises ``Rejected`` if a leg moves nothing (or more than ``MAX_AMOUNT``), or moves between
    an account and itself, or from or to an account of no known kind.
    """
    for leg in posting.legs:
        if not 1 <= leg.amount <= MAX_AMOUNT:
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

    Raises ``Rejected`` (besides the leg checks of ``accounts``) if an ante or a game's stake
    is more than its wallet holds when its turn comes (earlier legs counted), or if a pot or
    carry would end below zero. A table's posting reconciles each player of its ``stacks``
    whose wallet it touches.
    """
    names = accounts(posting)
    balance = {name: balances[name] for name in names}
    debits = dict.fromkeys(names, 0)
    credits = dict.fromkeys(names, 0)
    for leg in posting.legs:
        covered = leg.code in COVERED and kind_of(leg.debit) == "wallet"
        if covered and balance[leg.debit] < leg.amount:
            raise Rejected(f"{leg.debit} cannot cover an {leg.code} of {leg.amount}")
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


def history_report(rows: Iterable[Row], account: str, time: Any) -> list[dict[str, Any]]:
    """A wallet's (``account``'s) transfers as the ledger's API shows them: chips in, and
    chips out below zero (``time`` formats a time)."""
    return [
        {
            "id": row["id"],
            "amount": row["amount"] if row["credit"] == account else -row["amount"],
            "code": row["code"],
            "table_id": row["table_id"],
            "hand_no": row["hand_no"],
            "at": time(row["created_at"]),
        }
        for row in rows
    ]


def health_report(
    *,
    debits: int,
    credits: int,
    drifted: int,
    open_pots: Iterable[Row],
    mismatches: int,
    issued: int,
    dead: int,
    conflicts: int,
    blocked: Iterable[Row],
) -> Health:
    """The books' health from the totals of all accounts and the counts of what is wrong:
    ``drifted`` accounts whose totals are not their transfers', the pots left open (rows of a
    table and a hand), the reconciliations that differ, the transfers ``issued`` outside the
    grants and stakes, and the tables ``blocked`` behind a dead letter."""
    debits, credits = int(debits), int(credits)
    pots = [f"{r['table_id']}#{r['hand_no']}" for r in open_pots]
    return Health(
        ok=debits == credits and not drifted and not pots and not mismatches and not issued,
        debits=debits,
        credits=credits,
        accounts_match_transfers=drifted == 0,
        open_pots=pots,
        mismatches=int(mismatches),
        issued_outside_grants=int(issued),
        dead_letters=int(dead),
        conflicts=int(conflicts),
        blocked_tables=[str(r["table_id"]) for r in blocked],
    )


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


def problems_report(
    dead: Iterable[Row], conflicts: Iterable[Row], time: Any
) -> dict[str, list[dict[str, Any]]]:
    """Dead letters and conflicts as the ledger's API shows them (``time`` formats a time)."""
    return {
        "dead_letters": [_problem(r, time, {"reason": r["reason"]}) for r in dead],
        "conflicts": [
            _problem(r, time, {"digest": r["digest"], "applied_digest": r["applied"]})
            for r in conflicts
        ],
    }


def _problem(row: Row, time: Any, own: Mapping[str, Any]) -> dict[str, Any]:
    """A posting set aside, with ``own``: what its kind of problem says of it."""
    return {
        "posting_id": row["posting_id"],
        "table_id": row["table_id"],
        "posting_no": row["posting_no"],
        **own,
        "times": row["times"],
        "at": time(row["last_at"]),
    }


def house_report(
    staked: int, returned: int, closed: int, balance: int, held_by_bots: int
) -> dict[str, int]:
    """The house's books with its bots: all it ``staked`` into their wallets, all their tables
    ``returned`` to it when they left their seats, what it took from the wallets of deleted
    accounts (``closed``: their balances, less the debts it took on), its ``balance`` (the
    three's sum: below zero, what is out with the bots), what the bots seated now hold, and its
    ``result``."""
    return {
        "staked": int(staked),
        "returned": int(returned),
        "closed": int(closed),
        "balance": int(balance),
        "held_by_bots": int(held_by_bots),
        "result": int(balance) + int(held_by_bots),
    }


def storable(text: str) -> str:
    """``text`` (JSON or plain) without NUL characters, which PostgreSQL's text refuses."""
    return text.replace("\\u0000", "\\ufffd").replace("\x00", "\ufffd")


def dead_letter_row(posting: Posting, reason: str) -> tuple[str, str, str, int, str, str]:
    """A set-aside posting as both stores keep it: its digest, id, table, number (clamped to
    64 bits), body and reason, with nothing a database refuses."""
    return (
        digest(posting),
        storable(posting.id[:400]),
        storable(posting.table_id[:400]),
        min(max(posting.posting_no, -(2**63)), 2**63 - 1),
        storable(posting.model_dump_json()),
        storable(reason),
    )
