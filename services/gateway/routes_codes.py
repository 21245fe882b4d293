"""The one-time codes' routes: a signed-in device's link code for a new device, an account's
recovery codes, and signing in with either (docs/accounts.md).

Every refused code gets the one answer, a 401 with ``SIGN_IN_FAILED``, whether it was not a
code, unknown, expired or used, so nothing tells whether a code or an account exists. Tries
are counted per client address, every try alike (``SignupLimit``, in the database all the
gateways share, under the key the passkeys' sign-in counts under too): right or wrong, at most
``settings.sign_in_attempts`` each ``settings.sign_in_period_minutes``, then 429. (There is no
count per account: a code names its account only once it is right.) Making link codes is
counted per address the same way.
"""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import segno
from fastapi import FastAPI, HTTPException, Request
from pydantic import BaseModel, Field

from services.gateway.guesses import client_address
from services.gateway.link_codes import LinkCodes, link_code_store_for
from services.gateway.models import PlayerOut, Strict
from services.gateway.recovery_codes import RecoveryCodes, recovery_code_store_for
from services.gateway.sign_in_limits import admit, sign_in_limit
from services.gateway.signed_in import SignedInClaims, signed_in_account
from services.gateway.signing_in import SIGN_IN_FAILED, sign_in
from services.gateway.state import Gateway, gateway_of

Redeem = Callable[[str], Awaitable[str | None]]  # a typed code's account, if it is good

MAX_TYPED = 64  # characters of a typed code: a recovery code's 19, with room for spaces


class LinkOut(BaseModel):
    code: str = Field(description="The code to enter on the new device: K7QF-9M2X")
    url: str = Field(description="The page that enters it, for the new device to open")
    qr_svg: str = Field(description="The url as a QR code, an SVG image")
    expires_at: int = Field(description="When the code stops working (ms since the epoch)")


class RecoveryCodesOut(BaseModel):
    codes: list[str] = Field(description="Ten one-time codes, shown this once: keep them safe")


class TypedCode(Strict):
    code: str = Field(max_length=MAX_TYPED, description="The code as typed: case and dashes aside")


@dataclass(frozen=True)
class Codes:
    """The link codes and recovery codes of one running gateway, on its clock."""

    gateway: Gateway
    links: LinkCodes
    recovery: RecoveryCodes

    @classmethod
    def of(cls, gw: Gateway) -> Codes:
        def clock() -> float:  # the gateway's wall clock, whichever it is at each use
            return gw.sessions.wall_clock()

        links = LinkCodes(
            link_code_store_for(gw.store),
            gw.settings.secret,
            gw.settings.link_code_minutes * 60,
            clock,
        )
        return cls(gw, links, RecoveryCodes(recovery_code_store_for(gw.store), clock))


def codes_of(app: FastAPI) -> Codes:
    """The running gateway's codes (made on first use: their stores live in its database, or
    in its memory, which must then last as long as it does)."""
    gw = gateway_of(app)
    codes: Codes | None = getattr(app.state, "codes", None)
    if codes is None or codes.gateway is not gw:
        codes = Codes.of(gw)
        app.state.codes = codes
    return codes


async def throttle(gw: Gateway, request: Request, what: str) -> None:
    """Count one try of ``what`` from the request's address; 429 past the limit."""
    limit = sign_in_limit(gw)
    address = client_address(request.client) or "unknown"
    minutes = limit.period / 60
    refusal = f"Too many tries from your address: wait {minutes:g} minutes and try again"
    await admit(limit, f"{what}:{address}", refusal)


def qr_svg(url: str) -> str:
    """``url`` as a QR code: an SVG image, dark on light whatever the page's colours."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out, kind="svg", xmldecl=False, nl=False, scale=4, light="#fff", title="QR code"
    )
    return out.getvalue().decode()


def add_code_routes(app: FastAPI) -> None:
    """``/api/account/link``, ``/api/account/recovery-codes``, ``/api/sign-in/link`` and
    ``/api/sign-in/recovery``."""

    async def sign_in_with_code(
        body: TypedCode, request: Request, redeem: Redeem, how: str
    ) -> PlayerOut:
        """Sign in to the account whose code ``body`` holds (``redeem`` finds it, if any)."""
        gw = gateway_of(app)
        await throttle(gw, request, "sign-in")
        account_id = await redeem(body.code)
        account = None if account_id is None else await gw.accounts.get(account_id)
        if account is None:  # a deleted account's code is as good as none
            raise HTTPException(401, SIGN_IN_FAILED)
        return await sign_in(gw, request, account, how)

    async def linked_account(typed: str) -> str | None:
        linked = await codes_of(app).links.redeem(typed)
        # A code shown by a device signed out since (a stolen one, say) joins nobody.
        if linked is None or await gateway_of(app).sessions.signed_out(linked.device_id):
            return None
        return linked.account_id

    @app.post(
        "/api/account/link",
        response_model=LinkOut,
        summary="A one-time code that signs a new device in to your account",
    )
    async def link(request: Request, claims: SignedInClaims) -> LinkOut:
        """Good once, for ``SWICK_LINK_CODE_MINUTES``; asking again replaces this device's
        earlier code."""
        gw = gateway_of(app)
        await throttle(gw, request, "link-code")
        # A token from before devices names none: its account stands for it.
        device = claims.session or claims.identity.id
        issued = await codes_of(app).links.issue(claims.identity.id, device)
        url = f"{request.url.scheme}://{request.url.netloc}/#/link/{issued.code}"
        return LinkOut(code=issued.code, url=url, qr_svg=qr_svg(url), expires_at=issued.expires_at)

    @app.post(
        "/api/sign-in/link",
        response_model=PlayerOut,
        summary="Sign this device in with a code another of your devices shows",
    )
    async def sign_in_with_link(body: TypedCode, request: Request) -> PlayerOut:
        return await sign_in_with_code(body, request, linked_account, "link")

    @app.post(
        "/api/account/recovery-codes",
        response_model=RecoveryCodesOut,
        summary="Ten new recovery codes, in place of any earlier ones",
    )
    async def recovery_codes(claims: SignedInClaims) -> RecoveryCodesOut:
        """Each signs you in once, from any device; they are shown only now."""
        mine = await signed_in_account(gateway_of(app), claims.identity.id)
        return RecoveryCodesOut(codes=await codes_of(app).recovery.generate(mine.id))

    @app.post(
        "/api/sign-in/recovery",
        response_model=PlayerOut,
        summary="Sign in with one of your recovery codes (it works once)",
    )
    async def sign_in_with_recovery(body: TypedCode, request: Request) -> PlayerOut:
        return await sign_in_with_code(body, request, codes_of(app).recovery.redeem, "recovery")
