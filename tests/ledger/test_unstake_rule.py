"""The rule of a bot's stake going back to the house (``rules.UNSTAKE``), as pure functions: a
table may return only its own bots' chips, and only to the house."""

from __future__ import annotations

import pytest

from services.ledger.rules import check_seated, check_table_posting, wallet
from services.ledger.storage import Rejected
from shared.messages import HOUSE, UNSTAKE
from tests.contract.conftest import leg, posting

TABLE = "t-home"
BOT = f"bot:{TABLE}:1"


def test_a_table_returns_its_own_bots_chips_to_the_house() -> None:
    returned = posting(TABLE, 1, [leg(wallet(BOT), HOUSE, 4000, UNSTAKE)], stacks={BOT: 0})
    check_table_posting(returned)
    check_seated(returned, [BOT], [BOT])


@pytest.mark.parametrize(
    ("debit", "credit", "code"),
    [
        (wallet("bot:t-away:1"), HOUSE, UNSTAKE),  # another table's bot
        (wallet("bot:t-home-2:1"), HOUSE, UNSTAKE),  # a table whose id begins like this one's
        (wallet("p-ann"), HOUSE, UNSTAKE),  # a person
        (wallet(BOT), f"pot:{TABLE}", UNSTAKE),  # anywhere but the house
        (wallet(BOT), "bank", UNSTAKE),
        (HOUSE, wallet(BOT), UNSTAKE),  # the other way round: that is minting
        (wallet(BOT), HOUSE, "payout"),  # into the house under another code
    ],
)
def test_no_other_leg_touches_the_house(debit: str, credit: str, code: str) -> None:
    with pytest.raises(Rejected):
        check_table_posting(posting(TABLE, 1, [leg(debit, credit, 10, code)]))


def test_only_a_wallet_seated_as_a_bot_is_returned() -> None:
    returned = posting(TABLE, 1, [leg(wallet(BOT), HOUSE, 10, UNSTAKE)])
    with pytest.raises(Rejected, match="as no bot"):
        check_seated(returned, [BOT], [])  # the ledger seated it there, as a person
    with pytest.raises(Rejected, match="never sat"):
        check_seated(returned, [], [])
