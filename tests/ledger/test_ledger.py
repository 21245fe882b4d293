"""The ledger against the real PostgreSQL.

* A hypothesis state machine plays tables' hands through the ledger (antes and the carry into
  the pot, the whole pot paid out, set penalties into the carry that may leave a wallet below
  zero), delivers postings twice, at once and out of order, and throws overdrawing antes,
  payouts of empty pots, forged postings (other tables' accounts, strangers' wallets, the bank,
  amounts out of bounds, taken numbers) and conflicting duplicates at it, closes the wallets of
  deleted accounts (retried, and refused while their chips are in a pot), against a plain model
  of every account's balance: nothing but the valid postings ever moves a chip. It runs in a
  database of its own, emptied for every example, so ``check()`` can be compared exactly.
* Concurrency: tables paying the same wallet at once lose no update; the same posting (or the
  same first wallet opening) delivered many times at once takes effect once.
* History paging, the leaderboard, reconciliation, rejections, a posting that waits for its
  turn and a drain that was interrupted.

The tests share the session's database (each with its own table and player ids), except those
that leave deliberately broken data (rejections, reconciliation mismatches), which make a fresh
database: ``check()`` is global.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import asyncpg
import pytest
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from services.ledger.ledger import BANK, Ledger, wallet
from services.ledger.rules import digest
from services.ledger.storage import AtStake, Closed
from services.load.platform import fresh_database
from services.table.store import connect_pool
from shared.messages import HOUSE, Leg, Posting
from shared.settings import Settings
from tests.contract.conftest import leg, posting, uid
from tests.postgres_ledger import fresh_ledger, migrated_ledger

T = TypeVar("T")
GRANT = 4000


# Helpers.


@pytest.fixture(scope="session")
async def ledger(settings: Settings) -> AsyncIterator[Ledger]:
    """A ledger in the session's database, shared by the tests (and their unique ids)."""
    async with migrated_ledger(settings.database_url, GRANT) as ledger:
        yield ledger


async def assert_books_balance(ledger: Ledger) -> None:
    """What holds whatever other tests left in the database: the books balance."""
    health = await ledger.check()
    assert health.debits == health.credits
    assert health.accounts_match_transfers


# The state machine.


@dataclass
class TableModel:
    table_id: str
    players: list[str]
    posting_no: int = 0
    hand_no: int = 0
    hand: list[str] | None = None  # who anted in the hand dealt and not settled yet
    gap: tuple[Posting, Posting] | None = None  # (held back, delivered ahead and waiting)

    @property
    def pot(self) -> str:
        return f"pot:{self.table_id}"

    @property
    def carry(self) -> str:
        return f"carry:{self.table_id}"

    @property
    def idle(self) -> bool:
        return self.hand is None and self.gap is None


def project(balances: dict[str, int], legs: Sequence[Leg]) -> dict[str, int]:
    """The balances after ``legs``."""
    after = dict(balances)
    for move in legs:
        after[move.debit] = after.get(move.debit, 0) - move.amount
        after[move.credit] = after.get(move.credit, 0) + move.amount
    return after


def _forgeries() -> dict[str, Any]:
    """Ways to forge a table's posting number ``n``, each breaking one rule."""

    def legs_of(*legs: Leg) -> tuple[Leg, ...]:
        return legs

    def forged(table: TableModel, n: int, legs: tuple[Leg, ...], **extra: Any) -> Posting:
        return posting(table.table_id, n, legs, hand_no=table.hand_no, **extra)

    def mint(t: TableModel, victim: str, n: int) -> Posting:
        return forged(t, n, legs_of(leg(BANK, wallet(t.players[0]), 10**6, "trick_payout")))

    def drain(t: TableModel, victim: str, n: int) -> Posting:
        return forged(t, n, legs_of(leg(wallet("lone-victim"), t.pot, 10_000, "ante")))

    def stranger(t: TableModel, victim: str, n: int) -> Posting:
        to = t.players[0]
        return forged(t, n, legs_of(leg(wallet(f"{victim}-elsewhere"), wallet(to), 5, "set_1")))

    def other_table(t: TableModel, victim: str, n: int) -> Posting:
        return forged(t, n, legs_of(leg("carry:elsewhere", wallet(t.players[0]), 5, "refund")))

    def huge(t: TableModel, victim: str, n: int) -> Posting:
        return forged(t, n, legs_of(leg(wallet(t.players[0]), t.carry, 2**63, "set_1")))

    def house(t: TableModel, victim: str, n: int) -> Posting:
        return forged(t, n, legs_of(leg(HOUSE, wallet(t.players[0]), 100, "stake")))

    def foreign_id(t: TableModel, victim: str, n: int) -> Posting:
        good = posting(t.table_id, n, legs_of(leg(t.pot, t.carry, 1, "carry_in")))
        return good.model_copy(update={"id": f"grant:{t.players[0]}"})

    def renames(t: TableModel, victim: str, n: int) -> Posting:
        legs = legs_of(leg(wallet(t.players[0]), t.pot, 1, "ante"))
        return forged(t, n, legs, names={f"{victim}-elsewhere": "Mallory"})

    return {
        "mint from the bank": mint,
        "drain a stranger's wallet": drain,
        "pay from a wallet never seated here": stranger,
        "move another table's carry": other_table,
        "move 2**63": huge,
        "take from the house": house,
        "use another posting's id": foreign_id,
        "rename a stranger": renames,
    }


FORGERIES = _forgeries()


class LedgerMachine(RuleBasedStateMachine):
    """The ledger against a model of every account's balance, in a database of its own."""

    dsn = ""  # set by the ``machine_database`` fixture
    grant = 300  # small, so penalties push wallets below zero and antes can overdraw

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.pool: asyncpg.Pool = self.run(connect_pool(self.dsn, size=4))
        self.ledger = Ledger(self.pool, self.grant)
        self.run(
            self.pool.execute(
                "TRUNCATE ledger.transfers, ledger.postings, ledger.accounts,"
                " ledger.table_progress, ledger.waiting, ledger.reconciliations,"
                " ledger.dead_postings, ledger.conflicts, ledger.seats, ledger.players,"
                " ledger.closed_wallets;"
                " INSERT INTO ledger.accounts (name, kind)"
                " VALUES ('bank', 'bank'), ('bank:house', 'bank')"
            )
        )
        self.balances: dict[str, int] = {BANK: 0, HOUSE: 0}  # every account
        self.players: list[str] = []
        self.closed: set[str] = set()  # players whose wallets were closed (accounts deleted)
        self.tables: list[TableModel] = []
        self.applied: list[Posting] = []
        self.moved = 0  # every transfer's amount, grants included
        self.rejected = 0
        self.dead: set[str] = set()  # digests of the postings set aside
        self.conflicting: set[str] = set()  # digests of the conflicting duplicates
        self.throwaway = 0

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(work)

    def teardown(self) -> None:
        try:
            self.run(self.pool.close())
        finally:
            self.loop.close()

    # The model.

    def book(self, applied: Posting) -> None:
        self.balances = project(self.balances, applied.legs)
        self.moved += sum(move.amount for move in applied.legs)
        self.applied.append(applied)

    def open(self, player: str, table_id: str | None = None) -> None:
        name = player.upper()
        balance = self.run(self.ledger.seat(player, name, False, None, table_id))
        self.balances[BANK] -= self.grant
        self.balances[wallet(player)] = self.grant
        self.moved += self.grant
        self.players.append(player)
        assert balance == self.grant

    def next_posting(self, table: TableModel, legs: list[Leg], balances: dict[str, int]) -> Posting:
        """The table's next posting, with its stacks as they will be after it."""
        after = project(balances, legs)
        involved = [p for p in table.players if any(wallet(p) in (m.debit, m.credit) for m in legs)]
        table.posting_no += 1
        return posting(
            table.table_id,
            table.posting_no,
            legs,
            hand_no=table.hand_no,
            stacks={p: after[wallet(p)] for p in involved},
            names={p: p.upper() for p in involved},
        )

    def deal(
        self, table: TableModel, data: st.DataObject, balances: dict[str, int]
    ) -> Posting | None:
        """A hand's antes (and the carry) into the pot, or ``None`` if nobody can pay."""
        ante = data.draw(st.integers(1, 120), label="ante")
        able = [p for p in table.players if balances[wallet(p)] >= ante and p not in self.closed]
        if not able:
            return None
        hand = data.draw(
            st.lists(st.sampled_from(able), min_size=min(3, len(able)), unique=True), label="hand"
        )
        legs = []
        if balances.get(table.carry, 0):
            legs.append(leg(table.carry, table.pot, balances[table.carry], "carry_in"))
        legs += [leg(wallet(p), table.pot, ante, "ante") for p in hand]
        table.hand_no += 1
        table.hand = hand
        return self.next_posting(table, legs, balances)

    def settle(self, table: TableModel, data: st.DataObject, balances: dict[str, int]) -> Posting:
        """The whole pot paid out to 1-3 winners, set penalties from losers into the carry."""
        assert table.hand is not None
        left = balances[table.pot]
        winners = data.draw(
            st.lists(st.sampled_from(table.hand), min_size=1, max_size=3, unique=True),
            label="winners",
        )[:left]
        legs = []
        for i, winner in enumerate(winners):
            rest = len(winners) - i - 1
            amount = left if not rest else data.draw(st.integers(1, left - rest), label="payout")
            left -= amount
            legs.append(leg(table.pot, wallet(winner), amount, "trick_payout"))
        losers = [p for p in table.hand if p not in winners]
        if losers:
            for loser in data.draw(st.lists(st.sampled_from(losers), unique=True), label="sets"):
                penalty = data.draw(st.integers(1, 400), label="penalty")
                legs.append(leg(wallet(loser), table.carry, penalty, "set_1"))
        table.hand = None
        return self.next_posting(table, legs, balances)

    def pick(self, data: st.DataObject, tables: list[TableModel]) -> TableModel:
        return data.draw(st.sampled_from(tables), label="table")

    def some_table_idle(self) -> bool:
        return any(t.idle for t in self.tables)

    def pick_idle(self, data: st.DataObject) -> TableModel:
        """A table between hands."""
        return self.pick(data, [t for t in self.tables if t.idle])

    def deal_at_an_idle_table(self, data: st.DataObject) -> tuple[TableModel, Posting | None]:
        """A table between hands, and the antes of a hand dealt there (``None``: nobody can pay)."""
        table = self.pick_idle(data)
        return table, self.deal(table, data, self.balances)

    # Rules.

    @precondition(lambda self: len(self.players) < 20)
    @rule()
    def open_lone_wallet(self) -> None:
        self.open(f"lone{len(self.players)}")

    @precondition(lambda self: bool(self.players))
    @rule(data=st.data())
    def reopen_wallet(self, data: st.DataObject) -> None:
        player = data.draw(st.sampled_from(self.players))
        if player in self.closed:
            with pytest.raises(Closed):  # never again: no grant, no seat
                self.run(self.ledger.seat(player, player.upper(), False, None, "t-again"))
            return
        balance = self.run(self.ledger.open_wallet(player))
        assert balance == self.balances[wallet(player)]  # no second grant

    def closable(self) -> list[str]:
        """Players with no chips in a pot (or in a posting on its way): not in a hand dealt."""
        busy = {p for t in self.tables if t.hand or t.gap for p in t.players}
        return [p for p in self.players if p not in busy]

    @precondition(lambda self: bool(self.closable()))
    @rule(data=st.data(), retries=st.integers(1, 3))
    def close_a_wallet(self, data: st.DataObject, retries: int) -> None:
        """An account deleted: its whole balance (or its debt) to the house, once."""
        player = data.draw(st.sampled_from(self.closable()), label="deleted")
        held = self.balances[wallet(player)]
        for _ in range(retries):
            closing = self.run(self.ledger.close_wallet(player))
            if player in self.closed:  # a retry, or a wallet closed before: nothing changes
                assert closing.already_closed
                continue
            assert (closing.returned, closing.already_closed) == (held, False)
            self.balances[HOUSE] += held
            self.balances[wallet(player)] = 0
            self.moved += abs(held)
            self.closed.add(player)

    @precondition(lambda self: bool(self.closed))
    @rule(data=st.data())
    def seat_a_deleted_player(self, data: st.DataObject) -> None:
        """A closed wallet opens no more: no grant, no seat, nothing moves."""
        player = data.draw(st.sampled_from(sorted(self.closed)), label="deleted")
        with pytest.raises(Closed):
            self.run(self.ledger.seat(player, player.upper(), False, None, "t-again"))
        with pytest.raises(Closed):
            self.run(self.ledger.open_wallet(player))

    @precondition(lambda self: any(t.hand for t in self.tables))
    @rule(data=st.data())
    def close_a_wallet_at_stake(self, data: st.DataObject) -> None:
        """Chips in a pot keep the wallet open: refused, nothing moves."""
        table = self.pick(data, [t for t in self.tables if t.hand])
        assert table.hand is not None
        player = data.draw(st.sampled_from(table.hand), label="at stake")
        with pytest.raises(AtStake):
            self.run(self.ledger.close_wallet(player))

    @initialize(seats=st.integers(3, 6))
    def first_table(self, seats: int) -> None:
        self.open_table(seats)

    @precondition(lambda self: len(self.tables) < 4)
    @rule(seats=st.integers(3, 6))
    def open_table(self, seats: int) -> None:
        table = TableModel(f"t{len(self.tables)}", [])
        for seat in range(seats):
            table.players.append(f"{table.table_id}s{seat}")
            self.open(table.players[-1], table.table_id)
        self.tables.append(table)

    @precondition(lambda self: self.some_table_idle())
    @rule(data=st.data())
    def deal_a_hand(self, data: st.DataObject) -> None:
        _, antes = self.deal_at_an_idle_table(data)
        if antes is not None:
            assert self.run(self.ledger.apply(antes)) == "applied"
            self.book(antes)

    @precondition(lambda self: self.some_table_idle())
    @rule(data=st.data())
    def deal_a_hand_delivered_twice_at_once(self, data: st.DataObject) -> None:
        _, antes = self.deal_at_an_idle_table(data)
        if antes is not None:

            async def twice(delivered: Posting) -> list[str]:
                return list(await asyncio.gather(*(self.ledger.apply(delivered) for _ in "ab")))

            assert sorted(self.run(twice(antes))) == ["applied", "duplicate"]
            self.book(antes)

    @precondition(lambda self: any(t.hand is not None for t in self.tables))
    @rule(data=st.data())
    def settle_a_hand(self, data: st.DataObject) -> None:
        table = self.pick(data, [t for t in self.tables if t.hand is not None])
        settlement = self.settle(table, data, self.balances)
        assert self.run(self.ledger.apply(settlement)) == "applied"
        self.book(settlement)

    @precondition(lambda self: bool(self.applied))
    @rule(data=st.data())
    def deliver_again(self, data: st.DataObject) -> None:
        again = data.draw(st.sampled_from(self.applied), label="posting")
        assert self.run(self.ledger.apply(again)) == "duplicate"

    @precondition(lambda self: self.some_table_idle())
    @rule(data=st.data())
    def deliver_a_hand_settlement_first(self, data: st.DataObject) -> None:
        table, antes = self.deal_at_an_idle_table(data)
        if antes is not None:
            settlement = self.settle(table, data, project(self.balances, antes.legs))
            assert self.run(self.ledger.apply(settlement)) == "waiting"
            table.gap = (antes, settlement)

    @precondition(lambda self: any(t.gap for t in self.tables))
    @rule(data=st.data())
    def deliver_the_early_posting_again(self, data: st.DataObject) -> None:
        table = self.pick(data, [t for t in self.tables if t.gap])
        assert table.gap is not None
        assert self.run(self.ledger.apply(table.gap[1])) == "waiting"

    @precondition(lambda self: any(t.gap for t in self.tables))
    @rule(data=st.data())
    def fill_the_gap(self, data: st.DataObject) -> None:
        table = self.pick(data, [t for t in self.tables if t.gap])
        assert table.gap is not None
        antes, settlement = table.gap
        assert self.run(self.ledger.apply(antes)) == "applied"  # and the settlement after it
        self.book(antes)
        self.book(settlement)
        table.gap = None

    @precondition(lambda self: self.rejected < 3 and set(self.players) - self.closed)
    @rule(data=st.data(), extra=st.integers(1, 100), empty_pot=st.booleans())
    def break_a_rule(self, data: st.DataObject, extra: int, empty_pot: bool) -> None:
        """An ante the wallet cannot cover, or a payout from an empty pot, after a good leg:
        rejected as a whole, on a table of its own (a rejected posting stalls its table)."""
        open_players = [p for p in self.players if p not in self.closed]
        player = data.draw(st.sampled_from(open_players), label="player")
        self.throwaway += 1
        table_id = f"x{self.throwaway}"
        pot = f"pot:{table_id}"
        others = [p for p in open_players if p != player and self.balances[wallet(p)] >= 1]
        for sitter in [player, *others[:1]]:
            self.run(self.ledger.seat(sitter, sitter.upper(), False, None, table_id))
        legs = [leg(wallet(others[0]), pot, 1, "ante")] if others else []
        if empty_pot:
            legs.append(
                leg(pot, wallet(player), sum(m.amount for m in legs) + extra, "trick_payout")
            )
        else:
            short = max(self.balances[wallet(player)], 0) + extra
            legs.append(leg(wallet(player), pot, short, "ante"))
        broken = posting(table_id, 1, legs)
        assert self.run(self.ledger.apply(broken)) == "rejected"
        self.rejected += 1
        self.dead.add(digest(broken))
        assert self.run(self.ledger.apply(broken)) == "rejected"  # kept once

    @precondition(lambda self: self.some_table_idle() and self.rejected < 12)
    @rule(data=st.data(), forgery=st.sampled_from(sorted(FORGERIES)))
    def forge_a_posting(self, data: st.DataObject, forgery: str) -> None:
        """A posting that takes the table's next number but breaks a rule: dead-lettered, no
        chip moves, and the number stays free for the table's real posting."""
        table = self.pick_idle(data)
        stranger = data.draw(st.sampled_from(self.players), label="victim")
        forged = FORGERIES[forgery](table, stranger, table.posting_no + 1)
        assert self.run(self.ledger.apply(forged)) == "rejected"
        self.rejected += 1
        self.dead.add(digest(forged))
        assert self.run(self.ledger.apply(forged)) == "rejected"  # set aside once

    @precondition(lambda self: any(p.table_id.startswith("t") for p in self.applied))
    @rule(data=st.data(), amount=st.integers(1, 10**6))
    def deliver_a_conflicting_duplicate(self, data: st.DataObject, amount: int) -> None:
        """Another body under an applied posting's number: recorded loudly, never applied."""
        real = data.draw(st.sampled_from([p for p in self.applied if p.table_id[0] == "t"]))
        first = real.legs[0]
        changed = first.model_copy(update={"amount": first.amount + amount})
        forged = real.model_copy(update={"legs": (changed, *real.legs[1:])})
        assert self.run(self.ledger.apply(forged)) == "conflict"
        assert self.run(self.ledger.apply(real)) == "duplicate"
        self.conflicting.add(digest(forged))

    # Invariants.

    @invariant()
    def wallets_match_the_model(self) -> None:
        for player in self.players:
            assert self.run(self.ledger.balance(player)) == self.balances[wallet(player)], player

    @invariant()
    def every_account_matches_the_model(self) -> None:
        rows = self.run(self.pool.fetch("SELECT name, credits - debits AS b FROM ledger.accounts"))
        assert {row["name"]: row["b"] for row in rows} == self.balances
        assert sum(self.balances.values()) == 0

    @invariant()
    def early_postings_wait(self) -> None:
        waiting = self.run(self.pool.fetch("SELECT table_id, posting_no FROM ledger.waiting"))
        expected = {(t.table_id, t.gap[1].posting_no) for t in self.tables if t.gap}
        assert {(row["table_id"], row["posting_no"]) for row in waiting} == expected

    @invariant()
    def health(self) -> None:
        health = self.run(self.ledger.check())
        assert health.debits == health.credits == self.moved
        assert health.accounts_match_transfers
        assert health.open_pots == []
        assert health.mismatches == 0
        assert health.issued_outside_grants == 0
        assert health.dead_letters == len(self.dead)
        assert health.conflicts == len(self.conflicting)
        assert health.ok


@pytest.fixture
async def machine_database(settings: Settings) -> AsyncIterator[str]:
    """A migrated database for the state machine alone (it leaves rejections behind)."""
    async with fresh_database(settings.database_url) as dsn:
        async with migrated_ledger(dsn, grant=4000, pool_size=1):
            pass  # migrated, its pool closed: the machine opens its own
        LedgerMachine.dsn = dsn
        yield dsn


LedgerMachine.TestCase.settings = hypothesis_settings(
    max_examples=30, stateful_step_count=25, deadline=None
)
# A plain (synchronous) unittest case: every example runs on the machine's own event loop.
TestLedgerMachine = pytest.mark.usefixtures("machine_database")(LedgerMachine.TestCase)


# Concurrency.


async def test_the_same_posting_delivered_ten_times_at_once_applies_once(ledger: Ledger) -> None:
    table, a, b = uid("twin"), uid("twin-a"), uid("twin-b")
    for player in (a, b):
        await ledger.seat(player, "", False, None, table)
    pot = f"pot:{table}"
    first = posting(table, 1, [leg(wallet(a), pot, 70, "ante"), leg(wallet(b), pot, 70, "ante")])
    outcomes = await asyncio.gather(*(ledger.apply(first) for _ in range(10)))
    assert Counter(outcomes) == {"applied": 1, "duplicate": 9}
    second = posting(table, 2, [leg(pot, wallet(a), 140, "trick_payout")])
    outcomes = await asyncio.gather(*(ledger.apply(second) for _ in range(10)))
    assert Counter(outcomes) == {"applied": 1, "duplicate": 9}
    assert await ledger.balance(a) == GRANT + 70
    assert await ledger.balance(b) == GRANT - 70
    assert (await ledger.reconciliation(table))["postings_applied"] == 2
    transfers = await ledger.pool.fetchval(
        "SELECT count(*) FROM ledger.transfers WHERE table_id = $1", table
    )
    assert transfers == 3
    await assert_books_balance(ledger)


async def test_a_tables_postings_delivered_all_at_once_all_apply_in_order(ledger: Ledger) -> None:
    """Several consumers may hold one table's postings at once: whatever the order in which
    they get there, none is left waiting."""
    rng = random.Random(7)
    tables = [uid("rush") for _ in range(12)]
    players = {table: [f"{table}-{seat}" for seat in range(3)] for table in tables}
    for table in tables:
        await asyncio.gather(*(ledger.seat(p, "", False, None, table) for p in players[table]))
    deliveries = []
    for table in tables:
        pot, (a, b, c) = f"pot:{table}", players[table]
        for hand in range(1, 4):
            antes = [leg(wallet(p), pot, 10 * hand, "ante") for p in (a, b, c)]
            deliveries.append(posting(table, 2 * hand - 1, antes, hand_no=hand))
            won = [leg(pot, wallet(a), 30 * hand, "trick_payout")]
            deliveries.append(posting(table, 2 * hand, won, hand_no=hand))
    deliveries += rng.sample(deliveries, 20)  # and some twice
    rng.shuffle(deliveries)
    outcomes = await asyncio.gather(*(ledger.apply(p) for p in deliveries))
    assert set(outcomes) <= {"applied", "waiting", "duplicate"}
    for table in tables:
        assert (await ledger.reconciliation(table))["postings_applied"] == 6
        a, b, c = players[table]
        assert [await ledger.balance(p) for p in (a, b, c)] == [GRANT + 120, GRANT - 60, GRANT - 60]
    waiting = await ledger.pool.fetchval(
        "SELECT count(*) FROM ledger.waiting WHERE table_id = ANY($1::text[])", tables
    )
    assert waiting == 0
    await assert_books_balance(ledger)


# Order.


# Reading.


async def test_a_reconciliation_mismatch_fails_the_check(settings: Settings) -> None:
    async with fresh_ledger(settings, GRANT) as ledger:
        table, a = uid("off"), uid("off-a")
        await ledger.seat(a, "", False, None, table)
        pot = f"pot:{table}"
        assert (await ledger.check()).ok
        await ledger.apply(posting(table, 1, [leg(wallet(a), pot, 60, "ante")], stacks={a: 999}))
        report = await ledger.reconciliation(table)
        assert not report["matches"]
        assert report["players"][0]["table_says"] == 999
        assert report["players"][0]["ledger_says"] == GRANT - 60
        health = await ledger.check()
        assert (health.ok, health.mismatches) == (False, 1)
        # The table's next posting agrees again.
        payout = [leg(pot, wallet(a), 60, "trick_payout")]
        await ledger.apply(posting(table, 2, payout, stacks={a: GRANT}))
        assert (await ledger.reconciliation(table))["matches"]
        assert (await ledger.check()).ok


# Rejections.
