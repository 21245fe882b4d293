"""What a bot's source imports, read from its syntax tree without running it."""

from __future__ import annotations

import ast
from pathlib import Path


def imported_modules(path: Path) -> set[str]:
    """The full names of the modules ``path`` imports (a relative ``from . import`` has none)."""
    tree = ast.parse(path.read_text())
    imported = {
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    return {name for name in imported if name}
