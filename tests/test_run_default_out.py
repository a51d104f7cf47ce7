"""`oncourse run` without --out writes a new file under runs/ (the issue's own command has none)."""

from __future__ import annotations

import json

from oncourse.adapters._runlog import default_out_path
from oncourse.adapters.cli import app
from typer.testing import CliRunner


def test_default_out_paths_never_collide(tmp_path) -> None:
    first = default_out_path("mini-apps", "train", "openai-compatible:http://x/v1#m", 5, tmp_path)
    first.write_text("")
    second = default_out_path("mini-apps", "train", "openai-compatible:http://x/v1#m", 5, tmp_path)
    assert first != second and first.parent == tmp_path
    assert "/" not in first.name and ":" not in first.name


def test_run_without_out_writes_under_runs(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        app,
        ["run", "--suite", "mini-apps", "--model", "simulated", "--n", "2", "--split",
         "heldout-novel", "--no-progress", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    written = list((tmp_path / "runs").glob("*.jsonl"))
    assert [str(p.relative_to(tmp_path)) for p in written] == [summary["out"]]
    lines = written[0].read_text().splitlines()
    assert len(lines) == summary["runs"] == 2 * summary["tasks"]


def test_resume_without_out_is_a_usage_error(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["run", "--suite", "mini-apps", "--resume"])
    assert result.exit_code != 0
    assert not (tmp_path / "runs").exists()
