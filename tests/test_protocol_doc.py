"""docs/protocol.md is generated from the protocol's models and must match them."""

from __future__ import annotations

from pathlib import Path

from services.gateway.protocol import markdown

DOC = Path(__file__).parent.parent / "docs" / "protocol.md"


def test_the_protocol_document_is_current() -> None:
    assert DOC.read_text() == markdown(), (
        "regenerate it: python -m services.gateway.protocol > docs/protocol.md"
    )
