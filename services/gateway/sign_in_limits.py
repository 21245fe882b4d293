"""How often one client address or one account may try to sign in again (by passkey, link code
or recovery code) or make link codes: ``settings.sign_in_attempts`` tries per key each
``settings.sign_in_period_minutes``, counted in the database all the gateways share
(``signups.SignupLimit``). Every way of signing in counts under the one ``sign-in:`` key."""

from __future__ import annotations

import math

from fastapi import HTTPException

from services.gateway.signups import SignupLimit, counter_for
from services.gateway.state import Gateway


def sign_in_limit(gw: Gateway) -> SignupLimit:
    settings = gw.settings
    return SignupLimit(
        counter_for(gw.store),
        settings.sign_in_attempts,
        settings.sign_in_period_minutes * 60,
        gw.sessions.wall_clock,
    )


async def admit(limit: SignupLimit, key: str, refusal: str) -> None:
    """Count one try under ``key``; past the limit, a 429 that says ``refusal`` and when to
    try again (a whole period on: the counts are of a sliding window)."""
    if not await limit.admit(key):
        raise HTTPException(429, refusal, headers={"Retry-After": str(math.ceil(limit.period))})
