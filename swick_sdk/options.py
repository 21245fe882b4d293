"""What a view offers its seat, in every game: each game module's ``legal_actions`` and
``refused``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from shared.games.interface import Option

ActionT = TypeVar("ActionT")
ActionT_co = TypeVar("ActionT_co", covariant=True)


class Offering(Protocol[ActionT_co]):
    """A game's view: every action the seat could take now, each ``legal`` or with a reason."""

    @property
    def options(self) -> Sequence[Option[ActionT_co]]: ...


def legal_actions(view: Offering[ActionT]) -> list[ActionT]:
    """The actions the seat may take now (what ``choose`` is given as ``legal``)."""
    return [option.action for option in view.options if option.legal]


def refused(view: Offering[ActionT]) -> list[Option[ActionT]]:
    """The options the seat may not take now, each with the reason (``option.reason``): at
    Contract Whist, the hook's forbidden bid among them while the last bidder is to bid."""
    return [option for option in view.options if not option.legal]
