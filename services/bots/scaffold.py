"""``swick bots new NAME``: a bot package of its own, outside this repository.

It writes ``NAME/`` with a ``pyproject.toml``, the package ``NAME/`` holding ``bot.py`` (a
strategy built on the SDK: plays like medium), a test that runs ``swick bots check``'s checks on
it, and a README with the commands to measure, check and serve it. ``pip install -e NAME`` (in
the environment where this project is installed) makes it importable from anywhere.
"""

from __future__ import annotations

import re
from pathlib import Path

NAME = re.compile(r"[a-z][a-z0-9_]{0,23}")

PYPROJECT = """[build-system]
requires = ["setuptools>=69"]
build-backend = "setuptools.build_meta"

[project]
name = "{name}"
version = "0.1.0"
description = "A Swick Online bot"
requires-python = ">=3.11"
# The platform's package (its bot SDK, services.bots.sdk), installed from its checkout:
# pip install -e /path/to/swick-online
dependencies = []

[tool.setuptools]
packages = ["{name}"]
"""

BOT = '''"""The {name} bot: starts as the built-in medium bot; make it yours.

Only ``services.bots.sdk`` is imported from the platform: its names are a stable contract.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from services.bots import sdk


class Bot:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng  # every random choice from it, so that a run is repeatable

    def choose(self, view: sdk.SwickView, legal: Sequence[sdk.Action]) -> sdk.Action:
        if view.phase is sdk.Phase.KNOCK:
            strong = sdk.strength(sdk.own_cards(view), sdk.trump_suit(view)) >= 1.5
            return sdk.Knock(knock=strong)
        return sdk.medium(view, legal)
'''

TEST = """from services.bots.check import check

from {name}.bot import Bot


def test_the_bot_only_answers_legally() -> None:
    report = check(Bot, positions=500)
    assert report.ok, report.describe()
"""

README = """# {name}: a Swick Online bot

```sh
pip install -e /path/to/swick-online   # the platform: the swick command and the bot SDK
pip install -e .                        # this bot: importable from anywhere

swick bots check --strategy {name}.bot:Bot
swick arena --seats {name}.bot:Bot,medium,medium --hands 3000 --duplicate
SWICK_AMQP_URL='amqp://swick-bot-{name}:PASSWORD@broker.example.com:5672/' \\
  swick bots --strategy {name}.bot:Bot --name {name}
```

The platform's operator registers the bot (`swick bots register {name} --owner ...`) and gives
you its broker URL. See the platform's docs/bots.md.
"""


def scaffold(name: str, where: Path) -> Path:
    """Write the bot package ``name`` under ``where``; refuses a bad name or an existing
    directory."""
    if not NAME.fullmatch(name):
        raise ValueError("a bot package name is 1 to 24 of a-z, 0-9 and _, starting with a letter")
    root = where / name
    if root.exists():
        raise FileExistsError(f"{root} exists")
    (root / name).mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "pyproject.toml").write_text(PYPROJECT.format(name=name))
    (root / name / "__init__.py").write_text("")
    (root / name / "bot.py").write_text(BOT.format(name=name))
    (root / "tests" / f"test_{name}.py").write_text(TEST.format(name=name))
    (root / "README.md").write_text(README.format(name=name))
    return root
