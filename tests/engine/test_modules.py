"""Every card game's ``GameModule`` with settings and actions in JSON: it refuses bad
settings, reads and writes each action, and refuses malformed actions. Each game's
``test_module.py`` holds its cases."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from tests.engine.contract_whist import test_module as contract_whist
from tests.engine.euchre import test_module as euchre
from tests.engine.module_table import (
    check_action_codec,
    check_bad_config,
    check_malformed_action,
)

GAMES: tuple[ModuleType, ...] = (euchre, contract_whist)


def cases(table: str) -> list[Any]:
    """Each game's module with each case of its ``table``."""
    return [
        pytest.param(game.MODULE, case, id=f"{game.MODULE.name}-{i}")
        for game in GAMES
        for i, case in enumerate(getattr(game, table))
    ]


@pytest.mark.parametrize(("module", "settings"), cases("BAD_SETTINGS"))
def test_bad_settings(module: Any, settings: dict[str, Any]) -> None:
    check_bad_config(module, settings)


@pytest.mark.parametrize(("module", "case"), cases("ACTIONS"))
def test_action_codec(module: Any, case: tuple[dict[str, Any], Any]) -> None:
    data, action = case
    check_action_codec(module, data, action)


@pytest.mark.parametrize(("module", "data"), cases("MALFORMED_ACTIONS"))
def test_malformed_actions(module: Any, data: dict[str, Any]) -> None:
    check_malformed_action(module, data)
