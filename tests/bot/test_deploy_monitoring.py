"""deploy/: the Prometheus alert rules and the Grafana dashboard (issue 39) use only metrics the
bot exports, with the labels it gives them, and cover what an operator must be woken for:
errors, slow replies, readiness and a growing outbox."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from core_fakes import FakeClock, FakePlatform, fake_render

from bot.app import open_core
from bot.http import readiness

ROOT = Path(__file__).resolve().parents[2]
ALERTS = ROOT / "deploy" / "prometheus" / "alerts.yml"
DASHBOARD = ROOT / "deploy" / "grafana" / "tavolo.json"
#: PromQL's own words and functions, which look like metric names
PROMQL_WORDS = {
    "sum",
    "by",
    "rate",
    "histogram_quantile",
    "clamp_min",
    "max",
    "min",
    "le",
    "bool",
    "instance",
    "job",
    "up",
    "outcome",
    "command",
    "platform",
    "game",
    "shard",
    "state",
    "dependency",
    "scope",
    "inf",
}
SUFFIXES = ("_bucket", "_count", "_sum", "_total", "_info", "_created")


def _exported(text: str) -> dict[str, set[str]]:
    """Metric name -> its label names, from a Prometheus exposition."""
    found: dict[str, set[str]] = {}
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, _, rest = line.partition("{")
        name = name.split()[0]
        labels = set(re.findall(r'(\w+)="', rest)) if rest else set()
        found.setdefault(name, set()).update(labels)
    return found


def _names_in(expr: str) -> set[str]:
    without_strings = re.sub(r'"[^"]*"', "", expr)
    words = set(re.findall(r"[a-z_][a-z0-9_]*", without_strings))
    return {w for w in words if w not in PROMQL_WORDS and "_" in w}


def _expressions() -> list[str]:
    rules = yaml.safe_load(ALERTS.read_text())
    exprs = [rule["expr"] for group in rules["groups"] for rule in group["rules"]]
    dashboard = json.loads(DASHBOARD.read_text())
    exprs += [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    return exprs


async def test_every_metric_the_alerts_and_the_dashboard_use_is_exported(tmp_path: Path):
    core = await open_core(
        f"sqlite:///{tmp_path / 'db.sqlite'}",
        "en",
        FakeClock(),
        renderer=fake_render,
        sweep_interval=None,
    )
    try:
        chat = FakePlatform(core)
        await chat.say("ana", "/play canfield 3")
        await chat.say("ana", "/resign")  # a finished game: its counter appears
        core.metrics.set_readiness([(n, h.ok) for n, h in await readiness(core)])
        exported = _exported(core.metrics.exposition().decode())
    finally:
        await core.close()
    # what only appears once a platform or PostgreSQL runs, with the labels it then has
    exported.update(
        {
            "tavolo_outbox_depth": {"platform"},
            "tavolo_update_queue_depth": {"platform"},
            "tavolo_gateway_latency_seconds": {"shard"},
            "tavolo_database_pool_connections": {"state"},
            "tavolo_database_pool_waiters": set(),
            "tavolo_rate_limited_total": {"scope"},
        }
    )
    assert exported["tavolo_ready"] == set() and "tavolo_dependency_ready" in exported
    for expr in _expressions():
        for name in _names_in(expr):
            assert name in exported, f"{name} (in {expr!r}) is not a metric the bot exports"
            used = set(re.findall(r"(\w+)\s*=~?\s*\"", expr.split(name, 1)[1].split("}", 1)[0]))
            if expr.split(name, 1)[1].startswith("{"):
                assert used <= exported[name] | {"instance", "job"}, (name, used)


def test_the_alerts_cover_errors_latency_readiness_and_the_outbox():
    rules = yaml.safe_load(ALERTS.read_text())["groups"][0]["rules"]
    by_metric = {
        "tavolo_commands_total": "error",
        "tavolo_reply_seconds_bucket": "latency",
        "tavolo_ready": "readiness",
        "tavolo_outbox_depth": "outbox",
    }
    covered = {
        kind for rule in rules for metric, kind in by_metric.items() if metric in rule["expr"]
    }
    assert covered == set(by_metric.values())
    for rule in rules:
        assert rule["alert"].startswith("Tavolo") and rule["for"]
        assert rule["labels"]["severity"] in ("page", "ticket")
        assert rule["annotations"]["summary"] and rule["annotations"]["description"]


def test_the_dashboards_panels_each_query_something_and_do_not_overlap():
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["uid"] == "tavolo" and dashboard["panels"]
    spots = set()
    for panel in dashboard["panels"]:
        assert panel["title"] and panel["targets"]
        grid = panel["gridPos"]
        cells = {
            (x, y)
            for x in range(grid["x"], grid["x"] + grid["w"])
            for y in range(grid["y"], grid["y"] + grid["h"])
        }
        assert not cells & spots, panel["title"]
        spots |= cells
