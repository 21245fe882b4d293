"""A deleted account's wallet closes (``LedgerStorage.close_wallet``), in both stores: its whole
balance goes to the house in one balanced posting, once however often it is asked; it is
refused, changing nothing, while the player's chips are at stake (in a pot not paid out, or
on their way from their last table); and a closed wallet never opens again, for a grant or a
seat. The invariants hold throughout.

Each test has books of its own (the house and ``check()`` are global)."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime

import pytest

from services.ledger.rules import MAX_AMOUNT, wallet
from services.ledger.storage import AtStake, Closed, LedgerStorage, Pending
from shared.messages import CLOSE, DELETED_PLAYER
from tests.contract.conftest import leg, own_books, posting, sit

GRANT = 4000
TABLE = "t-closing"
POT = f"pot:{TABLE}"
ANN, BOB = "p-00000000000000a1", "p-00000000000000b2"


books = own_books(GRANT, "closing", pool_size=4)


async def assert_healthy(books: LedgerStorage) -> None:
    health = await books.check()
    assert health.ok, health
    assert health.issued_outside_grants == 0


async def test_a_wallet_closes_into_the_house_once(books: LedgerStorage) -> None:
    await books.seat(ANN, "Ann", False, None, TABLE)
    await books.seat(BOB, "Bob", False, None, TABLE)
    won = [leg(wallet(BOB), POT, 300, "ante"), leg(POT, wallet(ANN), 300, "trick_payout")]
    assert await books.apply(posting(TABLE, 1, won, names={ANN: "Ann"})) == "applied"
    closing = await books.close_wallet(ANN)
    assert (closing.returned, closing.already_closed) == (GRANT + 300, False)
    assert await books.balance(ANN) == 0
    house = await books.house()
    assert (house["closed"], house["balance"], house["result"]) == (GRANT + 300,) * 3
    moves = await books.history(ANN)
    assert [(m["amount"], m["code"], m["table_id"]) for m in moves[:1]] == [
        (-(GRANT + 300), CLOSE, None)
    ]
    await assert_healthy(books)
    before = await books.check()
    # A retry changes nothing, and says so.
    again = await books.close_wallet(ANN)
    assert (again.returned, again.already_closed) == (GRANT + 300, True)
    assert (await books.check()).debits == before.debits
    assert await books.house() == house
    # The leaderboard no longer names them.
    board = await books.leaderboard(since=datetime(2000, 1, 1, tzinfo=UTC))
    assert {p["player_id"]: p["name"] for p in board}[ANN] == DELETED_PLAYER


async def test_a_closed_wallet_never_opens_again(books: LedgerStorage) -> None:
    await books.seat(ANN, "Ann", False, None, TABLE)
    await books.close_wallet(ANN)
    with pytest.raises(Closed):
        await books.seat(ANN, "Ann", False, None, "t-elsewhere")
    with pytest.raises(Closed):
        await books.open_wallet(ANN, "Ann")
    assert await books.balance(ANN) == 0
    # A wallet never opened closes too (nothing to move): no later seat grants it anything.
    closing = await books.close_wallet(BOB)
    assert (closing.returned, closing.already_closed) == (0, False)
    with pytest.raises(Closed):
        await books.seat(BOB, "Bob", False, None, TABLE)
    assert await books.balance(BOB) == 0  # a wallet at 0, closed
    assert (await books.check()).debits == GRANT * 2  # Ann's grant, and its return
    await assert_healthy(books)


async def test_a_debt_is_taken_on_by_the_house(books: LedgerStorage) -> None:
    await sit(books, TABLE, ANN, BOB)
    antes = [leg(wallet(ANN), POT, 100, "ante"), leg(wallet(BOB), POT, 100, "ante")]
    await books.apply(posting(TABLE, 1, antes))
    paid = [
        leg(POT, wallet(BOB), 200, "trick_payout"),
        leg(wallet(ANN), f"carry:{TABLE}", GRANT, "set_1"),
    ]
    assert await books.apply(posting(TABLE, 2, paid)) == "applied"
    assert await books.balance(ANN) == -100
    closing = await books.close_wallet(ANN)
    assert closing.returned == -100
    assert await books.balance(ANN) == 0
    assert (await books.house())["closed"] == -100
    await assert_healthy(books)


async def test_chips_in_a_pot_keep_the_wallet_open(books: LedgerStorage) -> None:
    await sit(books, TABLE, ANN, BOB)
    antes = [leg(wallet(ANN), POT, 50, "ante"), leg(wallet(BOB), POT, 50, "ante")]
    await books.apply(posting(TABLE, 1, antes))
    before = await books.check()
    with pytest.raises(AtStake, match=TABLE):
        await books.close_wallet(ANN)
    assert await books.balance(ANN) == GRANT - 50
    assert (await books.check()).debits == before.debits
    await books.seat(ANN, "Ann", False, None, "t-later")  # still open: nothing was closed
    # Paid out: nothing of theirs is at stake any more.
    await books.apply(posting(TABLE, 2, [leg(POT, wallet(BOB), 100, "trick_payout")]))
    assert (await books.close_wallet(ANN)).returned == GRANT - 50
    await assert_healthy(books)


async def test_a_game_long_stake_keeps_the_wallet_open_until_the_game_pays(
    books: LedgerStorage,
) -> None:
    await sit(books, TABLE, ANN, BOB)
    stakes = [leg(wallet(ANN), POT, 30, "stake"), leg(wallet(BOB), POT, 30, "stake")]
    await books.apply(posting(TABLE, 1, stakes, game="contract-whist"))
    with pytest.raises(AtStake):
        await books.close_wallet(BOB)
    win = [leg(POT, wallet(ANN), 60, "whist_win")]
    await books.apply(posting(TABLE, 2, win, hand_no=9, game="contract-whist"))
    assert (await books.close_wallet(BOB)).returned == GRANT - 30
    # The next game's stake at the same table holds Ann's chips again.
    await books.apply(posting(TABLE, 3, [leg(wallet(ANN), POT, 30, "stake")]))
    with pytest.raises(AtStake):
        await books.close_wallet(ANN)
    await assert_healthy(books)


async def test_a_wallet_waits_for_its_last_tables_postings(books: LedgerStorage) -> None:
    await sit(books, TABLE, ANN, BOB)
    antes = [leg(wallet(ANN), POT, 50, "ante"), leg(wallet(BOB), POT, 50, "ante")]
    payout = posting(TABLE, 2, [leg(POT, wallet(ANN), 100, "trick_payout")])
    assert await books.apply(payout) == "waiting"  # the antes are on their way
    with pytest.raises(Pending):
        await books.close_wallet(ANN, after=(TABLE, 2))
    assert await books.apply(posting(TABLE, 1, antes)) == "applied"  # and the payout after it
    assert (await books.close_wallet(ANN, after=(TABLE, 2))).returned == GRANT + 50
    await assert_healthy(books)


async def test_a_wallet_over_the_largest_leg_closes_in_several(books: LedgerStorage) -> None:
    """Legs move at most ``MAX_AMOUNT``: a bigger balance goes in as many as it takes."""
    big: LedgerStorage = dataclasses.replace(books, grant=MAX_AMOUNT)  # type: ignore[type-var]
    await sit(big, TABLE, ANN, BOB)
    hands = [(MAX_AMOUNT - 7, 1), (7, 2)]
    for number, (amount, hand) in enumerate(hands):
        ante = posting(TABLE, 2 * number + 1, [leg(wallet(BOB), POT, amount, "ante")], hand_no=hand)
        won = posting(
            TABLE, 2 * number + 2, [leg(POT, wallet(ANN), amount, "trick_payout")], hand_no=hand
        )
        outcomes = [await books.apply(ante), await books.apply(won)]
        assert outcomes == ["applied", "applied"], await books.problems()
    assert (await books.close_wallet(ANN)).returned == 2 * MAX_AMOUNT
    moves = [m for m in await books.history(ANN) if m["code"] == CLOSE]
    assert sorted(-m["amount"] for m in moves) == [MAX_AMOUNT, MAX_AMOUNT]
    assert (await books.house())["closed"] == 2 * MAX_AMOUNT
    await assert_healthy(books)


async def test_closings_at_once_close_once(books: LedgerStorage) -> None:
    await books.seat(ANN, "Ann", False, None, TABLE)
    closings = await asyncio.gather(*(books.close_wallet(ANN) for _ in range(8)))
    assert sorted(c.already_closed for c in closings) == [False] + [True] * 7
    assert {c.returned for c in closings} == {GRANT}
    assert (await books.house())["closed"] == GRANT
    assert await books.balance(ANN) == 0
    await assert_healthy(books)
