"""Passkeys over HTTP: a signed-in player adds and removes theirs, and anyone signs in with one,
no name asked (``passkey_ceremonies.py`` runs the WebAuthn ceremonies).

Every failed sign-in answers the same 401, whatever failed (an unknown passkey, a used or
expired ticket, a bad signature, a cloned authenticator, a deleted account), so nothing tells
whether an account or a passkey exists. Sign-in attempts are counted in the shared database
(``signups.SignupLimit``) per client address and per account, as the other ways of signing in
again count theirs: ``settings.sign_in_attempts`` per ``settings.sign_in_period_minutes``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Request, Response
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field

from services.gateway.guesses import client_address
from services.gateway.limits import AddressRate
from services.gateway.models import PlayerOut, Strict
from services.gateway.passkey_ceremonies import Ceremonies, NotSignedIn, PasskeyRefused
from services.gateway.passkeys import Passkey
from services.gateway.sign_in_limits import admit, sign_in_limit
from services.gateway.signed_in import SignedIn, signed_in_account
from services.gateway.signing_in import SIGN_IN_FAILED, sign_in
from services.gateway.signups import SignupLimit
from services.gateway.state import Gateway, gateway_of

MAX_LABEL = 40
BASE64URL = r"^[A-Za-z0-9_-]*$"  # the WebAuthn JSON forms' binary fields, unpadded
WORD = r"^[a-z-]*$"  # their names: public-key, platform, internal, ...
MAX_CREDENTIAL_ID = 1400  # base64url of WebAuthn's longest credential id (1023 bytes)
# Sign-in options one client address may ask for (each keeps a challenge for a few minutes).
OPTIONS_PER_SECOND = 1.0
OPTIONS_BURST = 30

PasskeyId = Annotated[
    str,
    PathParam(pattern=f"^[A-Za-z0-9_-]{{1,{MAX_CREDENTIAL_ID}}}$", description="a passkey's id"),
]


class PasskeyOut(BaseModel):
    id: str = Field(description="The credential's id (base64url)")
    label: str
    created_at: int = Field(description="ms since the epoch")
    last_used_at: int | None = Field(description="Its last sign-in (ms since the epoch)")
    backed_up: bool = Field(description="Synced by a passkey provider, so a lost device keeps it")


def passkey_out(passkey: Passkey) -> PasskeyOut:
    """What a player sees of a passkey: its fields of those names (not its public key)."""
    return PasskeyOut.model_validate(passkey, from_attributes=True)


class OptionsOut(BaseModel):
    ticket: str = Field(description="Hand it back with the browser's answer")
    options: dict[str, Any] = Field(
        description="For navigator.credentials (the WebAuthn options' JSON form)"
    )


class _Answer(BaseModel):
    """A bounded WebAuthn JSON form (a browser's ``toJSON()`` adds fields not needed here:
    they are dropped)."""

    model_config = ConfigDict(strict=True, extra="ignore", populate_by_name=True)


def _b64url(max_length: int) -> Any:
    return Field(pattern=BASE64URL, max_length=max_length)


def _b64url_or_none(alias: str, max_length: int) -> Any:
    return Field(None, alias=alias, pattern=BASE64URL, max_length=max_length)


class ResponseJSON(_Answer):
    client_data_json: str = Field(alias="clientDataJSON", pattern=BASE64URL, max_length=4096)
    attestation_object: str | None = _b64url_or_none("attestationObject", 65_536)
    authenticator_data: str | None = _b64url_or_none("authenticatorData", 4096)
    signature: str | None = _b64url_or_none("signature", 1024)
    user_handle: str | None = _b64url_or_none("userHandle", 128)
    transports: list[Annotated[str, Field(pattern=WORD, max_length=32)]] | None = Field(
        None, max_length=8
    )


class CredentialJSON(_Answer):
    id: str = _b64url(MAX_CREDENTIAL_ID)
    raw_id: str = Field(alias="rawId", pattern=BASE64URL, max_length=MAX_CREDENTIAL_ID)
    type: str = Field(pattern=WORD, max_length=16)
    response: ResponseJSON
    authenticator_attachment: str | None = Field(
        None, alias="authenticatorAttachment", pattern=WORD, max_length=32
    )

    def as_json(self) -> dict[str, Any]:
        return self.model_dump(by_alias=True, exclude_none=True)


class NewPasskey(Strict):
    ticket: str = _b64url(64)
    credential: CredentialJSON
    label: str | None = Field(default=None, max_length=MAX_LABEL)


class PasskeySignIn(Strict):
    ticket: str = _b64url(64)
    credential: CredentialJSON


def ceremonies(gw: Gateway) -> Ceremonies:
    """The ceremonies on the gateway's passkeys, its settings and its clock."""
    settings = gw.settings
    return Ceremonies(
        gw.passkeys, settings.passkey_rp_id, settings.passkey_origins, gw.sessions.wall_clock
    )


async def _admit(limit: SignupLimit, key: str) -> None:
    """Count one sign-in attempt of ``key`` (an address, an account)."""
    minutes = limit.period / 60
    refusal = (
        f"Too many attempts to sign in: at most {limit.limit} every {minutes:g} minutes."
        " Wait a while and try again."
    )
    await admit(limit, f"sign-in:{key}", refusal)


def label_of(label: str | None) -> str:
    """The passkey's name as the player gave it (trimmed), ``Passkey`` if none."""
    label = " ".join((label or "").split())
    if not label.isprintable():
        raise HTTPException(422, "label: letters, digits and punctuation only")
    return label or "Passkey"


def add_passkey_routes(app: FastAPI) -> None:
    """``/api/account/passkeys`` and ``/api/sign-in/passkey``."""
    options_rate = AddressRate(OPTIONS_PER_SECOND, OPTIONS_BURST)

    @app.post(
        "/api/account/passkeys/options",
        response_model=OptionsOut,
        summary="Start adding a passkey: options for navigator.credentials.create()",
    )
    async def passkey_options(player: SignedIn) -> OptionsOut:
        gw = gateway_of(app)
        account = await signed_in_account(gw, player.id)
        try:
            ticket, options = await ceremonies(gw).registration_options(
                account.id, account.handle, account.name
            )
        except PasskeyRefused as refused:
            raise HTTPException(409, str(refused)) from None
        return OptionsOut(ticket=ticket, options=options)

    @app.post(
        "/api/account/passkeys",
        response_model=PasskeyOut,
        summary="Finish adding a passkey: the browser's answer to the options",
    )
    async def add_passkey(body: NewPasskey, player: SignedIn, request: Request) -> PasskeyOut:
        """The ticket serves once, for 5 minutes: a refused answer needs new options."""
        gw = gateway_of(app)
        label = label_of(body.label)
        account = await signed_in_account(gw, player.id)
        try:
            passkey = await ceremonies(gw).register(
                account.id,
                body.ticket,
                body.credential.as_json(),
                label,
                request.headers.get("origin"),
            )
        except PasskeyRefused as refused:
            raise HTTPException(400, str(refused)) from None
        return passkey_out(passkey)

    @app.delete(
        "/api/account/passkeys/{passkey_id}",
        status_code=204,
        summary="Remove one of your passkeys: it signs in no more",
    )
    async def remove_passkey(passkey_id: PasskeyId, player: SignedIn) -> Response:
        if not await gateway_of(app).passkeys.remove(player.id, passkey_id):
            raise HTTPException(404, "No passkey of yours has that id")
        return Response(status_code=204)

    @app.post(
        "/api/sign-in/passkey/options",
        response_model=OptionsOut,
        summary="Start signing in with a passkey: options for navigator.credentials.get()",
    )
    async def sign_in_options(request: Request) -> OptionsOut:
        """No passkey is named: the browser offers those it holds for this site."""
        address = client_address(request.client) or "unknown"
        if not options_rate.take(address):
            raise HTTPException(
                429,
                "Too many sign-ins started from your address: wait a little",
                headers={"Retry-After": str(options_rate.retry_after(address))},
            )
        ticket, options = await ceremonies(gateway_of(app)).sign_in_options()
        return OptionsOut(ticket=ticket, options=options)

    @app.post(
        "/api/sign-in/passkey",
        response_model=PlayerOut,
        summary="Sign in with a passkey: the browser's answer to the sign-in options",
    )
    async def sign_in_with_passkey(body: PasskeySignIn, request: Request) -> PlayerOut:
        """The passkey's account, on a new device of it; 401 with one message for every
        failure, 429 when this address or that account used up its attempts."""
        gw = gateway_of(app)
        limit = sign_in_limit(gw)
        await _admit(limit, client_address(request.client) or "unknown")
        passkeys = ceremonies(gw)
        try:
            answer = await passkeys.answer(body.ticket, body.credential.as_json())
            await _admit(limit, answer.passkey.account_id)
            passkey = await passkeys.check(answer, request.headers.get("origin"))
            account = await gw.accounts.get(passkey.account_id)
            if account is None:
                raise NotSignedIn("the account was deleted")
        except NotSignedIn:
            raise HTTPException(401, SIGN_IN_FAILED) from None
        return await sign_in(gw, request, account, "passkey")
