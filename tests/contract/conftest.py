"""Contract tests: one suite per interface, run against each of its implementations.

For the storage suites (PostgreSQL and SQLite): the PostgreSQL stores use the session's
database (shared with the other tests of the session, so every test uses ids of its own); a
test that needs the database to itself (global counts, deliberately broken data) gets a fresh
one, created and dropped around it. The SQLite stores get a new file in the test's
``tmp_path``.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from services.ledger.ledger_sqlite import SqliteLedger
from services.ledger.storage import LedgerStorage
from shared.messages import Leg, Posting
from shared.settings import Settings
from tests.postgres_ledger import fresh_ledger

BACKENDS = ["postgres", "sqlite"]


def of_each_backend(kind: str) -> Any:
    """A fixture parametrised by ``BACKENDS`` whose value is its backend's fixture
    ``<backend>_<kind>``. Assign it to the fixture's name."""

    @pytest.fixture(params=BACKENDS)
    def of_backend(request: pytest.FixtureRequest) -> Any:
        return request.getfixturevalue(f"{request.param}_{kind}")

    return of_backend


def own_books(grant: int, label: str, pool_size: int = 2) -> Any:
    """A fixture parametrised by ``BACKENDS`` whose value is books of the test's own, granting
    ``grant``: a fresh PostgreSQL database named for ``label``, or a new SQLite file. Assign it
    to the fixture's name."""

    @pytest.fixture(params=BACKENDS)
    async def books(
        request: pytest.FixtureRequest, settings: Settings, tmp_path: Path
    ) -> AsyncIterator[LedgerStorage]:
        if request.param == "postgres":
            async with fresh_ledger(settings, grant, label=label, pool_size=pool_size) as ledger:
                yield ledger
        else:
            sqlite = await SqliteLedger.open(tmp_path / f"{label}.db", grant)
            try:
                await sqlite.migrate()
                yield sqlite
            finally:
                await sqlite.close()

    return books


def uid(prefix: str) -> str:
    return f"{prefix}-{secrets.token_hex(4)}"


def leg(debit: str, credit: str, amount: int, code: str) -> Leg:
    return Leg(debit=debit, credit=credit, amount=amount, code=code)


def posting(
    table_id: str,
    number: int,
    legs: Sequence[Leg],
    *,
    hand_no: int = 1,
    stacks: dict[str, int] | None = None,
    names: dict[str, str] | None = None,
    bots: tuple[str, ...] = (),
    game: str = "swick",
) -> Posting:
    """Posting ``number`` of ``table_id`` (a table of ``game``), moving ``legs``."""
    return Posting(
        id=f"{table_id}:{number}",
        table_id=table_id,
        posting_no=number,
        hand_no=hand_no,
        legs=tuple(legs),
        stacks=stacks or {},
        names=names or {},
        bots=bots,
        game=game,
    )


async def sit(ledger: LedgerStorage, table_id: str, *players: str) -> None:
    """Seat ``players`` at ``table_id`` (opening their wallets): only then may its postings
    name them."""
    for player in players:
        await ledger.seat(player, "", False, None, table_id)
