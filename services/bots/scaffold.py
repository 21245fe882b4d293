"""``swick bots new NAME``: a bot package of its own, outside this repository.

It writes ``NAME/`` with a ``pyproject.toml``, the package ``NAME/`` holding ``bot.py`` (a
strategy for one game, ``--game``, built on the SDK ``swick_sdk``: plays like medium), a test
that runs ``swick bots check``'s checks on it, a README with the commands to measure, check,
serve and deploy it, and ``deploy/``: a ``Dockerfile`` (the platform's image with the package
installed), a Kubernetes manifest ``k8s.yaml`` (its Deployment and NetworkPolicy in the
platform's namespace) and a Compose file ``compose.yaml`` that runs it beside the platform's.
None of them holds a credential: the bot's broker URL comes from a Secret or the environment.
``pip install -e NAME`` (in the environment where this project is installed) makes it
importable from anywhere.
"""

from __future__ import annotations

import re
from pathlib import Path

NAME = re.compile(r"[a-z][a-z0-9_]{0,23}")
# The platform's image (deploy/Dockerfile) and namespace (deploy/k8s/00-namespace.yaml).
PLATFORM_IMAGE = "swick-online:0.1.0"
NAMESPACE = "swick"
# The port ``swick bots`` answers /healthz, /readyz and /metrics on (swick_sdk.DEFAULT_PORT).
PORT = 9110

PYPROJECT = """[build-system]
requires = ["setuptools>=69"]
build-backend = "setuptools.build_meta"

[project]
name = "{name}"
version = "0.1.0"
description = "A Swick Online bot for {title}"
requires-python = ">=3.11"
# The platform's package (its bot SDK, swick_sdk), installed from its checkout:
# pip install -e /path/to/swick-online
dependencies = []

[tool.setuptools]
packages = ["{name}"]
"""

BOT_HEAD = '''"""The {name} bot, for {title} tables: starts as the built-in medium bot; make it
yours.

Only ``swick_sdk`` is imported from the platform: its names are a stable contract.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from swick_sdk import {module} as sdk


class Bot:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng  # every random choice from it, so that a run is repeatable
'''

# Each game's ``choose``: medium's play with one decision of the bot's own to start from.
CHOOSE = {
    "swick": """
    def choose(self, view: sdk.SwickView, legal: Sequence[sdk.Action]) -> sdk.Action:
        if view.phase is sdk.Phase.KNOCK:
            strong = sdk.strength(sdk.own_cards(view), sdk.trump_suit(view)) >= 1.5
            return sdk.Knock(knock=strong)
        return sdk.medium(view, legal)
""",
    "euchre": """
    def choose(self, view: sdk.EuchreView, legal: Sequence[sdk.Action]) -> sdk.Action:
        choice = sdk.medium(view, legal)
        if isinstance(choice, sdk.OrderUp | sdk.NameTrump) and choice.alone:
            partnered = sdk.with_partner(choice)
            if partnered in legal:
                return partnered  # never alone: the partner's tricks count too
        return choice
""",
    "contract-whist": """
    def choose(self, view: sdk.WhistView, legal: Sequence[sdk.Action]) -> sdk.Action:
        bids = [action for action in legal if isinstance(action, sdk.MakeBid)]
        if bids:  # the legal bid nearest the hand's likely tricks, the lower on a tie
            want = sdk.likely_tricks(view.hand)
            return min(bids, key=lambda action: (abs(action.bid - want), action.bid))
        return sdk.medium(view, legal)
""",
}

# What a new bot is measured against in its README: the seats beside it and the deals.
OPPONENTS = {"swick": "medium,medium", "euchre": "medium", "contract-whist": "medium,medium,medium"}
DEALS = {"swick": "1000", "euchre": "100", "contract-whist": "40"}
TITLES = {"swick": "Swick", "euchre": "Euchre", "contract-whist": "Contract Whist"}
MODULES = {"swick": "swick", "euchre": "euchre", "contract-whist": "contract_whist"}

TEST = """from swick_sdk import check

from {name}.bot import Bot


def test_the_bot_only_answers_legally() -> None:
    report = check(Bot, game="{game}", positions=500)
    assert report.ok, report.describe()
"""

README = """# {name}: a Swick Online bot for {title}

```sh
pip install -e /path/to/swick-online   # the platform: the swick command and the bot SDK
pip install -e .                        # this bot: importable from anywhere

swick bots check --game {game} --strategy {name}.bot:Bot
swick arena --game {game} --seats {name}.bot:Bot,{opponents} --deals {deals} --duplicate
SWICK_AMQP_URL='amqp://swick-bot-{name}:PASSWORD@broker.example.com:5672/' \\
  swick bots --strategy {name}.bot:Bot --name {name}
```

The platform's operator registers the bot (`swick bots register {name} --owner ...`) and gives
you its broker URL. The bot plays {title} only: a table of another game that seats it gets the
rules' default for its seat (`view.game` says which game a view is of). See the platform's
docs/bots.md.

## Deploy it

`deploy/` runs the bot beside the platform. Nothing in it holds a credential: the bot's broker
URL (the one `swick bots register` printed, its own broker user only) comes from a Secret or
from the environment.

- `deploy/Dockerfile`: the platform's image (`{platform_image}`: use the platform's version)
  with this package installed; it runs `swick bots --strategy {name}.bot:Bot --name {name}
  --host 0.0.0.0 --port {port}` as the platform image's non-root user. Build it here:

  ```sh
  docker build -f deploy/Dockerfile -t swick-bot-{k8s_name}:0.1.0 .
  ```

- `deploy/k8s.yaml`: a Deployment in the platform's namespace (`{namespace}`), hardened like
  the platform's bots (non-root, seccomp, read-only root filesystem, no service account
  token, resources, probes on `/healthz` and `/readyz` at port {port}), and a NetworkPolicy
  that lets it reach only the broker (5672) and DNS, and lets Prometheus scrape port {port}.
  Push the image to your registry, set it in the manifest, then create the Secret once and
  apply:

  ```sh
  read -rs SWICK_AMQP_URL   # paste the broker URL; it stays out of the shell's history
  kubectl -n {namespace} create secret generic swick-bot-{k8s_name} \\
    --from-literal=SWICK_AMQP_URL="$SWICK_AMQP_URL"
  kubectl apply -f deploy/k8s.yaml
  ```

- `deploy/compose.yaml`: the bot as a service on the network of the platform's Compose
  project (`docker compose -f deploy/compose.yaml` in the platform's checkout: its network is
  `deploy_default`; set `SWICK_NETWORK` for another). It reads `SWICK_AMQP_URL` from the
  environment and refuses to start without it; the broker is `rabbitmq:5672` there:

  ```sh
  read -rs SWICK_AMQP_URL && export SWICK_AMQP_URL
  docker compose -f deploy/compose.yaml up -d --build
  ```
"""

DOCKERFILE = """# The {name} bot: the platform's image (the swick command and the bot SDK) with this
# package installed. Build it from the package's root (the directory holding pyproject.toml):
#
#   docker build -f deploy/Dockerfile -t swick-bot-{k8s_name}:0.1.0 .
#
# Use the platform's version: the image the platform's deploy/Dockerfile builds.

ARG PLATFORM_IMAGE={platform_image}

FROM ${PLATFORM_IMAGE}
# Installing into the platform's virtualenv (/opt/swick) needs root; the bot runs as the
# image's non-root user (below). --no-deps: the platform's package is in the image already.
USER 0:0
COPY pyproject.toml /src/
COPY {name} /src/{name}
RUN /opt/swick/bin/pip install --no-cache-dir --no-deps /src \\
    && rm -rf /src \\
    && /opt/swick/bin/python -c "import {name}.bot"
WORKDIR /tmp
USER 10001:10001
# /healthz, /readyz and /metrics
EXPOSE {port}
# The entrypoint is the platform image's: swick.
CMD ["bots", "--strategy", "{name}.bot:Bot", "--name", "{name}", \\
     "--host", "0.0.0.0", "--port", "{port}"]
"""

K8S = """# The {name} bot beside Swick Online, in the platform's namespace. Its pod runs the image's
# command (deploy/Dockerfile): `swick bots --strategy {name}.bot:Bot --name {name}` as the
# bot's own broker user; port {port} serves only /healthz, /readyz and /metrics.
#
# Shipped WITHOUT a credential. Create the Secret once, with the broker URL that
# `swick bots register {name}` printed (its own broker user; no other secret of the platform):
#
#   read -rs SWICK_AMQP_URL
#   kubectl -n {namespace} create secret generic swick-bot-{k8s_name} \\
#     --from-literal=SWICK_AMQP_URL="$SWICK_AMQP_URL"
#
# Then set your registry's image below and `kubectl apply -f deploy/k8s.yaml`.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: swick-bot-{k8s_name}
  namespace: {namespace}
  labels:
    app.kubernetes.io/name: swick-bot-{k8s_name}
    app.kubernetes.io/component: bot
    app.kubernetes.io/part-of: swick-online
spec:
  replicas: 1
  revisionHistoryLimit: 5
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: 0
      maxSurge: 1
  selector:
    matchLabels:
      app.kubernetes.io/name: swick-bot-{k8s_name}
      app.kubernetes.io/component: bot
  template:
    metadata:
      labels:
        app.kubernetes.io/name: swick-bot-{k8s_name}
        app.kubernetes.io/component: bot
        app.kubernetes.io/part-of: swick-online
      annotations:
        prometheus.io/scrape: "true"
        prometheus.io/port: "{port}"
        prometheus.io/path: /metrics
    spec:
      automountServiceAccountToken: false
      terminationGracePeriodSeconds: 30
      securityContext:
        runAsNonRoot: true
        runAsUser: 10001
        runAsGroup: 10001
        seccompProfile:
          type: RuntimeDefault
      containers:
        - name: bot
          image: swick-bot-{k8s_name}:0.1.0
          # The platform's settings that are not secret (SWICK_NAMESPACE above all).
          envFrom:
            - configMapRef:
                name: swick-config
          # The bot's own broker URL only: no database, no other secret of the platform.
          env:
            - name: SWICK_AMQP_URL
              valueFrom:
                secretKeyRef:
                  name: swick-bot-{k8s_name}
                  key: SWICK_AMQP_URL
          ports:
            - name: metrics
              containerPort: {port}
          startupProbe:
            httpGet:
              path: /healthz
              port: metrics
            periodSeconds: 2
            failureThreshold: 30
          livenessProbe:
            httpGet:
              path: /healthz
              port: metrics
            periodSeconds: 10
            timeoutSeconds: 3
            failureThreshold: 3
          readinessProbe:
            httpGet:
              path: /readyz
              port: metrics
            periodSeconds: 5
            timeoutSeconds: 3
            failureThreshold: 2
          resources:
            requests:
              cpu: 100m
              memory: 256Mi
            limits:
              cpu: 500m
              memory: 512Mi
          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            capabilities:
              drop: [ALL]
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: 64Mi
---
# The bot: the broker and DNS out, nothing else (no database, no ledger); Prometheus scrapes
# port {port}. RabbitMQ is outside the cluster: narrow 0.0.0.0/0 to its address.
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: swick-bot-{k8s_name}
  namespace: {namespace}
  labels:
    app.kubernetes.io/name: swick-bot-{k8s_name}
    app.kubernetes.io/part-of: swick-online
spec:
  podSelector:
    matchLabels:
      app.kubernetes.io/name: swick-bot-{k8s_name}
      app.kubernetes.io/component: bot
  policyTypes: [Ingress, Egress]
  ingress:
    - ports:
        - port: {port}
          protocol: TCP
  egress:
    - to:
        - ipBlock:
            cidr: 0.0.0.0/0
      ports:
        - port: 5672
          protocol: TCP
    - ports:
        - port: 53
          protocol: UDP
        - port: 53
          protocol: TCP
"""

COMPOSE = """# The {name} bot beside the platform's Compose project (the platform's
# deploy/compose.yaml), on its network, where the broker is rabbitmq:5672. From this package's
# root:
#
#   read -rs SWICK_AMQP_URL && export SWICK_AMQP_URL   # amqp://swick-bot-{name}:...@rabbitmq:5672/
#   docker compose -f deploy/compose.yaml up -d --build
#
# SWICK_AMQP_URL (the URL `swick bots register {name}` printed) has no default: Compose stops
# and says so until it is set. SWICK_NETWORK names the platform project's network
# (deploy_default when the platform was started with `-f deploy/compose.yaml`).
services:
  {name}:
    image: swick-bot-{k8s_name}:0.1.0
    build:
      context: ..
      dockerfile: deploy/Dockerfile
    # The command is the image's (deploy/Dockerfile): it serves the probes on port {port}.
    environment:
      SWICK_AMQP_URL: ${SWICK_AMQP_URL:?set SWICK_AMQP_URL to the bot's broker URL}
      SWICK_NAMESPACE: ${SWICK_NAMESPACE:-swick}
    networks:
      - swick
    restart: unless-stopped
    healthcheck:
      test:
        - CMD
        - python
        - -c
        - import urllib.request as u; u.urlopen('http://127.0.0.1:{port}/healthz', timeout=3)
      interval: 10s
      timeout: 5s
      retries: 3
      start_period: 20s

networks:
  swick:
    external: true
    name: ${SWICK_NETWORK:-deploy_default}
"""


def k8s_name(name: str) -> str:
    """``name`` as Kubernetes names allow (no ``_``)."""
    return name.replace("_", "-")


def render(template: str, name: str, game: str = "swick") -> str:
    """``template`` with its ``{...}`` fields filled in; any other brace (a Compose
    ``${VARIABLE}``) is kept as it is."""
    values = {
        "name": name,
        "game": game,
        "title": TITLES[game],
        "module": MODULES[game],
        "opponents": OPPONENTS[game],
        "deals": DEALS[game],
        "k8s_name": k8s_name(name),
        "namespace": NAMESPACE,
        "platform_image": PLATFORM_IMAGE,
        "port": str(PORT),
    }
    return re.sub(r"(?<!\$)\{([a-z0-9_]+)\}", lambda m: values[m[1]], template)


def scaffold(name: str, where: Path, game: str = "swick") -> Path:
    """Write the bot package ``name``, a bot for ``game``, under ``where``; refuses a bad
    name, a game there is not or an existing directory."""
    if not NAME.fullmatch(name):
        raise ValueError("a bot package name is 1 to 24 of a-z, 0-9 and _, starting with a letter")
    if game not in CHOOSE:
        raise ValueError(f"no game {game!r}: one of {', '.join(CHOOSE)}")
    root = where / name
    if root.exists():
        raise FileExistsError(f"{root} exists")
    (root / name).mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "pyproject.toml").write_text(render(PYPROJECT, name, game))
    (root / name / "__init__.py").write_text("")
    (root / name / "bot.py").write_text(render(BOT_HEAD + CHOOSE[game], name, game))
    (root / "tests" / f"test_{name}.py").write_text(render(TEST, name, game))
    (root / "README.md").write_text(render(README, name, game))
    (root / "deploy").mkdir()
    (root / "deploy" / "Dockerfile").write_text(render(DOCKERFILE, name))
    (root / "deploy" / "k8s.yaml").write_text(render(K8S, name))
    (root / "deploy" / "compose.yaml").write_text(render(COMPOSE, name))
    return root
