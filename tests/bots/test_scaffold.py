"""``swick bots new NAME`` writes a bot package that passes the checks as written, and the files
that deploy it beside the platform (its image, its Kubernetes objects, its Compose service)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import kubernetes_validate  # type: ignore[import-untyped]
import pytest
import yaml

from services.bots.check import check
from services.bots.strategy import load_strategy
from services.cli import main, parser

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
K8S_VERSION = "1.33.0"  # as tests/deploy/test_manifests.py
PLATFORM_IMAGE = "swick-online:0.1.0"
PROBE_PATHS = {"/healthz", "/readyz"}
PACKAGE = "my_bot"  # an underscore: Kubernetes names have none
SECRET = "swick-bot-my-bot"

Doc = dict[str, Any]


def test_a_new_bot_package_plays_legally_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["bots", "new", "abot", "--dir", str(tmp_path)]) == 0
    root = tmp_path / "abot"
    assert {p.name for p in root.iterdir()} == {
        "pyproject.toml",
        "abot",
        "tests",
        "README.md",
        "deploy",
    }
    assert "from swick_sdk import swick as sdk" in (root / "abot" / "bot.py").read_text()
    monkeypatch.syspath_prepend(str(root))
    assert check(load_strategy("abot.bot:Bot"), positions=300).ok
    # Not twice, and not under a bad name.
    assert main(["bots", "new", "abot", "--dir", str(tmp_path)]) == 2
    assert main(["bots", "new", "A-bot", "--dir", str(tmp_path)]) == 2


# Its deployment.


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("bots")
    assert main(["bots", "new", PACKAGE, "--dir", str(where)]) == 0
    return where / PACKAGE


def platform_docs(name: str) -> list[Doc]:
    return [doc for doc in yaml.safe_load_all((K8S / name).read_text()) if doc]


def objects(package: Path) -> dict[str, Doc]:
    docs = [doc for doc in yaml.safe_load_all((package / "deploy" / "k8s.yaml").read_text()) if doc]
    assert [doc["kind"] for doc in docs] == ["Deployment", "NetworkPolicy"]
    return {doc["kind"]: doc for doc in docs}


def container(package: Path) -> Doc:
    (only,) = objects(package)["Deployment"]["spec"]["template"]["spec"]["containers"]
    found: Doc = only
    return found


def dockerfile_instructions(package: Path) -> list[tuple[str, str]]:
    text = (package / "deploy" / "Dockerfile").read_text().replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1])
        for line in lines
        if line and not line.startswith("#")
    ]


def image_command(package: Path) -> list[str]:
    """The image's CMD (its entrypoint is the platform image's: ``swick``)."""
    (cmd,) = [value for op, value in dockerfile_instructions(package) if op == "CMD"]
    args: list[str] = json.loads(cmd)
    return args


def served_port(package: Path) -> int:
    return int(parser().parse_args(image_command(package)).port)


def test_the_deployment_files_are_written_filled_in(package: Path) -> None:
    deploy = package / "deploy"
    assert {p.name for p in deploy.iterdir()} == {"Dockerfile", "k8s.yaml", "compose.yaml"}
    for path in [*deploy.iterdir(), package / "README.md"]:
        # Every field filled in; only Compose's and the Dockerfile's ${VARIABLE}s remain.
        assert not re.search(r"(?<!\$)\{[a-z0-9_]+\}", path.read_text()), path.name
    readme = (package / "README.md").read_text()
    for name in ("deploy/Dockerfile", "deploy/k8s.yaml", "deploy/compose.yaml"):
        assert name in readme
    assert f"kubectl -n swick create secret generic {SECRET}" in readme


def test_the_image_serves_the_package_strategy_as_a_non_root_user(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    instructions = dockerfile_instructions(package)
    args = dict(value.split("=", 1) for op, value in instructions if op == "ARG")
    (base,) = [value for op, value in instructions if op == "FROM"]
    assert args.get(base.strip("${}"), base) == PLATFORM_IMAGE
    assert any(op == "RUN" and "pip install" in value for op, value in instructions)
    users = [value for op, value in instructions if op == "USER"]
    assert users[-1] == "10001:10001"  # the platform image's user, numeric for runAsNonRoot
    assert "ENTRYPOINT" not in {op for op, _ in instructions}  # the platform's: swick
    command = parser().parse_args(image_command(package))
    assert command.command == "bots"
    assert command.strategy == f"{PACKAGE}.bot:Bot"
    assert command.name == PACKAGE
    assert command.host == "0.0.0.0"  # in a container, 127.0.0.1 can't be probed
    assert command.port == 9110
    assert ("EXPOSE", "9110") in instructions
    monkeypatch.syspath_prepend(str(package))
    assert load_strategy(command.strategy) is not None


def test_the_dockerfile_lints_clean(package: Path) -> None:
    venv_bin = Path(sys.executable).parent
    hadolint = shutil.which("hadolint") or shutil.which("hadolint", path=venv_bin)
    if hadolint is None:
        pytest.skip("hadolint is not installed")
    result = subprocess.run(
        [hadolint, str(package / "deploy" / "Dockerfile")],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_kubernetes_objects_are_valid_and_in_the_platform_namespace(package: Path) -> None:
    (namespace,) = platform_docs("00-namespace.yaml")
    for doc in objects(package).values():
        try:
            kubernetes_validate.validate(doc, K8S_VERSION, strict=True)
        except kubernetes_validate.ValidationError as error:
            pytest.fail(f"{doc['kind']}: {'.'.join(map(str, error.path))}: {error.message}")
        assert doc["metadata"]["namespace"] == namespace["metadata"]["name"]
        assert doc["metadata"]["name"] == SECRET


def test_the_deployment_is_hardened_like_the_platform_bots(package: Path) -> None:
    deployment = objects(package)["Deployment"]
    pod = deployment["spec"]["template"]["spec"]
    platform = platform_docs("40-bots.yaml")[0]["spec"]["template"]["spec"]
    assert pod["automountServiceAccountToken"] is False
    assert pod["securityContext"] == platform["securityContext"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    ours = container(package)
    assert ours["securityContext"] == platform["containers"][0]["securityContext"]
    assert ours["securityContext"]["readOnlyRootFilesystem"] is True
    assert ours["securityContext"]["capabilities"] == {"drop": ["ALL"]}
    assert set(ours["resources"]) == {"requests", "limits"}
    assert ours["image"] == f"{SECRET}:0.1.0"
    assert "command" not in ours and "args" not in ours  # the image's CMD
    selector = deployment["spec"]["selector"]["matchLabels"]
    assert selector.items() <= deployment["spec"]["template"]["metadata"]["labels"].items()
    # Not selected by the platform's own bots policy: this pod has one of its own.
    assert selector["app.kubernetes.io/component"] != "bots"


def test_the_deployment_holds_the_bot_broker_url_only(package: Path) -> None:
    ours = container(package)
    refs = [
        (variable["name"], variable["valueFrom"]["secretKeyRef"])
        for variable in ours.get("env", [])
        if "secretKeyRef" in variable.get("valueFrom", {})
    ]
    assert refs == [("SWICK_AMQP_URL", {"name": SECRET, "key": "SWICK_AMQP_URL"})]
    assert all("valueFrom" in variable for variable in ours["env"])  # no literal setting
    # Settings from the platform's ConfigMap (nothing secret), no Secret wholesale.
    assert ours["envFrom"] == [{"configMapRef": {"name": "swick-config"}}]
    (config,) = platform_docs("01-config.yaml")
    (platform_secret,) = platform_docs("02-secret.yaml")
    platform_keys = set(platform_secret["stringData"])
    assert {"SWICK_DATABASE_URL", "SWICK_SECRET", "SWICK_LEDGER_TOKEN"} <= platform_keys
    assert not platform_keys & set(config["data"])
    assert not platform_keys & {name for name, _ in refs}
    assert platform_secret["metadata"]["name"] != SECRET
    volumes = objects(package)["Deployment"]["spec"]["template"]["spec"]["volumes"]
    assert all("secret" not in volume for volume in volumes)
    # Shipped without a credential: no Secret object (see objects()), no URL.
    assert "amqp://" not in (package / "deploy" / "k8s.yaml").read_text()


def test_the_probes_ask_the_port_the_command_serves(package: Path) -> None:
    ours = container(package)
    ports = {port["name"]: port["containerPort"] for port in ours["ports"]}
    assert list(ports.values()) == [served_port(package)]
    paths = {}
    for kind in ("startupProbe", "livenessProbe", "readinessProbe"):
        get = ours[kind]["httpGet"]
        assert ports.get(get["port"], get["port"]) == served_port(package), kind
        paths[kind] = get["path"]
    assert paths == {
        "startupProbe": "/healthz",
        "livenessProbe": "/healthz",
        "readinessProbe": "/readyz",
    }
    annotations = objects(package)["Deployment"]["spec"]["template"]["metadata"]["annotations"]
    assert int(annotations["prometheus.io/port"]) == served_port(package)


def test_the_network_policy_lets_it_reach_the_broker_and_dns_only(package: Path) -> None:
    found = objects(package)
    policy = found["NetworkPolicy"]["spec"]
    labels = found["Deployment"]["spec"]["template"]["metadata"]["labels"]
    assert policy["podSelector"]["matchLabels"].items() <= labels.items()
    assert set(policy["policyTypes"]) == {"Ingress", "Egress"}
    allowed = {
        (port["port"], port["protocol"], "to" in rule)
        for rule in policy["egress"]
        for port in rule["ports"]
    }
    assert allowed == {(5672, "TCP", True), (53, "UDP", False), (53, "TCP", False)}
    for rule in policy["egress"]:
        assert all(set(peer) == {"ipBlock"} for peer in rule.get("to", []))  # no pod, no ledger
    # In: Prometheus on the probe port, as the platform's bots policy allows on theirs.
    (platform,) = [
        doc["spec"]
        for doc in platform_docs("60-network-policies.yaml")
        if doc["metadata"]["name"] == "swick-bots"
    ]
    assert [set(rule) for rule in policy["ingress"]] == [set(rule) for rule in platform["ingress"]]
    assert [port for rule in policy["ingress"] for port in rule["ports"]] == [
        {"port": served_port(package), "protocol": "TCP"}
    ]


def test_the_compose_service_reads_the_broker_url_from_the_environment(package: Path) -> None:
    document = yaml.safe_load((package / "deploy" / "compose.yaml").read_text())
    (name,) = document["services"]
    service = document["services"][name]
    assert name == PACKAGE
    assert service["build"] == {"context": "..", "dockerfile": "deploy/Dockerfile"}
    assert "command" not in service  # the image's CMD
    environment = service["environment"]
    assert set(environment) == {"SWICK_AMQP_URL", "SWICK_NAMESPACE"}
    # Required, with no default: Compose refuses to start without it.
    assert re.fullmatch(r"\$\{SWICK_AMQP_URL:\?[^}]+\}", environment["SWICK_AMQP_URL"])
    assert "amqp://swick" not in json.dumps(service)
    # Beside the platform: on its Compose project's network, not one of its own.
    (network,) = service["networks"]
    assert document["networks"][network]["external"] is True
    test = " ".join(service["healthcheck"]["test"])
    match = re.search(r"http://127\.0\.0\.1:(\d+)(/\S*?)'", test)
    assert match and int(match[1]) == served_port(package) and match[2] in PROBE_PATHS
