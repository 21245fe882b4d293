"""One-time codes as people read them off one screen and type them on another.

A code is drawn from Crockford's base32 alphabet: ten digits and the letters but I, L, O and
U, so that nothing shown can be mistaken for something else, and each character carries five
bits. It is shown in upper case in groups of four joined by dashes (``K7QF-9M2X``); it is read
back however it was typed: in either case, with or without the dashes, with spaces anywhere,
and with an O taken for a zero and an I or L for a one, as Crockford's reading does.
"""

from __future__ import annotations

import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
BITS_PER_CHARACTER = 5  # 32 symbols
GROUP = 4  # characters shown between dashes
_LOOKALIKES = str.maketrans("OIL", "011")
_SYMBOLS = frozenset(ALPHABET)


def new_code(length: int) -> str:
    """A fresh random code of ``length`` characters, canonical (no dashes)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def shown(code: str) -> str:
    """A canonical code as it is shown: ``K7QF9M2X`` as ``K7QF-9M2X``."""
    return "-".join(code[start : start + GROUP] for start in range(0, len(code), GROUP))


def canonical(typed: str, length: int) -> str | None:
    """The code ``typed`` stands for (upper case, no dashes), or ``None`` when it is not a code
    of ``length`` characters at all."""
    if not typed.isascii():  # upper() would turn some other letters into these (ﬀ: FF)
        return None
    code = "".join(typed.split()).replace("-", "").upper().translate(_LOOKALIKES)
    if len(code) != length or not _SYMBOLS.issuperset(code):
        return None
    return code
