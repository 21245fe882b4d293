"""The alerting rules, evaluated for real by Prometheus' own ``promtool``.

``deploy/alerts.test.yaml`` feeds each alert the series that the services export and expects
exactly the alerts it names. Those series must be what the services really export: a series
labelled ``job="ledger"`` must be one of the ledger's metrics, and so on, so that a metric
shown by a service it does not belong to (every process once showed
``swick_ledger_invariants_ok 0``, and the ledger alerts could not tell) fails here.

Skipped without ``promtool`` unless ``REQUIRE_SERVICES=1`` (``.ci/run`` installs Debian's
``prometheus`` package, which ships it).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from prometheus_client import CollectorRegistry

from services.bots.metrics import BotMetrics
from services.gateway.metrics import GatewayMetrics
from services.ledger.metrics import LedgerMetrics
from services.table.metrics import TableMetrics

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
RULES = DEPLOY / "alerts.yaml"
RULE_TESTS = DEPLOY / "alerts.test.yaml"
REQUIRED = os.environ.get("REQUIRE_SERVICES") == "1"

JOBS = {
    "gateway": GatewayMetrics,
    "table": TableMetrics,
    "ledger": LedgerMetrics,
    "bots": BotMetrics,
}


def promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        message = "promtool is not installed (Debian: apt-get install prometheus)"
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)
    return found


def run_promtool(*args: str) -> None:
    result = subprocess.run(
        [promtool(), *args], capture_output=True, text=True, cwd=DEPLOY, check=False
    )
    output = "\n".join(
        line for line in (result.stdout + result.stderr).splitlines() if line.strip()
    )
    assert result.returncode == 0, f"promtool {' '.join(args)}:\n{output}"


def test_the_rules_are_valid() -> None:
    run_promtool("check", "rules", RULES.name)


def test_each_alert_fires_on_its_own_series_and_no_other() -> None:
    run_promtool("test", "rules", RULE_TESTS.name)


SUFFIXES = {"counter": ("_total",), "gauge": ("",), "histogram": ("_bucket", "_count", "_sum")}


def exported_series(registry: CollectorRegistry) -> set[str]:
    """The names of the series a registry's families export (labelled ones before any use)."""
    return {
        family.name + suffix for family in registry.collect() for suffix in SUFFIXES[family.type]
    }


def test_the_input_series_are_those_the_services_export() -> None:
    tests = yaml.safe_load(RULE_TESTS.read_text())["tests"]
    exported = {job: exported_series(kind().registry) for job, kind in JOBS.items()}
    for case in tests:
        for item in case["input_series"]:
            match = re.fullmatch(r'(\w+)\{.*job="(\w+)".*\}', item["series"])
            assert match, f"{case['name']}: label the series with its service's job: {item}"
            name, job = match.groups()
            assert job in JOBS, f"{case['name']}: unknown job {job}"
            assert name in exported[job], f"{case['name']}: the {job} does not export {name}"


def test_every_case_checks_every_alert() -> None:
    """An alert left out of a case could fire there unnoticed."""
    alerts = {
        rule["alert"]
        for group in yaml.safe_load(RULES.read_text())["groups"]
        for rule in group["rules"]
    }
    for case in yaml.safe_load(RULE_TESTS.read_text())["tests"]:
        checked = {test["alertname"] for test in case["alert_rule_test"]}
        assert checked == alerts, f"{case['name']}: not checked: {sorted(alerts - checked)}"
