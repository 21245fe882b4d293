"""``swick-fair-v1`` (``shared/fairness.py``): the published vectors, the documented algorithm
re-implemented from ``docs/fairness.md``, and chi-square checks that shuffles are unbiased."""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import itertools
import json
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from shared import fairness
from shared.games.swick import actions as ac
from shared.games.swick import events as ev
from shared.games.swick.cards import DECK, code, parse
from shared.games.swick.legal import to_act
from shared.games.swick.state import Phase
from tests.engine.support import Table

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "tests" / "vectors" / "fairness_v1.json"
SCRIPT = ROOT / "scripts" / "make_fairness_vectors.py"
SEED = hashlib.sha256(b"swick fairness tests").digest()

# Critical values of the chi-square distribution at significance alpha = 1e-7 (upper tail), by
# degrees of freedom (scipy.stats.chi2.isf(1e-7, df), rounded down). The seeds are fixed, so
# each test is deterministic; with a fresh seed an unbiased generator would still fail one of
# these at most once in ten million runs.
CHI2_CRITICAL = {2: 32.23, 4: 38.23, 6: 43.33, 23: 76.90, 31: 90.44}


def load_vectors() -> list[dict[str, Any]]:
    data = json.loads(VECTORS.read_text(encoding="utf-8"))
    assert isinstance(data, list)
    return data


def vectors(kind: str) -> list[dict[str, Any]]:
    return [v for v in load_vectors() if v["kind"] == kind]


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_fairness_vectors", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def context_of(entropy: list[list[Any]] | None) -> bytes:
    if entropy is None:
        return bytes(32)
    # The documented digest, computed here without ``fairness.entropy_digest``.
    lines = "".join(f"{seat}:{text}\n" for seat, text in sorted((s, t) for s, t in entropy))
    return hashlib.sha256(lines.encode("utf-8")).digest()


def raw_words(seed: bytes, purpose: str, hand: int, context: bytes, index: int) -> Iterator[int]:
    """The stream's words, straight from the block layout of ``docs/fairness.md``."""
    message = b"".join(
        (
            b"swick-fair-v1",
            b"\x00",
            purpose.encode("ascii"),
            b"\x00",
            hand.to_bytes(4, "big"),
            context,
            index.to_bytes(4, "big"),
        )
    )
    for counter in itertools.count():
        block = hmac.new(seed, message + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        for i in range(8):
            yield int.from_bytes(block[4 * i : 4 * i + 4], "big")


def stream_of(v: dict[str, Any], purpose: str | None = None) -> fairness.Stream:
    return fairness.Stream(
        bytes.fromhex(v["seed"]),
        purpose or v["purpose"],
        v["hand"],
        context_of(v["entropy"]),
        v["index"],
    )


def chi_square(counts: Counter[Any], cells: Sequence[Any]) -> float:
    """Pearson's statistic of ``counts`` against the uniform distribution over ``cells``."""
    total = sum(counts.values())
    assert set(counts) <= set(cells)
    expected = total / len(cells)
    return sum((counts[cell] - expected) ** 2 / expected for cell in cells)


# The vector file.


def test_vector_file_is_what_the_script_writes() -> None:
    script = load_script()
    expected = script.render()
    # Compared before asserting: pytest's diff of two large texts takes minutes.
    same = VECTORS.read_text(encoding="utf-8") == expected
    assert same, "tests/vectors/fairness_v1.json is stale: run scripts/make_fairness_vectors.py"


def test_vector_file_covers_the_edges() -> None:
    decks = vectors("deck")
    assert len(decks) >= 12
    seeds = {v["seed"] for v in decks}
    assert "00" * 32 in seeds and "ff" * 32 in seeds
    assert {v["purpose"] for v in decks} == {"deal", "recycle", "dealer"}
    texts = [text for v in decks for _, text in v["entropy"] or []]
    assert any(not text.isascii() for text in texts)
    assert any(text == "" for text in texts)
    assert len(vectors("first_dealer")) >= 3
    belows = vectors("below")
    assert {3, 5, 7} <= {v["n"] for v in belows}
    assert any(v["rejected"] > 0 for v in belows), "no vector shows a rejected word"
    assert vectors("recycle") and vectors("hand")


def test_deck_vectors() -> None:
    for v in vectors("deck"):
        context = context_of(v["entropy"])
        assert v["context"] == context.hex()
        deck = fairness.shuffle(DECK, stream_of(v))
        assert v["deck"] == [code(card) for card in deck], v
        assert sorted(parse(c) for c in v["deck"]) == list(DECK)


def test_deck_vectors_by_the_documented_algorithm() -> None:
    """A from-scratch Fisher-Yates over the raw HMAC words gives every published deck."""
    for v in vectors("deck"):
        words = raw_words(
            bytes.fromhex(v["seed"]),
            v["purpose"],
            v["hand"],
            bytes.fromhex(v["context"]),
            v["index"],
        )

        def below(n: int, words: Iterator[int] = words) -> int:
            limit = 2**32 - 2**32 % n
            return next(x for x in words if x < limit) % n

        deck = [code(card) for card in DECK]
        for i in range(len(deck) - 1, 0, -1):
            j = below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        assert deck == v["deck"], v


def test_recycle_vectors() -> None:
    for v in vectors("recycle"):
        discards = [parse(c) for c in v["discards"]]
        assert discards == sorted(discards), "discards are shuffled in card-number order"
        assert v["context"] == context_of(v["entropy"]).hex()
        recycled = fairness.shuffle(discards, stream_of(v, "recycle"))
        assert v["recycled"] == [code(card) for card in recycled]


def test_first_dealer_vectors() -> None:
    for v in vectors("first_dealer"):
        seed = bytes.fromhex(v["seed"])
        assert fairness.choose_first_dealer(seed, v["candidates"]) == v["first_dealer"]
        pick = fairness.Stream(seed, "dealer", 0).below(len(v["candidates"]))
        assert v["candidates"][pick] == v["first_dealer"]


def test_below_vectors() -> None:
    for v in vectors("below"):
        stream = stream_of(v)
        n = v["n"]
        assert [stream.below(n) for _ in v["values"]] == v["values"]
        seed, context = bytes.fromhex(v["seed"]), bytes.fromhex(v["context"])
        words = list(
            itertools.islice(
                raw_words(seed, v["purpose"], v["hand"], context, v["index"]), len(v["words"])
            )
        )
        assert words == v["words"]
        limit = 2**32 - 2**32 % n
        assert [w % n for w in words if w < limit] == v["values"]
        assert v["rejected"] == sum(w >= limit for w in words)
        assert words[-1] < limit, "the words end with the last accepted one"


def test_hand_vectors_are_what_the_engine_deals() -> None:
    """Seat everyone, start the game with the vector's seed, ready up with its entropy."""
    for v in vectors("hand"):
        table = Table(v["seats"], stack=10_000)
        table.seed = v["seed"]
        table.start()
        entropy = dict(v["entropy"])
        dealer = table.state.dealer
        assert dealer == v["dealer"]
        table.act(dealer, ac.ChooseAnte(v["ante"], entropy[dealer]))
        events: list[ev.Event] = []
        while table.state.phase is Phase.READY:
            seat = to_act(table.state)[0]
            events = table.act(seat, ac.Ready(entropy[seat]))
        dealt = next(e for e in events if isinstance(e, ev.HandDealt))
        assert dealt.hand_no == v["hand"] == 1
        assert list(dealt.order) == v["order"]
        assert dealt.context == v["context"]
        assert [[seat, [code(c) for c in dealt.hands[seat]]] for seat in dealt.order] == v["hands"]
        assert code(dealt.trump_card) == v["trump"]
        assert [code(c) for c in dealt.stock] == v["stock"]


# The stream.


def test_stream_words_follow_the_documented_layout() -> None:
    context = hashlib.sha256(b"context").digest()
    for purpose, hand, index in (("deal", 1, 0), ("recycle", 7, 3), ("dealer", 0, 0)):
        stream = fairness.Stream(SEED, purpose, hand, context, index)
        expected = itertools.islice(raw_words(SEED, purpose, hand, context, index), 40)
        # below(2**32) rejects nothing and answers the word itself.
        assert [stream.below(2**32) for _ in range(40)] == list(expected)


@pytest.mark.parametrize("n", [0, -1, -(2**32), 2**32 + 1, 2**40])
def test_below_rejects_n_out_of_range(n: int) -> None:
    with pytest.raises(ValueError, match="out of range"):
        fairness.Stream(SEED, "deal", 1).below(n)


def test_below_accepts_the_ends_of_its_range() -> None:
    stream = fairness.Stream(SEED, "deal", 1)
    assert stream.below(1) == 0
    assert 0 <= stream.below(2**32) < 2**32


@pytest.mark.parametrize("size", [0, 16, 31, 33, 64])
def test_context_is_32_bytes(size: int) -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        fairness.Stream(SEED, "deal", 1, bytes(size))


def test_streams_are_deterministic() -> None:
    context = fairness.entropy_digest([(0, "a"), (1, "b")])
    first = fairness.shuffle(DECK, fairness.Stream(SEED, "deal", 3, context, 1))
    again = fairness.shuffle(DECK, fairness.Stream(SEED, "deal", 3, context, 1))
    assert first == again
    assert first != list(DECK)


def test_every_input_changes_the_deck() -> None:
    context = fairness.entropy_digest([(0, ""), (1, ""), (2, "")])

    def deck(
        seed: bytes = SEED,
        purpose: str = "deal",
        hand: int = 1,
        context: bytes = context,
        index: int = 0,
    ) -> tuple[int, ...]:
        return tuple(fairness.shuffle(DECK, fairness.Stream(seed, purpose, hand, context, index)))

    decks = [
        deck(),
        deck(seed=bytes(32)),
        deck(seed=SEED[:-1] + bytes([SEED[-1] ^ 1])),
        deck(purpose="recycle"),
        deck(purpose="dealer"),
        deck(hand=2),
        deck(hand=2**24 + 1),  # the hand is four bytes, not one
        deck(index=1),
        deck(index=2**24),
        deck(context=fairness.NO_CONTEXT),
        deck(context=fairness.entropy_digest([(0, "x"), (1, ""), (2, "")])),
        deck(context=fairness.entropy_digest([(0, ""), (1, ""), (3, "")])),
        deck(context=fairness.entropy_digest([(0, ""), (1, "")])),
    ]
    assert len(set(decks)) == len(decks)


def test_entropy_digest() -> None:
    lines = "0:\n2:ünï ♠\n5:a:b\n"
    expected = hashlib.sha256(lines.encode()).digest()
    assert fairness.entropy_digest([(5, "a:b"), (0, ""), (2, "ünï ♠")]) == expected
    assert fairness.entropy_digest([(0, ""), (1, "")]) != fairness.entropy_digest([(0, "")])
    assert fairness.entropy_digest([(0, "a"), (1, "")]) != fairness.entropy_digest(
        [(0, ""), (1, "a")]
    )


def test_fingerprint_is_sha256_of_the_seed() -> None:
    for seed in (bytes(32), b"\xff" * 32, SEED, fairness.new_seed()):
        assert fairness.fingerprint(seed) == hashlib.sha256(seed).hexdigest()
    assert fairness.fingerprint(bytes(32)) == (
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    )


def test_new_seeds_are_32_random_bytes() -> None:
    seeds = {fairness.new_seed() for _ in range(8)}
    assert len(seeds) == 8
    assert all(len(seed) == fairness.SEED_BYTES == 32 for seed in seeds)


def test_first_dealer_is_a_candidate() -> None:
    for i in range(200):
        seed = hashlib.sha256(i.to_bytes(4, "big")).digest()
        candidates = [seat for seat in range(6) if (i >> seat) & 1 or seat == i % 6]
        assert fairness.choose_first_dealer(seed, candidates) in candidates


# Unbiasedness: chi-square goodness of fit to the uniform distribution, alpha = 1e-7.


def _shuffle_counts(
    trials: int, shuffle: Callable[[Sequence[int], fairness.Stream], list[int]]
) -> Counter[tuple[int, ...]]:
    return Counter(
        tuple(shuffle(range(4), fairness.Stream(SEED, "deal", hand))) for hand in range(trials)
    )


def test_shuffles_of_four_items_are_uniform() -> None:
    """24,000 shuffles of 4 items (one stream each): 24 permutations, 23 degrees of freedom."""
    cells = list(itertools.permutations(range(4)))
    counts = _shuffle_counts(24_000, fairness.shuffle)
    assert chi_square(counts, cells) < CHI2_CRITICAL[23]


def test_the_chi_square_test_catches_a_biased_shuffle() -> None:
    """The naive shuffle (swap each position with any position) is biased: 4**4 = 256 equally
    likely runs cannot spread evenly over 24 permutations. The same test must reject it."""

    def naive(items: Sequence[int], stream: fairness.Stream) -> list[int]:
        deck = list(items)
        for i in range(len(deck)):
            j = stream.below(len(deck))
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    cells = list(itertools.permutations(range(4)))
    assert chi_square(_shuffle_counts(24_000, naive), cells) > CHI2_CRITICAL[23]


@pytest.mark.parametrize("n", [3, 5, 7])
def test_below_is_uniform(n: int) -> None:
    """30,000 draws below n from one stream: n cells, n - 1 degrees of freedom."""
    stream = fairness.Stream(SEED, "deal", n)
    counts = Counter(stream.below(n) for _ in range(30_000))
    assert chi_square(counts, range(n)) < CHI2_CRITICAL[n - 1]


def test_rejection_sampling_removes_the_modulo_bias() -> None:
    """Below n = 3 * 2**30, a bare ``word % n`` lands in the lowest third twice as often; the
    rejected words make the three thirds equally likely (2 degrees of freedom)."""
    n = 3 * 2**30
    stream = fairness.Stream(SEED, "deal", 1)
    counts = Counter(stream.below(n) // 2**30 for _ in range(30_000))
    assert chi_square(counts, range(3)) < CHI2_CRITICAL[2]
    words = raw_words(SEED, "deal", 1, fairness.NO_CONTEXT, 0)
    biased = Counter(next(words) % n // 2**30 for _ in range(30_000))
    assert chi_square(biased, range(3)) > CHI2_CRITICAL[2]


@pytest.mark.parametrize("card", [0, 31])
def test_every_card_lands_anywhere_in_the_deck(card: int) -> None:
    """3,200 full deals: where one card ends up, 32 positions, 31 degrees of freedom."""
    counts = Counter(
        fairness.shuffle(DECK, fairness.Stream(SEED, "recycle", hand)).index(card)
        for hand in range(3_200)
    )
    assert chi_square(counts, range(32)) < CHI2_CRITICAL[31]
