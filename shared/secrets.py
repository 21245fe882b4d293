"""Secrets a service refuses to start with where strangers can reach it.

On a developer's machine (a loopback address) the development defaults are fine. Anywhere else,
a secret that is empty, the development value, a placeholder shipped in ``deploy/`` or too short
to resist guessing would let anyone forge what it protects, so the service stops before it
listens, with one line naming the variable to set.
"""

from __future__ import annotations

import ipaddress
import itertools
import math
import sys
from collections import Counter
from collections.abc import Iterable

from shared.settings import (
    DEV_LEDGER_CLOSE_TOKEN,
    DEV_LEDGER_READ_TOKEN,
    DEV_LEDGER_TOKEN,
    DEV_SECRET,
)

MIN_LENGTH = 16
# Bits a secret's characters must carry by the estimate below: 80 bits are out of reach of any
# guessing. A random hex value of 32 characters carries about 115 by it; `aaaa...` none.
MIN_BITS = 80
MIN_DISTINCT = 8  # characters: fewer is a pattern, whatever its length
# Every value that the repository ships as an example, default or placeholder.
PLACEHOLDERS = frozenset(
    {
        DEV_SECRET,
        DEV_LEDGER_TOKEN,
        DEV_LEDGER_READ_TOKEN,
        DEV_LEDGER_CLOSE_TOKEN,
        "fake-secret-for-local-use-only-change-me",
        "REPLACE-ME-with-a-long-random-string",
        "REPLACE-ME-or-leave-empty",
        "swick-change-me",
    }
)
# Words that mark a value as one to be replaced, whatever surrounds them.
MARKERS = ("replace-me", "replace_me", "change-me", "change_me", "changeme")


def is_loopback(host: str) -> bool:
    """Whether ``host`` is an address only this machine can reach."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name, or "" (every address)


def weakness(value: str) -> str | None:
    """Why ``value`` must not guard anything that strangers can reach, or ``None``."""
    if not value:
        return "is empty"
    lowered = value.lower()
    if value in PLACEHOLDERS or any(marker in lowered for marker in MARKERS):
        return "is a published development or placeholder value"
    if len(value) < MIN_LENGTH:
        return f"is shorter than {MIN_LENGTH} characters"
    if len(set(value)) < MIN_DISTINCT or entropy_bits(value) < MIN_BITS:
        return f"is too predictable (about {int(entropy_bits(value))} bits, {MIN_BITS} needed)"
    return None


def _shannon_bits(symbols: list[object]) -> float:
    """The Shannon entropy of ``symbols``' frequencies, times their number."""
    counts, total = Counter(symbols), len(symbols)
    return -sum(n * math.log2(n / total) for n in counts.values())


def entropy_bits(value: str) -> float:
    """An estimate of the bits of chance in ``value``: the Shannon entropy of its characters'
    frequencies, times its length, or of the steps between neighbours when that is less (a run
    such as ``abcdef...`` or a repeated block has varied characters but constant steps). An
    upper bound for a value a person chose, and about right for a random one."""
    steps: list[object] = [ord(b) - ord(a) for a, b in itertools.pairwise(value)]
    return min(_shannon_bits(list(value)), _shannon_bits(steps))


def unsafe(
    host: str, required: Iterable[tuple[str, str]], optional: Iterable[tuple[str, str]] = ()
) -> str | None:
    """The line that explains why a service listening on ``host`` must not start with these
    secrets, or ``None``. ``required`` are (variable, value) pairs that must be set;
    ``optional`` ones may be empty (an empty one turns its feature off) but not weak."""
    if is_loopback(host):
        return None
    pairs = [(name, value, True) for name, value in required]
    pairs += [(name, value, False) for name, value in optional]
    for name, value, needed in pairs:
        if not value and not needed:
            continue
        reason = weakness(value)
        if reason is not None:
            fix = "set it to a long random value (openssl rand -hex 32)"
            fix += "" if needed else " or leave it empty"
            where = host or "every address"
            return f"{name} {reason}: {fix} to listen on {where}; only loopback allows this"
    return None


def development_warning(
    host: str, required: Iterable[tuple[str, str]], optional: Iterable[tuple[str, str]] = ()
) -> str | None:
    """On loopback, the one line that says which secrets are development values or weak (fine
    on this machine only), or ``None`` when none is."""
    if not is_loopback(host):
        return None
    weak = [name for name, value in required if weakness(value) is not None]
    weak += [name for name, value in optional if value and weakness(value) is not None]
    if not weak:
        return None
    names = ", ".join(dict.fromkeys(weak))
    return (
        f"warning: {names} is a development value or weak: fine on {host} (loopback) only;"
        " set a long random value (openssl rand -hex 32) before listening anywhere else"
    )


def refuse_unsafe(
    host: str, required: Iterable[tuple[str, str]], optional: Iterable[tuple[str, str]] = ()
) -> None:
    """Exit (status 2, one line on stderr, no traceback) if ``unsafe`` finds a reason; on
    loopback, say in one line on stderr which secrets are development values."""
    required, optional = list(required), list(optional)
    line = unsafe(host, required, optional)
    if line is not None:
        print(line, file=sys.stderr, flush=True)
        raise SystemExit(2)
    warning = development_warning(host, required, optional)
    if warning is not None:
        print(warning, file=sys.stderr, flush=True)
