"""A coverage-guided fuzz harness (atheris) for the pure parsers: the client frames the gateway
reads (``protocol.INCOMING``), the requests, updates and bundles between services
(``shared.messages``), and each game's ``load_action``. Any input either parses or is refused
with the parser's own error; anything else (another exception) is a crash, and the run fails.

Run it: ``.venv/bin/python -m tests.security.fuzz_parsers -runs=100000`` (libFuzzer's options;
without ``-runs`` it goes on until stopped). ``tests/security/test_fuzz_apis.py`` runs it with a
bounded number of inputs.
"""

from __future__ import annotations

import contextlib
import json
import sys

import atheris  # type: ignore[import-untyped]  # it ships no types

with atheris.instrument_imports():
    from pydantic import ValidationError

    from services.gateway import protocol as p
    from shared import messages as m
    from shared.games.contract_whist.codec import CODEC as WHIST_CODEC
    from shared.games.euchre.codec import CODEC as EUCHRE_CODEC
    from shared.games.interface import IllegalCommand
    from shared.games.swick.codec import CODEC as SWICK_CODEC

CODECS = (SWICK_CODEC, EUCHRE_CODEC, WHIST_CODEC)


def parse_everything(data: bytes) -> None:
    """Give ``data`` to every parser; return only if each parsed it or refused it."""
    for adapter in (p.INCOMING, m.REQUEST, m.UPDATE, m.BUNDLE):
        with contextlib.suppress(ValidationError):
            adapter.validate_json(data)
    with contextlib.suppress(ValidationError, ValueError):
        m.unpack(data)
    try:
        decoded = json.loads(data)
    except (ValueError, RecursionError):
        return
    for codec in CODECS:
        try:
            codec.load_action(decoded)
        except IllegalCommand as refused:
            assert refused.code == "malformed" and refused.message, refused


def one_input(data: bytes) -> None:
    parse_everything(data)


def main(argv: list[str]) -> None:
    atheris.Setup(argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
