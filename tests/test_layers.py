"""The import graph runs one way: consistency <- memory <- adapters (nothing imports upward)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# layer -> the oncourse layers it must never import
FORBIDDEN = {
    "consistency": ("oncourse.memory", "oncourse.adapters"),
    "memory": ("oncourse.adapters",),
}


def _imported_modules(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def _violations(layer: str) -> list[str]:
    bad: list[str] = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        for line, module in _imported_modules(path):
            if module.startswith(FORBIDDEN[layer]) or module.split(".")[0] in (
                "consistency", "memory", "adapters"
            ):
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    return bad


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_does_not_import_upward(layer: str) -> None:
    assert _violations(layer) == []


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    """Regression guard for the checker itself: an upward import is reported."""
    probe = tmp_path / "probe.py"
    probe.write_text("from oncourse.adapters.agent import run_agent\nimport oncourse.memory\n")
    assert [m for _, m in _imported_modules(probe)] == [
        "oncourse.adapters.agent", "oncourse.memory"
    ]


def test_no_module_imports_the_old_top_level_names() -> None:
    bad = []
    for top in ("consistency", "memory", "adapters", "tests", "bench"):
        for path in sorted((ROOT / top).rglob("*.py")):
            for line, module in _imported_modules(path):
                if module.split(".")[0] in ("consistency", "memory", "adapters", "oncourse_data"):
                    bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert bad == []
