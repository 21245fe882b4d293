"""The cards a JSON document (a dumped view) names, to check a seat sees only what it may."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from tests.services.play import cards_in


def card_finder(
    deck: Sequence[int], label: Callable[[int], str], parse: Callable[[str], int]
) -> Callable[[Any], set[int]]:
    """A reader of every card of ``deck`` a JSON document names: as a code (``"10D"``, read
    with ``parse``) or by its ``label`` inside a text (``"led 10♦"``)."""
    labels = {label(card): card for card in deck}

    def cards_in_json(data: Any) -> set[int]:
        # The document written out holds every text it has, each whole between quotes.
        text = json.dumps(data, ensure_ascii=False)
        return set(cards_in(data, parse)) | {card for name, card in labels.items() if name in text}

    return cards_in_json
