"""Regenerate ``tests/vectors/fairness_v1.json``: test vectors of ``swick-fair-v1``.

Run ``.venv/bin/python scripts/make_fairness_vectors.py`` from the repository root. The output is
deterministic; ``tests/test_fairness.py`` fails when the file differs from what this script
writes, and ``docs/fairness.md`` describes every field.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from shared import fairness
from shared.games.swick.cards import DECK, Card, code, parse

OUT = Path(__file__).resolve().parent.parent / "tests" / "vectors" / "fairness_v1.json"

Entropy = list[tuple[int, str]] | None


def _seed(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


ZERO = bytes(32)
ONES = b"\xff" * 32
COUNTING = bytes(range(32))

# (seed, purpose, hand, entropy, index) of each deck vector. ``None`` entropy: no context.
DECKS: tuple[tuple[bytes, str, int, Entropy, int], ...] = (
    (ZERO, "deal", 1, [(0, ""), (1, ""), (2, "")], 0),
    (ONES, "deal", 1, [(0, "alpha"), (1, "beta"), (2, ""), (3, "delta")], 0),
    (
        COUNTING,
        "deal",
        2,
        [(0, "ünïcødé"), (1, "♠♥♦♣"), (2, "🂡"), (3, "日本語"), (4, "Ωmega"), (5, "")],
        0,
    ),
    (_seed("swick vector 4"), "deal", 7, [(5, ""), (0, "first"), (3, "b:c d")], 0),
    (_seed("swick vector 5"), "deal", 1000, [(1, "x" * 64), (2, "y"), (4, "z")], 0),
    (_seed("swick vector 6"), "deal", 3, [], 0),
    (ZERO, "recycle", 1, [(0, ""), (1, ""), (2, "")], 0),
    (_seed("swick vector 8"), "recycle", 3, [(0, "a"), (1, "b"), (2, "c"), (3, "d")], 1),
    (ONES, "recycle", 4_294_967_295, [(2, "max hand")], 2),
    (_seed("swick vector 10"), "recycle", 9, [(0, ""), (4, "é")], 4_294_967_295),
    (ZERO, "dealer", 0, None, 0),
    (_seed("swick vector 12"), "dealer", 0, None, 0),
)

# (seed, candidates) of each first-dealer vector.
FIRST_DEALERS: tuple[tuple[bytes, list[int]], ...] = (
    (ZERO, [0, 1, 2]),
    (ONES, [0, 1, 2, 3, 4, 5]),
    (COUNTING, [1, 3, 4]),
    (_seed("swick dealer 4"), [0, 2, 3, 5]),
    (_seed("swick dealer 5"), [0, 1, 2, 3]),
)

# (seed, purpose, hand, entropy, index, n, count) of each raw ``below`` vector.
BELOWS: tuple[tuple[bytes, str, int, Entropy, int, int, int], ...] = (
    (ZERO, "deal", 1, None, 0, 3, 24),
    (ONES, "deal", 1, None, 0, 5, 24),
    (COUNTING, "recycle", 2, [(0, "a")], 1, 7, 24),
    (ZERO, "dealer", 0, None, 0, 1, 4),
    (_seed("swick below 5"), "deal", 1, None, 0, 2**32, 8),
    # 2**32 % n == 2**31 - 1: about every other word is rejected.
    (ZERO, "deal", 1, None, 0, 2**31 + 1, 16),
    (_seed("swick below 7"), "deal", 5, [(0, ""), (1, ""), (2, "")], 0, 3 * 2**30, 16),
)

# (seed, seats, ante, entropy by seat) of each whole-hand vector: the first hand of a game.
HANDS: tuple[tuple[bytes, int, int, list[str]], ...] = (
    (_seed("swick hand 1"), 3, 3, ["", "", ""]),
    (_seed("swick hand 2"), 6, 15, ["dealer's luck", "", "ünïcødé", "🂡🂮", "", "x"]),
)


# The discards of a recycle vector (they are shuffled in card-number order).
DISCARDS = ("AS", "7C", "9C", "QD", "JD", "10H", "AH", "8S", "KS", "7H", "9D", "KC")


def context_of(entropy: Entropy) -> bytes:
    return fairness.NO_CONTEXT if entropy is None else fairness.entropy_digest(entropy)


def _entropy_json(entropy: Entropy) -> list[list[int | str]] | None:
    return None if entropy is None else [[seat, text] for seat, text in entropy]


def _codes(cards: Sequence[Card]) -> list[str]:
    return [code(card) for card in cards]


def raw_words(seed: bytes, purpose: str, hand: int, context: bytes, index: int) -> Iterator[int]:
    """The stream's 32-bit words, built from the block layout of ``docs/fairness.md``."""
    message = (
        b"swick-fair-v1\x00"
        + purpose.encode()
        + b"\x00"
        + hand.to_bytes(4, "big")
        + context
        + index.to_bytes(4, "big")
    )
    for counter in itertools.count():
        block = hmac.new(seed, message + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")


def _stream_json(
    kind: str, seed: bytes, purpose: str | None, hand: int, entropy: Entropy, index: int
) -> dict[str, Any]:
    """What names a vector's stream: its seed, its purpose (a recycled stock's is implied),
    its hand, the players' entropy with the context made of it, and its index."""
    named: dict[str, Any] = {"kind": kind, "seed": seed.hex()}
    if purpose is not None:
        named["purpose"] = purpose
    context = context_of(entropy).hex()
    return named | {
        "hand": hand,
        "entropy": _entropy_json(entropy),
        "context": context,
        "index": index,
    }


def deck_vector(
    seed: bytes, purpose: str, hand: int, entropy: Entropy, index: int
) -> dict[str, Any]:
    context = context_of(entropy)
    deck = fairness.shuffle(DECK, fairness.Stream(seed, purpose, hand, context, index))
    return _stream_json("deck", seed, purpose, hand, entropy, index) | {"deck": _codes(deck)}


def recycle_vector(seed: bytes, hand: int, entropy: Entropy, index: int) -> dict[str, Any]:
    """A recycled stock: discards sorted by card number, shuffled with purpose "recycle"."""
    context = context_of(entropy)
    discards = sorted(parse(text) for text in DISCARDS)
    stream = fairness.Stream(seed, "recycle", hand, context, index)
    return _stream_json("recycle", seed, None, hand, entropy, index) | {
        "discards": _codes(discards),
        "recycled": _codes(fairness.shuffle(discards, stream)),
    }


def first_dealer_vector(seed: bytes, candidates: list[int]) -> dict[str, Any]:
    return {
        "kind": "first_dealer",
        "seed": seed.hex(),
        "candidates": candidates,
        "first_dealer": fairness.choose_first_dealer(seed, candidates),
    }


def below_vector(
    seed: bytes, purpose: str, hand: int, entropy: Entropy, index: int, n: int, count: int
) -> dict[str, Any]:
    context = context_of(entropy)
    stream = fairness.Stream(seed, purpose, hand, context, index)
    values = [stream.below(n) for _ in range(count)]
    # The words those draws consumed: rejection sampling over the raw stream.
    limit = 2**32 - 2**32 % n
    words: list[int] = []
    accepted: list[int] = []
    source = raw_words(seed, purpose, hand, context, index)
    while len(accepted) < count:
        words.append(next(source))
        if words[-1] < limit:
            accepted.append(words[-1] % n)
    assert accepted == values, "fairness.Stream disagrees with the documented algorithm"
    return _stream_json("below", seed, purpose, hand, entropy, index) | {
        "n": n,
        "values": values,
        "words": words,
        "rejected": len(words) - len(values),
    }


def hand_vector(seed: bytes, seats: int, ante: int, texts: list[str]) -> dict[str, Any]:
    """The first hand of a game where every seat is present and rich: dealer, order and cards."""
    dealer = fairness.choose_first_dealer(seed, list(range(seats)))
    order = [(dealer + k) % seats for k in range(1, seats + 1)]
    entropy = [(seat, texts[seat]) for seat in order]
    context = fairness.entropy_digest(entropy)
    deck = fairness.shuffle(DECK, fairness.Stream(seed, "deal", 1, context))
    players = len(order)
    hands = [[seat, _codes(deck[i : 3 * players : players])] for i, seat in enumerate(order)]
    return {
        "kind": "hand",
        "seed": seed.hex(),
        "seats": seats,
        "ante": ante,
        "hand": 1,
        "dealer": dealer,
        "order": order,
        "entropy": [[seat, texts[seat]] for seat in range(seats)],
        "context": context.hex(),
        "hands": hands,
        "trump": code(deck[3 * players]),
        "stock": _codes(deck[3 * players + 1 :]),
    }


def build() -> list[dict[str, Any]]:
    vectors = [deck_vector(*args) for args in DECKS]
    vectors += [
        recycle_vector(seed, hand, entropy, index) for seed, _, hand, entropy, index in DECKS[6:10]
    ]
    vectors += [first_dealer_vector(*args) for args in FIRST_DEALERS]
    vectors += [below_vector(*args) for args in BELOWS]
    vectors += [hand_vector(*args) for args in HANDS]
    return vectors


def render() -> str:
    """The file's text: a JSON list, one vector a line."""
    lines = (json.dumps(vector, ensure_ascii=False) for vector in build())
    return "[\n" + ",\n".join(lines) + "\n]\n"


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(render(), encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
