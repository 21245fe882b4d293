"""Display names that cannot pass for a bot's: Unicode TR39 skeletons and scripts.

A person's name must not read as a built-in bot's (``Ada`` ... ``Finn``), a level's (``easy``,
``medium``, ``hard``) or contain ``bot``, whatever the case and whichever look-alike letters
spell it (Cyrillic ``А`` for Latin ``A``, ``0`` for ``o``), and must not mix scripts (Latin
with Cyrillic...), the classic way to imitate another name.

The data is Unicode's own: the confusables (``confusables.txt``, TR39) and the scripts of every
code point, as the ``confusable-homoglyphs`` package ships them in two JSON files, read here
directly (the package's functions are untyped and re-derive what is computed once here). A
character's *prototype* is the least code point of its class of look-alikes; a string's
*skeleton* maps each character to its prototype, after NFD, as TR39's skeleton does with
single characters (its few multi-character prototypes, such as ``rn`` for ``m``, are not used).
"""

from __future__ import annotations

import bisect
import json
import unicodedata
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

from shared.bot_names import BOT_NAMES

LEVELS = ("easy", "medium", "hard")  # the built-in bots' levels (services.bots.levels.LEVELS)
BOT_WORD = "bot"  # refused anywhere in a name
# Scripts that say nothing about a name's look (digits, punctuation, combining marks).
NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED", "Unknown"})
# Scripts written together (TR39's Japanese, Korean and Chinese sets): no mix of those.
WRITTEN_TOGETHER = (
    frozenset({"HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"HAN", "HANGUL"}),
    frozenset({"HAN", "BOPOMOFO"}),
)
_SEPARATORS = str.maketrans("", "", ".'-")  # a name's joiners: ``b-o-t`` is still ``bot``


def _data(name: str) -> Any:
    return json.loads((resources.files("confusable_homoglyphs") / name).read_text("utf-8"))


@cache
def _prototypes() -> dict[str, str]:
    """Each look-alike character's prototype, one hop as TR39's table gives it (never through
    chains of look-alikes, which would join ``u`` to ``r`` by way of other scripts): the
    confusables of each ASCII letter and digit map to it. Among ASCII characters only the
    classic swaps count, each towards a lower-case letter or a digit: ``I`` and ``1`` for
    ``l``, ``O`` for ``0``."""
    prototypes: dict[str, str] = {}
    for prototype, homoglyphs in _data("confusables.json").items():
        if len(prototype) != 1 or not (prototype.isascii() and prototype.isalnum()):
            continue
        for homoglyph in homoglyphs:
            char = homoglyph["c"].replace("\u200e", "")
            if len(char) != 1 or char == prototype:
                continue
            if (
                char.isascii()
                and char.isalnum()
                and not ((prototype.islower() or prototype.isdigit()) and not char.islower())
            ):
                continue  # ``l`` is no look-alike of ``I``: only the other way round
            prototypes.setdefault(char, prototype)
    return prototypes


@cache
def _script_ranges() -> tuple[list[int], list[int], list[str]]:
    data = _data("categories.json")
    ranges = sorted(data["code_points_ranges"])
    aliases = data["iso_15924_aliases"]
    return [r[0] for r in ranges], [r[1] for r in ranges], [aliases[r[2]] for r in ranges]


def script_of(char: str) -> str:
    """The script of ``char`` (``LATIN``, ``CYRILLIC``, ``COMMON``...)."""
    starts, ends, names = _script_ranges()
    at = bisect.bisect_right(starts, ord(char)) - 1
    return names[at] if at >= 0 and ord(char) <= ends[at] else "Unknown"


def scripts_of(text: str) -> frozenset[str]:
    """The scripts ``text`` is written in, leaving out the neutral ones."""
    return frozenset(script_of(char) for char in text) - NEUTRAL_SCRIPTS


def mixes_scripts(text: str) -> bool:
    """Whether ``text`` mixes scripts that are not written together."""
    scripts = scripts_of(text)
    return len(scripts) > 1 and not any(scripts <= together for together in WRITTEN_TOGETHER)


# After case folding, the digits that read as letters.
_DIGITS_AS_LETTERS = str.maketrans({"0": "o", "1": "l"})


def folded(text: str) -> str:
    """``text`` with look-alike characters and case folded away (each character to its
    prototype after NFKC and NFD, without accents, then case folded): ``ВОТ``, ``B0t`` and
    ``bot`` fold alike, and so do ``CIeo`` and ``Cleo``."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text))
    # Accents go too: ``Esmé`` passes for ``Esme`` at a glance.
    kept = (char for char in decomposed if unicodedata.category(char) != "Mn")
    skeleton = "".join(prototypes.get(char, char) for char in kept).casefold()
    return skeleton.translate(_DIGITS_AS_LETTERS)


@cache
def _reserved() -> frozenset[str]:
    return frozenset(folded(word) for word in (*BOT_NAMES, *LEVELS))


def impersonation(name: str, words: Iterable[str]) -> str | None:
    """Why the display ``name`` (made of ``words``) could pass for a bot's, or ``None``."""
    if mixes_scripts(name):
        return "A name is written in one script: not Latin and Cyrillic letters together..."
    if folded(BOT_WORD) in folded(name.translate(_SEPARATORS)):
        return "Names that look like a bot's are kept for bots: no 'bot' in a name"
    reserved = _reserved()
    for word in words:
        if folded(word) in reserved or folded(word.rstrip("0123456789")) in reserved:
            return f"{word!r} looks like a built-in bot's name: choose another"
    return None
