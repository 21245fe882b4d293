"""One-time codes read back however a person types what was shown: either case, with or
without dashes and spaces, O for zero and I or L for one; anything else is no code."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.gateway.code_format import ALPHABET, BITS_PER_CHARACTER, canonical, new_code, shown

codes = st.sampled_from([8, 16]).flatmap(
    lambda n: st.text(alphabet=ALPHABET, min_size=n, max_size=n)
)


@given(codes)
def test_a_shown_code_reads_back_as_itself(code: str) -> None:
    assert canonical(shown(code), len(code)) == code
    assert re.fullmatch(r"[0-9A-Z]{4}(-[0-9A-Z]{4})+", shown(code))


@given(codes, st.data())
def test_a_code_reads_back_however_it_is_typed(code: str, data: st.DataObject) -> None:
    typed = "".join(
        data.draw(st.sampled_from(sorted(_typings(char))), label=char) for char in shown(code)
    )
    assert canonical(typed, len(code)) == code


def _typings(char: str) -> set[str]:
    """What a person may type for one character of a shown code."""
    if char == "-":
        return {"-", "", " ", "\n"}
    looks = {"0": "oO", "1": "iIlL"}.get(char, "")
    return {char, char.lower(), *looks}


@given(st.text(max_size=24))
def test_what_reads_as_a_code_is_one(typed: str) -> None:
    for length in (8, 16):
        code = canonical(typed, length)
        if code is not None:
            assert len(code) == length and set(code) <= set(ALPHABET)
            assert canonical(shown(code), length) == code


@pytest.mark.parametrize(
    "typed",
    ["", "K7QF-9M2", "K7QF-9M2XA", "K7QF-9MUX", "K7QF_9M2X", "K7ＱF-9M2X", "ｋ7QF9M2X"],
)
def test_anything_else_is_no_code(typed: str) -> None:
    assert canonical(typed, 8) is None


def test_codes_are_drawn_from_the_whole_alphabet() -> None:
    assert len(ALPHABET) == 2**BITS_PER_CHARACTER == len(set(ALPHABET))
    assert not set(ALPHABET) & set("ILOU")
    seen = set("".join(new_code(16) for _ in range(200)))
    assert seen == set(ALPHABET)
