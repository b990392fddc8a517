"""What the metrics registry serves is what README.md documents and what the Grafana
dashboard's panels query; the compose file's monitoring profile scrapes both shards."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from prometheus_client import CollectorRegistry

from bot.metrics import PrometheusMeter

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
DASHBOARD = REPO / "grafana" / "tanzaku.json"

PROMQL_WORDS = frozenset(
    {
        "sum",
        "min",
        "max",
        "avg",
        "count",
        "rate",
        "irate",
        "increase",
        "histogram_quantile",
        "topk",
        "bottomk",
        "clamp_min",
        "clamp_max",
        "and",
        "or",
        "unless",
        "bool",
        "offset",
    }
)


def metric_names(registry: CollectorRegistry) -> set[str]:
    """The names a scrape of `registry` shows: a counter's with its ``_total``."""
    names: set[str] = set()
    for family in registry.collect():
        names.add(f"{family.name}_total" if family.type == "counter" else family.name)
    return names


def registry_names() -> set[str]:
    return metric_names(PrometheusMeter(["coinflip"]).registry)


def served_series(names: set[str]) -> set[str]:
    """The series names a query may use: a histogram's by its _bucket, _sum and _count."""
    meter = PrometheusMeter(["coinflip"])
    histograms = {f.name for f in meter.registry.collect() if f.type == "histogram"}
    series = set(names - histograms)
    for name in histograms:
        series |= {f"{name}_bucket", f"{name}_sum", f"{name}_count"}
    return series


def documented_metrics(readme: str) -> set[str]:
    """The first column of the table in README's "Metrics" section."""
    section = readme.split("\n### Metrics\n", 1)[1]
    section = re.split(r"\n#{2,3} ", section, maxsplit=1)[0]
    return set(re.findall(r"^\| `([a-z_:][a-z0-9_:]*)` \|", section, flags=re.MULTILINE))


def readme_problems(readme: str, served: set[str]) -> list[str]:
    documented = documented_metrics(readme)
    return [f"served, not documented: {name}" for name in sorted(served - documented)] + [
        f"documented, not served: {name}" for name in sorted(documented - served)
    ]


def metrics_in(expr: str) -> set[str]:
    """The metric names a PromQL expression reads (strings, label matchers, groupings,
    ranges and functions taken out)."""
    expr = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    expr = re.sub(r"\{[^}]*\}", "", expr)
    expr = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", expr)
    expr = re.sub(r"\[[^\]]*\]", "", expr)
    words = set(re.findall(r"(?<![\w.])[A-Za-z_:][A-Za-z0-9_:]*", expr))
    return words - PROMQL_WORDS


def dashboard_problems(dashboard: dict[str, Any], series: set[str]) -> list[str]:
    problems = []
    for panel in dashboard["panels"]:
        exprs = [target.get("expr", "") for target in panel.get("targets", [])]
        if not exprs:
            problems.append(f"{panel['title']}: no query")
        for expr in exprs:
            names = metrics_in(expr)
            if not names:
                problems.append(f"{panel['title']}: {expr!r} reads no metric")
            problems.extend(f"{panel['title']}: {name} is not served" for name in names - series)
    return problems


def test_the_readme_documents_every_metric_served() -> None:
    served = registry_names()
    assert "tanzaku_table_actions_total" in served and "process_resident_memory_bytes" in served
    assert readme_problems(README.read_text(encoding="utf-8"), served) == []


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (
            lambda text: text.replace("| `tanzaku_refusals_total` |", "| `tanzaku_refusal` |"),
            ["served, not documented: tanzaku_refusals_total", "documented, not served: "],
        ),
        (
            lambda text: re.sub(r"^\| `process_max_fds`.*\n", "", text, flags=re.MULTILINE),
            ["served, not documented: process_max_fds"],
        ),
    ],
)
def test_the_readme_checker_catches_a_wrong_table(change: Any, problem: list[str]) -> None:
    found = readme_problems(change(README.read_text(encoding="utf-8")), registry_names())
    assert len(found) == len(problem)
    for got, expected in zip(found, problem, strict=True):
        assert got.startswith(expected)


def test_every_dashboard_panel_queries_served_metrics() -> None:
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    assert len(dashboard["panels"]) >= 10
    assert dashboard_problems(dashboard, served_series(registry_names())) == []
    # Every panel reads the provisioned data source.
    provisioned = yaml.safe_load(
        (REPO / "grafana/provisioning/datasources/prometheus.yml").read_text(encoding="utf-8")
    )
    uid = provisioned["datasources"][0]["uid"]
    assert {panel["datasource"]["uid"] for panel in dashboard["panels"]} == {uid}


def test_the_dashboard_checker_catches_a_metric_not_served() -> None:
    bad = {
        "panels": [
            {
                "title": "Clicks",
                "targets": [{"expr": 'sum by (kind) (rate(tanzaku_clicks_total{kind="x"}[5m]))'}],
            },
            {"title": "Latency", "targets": [{"expr": "tanzaku_interaction_answer_seconds"}]},
            {"title": "Empty", "targets": []},
        ]
    }
    assert dashboard_problems(bad, served_series(registry_names())) == [
        "Clicks: tanzaku_clicks_total is not served",
        "Latency: tanzaku_interaction_answer_seconds is not served",  # a histogram's name
        "Empty: no query",
    ]
    assert metrics_in(
        "histogram_quantile(0.99, sum by (le, kind) (rate(tanzaku_x_bucket[$__rate_interval])))"
    ) == {"tanzaku_x_bucket"}


def test_the_monitoring_profile_scrapes_both_shards_on_their_metrics_port() -> None:
    compose: dict[str, Any] = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    services = compose["services"]
    ports = {services[name]["environment"]["TANZAKU_METRICS_PORT"] for name in SHARDS}
    assert ports == {"9464"}
    for name in ("prometheus", "grafana"):
        assert services[name]["profiles"] == ["monitoring"]
    mounts = services["prometheus"]["volumes"] + services["grafana"]["volumes"]
    for mount in mounts:
        source = mount.split(":", 1)[0]
        if source.startswith("./"):
            assert (REPO / source).exists(), f"{source} is mounted but not in the repository"
    scrape = yaml.safe_load((REPO / "prometheus.yml").read_text(encoding="utf-8"))
    targets = scrape["scrape_configs"][0]["static_configs"][0]["targets"]
    assert targets == [f"{name}:9464" for name in SHARDS]
    assert "TANZAKU_METRICS_HOST=0.0.0.0" in (REPO / "Dockerfile").read_text(encoding="utf-8")


SHARDS = ("bot-shard-0", "bot-shard-1")
