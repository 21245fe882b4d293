"""What every game's views must hold: none shows a card its seat may not see, each survives its
JSON codec, and the spliced JSON the table publishes is the models' own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from shared.games.table.codec import TableCodec
from shared.games.table.state import TableState

S = TypeVar("S", bound=TableState)


def check_views(
    s: S,
    view_for: Callable[[S, int | None], Any],
    codec: TableCodec[S, Any, Any, Any],
    cards_in_json: Callable[[Any], set[int]],
    public: set[int],
    own: Callable[[int], set[int]],
) -> None:
    """Each seat (and a spectator) sees at most the ``public`` cards and, seated, its ``own``."""
    seats = range(len(s.players))
    spectator, spliced = codec.views_json(s, seats)
    assert spectator == codec.view_json(view_for(s, None))
    for index, text in spliced.items():
        assert text == codec.view_json(view_for(s, index)), f"seat {index}'s spliced view differs"
    for seat in (*seats, None):
        view = view_for(s, seat)
        data = codec.dump_view(view)
        assert codec.load_view(data) == view
        seen = cards_in_json(data)
        if seat is None or s.players[seat] is None:
            assert view.seat is None and view.hand == () and view.options == ()
            assert seen <= public, f"a spectator sees {seen - public}"
            continue
        allowed = public | own(seat)
        assert seen <= allowed, f"seat {seat} sees {seen - allowed}"
