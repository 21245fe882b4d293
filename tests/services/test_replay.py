"""Replays of finished games over the real gateway, broker, table workers and bots."""

from __future__ import annotations

from typing import Any

import httpx

from shared.games.contract_whist import cards as whist_cards
from shared.games.contract_whist.record import load_record as load_whist_record
from shared.games.euchre import cards as euchre_cards
from shared.games.euchre.record import load_record as load_euchre_record
from shared.games.swick import cards as swick_cards
from shared.games.swick.record import load_record as load_swick_record
from tests.services.client import Player, registered, signed_up
from tests.services.cluster import Cluster
from tests.services.play import ended, finished_with_bots, started
from tests.services.test_game_play import end_after_two_hands


async def finish_with_bots(person: Player, **settings: Any) -> str:
    """A table of the person and three bots, started at once and played to its end: its id."""
    return str((await finished_with_bots(person, **settings))["id"])


def check_frames(replay: dict[str, Any], game: str, table: str) -> list[dict[str, Any]]:
    assert replay["game"] == game and replay["table_id"] == table and replay["game_no"] == 1
    assert len(replay["seats"]) == 4 and replay["seats"][0] == "Watcher"
    frames: list[dict[str, Any]] = replay["frames"]
    seqs = [frame["seq"] for frame in frames]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs) and len(frames) > 10
    assert [frame["view"]["seq"] for frame in frames] == seqs
    assert frames[0]["view"]["phase"] != "lobby" and frames[0]["view"]["seed"] is None
    assert frames[-1]["view"]["phase"] == "ended" and frames[-1]["view"]["seed"]
    assert all(frame["view"]["seat"] is None and len(frame["hands"]) == 4 for frame in frames)
    return frames


async def test_a_euchre_replay_shows_every_hand_as_dealt(cluster: Cluster) -> None:
    async with signed_up(cluster.base, "Watcher") as (person,):
        table = await finish_with_bots(person, game="euchre", target=1)
        record = load_euchre_record(
            (await person.http("GET", f"/api/tables/{table}/games/1/record")).json()
        )
        reply = await person.http("GET", f"/api/tables/{table}/games/1/replay")
        assert reply.status_code == 200, reply.text
        assert reply.headers["content-type"].startswith("application/json")
        assert reply.headers.get("content-encoding") == "gzip"  # httpx asks for gzip
        frames = check_frames(reply.json(), "euchre", table)
        whole_deals = set()
        for frame in frames:
            number = frame["view"]["hand_no"]
            if number == 0:
                continue
            hand = record.hands[number - 1]
            for seat, cards in enumerate(frame["hands"]):
                dealt = {euchre_cards.code(card) for card in hand.dealt[seat]}
                if seat == hand.dealer and hand.taken:
                    dealt.add(euchre_cards.code(hand.turn_up))
                assert set(cards) <= dealt, (frame["seq"], seat, cards, dealt)
            if all(
                sorted(cards) == sorted(euchre_cards.code(c) for c in hand.dealt[seat])
                for seat, cards in enumerate(frame["hands"])
            ):
                whole_deals.add(number)
        assert whole_deals == set(range(1, len(record.hands) + 1)), "each deal is shown whole"
        # Not ended (never begun): refused, and clearly.
        missing = await person.http("GET", f"/api/tables/{table}/games/2/replay")
        assert missing.status_code == 404 and "not ended" in missing.json()["detail"]
        # Without gzip, the same document uncompressed; asked again, the same bytes.
        async with httpx.AsyncClient(base_url=cluster.base) as http:
            plain = await http.get(
                f"/api/tables/{table}/games/1/replay", headers={"accept-encoding": "identity"}
            )
        assert plain.status_code == 200 and "content-encoding" not in plain.headers
        assert plain.content == reply.content  # httpx decoded the gzip
        again = await person.http("GET", f"/api/tables/{table}/games/1/replay")
        assert again.content == reply.content


async def test_a_private_contract_whist_replay_is_for_its_players(cluster: Cluster) -> None:
    stranger = await registered(cluster.base, "Stranger")
    async with signed_up(cluster.base, "Watcher") as (person,):
        table = await finish_with_bots(person, game="contract-whist", rounds=1, private=True)
        record = load_whist_record(
            (await person.http("GET", f"/api/tables/{table}/games/1/record")).json()
        )
        reply = await person.http("GET", f"/api/tables/{table}/games/1/replay")
        assert reply.status_code == 200, reply.text
        frames = check_frames(reply.json(), "contract-whist", table)
        for frame in frames:
            number = frame["view"]["round_no"]
            if number == 0:
                continue
            dealt = record.rounds[number - 1].dealt
            for seat, cards in enumerate(frame["hands"]):
                assert set(cards) <= {whist_cards.code(card) for card in dealt[seat]}
        assert [sorted(cards) for cards in frames[0]["hands"]] == [
            sorted(whist_cards.code(card) for card in dealt) for dealt in record.rounds[0].dealt
        ], "the first frame is the first deal"
        assert not any(frames[-1]["hands"]), "every card was played by the end"
        refused = await stranger.http("GET", f"/api/tables/{table}/games/1/replay")
        assert refused.status_code == 404 and "players" in refused.json()["detail"]
        async with httpx.AsyncClient(base_url=cluster.base) as http:
            anonymous = await http.get(f"/api/tables/{table}/games/1/replay")
        assert anonymous.status_code == 404


async def test_a_swick_replay_ended_by_its_host(cluster: Cluster, players: list[Player]) -> None:
    alice = players[0]
    table = await started(players)
    running = await alice.http("GET", f"/api/tables/{table}/games/1/replay")
    assert running.status_code == 404 and "not ended" in running.json()["detail"]
    await end_after_two_hands(players, table)
    await alice.until(table, ended)
    record = load_swick_record(
        (await alice.http("GET", f"/api/tables/{table}/games/1/record")).json()
    )
    reply = await alice.http("GET", f"/api/tables/{table}/games/1/replay")
    assert reply.status_code == 200, reply.text
    replay = reply.json()
    assert replay["game"] == "swick" and replay["seats"] == ["Alice", "Bob", "Carol"]
    frames = replay["frames"]
    assert [f["seq"] for f in frames] == sorted({f["seq"] for f in frames})
    assert frames[0]["view"]["seed"] is None and frames[-1]["view"]["phase"] == "ended"
    assert frames[-1]["seq"] == alice.views[table]["seq"]
    shown = 0
    for frame in frames:
        number = frame["view"]["hand_no"]
        if number == 0 or number > len(record.hands):
            continue
        hand = record.hands[number - 1]
        for seat, cards in enumerate(frame["hands"]):
            if seat not in hand.order:
                assert not [c for c in cards if c], "a seat out of the hand holds nothing"
                continue
            held = set(hand.dealt[hand.order.index(seat)]) | {hand.trump_card}
            for draw in hand.draws:
                if draw.seat == seat:
                    held |= set(draw.drawn)
            allowed = {swick_cards.code(card) for card in held}
            assert {c for c in cards if c} <= allowed, (frame["seq"], seat, cards, allowed)
            shown += sum(1 for c in cards if c)
    assert shown > 0
