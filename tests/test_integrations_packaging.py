"""The integrations are optional: the core install pulls none of them and never imports them."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FRAMEWORKS = ("mcp", "agents", "langgraph", "langchain_core", "opentelemetry")


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_core_dependencies_pull_no_framework() -> None:
    core = " ".join(_project()["dependencies"]).lower()
    for name in ("mcp", "openai-agents", "langgraph", "langchain", "opentelemetry"):
        assert name not in core, name


def test_each_integration_is_an_extra_and_ci_installs_them() -> None:
    extras = _project()["optional-dependencies"]
    assert {"mcp", "agents", "langgraph", "otel"} <= set(extras)
    assert any(dep.startswith("oncourse[") and all(
        e in dep for e in ("mcp", "agents", "langgraph", "otel")) for dep in extras["test"])


def test_oncourse_cli_and_otel_reading_import_no_framework() -> None:
    code = (
        "import sys, oncourse, oncourse.adapters.cli, oncourse.adapters.otel, "
        "oncourse.adapters.importers, oncourse.integrations; "
        f"print([m for m in {FRAMEWORKS!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_oncourse_integrations_is_the_adapters_package() -> None:
    import oncourse.adapters.integrations.mcp_server as inner

    import oncourse.integrations.mcp_server as outer

    assert outer.build_server is inner.build_server
    assert outer.__all__ == inner.__all__
