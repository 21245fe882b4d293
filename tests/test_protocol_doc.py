"""docs/protocol.md is generated from the protocol's models and must match them."""

from __future__ import annotations

import json
from pathlib import Path

from services.gateway import protocol as p
from services.gateway.protocol import markdown

DOC = Path(__file__).parent.parent / "docs" / "protocol.md"


def test_the_protocol_document_is_current() -> None:
    assert DOC.read_text() == markdown(), (
        "regenerate it: python -m services.gateway.protocol > docs/protocol.md"
    )


def test_a_view_framed_unparsed_is_the_models_own_json() -> None:
    """The gateway passes views on as the table serialized them; the frame it builds around
    one must be exactly what the documented model would send."""
    view = {"seat": 1, "seq": 7, "hand": ["AS", None], "name": 'a "quoted" ♠'}
    text = json.dumps(view, ensure_ascii=False)
    update = p.Update(table='t-1"x', seq=7, view=view).model_dump()
    snapshot = p.Snapshot(table='t-1"x', seq=7, view=view).model_dump()
    assert json.loads(p.view_frame("update", 't-1"x', 7, text)) == update
    assert json.loads(p.view_frame("snapshot", 't-1"x', 7, text)) == snapshot
