"""A bot's chips go back to the house when it leaves its seat (``rules.UNSTAKE``), in both
stores: the house's report counts what is still out, the invariants hold, and a table cannot
return another table's bot, a person's wallet, or more than a bot holds.

Each test has books of its own (the house and ``check()`` are global)."""

from __future__ import annotations

from services.ledger.rules import wallet
from services.ledger.storage import LedgerStorage
from shared.messages import HOUSE, UNSTAKE
from tests.contract.conftest import leg, own_books, posting, sit

GRANT = 4000
TABLE = "t-stakes"
BOT = f"bot:{TABLE}:1"
NOTHING_OUT = {
    "staked": 0,
    "returned": 0,
    "closed": 0,
    "balance": 0,
    "held_by_bots": 0,
    "result": 0,
}


books = own_books(GRANT, "stakes")


async def test_a_bot_leaving_returns_its_chips_and_the_house_is_square(
    books: LedgerStorage,
) -> None:
    await sit(books, TABLE, "p-ann")
    assert await books.seat(BOT, "Ada", True, None, TABLE) == GRANT
    assert await books.house() == {
        **NOTHING_OUT,
        "staked": GRANT,
        "balance": -GRANT,
        "held_by_bots": GRANT,
    }
    pot = f"pot:{TABLE}"
    antes = [leg(wallet(p), pot, 100, "ante") for p in ("p-ann", BOT)]
    await books.apply(posting(TABLE, 1, antes, bots=(BOT,)))
    won = posting(TABLE, 2, [leg(pot, wallet(BOT), 200, "trick_payout")])
    assert await books.apply(won) == "applied"
    # The table closes: the bot's stack (its grant and Ann's ante) goes back to the house.
    closed = posting(
        TABLE, 3, [leg(wallet(BOT), HOUSE, GRANT + 100, UNSTAKE)], stacks={BOT: 0}, bots=(BOT,)
    )
    assert await books.apply(closed) == "applied"
    assert await books.balance(BOT) == 0
    # Nothing is out with the bots: the house got back 100 more than it staked.
    assert await books.house() == {
        "staked": GRANT,
        "returned": GRANT + 100,
        "closed": 0,
        "balance": 100,
        "held_by_bots": 0,
        "result": 100,
    }
    assert (await books.reconciliation(TABLE))["matches"]
    health = await books.check()
    assert health.ok and health.issued_outside_grants == 0 and health.dead_letters == 0
    # Seated again, the bot is staked afresh: that is out again (less what it won before).
    assert await books.seat(BOT, "Ada", True, (TABLE, 3), TABLE) == GRANT
    house = await books.house()
    assert (house["held_by_bots"], house["staked"], house["balance"]) == (
        GRANT,
        2 * GRANT,
        -GRANT + 100,
    )


async def test_a_table_returns_only_its_own_bots_chips(books: LedgerStorage) -> None:
    away = "t-away"
    await sit(books, TABLE, "p-ann")
    await books.seat(BOT, "Ada", True, None, TABLE)
    await books.seat(f"bot:{away}:1", "Bram", True, None, away)
    await books.seat(f"bot:{TABLE}:2", "Cleo", False, None, TABLE)  # the ledger was told: no bot
    forgeries = [
        (f"bot:{away}:1", GRANT),  # another table's bot
        ("p-ann", GRANT),  # a person
        (f"bot:{TABLE}:2", GRANT),  # a wallet seated here, but not as a bot
        (BOT, GRANT + 1),  # more than the bot holds
    ]
    house, health = await books.house(), await books.check()
    for count, (player, amount) in enumerate(forgeries, 1):
        forged = posting(TABLE, 1, [leg(wallet(player), HOUSE, amount, UNSTAKE)])
        assert await books.apply(forged) == "rejected", player
        assert await books.balance(player) == GRANT
        assert await books.house() == house
        after = await books.check()
        assert after.ok and after.dead_letters == health.dead_letters + count


async def test_a_player_in_debt_is_seated_nowhere(books: LedgerStorage) -> None:
    """Every game refuses a seat to a stack below zero, so the ledger records none: a posting
    of that table naming the player is then refused as naming a stranger."""
    ann, owing = "p-ann", f"t-{TABLE}-owing"
    await sit(books, TABLE, ann)
    penalty = leg(wallet(ann), f"carry:{TABLE}", GRANT + 1, "set")
    assert await books.apply(posting(TABLE, 1, [penalty], stacks={ann: -1})) == "applied"
    assert await books.seat(ann, "Ann", False, (TABLE, 1), owing) == -1
    # Seated, a set penalty there would apply (it needs no cover); not seated, it is refused.
    again = leg(wallet(ann), f"carry:{owing}", 1, "set")
    assert await books.apply(posting(owing, 1, [again], stacks={ann: -2})) == "rejected"
    assert await books.balance(ann) == -1
