"""The distribution installs one import root, `oncourse`, with every package folder listed."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("consistency", "memory", "adapters")


def _setuptools() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_package_folder_is_listed_under_oncourse() -> None:
    listed = set(_setuptools()["packages"])
    found = {
        ".".join(("oncourse", *init.parent.relative_to(ROOT).parts))
        for top in LAYERS
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert found - listed == set(), f"add these packages to pyproject.toml: {found - listed}"
    assert {"oncourse", "oncourse.data"} <= listed
    assert all(name == "oncourse" or name.startswith("oncourse.") for name in listed), listed


def test_only_oncourse_is_installed_at_top_level() -> None:
    # the installed distribution (its RECORD), not an egg-info a build left in the repository
    records = [
        d.read_text("RECORD") for d in metadata.distributions(name="oncourse")
    ]
    record = next((r for r in records if r), None)
    assert record is not None, "oncourse is not installed (no RECORD found)"
    tops: set[str] = set()
    for row in record.splitlines():
        parts = Path(row.split(",")[0]).parts
        if not parts or parts[0].endswith((".dist-info", ".egg-info")) or parts[0] == "..":
            continue
        name = parts[0]
        if name.startswith("__editable__") or name == "__pycache__":
            continue
        tops.add(name.removesuffix(".py").removesuffix(".pth"))
    # an editable install records only its finder and .pth; a wheel records the package files
    assert tops <= {"oncourse"}, f"installed at top level besides oncourse: {tops - {'oncourse'}}"
    code = "import importlib.util as u; print([m for m in ('consistency', 'memory', 'adapters', "
    code += "'oncourse_data') if u.find_spec(m)])"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd="/"
    )
    assert out.stdout.strip() == "[]", f"importable at top level outside the repo: {out.stdout}"


def test_import_oncourse_is_light_and_exports_the_verbs() -> None:
    code = (
        "import sys, oncourse; "
        "heavy = [m for m in ('torch', 'sentence_transformers', 'faiss', 'openai', 'anthropic') "
        "if m in sys.modules]; "
        "missing = [n for n in oncourse.__all__ if getattr(oncourse, n, None) is None]; "
        "print(heavy, missing)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd="/"
    )
    assert out.stdout.strip() == "[] []", out.stdout + out.stderr


def test_data_package_resolves_to_the_data_folder() -> None:
    import oncourse.data

    assert Path(oncourse.data.data_dir()).resolve() == (ROOT / "data").resolve()


def test_cli_help_lists_without_heavy_imports() -> None:
    code = (
        "import sys; from oncourse.adapters.cli import app; "
        "heavy = [m for m in ('torch', 'sentence_transformers', 'faiss', 'openai', 'anthropic') "
        "if m in sys.modules]; print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"heavy modules imported at CLI start-up: {out.stdout}"


def test_every_data_file_is_shipped_in_the_package() -> None:
    # A file the code reads from `oncourse.data` (the screen's adapter is binary) that no
    # package-data pattern matches is missing from a wheel install.
    patterns = _setuptools()["package-data"]["oncourse.data"]
    shipped = {
        path.relative_to(ROOT / "data")
        for pattern in patterns
        for path in (ROOT / "data").glob(pattern)
    }
    data = {
        path.relative_to(ROOT / "data")
        for path in (ROOT / "data").rglob("*")
        if path.is_file() and path.suffix != ".py" and "__pycache__" not in path.parts
    }
    assert data - shipped == set(), f"add a package-data pattern for: {data - shipped}"
    assert Path("screen_adapter.npz") in shipped
