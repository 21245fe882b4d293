"""The passkey ceremonies against a software authenticator, over each store (PostgreSQL, SQLite,
memory): several passkeys per account, each signing in; wrong origins, replayed and expired
challenges and cloned authenticators refused. Expiry on a clock the test moves."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from services.gateway.passkey_ceremonies import (
    CHALLENGE_SECONDS,
    MAX_PASSKEYS,
    Ceremonies,
    NotSignedIn,
    PasskeyRefused,
    expected_origins,
)
from services.gateway.passkeys import (
    PasskeyStore,
    passkeys_for,
)
from shared.settings import Settings
from tests.clock import Clock
from tests.security.passkey_authenticator import Authenticator, InvalidStateError
from tests.security.store_database import KINDS, store_database

RP = "swick.example"
ORIGIN = "https://swick.example"


def test_the_origins_are_the_configured_ones_or_the_pages_own_on_the_domain() -> None:
    configured = "https://swick.example, https://play.swick.example/"
    assert expected_origins(configured, RP, "https://evil.example") == [
        "https://swick.example",
        "https://play.swick.example",
    ]
    assert expected_origins("", RP, "https://swick.example") == ["https://swick.example"]
    assert expected_origins("", RP, "https://eu.swick.example:8443") == [
        "https://eu.swick.example:8443"
    ]
    for refused in (
        "http://swick.example",  # not https
        "https://notswick.example",  # not a subdomain, only a longer name
        "https://swick.example.evil.example",
        "https://swick.example/path",
        "https://user@swick.example",
        "https://swick.example:99999",
        "null",
        "",
        None,
    ):
        assert expected_origins("", RP, refused) == [], refused
    assert expected_origins("", "localhost", "http://localhost:8000") == ["http://localhost:8000"]
    assert expected_origins("", "localhost", "https://localhost") == ["https://localhost"]


@pytest.fixture(params=KINDS)
async def store(
    request: pytest.FixtureRequest, settings: Settings, tmp_path: Path
) -> AsyncIterator[PasskeyStore]:
    async with store_database(request.param, settings, tmp_path) as database:
        kept = passkeys_for(database)
        await kept.migrate()
        yield kept


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def ceremonies(store: PasskeyStore, clock: Clock) -> Ceremonies:
    return Ceremonies(store, RP, clock=clock)


def account() -> str:
    """A fresh account id (the PostgreSQL database is the test session's, shared)."""
    return f"p-{secrets.token_hex(8)}"


async def add(
    ceremonies: Ceremonies, account_id: str, device: Authenticator, label: str = "Phone"
) -> str:
    clock = ceremonies.clock
    assert isinstance(clock, Clock)
    ticket, options = await ceremonies.registration_options(account_id, "Rita#4821", "Rita")
    clock.now += 1  # each passkey's own time, so they list in order
    passkey = await ceremonies.register(account_id, ticket, device.create(options), label, ORIGIN)
    return passkey.id


async def sign_in(ceremonies: Ceremonies, device: Authenticator, origin: str = ORIGIN) -> str:
    ticket, options = await ceremonies.sign_in_options()
    answer = await ceremonies.answer(ticket, device.get(options))
    return (await ceremonies.check(answer, origin)).account_id


async def test_two_passkeys_on_one_account_each_sign_in(ceremonies: Ceremonies) -> None:
    rita = account()
    phone, laptop = Authenticator(ORIGIN, backed_up=True), Authenticator(ORIGIN)
    first = await add(ceremonies, rita, phone, "Phone")
    second = await add(ceremonies, rita, laptop, "Laptop")
    kept = await ceremonies.store.of(rita)
    assert [(p.id, p.label, p.backed_up) for p in kept] == [
        (first, "Phone", True),
        (second, "Laptop", False),
    ]
    assert kept[0].device_type == "multi_device" and kept[1].device_type == "single_device"
    assert kept[0].transports == ("internal", "hybrid")
    assert all(p.sign_count == 0 and p.last_used_at is None for p in kept)
    # The sign-in options name no passkey: the authenticator offers its own.
    _, options = await ceremonies.sign_in_options()
    assert options["allowCredentials"] == [] and options["userVerification"] == "preferred"
    for device in (phone, laptop, phone):
        assert await sign_in(ceremonies, device) == rita
    counts = {p.id: p.sign_count for p in await ceremonies.store.of(rita)}
    assert counts == {first: 2, second: 1}


async def test_the_options_ask_for_a_discoverable_passkey_and_exclude_the_accounts_own(
    ceremonies: Ceremonies,
) -> None:
    rita = account()
    phone = Authenticator(ORIGIN)
    first = await add(ceremonies, rita, phone)
    _, options = await ceremonies.registration_options(rita, "Rita#4821", "Rita")
    assert options["rp"] == {"id": RP, "name": "Swick Online"}
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["authenticatorSelection"]["userVerification"] == "preferred"
    assert [c["id"] for c in options["excludeCredentials"]] == [first]
    with pytest.raises(InvalidStateError):
        phone.create(options)


async def test_an_answer_from_another_origin_is_refused(ceremonies: Ceremonies) -> None:
    rita = account()
    phishing = Authenticator("https://swick-example.evil")
    ticket, options = await ceremonies.registration_options(rita, "Rita#4821", "Rita")
    with pytest.raises(PasskeyRefused):
        await ceremonies.register(rita, ticket, phishing.create(options), "Phone", ORIGIN)
    assert await ceremonies.store.of(rita) == []
    phone = Authenticator(ORIGIN)
    await add(ceremonies, rita, phone)
    ticket, options = await ceremonies.sign_in_options()
    answer = await ceremonies.answer(ticket, phone.get(options, origin="https://evil.example"))
    with pytest.raises(NotSignedIn):
        await ceremonies.check(answer, ORIGIN)
    # Without configured origins the page's own must be on the domain, as the answer's is.
    ticket, options = await ceremonies.sign_in_options()
    answer = await ceremonies.answer(ticket, phone.get(options, origin="https://evil.example"))
    with pytest.raises(NotSignedIn):
        await ceremonies.check(answer, "https://evil.example")
    assert await sign_in(ceremonies, phone) == rita  # the refusals left the passkey good


async def test_a_challenge_serves_once(ceremonies: Ceremonies) -> None:
    rita = account()
    phone = Authenticator(ORIGIN)
    ticket, options = await ceremonies.registration_options(rita, "Rita#4821", "Rita")
    created = phone.create(options)
    await ceremonies.register(rita, ticket, created, "Phone", ORIGIN)
    with pytest.raises(PasskeyRefused, match="expired or was used"):
        await ceremonies.register(rita, ticket, created, "Phone", ORIGIN)
    ticket, options = await ceremonies.sign_in_options()
    answer = await ceremonies.answer(ticket, phone.get(options))
    await ceremonies.check(answer, ORIGIN)
    with pytest.raises(NotSignedIn):
        await ceremonies.answer(ticket, phone.get(options))  # a fresh count, the same ticket
    # A wrong answer uses its ticket up too.
    ticket, options = await ceremonies.sign_in_options()
    with pytest.raises(NotSignedIn):
        await ceremonies.answer(ticket, {"id": "no such passkey"})
    with pytest.raises(NotSignedIn):
        await ceremonies.answer(ticket, phone.get(options))


async def test_a_challenge_expires(ceremonies: Ceremonies, clock: Clock) -> None:
    rita = account()
    phone = Authenticator(ORIGIN)
    ticket, options = await ceremonies.registration_options(rita, "Rita#4821", "Rita")
    clock.now += CHALLENGE_SECONDS
    late = Authenticator(ORIGIN).create(options)
    with pytest.raises(PasskeyRefused, match="expired"):
        await ceremonies.register(rita, ticket, late, "Phone", ORIGIN)
    await add(ceremonies, rita, phone)
    ticket, options = await ceremonies.sign_in_options()
    clock.now += CHALLENGE_SECONDS - 0.001
    answer = await ceremonies.answer(ticket, phone.get(options))  # just in time
    await ceremonies.check(answer, ORIGIN)
    ticket, options = await ceremonies.sign_in_options()
    clock.now += CHALLENGE_SECONDS
    with pytest.raises(NotSignedIn):
        await ceremonies.answer(ticket, phone.get(options))


async def test_expired_challenges_are_cleared(
    ceremonies: Ceremonies, store: PasskeyStore, clock: Clock
) -> None:
    old = [(await ceremonies.sign_in_options())[0] for _ in range(3)]
    clock.now += CHALLENGE_SECONDS
    await ceremonies.sign_in_options()  # clears the expired
    clock.now -= CHALLENGE_SECONDS  # had they stayed, they would be good at this time
    for ticket in old:
        assert await store.take_challenge(ticket, int(clock.now * 1000)) is None


async def test_a_cloned_authenticator_is_refused(ceremonies: Ceremonies) -> None:
    rita = account()
    phone = Authenticator(ORIGIN)
    await add(ceremonies, rita, phone)
    await sign_in(ceremonies, phone)
    await sign_in(ceremonies, phone)
    [credential] = phone.credentials
    credential.sign_count -= 2  # the clone's count lags behind the original's
    with pytest.raises(NotSignedIn):
        await sign_in(ceremonies, phone)  # count 1 after 2: not grown
    [kept] = await ceremonies.store.of(rita)
    assert kept.sign_count == 2


async def test_an_authenticator_that_does_not_count_signs_in_again(
    ceremonies: Ceremonies,
) -> None:
    rita = account()
    synced = Authenticator(ORIGIN, backed_up=True, counts=False)
    await add(ceremonies, rita, synced)
    assert await sign_in(ceremonies, synced) == rita
    assert await sign_in(ceremonies, synced) == rita
    [kept] = await ceremonies.store.of(rita)
    assert kept.sign_count == 0 and kept.last_used_at is not None


async def test_a_ticket_is_for_its_own_account_and_ceremony(ceremonies: Ceremonies) -> None:
    rita, mallory = account(), account()
    device = Authenticator(ORIGIN)
    ticket, options = await ceremonies.registration_options(rita, "Rita#4821", "Rita")
    with pytest.raises(PasskeyRefused):
        await ceremonies.register(mallory, ticket, device.create(options), "Mine", ORIGIN)
    ticket, options = await ceremonies.sign_in_options()
    with pytest.raises(PasskeyRefused):
        await ceremonies.register(rita, ticket, {}, "Phone", ORIGIN)
    assert await ceremonies.store.of(rita) == await ceremonies.store.of(mallory) == []


async def test_an_account_has_at_most_so_many_passkeys(ceremonies: Ceremonies) -> None:
    rita = account()
    for _ in range(MAX_PASSKEYS):
        await add(ceremonies, rita, Authenticator(ORIGIN))
    with pytest.raises(PasskeyRefused, match="remove one"):
        await ceremonies.registration_options(rita, "Rita#4821", "Rita")
    assert len(await ceremonies.store.of(rita)) == MAX_PASSKEYS
    assert await ceremonies.store.remove_all(rita) == MAX_PASSKEYS
    assert await ceremonies.store.of(rita) == []


async def test_a_passkey_is_removed_only_by_its_own_account(ceremonies: Ceremonies) -> None:
    rita, mallory = account(), account()
    first = await add(ceremonies, rita, Authenticator(ORIGIN))
    assert not await ceremonies.store.remove(mallory, first)
    assert [p.id for p in await ceremonies.store.of(rita)] == [first]
    assert await ceremonies.store.remove(rita, first)
    assert not await ceremonies.store.remove(rita, first)


@pytest.mark.parametrize(
    "answer",
    [
        {},
        {"id": 1},
        {"id": "x", "rawId": "x", "type": "public-key", "response": {}},
        {
            "id": "AAAA",
            "rawId": "AAAA",
            "type": "public-key",
            "response": {"clientDataJSON": "%%%", "attestationObject": "!!"},
        },
        {
            "id": "AAAA",
            "rawId": "AAAA",
            "type": "public-key",
            "response": {"clientDataJSON": "e30", "attestationObject": "oA"},
        },
    ],
)
async def test_a_malformed_answer_is_refused_and_changes_nothing(
    ceremonies: Ceremonies, answer: dict[str, object]
) -> None:
    rita = account()
    ticket, _ = await ceremonies.registration_options(rita, "Rita#4821", "Rita")
    with pytest.raises(PasskeyRefused):
        await ceremonies.register(rita, ticket, answer, "Phone", ORIGIN)
    ticket, _ = await ceremonies.sign_in_options()
    with pytest.raises(NotSignedIn):
        await ceremonies.answer(ticket, answer)
    assert await ceremonies.store.of(rita) == []
