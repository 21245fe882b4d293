"""Euchre tables over the real gateway, broker, table workers, ledger and bots."""

from __future__ import annotations

import random
from typing import Any

from shared.games.euchre.cards import code, parse
from shared.games.euchre.record import GameRecord, load_record, verify
from tests.services.client import Player, registered, signed_up
from tests.services.cluster import Cluster
from tests.services.ledger_books import caught_up, ledger_client
from tests.services.lobby import quick_play, settings_refused
from tests.services.play import (
    act,
    cards_in,
    ended,
    finished_with_bots,
    open_table,
    play,
    seen_at_least,
    two_and_bots,
)
from tests.services.records import checked_record

TARGET = 2  # a short game: a hand or two


def check_nothing_hidden(view: dict[str, Any], record: GameRecord) -> None:
    """A seat's view shows its own cards and the public ones, never another seat's hand, the
    kitty or another seat's discard."""
    assert "kitty" not in view
    seat, number = view["seat"], view["hand_no"]
    if number == 0 or seat is None:
        assert not view["hand"] and not view["discarded"]
    if number == 0:
        return
    hand = record.hands[number - 1]
    if view["discarded"]:
        assert seat == hand.dealer, "only the dealer sees their discard"
    public = {card for trick in (*view["played"], view["trick"]) for _, card in trick}
    own = set() if seat is None else {code(card) for card in hand.dealt[seat]}
    allowed = own | public | {code(hand.turn_up)}
    shown = {code(card) for card in cards_in(view, parse)}
    assert shown <= allowed, f"seat {seat} saw {shown - allowed} in hand {number}"


async def test_four_people_play_a_euchre_game_to_its_target(
    cluster: Cluster, four: list[Player]
) -> None:
    host = four[0]
    table = await open_table(four, game="euchre", target=TARGET)
    listed = await host.http("GET", f"/api/tables/{table}")
    assert listed.json()["game"] == "euchre" and listed.json()["target"] == TARGET
    assert listed.json()["timer_seconds"] == 30 and len(listed.json()["seats"]) == 4
    assert (await act(host, table, {"kind": "start_game"}))["type"] == "ack"
    view = host.views[table]
    assert view["game"] == "euchre" and view["phase"] == "order"
    await play(four, table, random.Random(11), ended)
    for player in four:
        view = await player.until(table, ended)
        assert max(view["scores"]) >= TARGET and view["winner"] is not None
        assert view["scores"][view["winner"]] >= TARGET
        assert view["seed"], "the seed is revealed when the game ends"
    record = await checked_record(four, table, load_record, check_nothing_hidden)
    verdict = verify(record)
    assert verdict.ok and verdict.hands == host.views[table]["hand_no"], verdict
    await no_chips_moved(cluster, table, four)


async def no_chips_moved(cluster: Cluster, table: str, players: list[Player]) -> None:
    """Euchre is played for points: the ledger applied the table's postings, its books match,
    and every player still holds the starting grant."""
    postings, report = await caught_up(cluster.settings, table)
    assert report["postings_applied"] >= postings and report["matches"], report
    async with ledger_client(cluster.settings) as ledger:
        for player in players:
            balance = (await ledger.get(f"/players/{player.id}/balance")).json()
            assert balance["balance"] == cluster.settings.starting_grant, balance
        assert (await ledger.get("/health")).status_code == 200


async def test_a_person_and_three_bots_play_a_euchre_game_to_its_end(cluster: Cluster) -> None:
    async with signed_up(cluster.base, "Solo") as (person,):
        out = await finished_with_bots(person, seed=5, game="euchre", target=TARGET)
        assert out["game"] == "euchre" and out["timer_seconds"] == 20 and out["antes"] == []
        table = out["id"]
        view = await person.until(table, ended)
        assert view["scores"][view["winner"]] >= TARGET
        assert [bool(s["player"]["bot"]) for s in view["seats"]] == [False, True, True, True]
        assert (await person.http("GET", f"/api/tables/{table}/games/1/record")).status_code == 200


async def test_quick_play_at_euchre_seats_three_bots(cluster: Cluster) -> None:
    person = await registered(cluster.base, "Quick")
    out = await quick_play(person, {"game": "euchre"})
    assert out["game"] == "euchre" and len(out["seats"]) == 4 and out["target"] == 10
    assert out["timer_seconds"] == 20 and out["in_progress"]
    assert [seat is not None for seat in out["seats"]] == [True] * 4
    # One person against three bots: nothing for others, so not in the lobby's list.
    assert (await person.http("GET", f"/api/tables/{out['id']}")).json()["game"] == "euchre"
    lobby = await person.http("GET", "/api/tables")
    assert out["id"] not in {t["id"] for t in lobby.json()}
    # Quick play as before (no body) still deals Swick, and its answer has no new field.
    out = await quick_play(await registered(cluster.base, "Classic"))
    assert out["game"] == "swick" and len(out["seats"]) == 3 and out["timer_seconds"] == 30
    assert set(out) == {
        "id",
        "game",
        "seats",
        "antes",
        "timer_seconds",
        "interlude_seconds",
        "private",
        "phase",
        "in_progress",
        "invite_code",
    }


async def test_unknown_games_and_settings_are_refused(cluster: Cluster) -> None:
    person = await registered(cluster.base, "Picky")
    for path, body, words in [
        ("/api/tables", {"game": "chess"}, ("chess", "swick", "euchre")),
        ("/api/quickplay", {"game": "chess"}, ("chess", "euchre")),
        ("/api/tables", {"game": "euchre", "seats": 5}, ("4 seats",)),
        ("/api/tables", {"game": "euchre", "antes": [3]}, ("antes",)),
        ("/api/tables", {"game": "euchre", "target": 11}, ("1 to 10 points",)),
        ("/api/tables", {"target": 5}, ("Swick", "target")),
    ]:
        await settings_refused(person, path, body, words)
    assert (await person.http("GET", "/api/me")).json()["seated"] is None


async def test_out_of_turn_unseated_and_illegal_moves_are_refused_with_reasons(
    cluster: Cluster, four: list[Player]
) -> None:
    host = four[0]
    table = await open_table(four, game="euchre", target=TARGET)
    async with signed_up(cluster.base, "Watcher") as (watcher,):
        await watcher.watch(table)
        assert (await act(host, table, {"kind": "start_game"}))["type"] == "ack"
        view = await host.until(table, lambda v: v["phase"] == "order")
        waiting = [p for p in four if not p.my_turn(table)]
        answer = await act(waiting[0], table, {"kind": "pass"})
        assert answer["code"] == "not_your_turn" and "not your turn" in answer["message"]
        answer = await act(watcher, table, {"kind": "pass"})
        assert answer["type"] == "reject" and answer["code"] in ("not_seated", "not_watching")
        assert (await act(host, table, {"kind": "play", "card": "1X"}))["code"] == "malformed"

        mover = next(p for p in four if p.my_turn(table))
        card = mover.views[table]["hand"][0]
        answer = await act(mover, table, {"kind": "discard", "card": card})
        assert answer["code"] == "wrong_phase" and "first round" in answer["message"]

        # Play on until a move the mover's view lists as not legal, then make it.
        rng = random.Random(3)
        for _ in range(400):
            movers = [p for p in four if p.my_turn(table)]
            if not movers:
                await host.wait(lambda: any(p.my_turn(table) for p in four))
                continue
            mover = movers[0]
            view = mover.views[table]
            illegal = [o for o in view["options"] if not o["legal"]]
            if illegal:
                answer = await act(mover, table, illegal[0]["action"])
                assert answer["type"] == "reject", answer
                assert answer["code"] in ("illegal_card", "turned_down", "stick_the_dealer")
                assert answer["message"] == illegal[0]["reason"]
                break
            legal = [o["action"] for o in view["options"] if o["legal"]]
            assert (await act(mover, table, rng.choice(legal)))["type"] == "ack"
            await mover.until(table, seen_at_least(view["seq"] + 1))
        else:
            raise AssertionError("no move was ever illegal")


async def test_a_seat_left_empty_takes_a_bot_and_the_game_plays_on(
    cluster: Cluster, players: list[Player]
) -> None:
    host, bob = players[0], players[1]
    body = {"game": "euchre", "target": 1, "bots": {"2": "easy", "3": "hard"}}
    table = await two_and_bots(host, bob, body)
    assert (await act(bob, table, {"kind": "leave"}))["type"] == "ack"
    await host.until(table, lambda v: v["seats"][1]["player"] is None)
    added = await act(host, table, {"kind": "add_bot", "seat": 1, "bot": "medium"})
    assert added["type"] == "ack", added
    view = await host.until(table, lambda v: v["seats"][1]["player"] is not None)
    assert view["seats"][1]["player"]["bot"] == "medium"
    assert (await act(host, table, {"kind": "start_game"}))["type"] == "ack"
    await play([host], table, random.Random(8), ended, within=60)
    view = await host.until(table, ended)
    assert view["scores"][view["winner"]] >= 1
