"""The contract of ``LedgerStorage``, one suite run against PostgreSQL and SQLite.

Grants, postings applied exactly once and per table in order (waiting, draining, rejected),
balances, history paging, the leaderboard, reconciliation and ``check()``. Tests that leave
the books unhealthy (``check()`` is global) use books of their own: a fresh PostgreSQL
database, or another SQLite file.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from services.ledger.ledger import Ledger
from services.ledger.ledger_sqlite import SqliteLedger
from services.ledger.rules import digest, wallet
from services.ledger.storage import LedgerStorage, Pending
from services.table.storage import TableRow, TableStorage, Write
from services.table.store_sqlite import SqliteTableStore
from shared.messages import Posting
from shared.settings import Settings
from shared.sqlite import Database
from tests.contract.conftest import leg, of_each_backend, posting, sit, uid
from tests.postgres_ledger import fresh_ledger, migrated_ledger

GRANT = 4000


# Books.


@pytest.fixture(scope="session")
async def postgres_ledger(settings: Settings) -> AsyncIterator[LedgerStorage]:
    async with migrated_ledger(settings.database_url, GRANT, pool_size=4) as ledger:
        yield ledger


@pytest.fixture
async def sqlite_ledger(tmp_path: Path) -> AsyncIterator[LedgerStorage]:
    ledger = await SqliteLedger.open(tmp_path / "swick.db", GRANT)
    try:
        await ledger.migrate()
        await ledger.migrate()  # again: nothing to do
        yield ledger
    finally:
        await ledger.close()


# The books of one backend, shared with other tests (so: ids of our own).
ledger = of_each_backend("ledger")


@dataclass
class Books:
    """Books of their own, and a way in behind the ledger's back (to break them)."""

    with_grant: Callable[[int], LedgerStorage]
    skew: Callable[[str, int], Awaitable[None]]  # add to an account's credits, no transfer
    wait: Callable[[Posting], Awaitable[None]]  # leave a posting waiting (a drain cut short)

    @property
    def ledger(self) -> LedgerStorage:
        return self.with_grant(GRANT)


@pytest.fixture
async def postgres_books(settings: Settings) -> AsyncIterator[Books]:
    async with fresh_ledger(settings, GRANT, pool_size=2) as own:
        pool = own.pool

        async def skew(account: str, amount: int) -> None:
            await pool.execute(
                "UPDATE ledger.accounts SET credits = credits + $2 WHERE name = $1",
                account,
                amount,
            )

        async def wait(early: Posting) -> None:
            await pool.execute(
                "INSERT INTO ledger.waiting (table_id, posting_no, digest, body)"
                " VALUES ($1, $2, $3, $4::text::jsonb)",
                early.table_id,
                early.posting_no,
                digest(early),
                early.model_dump_json(),
            )

        yield Books(lambda grant: Ledger(pool, grant), skew, wait)


@pytest.fixture
async def sqlite_books(tmp_path: Path) -> AsyncIterator[Books]:
    db = await Database.open(tmp_path / "own.db")
    try:
        await SqliteLedger(db).migrate()

        async def skew(account: str, amount: int) -> None:
            async with db.write() as conn:
                await conn.execute(
                    "UPDATE ledger_accounts SET credits = credits + ? WHERE name = ?",
                    (amount, account),
                )

        async def wait(early: Posting) -> None:
            async with db.write() as conn:
                await conn.execute(
                    "INSERT INTO ledger_waiting (table_id, posting_no, digest, body, arrived_at)"
                    " VALUES (?, ?, ?, ?, 0)",
                    (early.table_id, early.posting_no, digest(early), early.model_dump_json()),
                )

        yield Books(lambda grant: SqliteLedger(db, grant), skew, wait)
    finally:
        await db.close()


books = of_each_backend("books")


async def assert_books_balance(ledger: LedgerStorage) -> None:
    """What holds whatever other tests left in the books: they balance."""
    health = await ledger.check()
    assert health.debits == health.credits
    assert health.accounts_match_transfers


# Wallets.


async def test_a_wallet_opens_once_with_its_grant(ledger: LedgerStorage) -> None:
    ann = uid("ann")
    assert await ledger.balance(ann) is None
    assert await ledger.history(ann) == []
    assert await ledger.open_wallet(ann, "Ann") == GRANT
    assert await ledger.open_wallet(ann) == GRANT
    assert await ledger.open_wallet(ann, "Annie") == GRANT
    assert await ledger.balance(ann) == GRANT
    [grant] = await ledger.history(ann)
    assert (grant["code"], grant["amount"], grant["id"]) == ("grant", GRANT, f"grant:{ann}:0")
    assert (grant["table_id"], grant["hand_no"]) == (None, 0)
    assert datetime.fromisoformat(grant["at"]).utcoffset() == timedelta(0)
    await assert_books_balance(ledger)


async def test_a_wallet_opened_ten_times_at_once_gets_one_grant(ledger: LedgerStorage) -> None:
    eager = uid("eager")
    balances = await asyncio.gather(*(ledger.open_wallet(eager, "Eager") for _ in range(10)))
    assert balances == [GRANT] * 10
    assert [(h["code"], h["amount"]) for h in await ledger.history(eager)] == [("grant", GRANT)]


async def test_no_grant_opens_an_empty_wallet(books: Books) -> None:
    ledger = books.with_grant(0)
    ann = uid("ann")
    assert await ledger.open_wallet(ann) == 0
    assert await ledger.balance(ann) == 0
    assert await ledger.history(ann) == []
    assert (await ledger.check()).ok


async def test_seating_waits_for_the_last_tables_postings(ledger: LedgerStorage) -> None:
    table, ann = uid("seat"), uid("ann")
    await sit(ledger, table, ann)
    pot = f"pot:{table}"
    await ledger.apply(posting(table, 1, [leg(wallet(ann), pot, 40, "ante")]))
    with pytest.raises(Pending):
        await ledger.seat(ann, "Ann", False, after=(table, 2))
    with pytest.raises(Pending):
        await ledger.seat(uid("new"), "New", False, after=(uid("unknown"), 1))
    await ledger.apply(posting(table, 2, [leg(pot, wallet(ann), 40, "trick_payout")]))
    assert await ledger.seat(ann, "Ann", False, after=(table, 2)) == GRANT
    assert await ledger.seat(ann, "Ann", False, after=(table, 1)) == GRANT
    bob = uid("bob")
    assert await ledger.seat(bob, "Bob", True, after=None) == GRANT  # staked by the house
    [stake] = await ledger.history(bob)
    assert (stake["code"], stake["amount"]) == ("stake", GRANT)


# Postings.


async def test_a_posting_applies_once(ledger: LedgerStorage) -> None:
    table, ann, bob = uid("once"), uid("ann"), uid("bob")
    await sit(ledger, table, ann, bob)
    pot = f"pot:{table}"
    first = posting(
        table, 1, [leg(wallet(ann), pot, 70, "ante"), leg(wallet(bob), pot, 70, "ante")]
    )
    assert await ledger.apply(first) == "applied"
    assert await ledger.apply(first) == "duplicate"
    second = posting(table, 2, [leg(pot, wallet(ann), 140, "trick_payout")])
    outcomes = await asyncio.gather(*(ledger.apply(second) for _ in range(10)))
    assert Counter(outcomes) == {"applied": 1, "duplicate": 9}
    assert await ledger.apply(first) == "duplicate"
    assert (await ledger.balance(ann), await ledger.balance(bob)) == (GRANT + 70, GRANT - 70)
    assert (await ledger.reconciliation(table))["postings_applied"] == 2
    assert len(await ledger.history(ann)) == 3
    await assert_books_balance(ledger)


async def test_plain_postings_of_several_tables_apply_in_one_batch(ledger: LedgerStorage) -> None:
    """PostgreSQL applies them in one transaction; a store may decline (SQLite does), and then
    they are applied one by one: either way the books end the same."""
    one, two, ann, bob = uid("b1"), uid("b2"), uid("ann"), uid("bob")
    await sit(ledger, one, ann)
    await sit(ledger, two, bob)
    pot_one, pot_two = f"pot:{one}", f"pot:{two}"
    batch = [
        posting(one, 1, [leg(wallet(ann), pot_one, 20, "ante")]),
        posting(two, 1, [leg(wallet(bob), pot_two, 30, "ante")]),
        posting(one, 2, [leg(pot_one, wallet(ann), 20, "trick_payout")]),
        posting(two, 2, [leg(pot_two, wallet(bob), 30, "trick_payout")]),  # the pot closes
    ]
    if not await ledger.apply_batch(batch):
        assert isinstance(ledger, SqliteLedger)
        for each in batch:
            assert await ledger.apply(each) == "applied"
    assert (await ledger.balance(ann), await ledger.balance(bob)) == (GRANT, GRANT)
    for table in (one, two):
        assert (await ledger.reconciliation(table))["postings_applied"] == 2
    assert [await ledger.apply(each) for each in batch] == ["duplicate"] * 4
    await assert_books_balance(ledger)
    assert not [pot for pot in (await ledger.check()).open_pots if one in pot or two in pot]


@pytest.mark.parametrize("odd", ["early", "repeated", "unseated"])
async def test_a_batch_with_a_posting_not_simply_applied_writes_nothing(
    ledger: LedgerStorage, odd: str
) -> None:
    table, ann, stranger = uid("bo"), uid("ann"), uid("who")
    await sit(ledger, table, ann)
    pot = f"pot:{table}"
    first = posting(table, 1, [leg(wallet(ann), pot, 20, "ante")])
    second = posting(table, 2, [leg(pot, wallet(ann), 5, "trick_payout")])
    batch = {
        "early": [first, posting(table, 3, [leg(pot, wallet(ann), 5, "trick_payout")])],
        "repeated": [second, first],
        "unseated": [first, posting(table, 2, [leg(wallet(stranger), pot, 5, "ante")])],
    }[odd]
    if odd == "repeated":
        assert await ledger.apply(first) == "applied"
    before = await ledger.balance(ann)
    applied = (await ledger.reconciliation(table))["postings_applied"]
    assert not await ledger.apply_batch(batch)
    assert await ledger.balance(ann) == before
    assert (await ledger.reconciliation(table))["postings_applied"] == applied
    await assert_books_balance(ledger)


async def test_postings_that_arrive_early_wait_for_their_turn(ledger: LedgerStorage) -> None:
    table, ann, bob = uid("late"), uid("ann"), uid("bob")
    await sit(ledger, table, ann, bob)
    pot, carry = f"pot:{table}", f"carry:{table}"
    first = posting(
        table, 1, [leg(wallet(ann), pot, 50, "ante"), leg(wallet(bob), pot, 50, "ante")]
    )
    second = posting(
        table,
        2,
        [leg(pot, wallet(ann), 100, "trick_payout"), leg(wallet(bob), carry, 30, "set_1")],
        stacks={ann: GRANT + 50, bob: GRANT - 80},
    )
    third = posting(
        table,
        3,
        [leg(carry, pot, 30, "carry_in"), leg(wallet(ann), pot, 10, "ante")],
        hand_no=2,
        stacks={ann: GRANT + 40},
    )
    assert await ledger.apply(third) == "waiting"
    assert await ledger.apply(second) == "waiting"
    assert await ledger.apply(third) == "waiting"  # kept once
    assert await ledger.balance(ann) == GRANT
    assert (await ledger.reconciliation(table))["postings_applied"] == 0
    assert await ledger.apply(first) == "applied"  # and the two after it, in order
    assert await ledger.balance(ann) == GRANT + 40
    assert await ledger.balance(bob) == GRANT - 80
    assert await ledger.apply(second) == "duplicate"
    assert await ledger.apply(third) == "duplicate"
    report = await ledger.reconciliation(table)
    assert (report["postings_applied"], report["matches"]) == (3, True)
    fourth = posting(table, 4, [leg(pot, wallet(bob), 40, "trick_payout")], hand_no=2)
    assert await ledger.apply(fourth) == "applied"
    assert await ledger.balance(bob) == GRANT - 40
    await assert_books_balance(ledger)


async def test_an_interrupted_drain_is_finished_by_the_next_delivery(books: Books) -> None:
    """A posting left waiting after the one before it was applied (the process stopped before
    taking it out) is applied when any posting of the table is delivered again."""
    ledger = books.ledger
    for redelivered in (1, 3):
        table, ann = uid("stalled"), uid("ann")
        await sit(ledger, table, ann)
        pot = f"pot:{table}"
        hand = [
            posting(table, 1, [leg(wallet(ann), pot, 25, "ante")]),
            posting(table, 2, [leg(pot, wallet(ann), 25, "trick_payout")]),
            posting(table, 3, [leg(wallet(ann), pot, 5, "ante")], hand_no=2),
        ]
        assert await ledger.apply(hand[0]) == "applied"
        await books.wait(hand[1])
        expected = "duplicate" if redelivered == 1 else "waiting"
        assert await ledger.apply(hand[redelivered - 1]) == expected
        applied = 2 if redelivered == 1 else 3
        assert (await ledger.reconciliation(table))["postings_applied"] == applied
        assert await ledger.balance(ann) == GRANT - (5 if redelivered == 3 else 0)
    assert (await ledger.check()).ok


async def test_tables_paying_one_wallet_at_once_lose_no_update(ledger: LedgerStorage) -> None:
    winner = uid("winner")
    tables = [uid("busy") for _ in range(10)]
    funders = [f"{table}-funder" for table in tables]
    for table, funder in zip(tables, funders, strict=True):
        await sit(ledger, table, winner, funder)  # the winner's seat record at each, one by one
    assert [await ledger.balance(f) for f in funders] == [GRANT] * 10

    async def play(k: int) -> list[str]:
        table, funder = tables[k], funders[k]
        pot = f"pot:{table}"
        outcomes: list[str] = []
        for hand in range(1, 4):
            amount = 10 * k + hand
            antes = posting(table, 2 * hand - 1, [leg(wallet(funder), pot, amount, "ante")])
            payout = posting(table, 2 * hand, [leg(pot, wallet(winner), amount, "trick_payout")])
            outcomes += [await ledger.apply(antes), await ledger.apply(payout)]
        return outcomes

    results = await asyncio.gather(*(play(k) for k in range(10)))
    assert all(outcomes == ["applied"] * 6 for outcomes in results)
    paid = [sum(10 * k + hand for hand in range(1, 4)) for k in range(10)]
    assert await ledger.balance(winner) == GRANT + sum(paid)
    for funder, amount in zip(funders, paid, strict=True):
        assert await ledger.balance(funder) == GRANT - amount
    assert len(await ledger.history(winner, limit=500)) == 1 + 10 * 3
    await assert_books_balance(ledger)


async def test_postings_that_break_a_rule_are_set_aside_whole(books: Books) -> None:
    ledger = books.with_grant(100)
    ann, bob = uid("ann"), uid("bob")
    table, funded = uid("poor"), uid("funded")
    # Seated at both tables while they can be: a wallet below zero is seated nowhere.
    await sit(ledger, table, ann, bob)
    await sit(ledger, funded, ann, bob)
    pot, carry = f"pot:{table}", f"carry:{table}"
    # A set penalty may leave a wallet below zero...
    await ledger.apply(posting(table, 1, [leg(wallet(ann), pot, 20, "ante")]))
    settle = [leg(pot, wallet(bob), 20, "trick_payout"), leg(wallet(ann), carry, 150, "set_1")]
    assert await ledger.apply(posting(table, 2, settle)) == "applied"
    assert await ledger.balance(ann) == 100 - 20 - 150
    assert (await ledger.check()).ok
    # ... but an ante it cannot cover is dead-lettered, with the legs before it.
    antes = [leg(wallet(bob), pot, 5, "ante"), leg(wallet(ann), pot, 5, "ante")]
    overdraw = posting(table, 3, antes, hand_no=2)
    assert await ledger.apply(overdraw) == "rejected"
    assert (await ledger.balance(ann), await ledger.balance(bob)) == (-70, 120)
    health = await ledger.check()
    assert (health.ok, health.dead_letters, health.debits == health.credits) == (True, 1, True)
    assert health.as_dict()["dead_letters"] == 1
    assert health.as_dict()["attention"] is True
    assert health.blocked_tables == [table]
    assert await ledger.apply(overdraw) == "rejected"
    assert (await ledger.check()).dead_letters == 1  # kept once
    [dead] = (await ledger.problems())["dead_letters"]
    assert (dead["posting_id"], dead["posting_no"], dead["times"]) == (overdraw.id, 3, 2)
    assert "cannot cover an ante" in dead["reason"]
    assert (await ledger.reconciliation(table))["postings_applied"] == 2
    # The table waits there: its later postings wait, and a valid posting 3 still applies.
    later = posting(table, 4, [leg(pot, wallet(bob), 5, "trick_payout")], hand_no=2)
    assert await ledger.apply(later) == "waiting"
    covered = posting(table, 3, [leg(wallet(bob), pot, 5, "ante")], hand_no=2)
    assert await ledger.apply(covered) == "applied"  # and the one waiting after it
    assert (await ledger.balance(bob), (await ledger.check()).blocked_tables) == (120, [])
    # An ante covered by an earlier leg of the same posting is fine.
    covered_legs = [
        leg(wallet(bob), f"pot:{funded}", 100, "ante"),
        leg(f"pot:{funded}", wallet(ann), 100, "refund"),
        leg(wallet(ann), f"pot:{funded}", 25, "ante"),
        leg(f"pot:{funded}", wallet(bob), 25, "trick_payout"),
    ]
    assert await ledger.apply(posting(funded, 1, covered_legs)) == "applied"
    assert (await ledger.balance(ann), await ledger.balance(bob)) == (-70 + 100 - 25, 45)
    # A pot or a carry never goes below zero, and a leg moves something, between two
    # different accounts of the table (or its players' wallets).
    other = uid("empty")
    broken_legs = [
        [leg(f"pot:{other}", wallet(bob), 1, "trick_payout")],
        [leg(f"carry:{other}", f"pot:{other}", 1, "carry_in")],
        [leg(wallet(bob), f"pot:{other}", 0, "ante")],
        [leg(wallet(bob), f"pot:{other}", -5, "ante")],
        [leg(wallet(bob), wallet(bob), 5, "gift")],
        [leg(wallet(bob), f"jar:{other}", 5, "tip")],
        [leg(wallet(bob), f"pot:{other}", 5, "ante"), leg(f"pot:{other}", "bank", 6, "rake")],
    ]
    await sit(ledger, other, bob)
    for broken in broken_legs:  # each takes no place: the next one is number 1 again
        assert await ledger.apply(posting(other, 1, broken)) == "rejected"
    assert await ledger.balance(bob) == 45
    health = await ledger.check()
    assert (health.dead_letters, health.accounts_match_transfers) == (1 + len(broken_legs), True)
    assert health.debits == health.credits
    assert health.open_pots == []
    assert health.ok


async def test_a_conflicting_body_is_recorded_and_never_applied(ledger: LedgerStorage) -> None:
    """Two bodies wait for number 2: the first valid one applies, the other is a conflict (as
    is another body for an applied number), and one that breaks a rule is dead-lettered
    without taking the number."""
    table, ann, stranger = uid("rival"), uid("ann"), uid("stranger")
    await sit(ledger, table, ann)
    pot = f"pot:{table}"
    before = await ledger.check()
    invalid = posting(table, 2, [leg(wallet(stranger), pot, 500, "ante")])
    real = posting(table, 2, [leg(pot, wallet(ann), 10, "trick_payout")])
    rival = posting(table, 2, [leg(pot, wallet(ann), 5, "trick_payout")])
    assert [await ledger.apply(p) for p in (invalid, real, rival)] == ["waiting"] * 3
    first = posting(table, 1, [leg(wallet(ann), pot, 10, "ante")])
    assert await ledger.apply(first) == "applied"  # then 2: invalid set aside, real applied
    assert await ledger.balance(ann) == GRANT
    assert (await ledger.reconciliation(table))["postings_applied"] == 2
    assert await ledger.apply(rival) == "conflict"
    assert await ledger.apply(real) == "duplicate"
    other = posting(table, 1, [leg(wallet(ann), pot, 999, "ante")])
    assert await ledger.apply(other) == "conflict"
    assert await ledger.apply(other) == "conflict"  # recorded once, counted twice
    assert await ledger.balance(ann) == GRANT
    health = await ledger.check()
    assert health.dead_letters == before.dead_letters + 1
    assert health.conflicts == before.conflicts + 2
    mine = [c for c in (await ledger.problems(1000))["conflicts"] if c["table_id"] == table]
    assert sorted((c["posting_no"], c["times"]) for c in mine) == [(1, 2), (2, 2)]
    assert all(c["digest"] != c["applied_digest"] for c in mine)
    await assert_books_balance(ledger)


async def test_bots_are_staked_by_the_house(ledger: LedgerStorage) -> None:
    table, bot = uid("bots"), f"bot:{uid('t')}:1"
    before = await ledger.house()
    assert await ledger.seat(bot, "Easy bot", True, None, table) == GRANT
    assert await ledger.seat(bot, "Easy bot", True, None, table) == GRANT  # staked once
    await ledger.apply(posting(table, 1, [leg(wallet(bot), f"pot:{table}", 40, "ante")]))
    after = await ledger.house()
    assert after["staked"] - before["staked"] == GRANT
    assert after["balance"] - before["balance"] == -GRANT
    assert after["held_by_bots"] - before["held_by_bots"] == GRANT - 40
    assert after["result"] == after["balance"] + after["held_by_bots"]
    assert (await ledger.check()).issued_outside_grants == 0
    await assert_books_balance(ledger)


# Reading.


async def test_history_pages_through_every_transfer_once(ledger: LedgerStorage) -> None:
    """Pages cut anywhere, also between two legs of one posting (which share their time)."""
    table, ann, bob = uid("pages"), uid("ann"), uid("bob")
    await sit(ledger, table, ann, bob)
    pot, carry = f"pot:{table}", f"carry:{table}"
    number = 0
    for hand in range(1, 5):
        number += 1
        legs = [leg(carry, pot, 7, "carry_in")] if hand > 1 else []
        legs += [leg(wallet(ann), pot, 10, "ante"), leg(wallet(bob), pot, 10, "ante")]
        assert await ledger.apply(posting(table, number, legs, hand_no=hand)) == "applied"
        number += 1
        won = 20 + (7 if hand > 1 else 0)
        legs = [
            leg(pot, wallet(ann), won - 5, "trick_payout"),
            leg(pot, wallet(bob), 5, "trick_payout"),
            leg(wallet(ann), carry, 4, "set_1"),
            leg(wallet(bob), carry, 3, "set_1"),
        ]
        assert await ledger.apply(posting(table, number, legs, hand_no=hand)) == "applied"
    everything = await ledger.history(ann, limit=100)
    assert len(everything) == 1 + 4 * 3
    assert sum(h["amount"] for h in everything) == await ledger.balance(ann)
    assert everything[-1]["code"] == "grant"
    times = [datetime.fromisoformat(h["at"]) for h in everything]
    assert times == sorted(times, reverse=True)
    assert everything[0] == {
        "id": f"{table}:8:2",
        "amount": -4,
        "code": "set_1",
        "table_id": table,
        "hand_no": 4,
        "at": everything[0]["at"],
    }
    assert everything[1]["id"] == f"{table}:8:0"
    assert everything[1]["amount"] == 22
    for size in (1, 2, 3, 5):
        pages: list[dict[str, object]] = []
        before: str | None = None
        while page := await ledger.history(ann, limit=size, before=before):
            assert len(page) <= size
            pages += page
            before = str(page[-1]["id"])
        assert pages == everything, size
    assert len(await ledger.history(ann, limit=4)) == 4


async def test_the_leaderboard_counts_table_winnings_not_grants(ledger: LedgerStorage) -> None:
    table = uid("board")
    ann, ben, cal, ida = (uid(name) for name in ("ann", "ben", "cal", "ida"))
    await ledger.seat(ann, "Ann", False, None, table)
    await ledger.seat(ben, "Ben", False, None, table)
    await ledger.seat(cal, "Cal", True, None, table)  # a bot: staked by the house
    await ledger.open_wallet(ida, "Ida")
    unnamed = uid("dan")
    await sit(ledger, table, unnamed)
    since = datetime.fromisoformat((await ledger.history(ann))[0]["at"])
    pot, carry = f"pot:{table}", f"carry:{table}"
    antes = [leg(wallet(p), pot, 100, "ante") for p in (ann, ben, cal, unnamed)]
    await ledger.apply(posting(table, 1, antes))
    settle = [leg(pot, wallet(ann), 400, "trick_payout"), leg(wallet(ben), carry, 50, "set_1")]
    await ledger.apply(posting(table, 2, settle))
    mine = (ann, ben, cal, ida, unnamed)
    board = [row for row in await ledger.leaderboard(since, 1000) if row["player_id"] in mine]
    assert board[0] == {"player_id": ann, "name": "Ann", "bot": False, "net": 300}
    assert sorted(board[1:3], key=lambda row: str(row["player_id"])) == sorted(
        [
            {"player_id": cal, "name": "Cal", "bot": True, "net": -100},
            {"player_id": unnamed, "name": unnamed, "bot": False, "net": -100},
        ],
        key=lambda row: str(row["player_id"]),
    )
    assert board[3:] == [{"player_id": ben, "name": "Ben", "bot": False, "net": -150}]
    later = datetime.fromisoformat((await ledger.history(ann))[0]["at"]) + timedelta(milliseconds=1)
    assert not [row for row in await ledger.leaderboard(later, 1000) if row["player_id"] in mine]
    # Names come with postings too.
    fresh, bot = uid("fay"), uid("bot")
    await sit(ledger, table, fresh, bot)
    named = posting(
        table,
        3,
        [leg(carry, wallet(fresh), 30, "refund"), leg(carry, wallet(bot), 20, "refund")],
        names={fresh: "Fay", bot: "Robo"},
        bots=(bot,),
    )
    await ledger.apply(named)
    board = await ledger.leaderboard(since, 1000)
    assert {"player_id": fresh, "name": "Fay", "bot": False, "net": 30} in board
    assert {"player_id": bot, "name": "Robo", "bot": True, "net": 20} in board


async def test_reconciliation_matches_the_tables_stacks(ledger: LedgerStorage) -> None:
    table, ann, bob, cy = uid("recon"), uid("a"), uid("b"), uid("c")
    await sit(ledger, table, ann, bob, cy)
    pot = f"pot:{table}"
    antes = [leg(wallet(ann), pot, 60, "ante"), leg(wallet(bob), pot, 60, "ante")]
    # Cy's stack is left out: the posting does not touch his wallet.
    stacks = {ann: GRANT - 60, bob: GRANT - 60, cy: 1}
    await ledger.apply(posting(table, 1, antes, stacks=stacks))
    payout = [leg(pot, wallet(bob), 120, "trick_payout")]
    await ledger.apply(posting(table, 2, payout, stacks={ann: GRANT - 60, bob: GRANT + 60}))
    report = await ledger.reconciliation(table)
    assert (report["table_id"], report["matches"], report["postings_applied"]) == (
        table,
        True,
        2,
    )
    assert sorted(report["players"], key=lambda p: p["posting_no"]) == [
        {"player_id": ann, "posting_no": 1, "table_says": GRANT - 60, "ledger_says": GRANT - 60,
         "matches": True},
        {"player_id": bob, "posting_no": 2, "table_says": GRANT + 60, "ledger_says": GRANT + 60,
         "matches": True},
    ]  # fmt: skip
    nothing = await ledger.reconciliation(uid("none"))
    assert (nothing["postings_applied"], nothing["players"], nothing["matches"]) == (0, [], True)
    await assert_books_balance(ledger)


# Health.


async def test_check_recomputes_the_invariants(books: Books) -> None:
    ledger = books.ledger
    health = await ledger.check()
    assert (health.ok, health.debits, health.credits, health.open_pots) == (True, 0, 0, [])
    table, ann, bob = uid("t"), uid("ann"), uid("bob")
    await sit(ledger, table, ann, bob)
    pot = f"pot:{table}"
    await ledger.apply(posting(table, 1, [leg(wallet(ann), pot, 60, "ante")], stacks={ann: 999}))
    # A reconciliation mismatch...
    report = await ledger.reconciliation(table)
    assert not report["matches"]
    assert (report["players"][0]["table_says"], report["players"][0]["ledger_says"]) == (
        999,
        GRANT - 60,
    )
    health = await ledger.check()
    assert (health.ok, health.mismatches, health.open_pots) == (False, 1, [])
    assert health.debits == health.credits == 2 * GRANT + 60
    # ... is healed by the table's next posting agreeing; a pot only anted into is not open.
    antes = [leg(wallet(bob), pot, 40, "ante"), leg(wallet(ann), pot, 10, "ante")]
    await ledger.apply(posting(table, 2, antes, stacks={ann: GRANT - 70, bob: GRANT - 40}))
    assert (await ledger.reconciliation(table))["matches"]
    assert (await ledger.check()).ok
    # A hand that paid out without emptying its pot is open.
    await ledger.apply(posting(table, 3, [leg(pot, wallet(ann), 70, "trick_payout")]))
    health = await ledger.check()
    assert (health.ok, health.open_pots) == (False, [f"{table}#1"])
    await ledger.apply(posting(table, 4, [leg(pot, wallet(bob), 40, "trick_payout")]))
    assert (await ledger.check()).ok
    # An account that does not match its transfers (and books that no longer balance).
    await books.skew(wallet(ann), 5)
    health = await ledger.check()
    assert (health.ok, health.accounts_match_transfers) == (False, False)
    assert health.credits == health.debits + 5
    assert health.as_dict()["balanced"] is False
    assert await ledger.balance(ann) == GRANT + 5


async def test_a_game_long_pot_settles_when_its_game_pays_out(ledger: LedgerStorage) -> None:
    """Stakes paid in when a game starts (hand 1) and paid out when it ends (its last round):
    the pot is open while the game runs, closed once paid, open if paid short."""
    table, ann, bob = uid("t"), uid("ann"), uid("bob")
    await sit(ledger, table, ann, bob)
    pot = f"pot:{table}"
    stakes = [leg(wallet(ann), pot, 30, "stake"), leg(wallet(bob), pot, 30, "stake")]

    def mine(health_pots: list[str]) -> list[str]:
        return [name for name in health_pots if name.startswith(f"{table}#")]

    assert await ledger.apply(posting(table, 1, stakes)) == "applied"
    assert mine((await ledger.check()).open_pots) == []
    await ledger.apply(posting(table, 2, [leg(pot, wallet(ann), 60, "whist_win")], hand_no=3))
    assert mine((await ledger.check()).open_pots) == []
    await ledger.apply(posting(table, 3, stakes))  # the next game
    assert mine((await ledger.check()).open_pots) == []
    await ledger.apply(posting(table, 4, [leg(pot, wallet(bob), 50, "whist_win")], hand_no=2))
    assert mine((await ledger.check()).open_pots) == [f"{table}#game"]
    await ledger.apply(posting(table, 5, [leg(pot, wallet(ann), 10, "stake_return")], hand_no=2))
    assert mine((await ledger.check()).open_pots) == []
    assert (await ledger.balance(ann), await ledger.balance(bob)) == (GRANT + 10, GRANT - 10)
    # A stake the wallet cannot cover is set aside like an ante.
    short = [leg(wallet(ann), pot, GRANT + 11, "stake")]
    assert await ledger.apply(posting(table, 6, short)) == "rejected"
    assert await ledger.balance(ann) == GRANT + 10


# One file for both services (embedded mode).


async def test_the_ledger_and_the_table_store_share_one_file(tmp_path: Path) -> None:
    path = tmp_path / "swick.db"
    db = await Database.open(path)
    store: TableStorage = SqliteTableStore(db)
    ledger: LedgerStorage = SqliteLedger(db, GRANT)
    await store.migrate(2)
    await ledger.migrate()
    row = TableRow("t1", "swick", 0, {}, False, "inv", 0, "lobby", [], None)
    assert await store.create(row)
    epoch = await store.acquire(0, "w", 30.0)
    assert epoch is not None
    await sit(ledger, "t1", "ann")
    body = posting("t1", 1, [leg(wallet("ann"), "pot:t1", 10, "ante")])
    write = Write(1, "a1", [], "play", [], None, posting=lambda n: body.model_dump(mode="json"))
    queued = await store.append("t1", 0, "w", epoch, write)
    assert queued is not None
    assert await ledger.apply(Posting.model_validate(queued[1])) == "applied"
    await store.sent([queued[0]])
    await db.close()
    # Both come back from the file.
    db = await Database.open(path)
    try:
        store, ledger = SqliteTableStore(db), SqliteLedger(db, GRANT)
        await store.migrate(2)
        await ledger.migrate()
        assert (await store.table("t1") or row).seq == 1
        assert await ledger.balance("ann") == GRANT - 10
        assert (await ledger.check()).ok
    finally:
        await db.close()


async def test_a_games_leaderboard_counts_only_its_tables(ledger: LedgerStorage) -> None:
    swick, euchre = uid("swick"), uid("euchre")
    ann, ben = uid("ann"), uid("ben")
    await ledger.seat(ann, "Ann", False, None, swick)
    await ledger.seat(ben, "Ben", False, None, swick)
    since = datetime.fromisoformat((await ledger.history(ann))[0]["at"])
    pot = f"pot:{swick}"
    await ledger.apply(posting(swick, 1, [leg(wallet(ann), pot, 30, "ante")]))
    await ledger.apply(posting(swick, 2, [leg(pot, wallet(ben), 30, "trick_payout")]))
    await sit(ledger, euchre, ann, ben)
    game_pot = f"pot:{euchre}"
    stakes = [leg(wallet(p), game_pot, 50, "stake") for p in (ann, ben)]
    await ledger.apply(posting(euchre, 1, stakes, game="euchre"))
    won = [leg(game_pot, wallet(ann), 100, "euchre_win")]
    await ledger.apply(posting(euchre, 2, won, game="euchre"))
    mine = (ann, ben)

    def board(rows: list[dict[str, Any]]) -> dict[str, int]:
        return {row["player_id"]: row["net"] for row in rows if row["player_id"] in mine}

    assert board(await ledger.leaderboard(since, 1000)) == {ann: 20, ben: -20}
    assert board(await ledger.leaderboard(since, 1000, "swick")) == {ann: -30, ben: 30}
    assert board(await ledger.leaderboard(since, 1000, "euchre")) == {ann: 50, ben: -50}
    assert board(await ledger.leaderboard(since, 1000, "contract-whist")) == {}


async def test_a_player_from_another_table_is_seated_at_the_new_one(ledger: LedgerStorage) -> None:
    first, second, ann = uid("first"), uid("second"), uid("ann")
    await ledger.seat(ann, "Ann", False, None, first)
    await ledger.apply(posting(first, 1, [leg(wallet(ann), f"pot:{first}", 10, "ante")]))
    # Ann left the first table after its posting 1 and sits at the second: the second's
    # postings may name her (seating her must not record the table she left instead).
    await ledger.seat(ann, "Ann", False, (first, 1), second)
    outcome = await ledger.apply(posting(second, 1, [leg(wallet(ann), f"pot:{second}", 5, "ante")]))
    assert outcome == "applied"
    assert await ledger.balance(ann) == GRANT - 15
