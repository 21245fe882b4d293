"""Provably fair randomness, algorithm ``swick-fair-v1``.

Every random choice of a game comes from one secret 32-byte seed, published as its SHA-256
fingerprint when the game starts and revealed when it ends. A choice is a stream of 32-bit words
cut from HMAC-SHA256 blocks::

    block(i) = HMAC-SHA256(key=seed, msg=b"swick-fair-v1" 0x00 purpose 0x00
                            hand (4 bytes, big-endian) context (32 bytes) index (4 bytes)
                            i (8 bytes, big-endian))

``purpose`` is ``b"dealer"``, ``b"deal"`` or ``b"recycle"``; ``context`` is the entropy digest
of the hand (32 zero bytes where there is none); ``index`` counts the recycles of a hand (0 for
the deal). A number below ``n`` is drawn by rejection sampling, so there is no modulo bias: take
the next word ``x``, reject it while ``x >= 2**32 - 2**32 % n``, then answer ``x % n``. A shuffle
is Fisher-Yates from the top index down: for ``i`` from ``n - 1`` to 1, swap ``i`` with
``below(i + 1)``.

This module is pure: the caller brings the seed (see ``new_seed``, used only at the edges).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from collections.abc import Sequence
from typing import TypeVar

ALGORITHM = "swick-fair-v1"
SEED_BYTES = 32
NO_CONTEXT = bytes(32)
_PREFIX = ALGORITHM.encode() + b"\x00"
_WORD_SPACE = 1 << 32
_BLOCKS_PER_REFILL = 4
_REFILL_WORDS = struct.Struct(f">{8 * _BLOCKS_PER_REFILL}I")

T = TypeVar("T")


def new_seed() -> bytes:
    """A fresh game seed from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def fingerprint(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256, in hex."""
    return hashlib.sha256(seed).hexdigest()


def entropy_digest(contributions: Sequence[tuple[int, str]]) -> bytes:
    """Mix the players' optional entropy: SHA-256 over ``"{seat}:{text}\\n"`` in seat order.

    Every dealt-in seat is listed, with an empty text where the player gave none.
    """
    lines = "".join(f"{seat}:{text}\n" for seat, text in sorted(contributions))
    return hashlib.sha256(lines.encode()).digest()


class Stream:
    """Uniform integers drawn from the HMAC-SHA256 counter stream of one purpose."""

    __slots__ = ("_counter", "_key", "_message", "_position", "_words")

    def __init__(
        self, seed: bytes, purpose: str, hand: int, context: bytes = NO_CONTEXT, index: int = 0
    ) -> None:
        if len(context) != 32:
            raise ValueError("context must be 32 bytes")
        self._key = seed
        self._message = (
            _PREFIX
            + purpose.encode()
            + b"\x00"
            + hand.to_bytes(4, "big")
            + context
            + index.to_bytes(4, "big")
        )
        self._counter = 0
        self._words: tuple[int, ...] = ()
        self._position = 0

    def _refill(self) -> None:
        """The next blocks of the stream: four at a time, enough for one 32-card shuffle."""
        key, message, first = self._key, self._message, self._counter
        blocks = b"".join(
            hmac.digest(key, message + counter.to_bytes(8, "big"), "sha256")
            for counter in range(first, first + _BLOCKS_PER_REFILL)
        )
        self._counter = first + _BLOCKS_PER_REFILL
        self._words = _REFILL_WORDS.unpack(blocks)
        self._position = 0

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if not 0 < n <= _WORD_SPACE:
            raise ValueError("n out of range")
        limit = _WORD_SPACE - _WORD_SPACE % n
        while True:
            if self._position == len(self._words):
                self._refill()
            word = self._words[self._position]
            self._position += 1
            if word < limit:
                return word % n


def shuffle(items: Sequence[T], stream: Stream) -> list[T]:
    """Fisher-Yates shuffle of a copy of ``items``."""
    deck = list(items)
    below = stream.below
    for i in range(len(deck) - 1, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_stream(seed: bytes, hand: int, context: bytes) -> Stream:
    return Stream(seed, "deal", hand, context)


def recycle_stream(seed: bytes, hand: int, context: bytes, index: int) -> Stream:
    return Stream(seed, "recycle", hand, context, index)


def choose_first_dealer(seed: bytes, candidates: Sequence[int]) -> int:
    """The first dealer of a game: a uniform pick among the seats dealt in, in seat order."""
    return candidates[Stream(seed, "dealer", 0).below(len(candidates))]
