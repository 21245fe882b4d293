"""The services talk only through contracts: no service's package imports another's.

What one service needs of another comes through ``shared/`` (the bus's messages, the tables'
read model in ``shared/tables_read.py``, the PostgreSQL pool helper) or over HTTP. The test
walks every import (``ast``, so imports inside functions count too) of each service's package.
Exempt, because they compose services rather than being one: ``services/embedded.py``,
``services/serve.py``, ``services/local_wallets.py``, ``services/cli.py``, ``services/up.py``,
``services/broker.py``, ``services/dependencies.py``, ``services/load/`` and
``services/benchmarks/``; none of them lives in a service's package, so none is walked.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVICES = ("gateway", "table", "ledger", "bots")


def imported(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """Every module ``path`` imports, absolute, with its line (``from services import ledger``
    imports ``services.ledger``; a relative import is resolved against ``path``'s package)."""
    tree = ast.parse(path.read_text(), str(path))
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    names: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            names.append((node.lineno, base))
            names += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return names


def foreign_imports(service: str, root: Path = ROOT) -> list[str]:
    """``file:line module`` for each import by ``services/<service>/`` of another service."""
    own = f"services.{service}"
    others = [f"services.{other}" for other in SERVICES if other != service]
    found = []
    for path in sorted((root / "services" / service).rglob("*.py")):
        for line, module in imported(path, root):
            if module == own or module.startswith(own + "."):
                continue
            if any(module == o or module.startswith(o + ".") for o in others):
                found.append(f"{path.relative_to(root)}:{line} {module}")
    return found


@pytest.mark.parametrize("service", SERVICES)
def test_a_service_imports_no_other_service(service: str) -> None:
    assert foreign_imports(service) == []


def test_shared_imports_no_service() -> None:
    # The contracts themselves must not lean on a service, or importing one drags in another.
    found = [
        f"{path.relative_to(ROOT)}:{line} {module}"
        for path in sorted((ROOT / "shared").rglob("*.py"))
        for line, module in imported(path)
        if module == "services" or module.startswith("services.")
    ]
    assert found == []


def test_the_walk_sees_every_form_of_import(tmp_path: Path) -> None:
    # The walk itself: a check that misses a form of import would pass on anything.
    module = tmp_path / "services" / "gateway" / "probe.py"
    module.parent.mkdir(parents=True)
    module.write_text(
        "import services.table.store\n"
        "from services import ledger\n"
        "from ..table import storage\n"
        "from . import history\n"
        "def later() -> None:\n"
        "    from services.ledger.storage import Pending\n"
    )
    name = "services/gateway/probe.py"
    assert foreign_imports("gateway", tmp_path) == [
        f"{name}:1 services.table.store",
        f"{name}:2 services.ledger",
        f"{name}:3 services.table",
        f"{name}:3 services.table.storage",
        f"{name}:6 services.ledger.storage",
        f"{name}:6 services.ledger.storage.Pending",
    ]
