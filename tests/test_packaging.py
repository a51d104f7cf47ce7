"""The distribution lists every package folder, and data/ is found as `oncourse_data`."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_folder_is_listed_in_pyproject() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"
    ])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("consistency", "memory", "adapters")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert found - listed == set(), f"add these packages to pyproject.toml: {found - listed}"
    assert "oncourse_data" in listed


def test_data_package_resolves_to_the_data_folder() -> None:
    import oncourse_data

    assert Path(oncourse_data.data_dir()).resolve() == (ROOT / "data").resolve()


def test_cli_help_lists_without_heavy_imports() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from adapters.cli import app; "
        "heavy = [m for m in ('torch', 'sentence_transformers', 'faiss', 'openai', 'anthropic') "
        "if m in sys.modules]; print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"heavy modules imported at CLI start-up: {out.stdout}"
