"""One's own account: who it is, its name, and the devices signed in to it; and the handles
the table shows where two players share a display name."""

from __future__ import annotations

from typing import Annotated

from fastapi import FastAPI, HTTPException, Query, Request, Response
from fastapi import Path as PathParam
from pydantic import BaseModel, Field

from services.gateway.accounts import NameCrowded
from services.gateway.identity import Identity, check_name
from services.gateway.models import NewPlayer, PlayerOut
from services.gateway.routes_codes import codes_of
from services.gateway.routes_passkeys import PasskeyOut, passkey_out
from services.gateway.signed_in import SIGN_IN_FIRST, SignedInClaims, signed_in_account
from services.gateway.signing_in import player_out
from services.gateway.state import gateway_of
from shared.ids import is_account_id

MAX_HANDLES = 50  # ids one handles request may name (a table and its watchers)
DeviceId = Annotated[str, PathParam(pattern=r"^d-[0-9a-f]{16}$", description="a device's id")]


class DeviceOut(BaseModel):
    id: str
    kind: str = Field(description="The browser and system: Firefox on Android")
    how: str = Field(description="How it signed in: new, passkey, link, recovery, kept")
    where: str = Field(description="The address it signed in from")
    created_at: int = Field(description="When it signed in (ms since the epoch)")
    last_seen: int
    signed_out_at: int | None = None
    current: bool = Field(description="The device asking")


class AccountOut(BaseModel):
    id: str
    name: str
    handle: str
    created_at: int
    passkeys: list[PasskeyOut]
    recovery_codes_left: int = Field(description="Your recovery codes not used yet")
    devices: list[DeviceOut]


class HandleOut(BaseModel):
    handle: str
    key: str = Field(description="Equal for two names that read alike (case, look-alikes)")


def add_account_routes(app: FastAPI) -> None:
    """``/api/account`` and its devices, ``/api/handles``."""

    @app.get("/api/account", response_model=AccountOut, summary="Your account and devices")
    async def account(claims: SignedInClaims) -> AccountOut:
        gw = gateway_of(app)
        mine = await signed_in_account(gw, claims.identity.id)
        devices = await gw.sessions.devices.of(mine.id, gw.sessions.now_ms())
        return AccountOut(
            id=mine.id,
            name=mine.name,
            handle=mine.handle,
            created_at=mine.created_at,
            passkeys=[passkey_out(p) for p in await gw.passkeys.of(mine.id)],
            recovery_codes_left=await codes_of(app).recovery.left(mine.id),
            devices=[
                DeviceOut(
                    id=d.id,
                    kind=d.kind,
                    how=d.how,
                    where=d.address,
                    created_at=d.created_at,
                    last_seen=d.last_seen,
                    signed_out_at=d.revoked_at,
                    current=d.id == claims.session,
                )
                for d in devices
            ],
        )

    @app.patch("/api/account", response_model=PlayerOut, summary="Change your display name")
    async def rename(body: NewPlayer, claims: SignedInClaims) -> PlayerOut:
        """Your handle keeps its tag when no one else has it with the new name. Tables you sit
        at keep the name you sat down with until you sit again."""
        gw = gateway_of(app)
        try:
            name = check_name(body.name)
            renamed = await gw.accounts.rename(claims.identity.id, name)
        except (ValueError, NameCrowded) as error:
            raise HTTPException(422, str(error)) from None
        if renamed is None:
            raise HTTPException(401, SIGN_IN_FIRST)
        token = gw.tokens.resign(claims, Identity(renamed.id, renamed.name))
        return await player_out(gw, renamed, token)

    @app.delete(
        "/api/account/devices/{device_id}",
        status_code=204,
        summary="Sign one of your devices out: its sockets close, its token opens nothing",
    )
    async def sign_device_out(device_id: DeviceId, claims: SignedInClaims) -> Response:
        gw = gateway_of(app)
        if not await gw.sessions.sign_out(claims.identity.id, device_id):
            raise HTTPException(404, "No device of yours is signed in with that id")
        return Response(status_code=204)

    @app.post("/api/account/sign-out", status_code=204, summary="Sign this device out")
    async def sign_out(claims: SignedInClaims) -> Response:
        gw = gateway_of(app)
        if claims.session:
            await gw.sessions.sign_out(claims.identity.id, claims.session)
        else:  # a token from before devices: nothing names it but its version
            await gw.sessions.revoke(claims.identity.id)
        return Response(status_code=204)

    @app.get(
        "/api/handles",
        response_model=dict[str, HandleOut],
        summary="The handles of some players, to tell apart two who share a display name",
    )
    async def handles(
        request: Request, ids: Annotated[str, Query(max_length=MAX_HANDLES * 101)] = ""
    ) -> dict[str, HandleOut]:
        wanted = [i for i in dict.fromkeys(ids.split(",")) if i]
        if len(wanted) > MAX_HANDLES or not all(is_account_id(i) for i in wanted):
            raise HTTPException(422, f"ids: at most {MAX_HANDLES} player ids, separated by commas")
        found = await gateway_of(app).accounts.many(wanted)
        return {i: HandleOut(handle=a.handle, key=a.key) for i, a in found.items()}
