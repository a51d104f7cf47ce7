"""`oncourse gate`: pass, fail and within-noise cases, computed by hand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from oncourse.adapters.cli import cmd_gate
from oncourse.consistency.trajectory import Trajectory
from typer.testing import CliRunner

REPO = Path(__file__).resolve().parents[1]


def _app() -> typer.Typer:
    app = typer.Typer()
    app.callback()(lambda: None)
    cmd_gate.register(app)
    return app


def _write(path: Path, tasks: dict[str, str]) -> Path:
    lines = [
        Trajectory(task_id=task, success=o == "P", steps=[], run_id=f"{task}-{i}").model_dump_json()
        for task, outcomes in tasks.items()
        for i, o in enumerate(outcomes)
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def _gate(tmp_path: Path, base: dict[str, str], cand: dict[str, str], *extra: str):
    a = _write(tmp_path / "a.jsonl", base)
    b = _write(tmp_path / "b.jsonl", cand)
    args = ["gate", "--baseline", str(a), "--candidate", str(b), "--json", *extra]
    result = CliRunner().invoke(_app(), args)
    return result.exit_code, json.loads(result.stdout)


def test_gate_passes_when_nothing_changed(tmp_path: Path):
    tasks = {f"t{i}": "PPPPP" if i % 2 else "PPFPP" for i in range(10)}
    code, out = _gate(tmp_path, tasks, tasks)
    assert code == 0
    assert out["passed"] and out["drop_points"] == 0
    assert out["mcnemar"]["p_value"] == 1.0


def test_gate_fails_on_a_large_significant_drop(tmp_path: Path):
    # 10 tasks all-5 in baseline; the candidate loses 8 of them. Drop 80 points;
    # McNemar b = 8, c = 0: p = 2 / 2^8 = 0.0078 < 0.05.
    base = {f"t{i}": "PPPPP" for i in range(10)}
    cand = {f"t{i}": ("PPPFP" if i < 8 else "PPPPP") for i in range(10)}
    code, out = _gate(tmp_path, base, cand)
    assert code == 1
    assert not out["passed"]
    assert out["drop_points"] == pytest.approx(80.0)
    assert out["mcnemar"]["p_value"] == pytest.approx(2 / 256)
    assert out["beyond_noise"] and out["beyond_tolerance"]


def test_gate_passes_a_drop_within_noise(tmp_path: Path):
    # Candidate loses 2 of 10 all-5 tasks: drop 20 points > 5 tolerance, but McNemar b = 2,
    # c = 0 gives p = 2 / 4 = 0.5: the drop may be noise, so the gate does not block.
    base = {f"t{i}": "PPPPP" for i in range(10)}
    cand = {f"t{i}": ("FPPPP" if i < 2 else "PPPPP") for i in range(10)}
    code, out = _gate(tmp_path, base, cand)
    assert code == 0
    assert out["beyond_tolerance"] and not out["beyond_noise"]
    assert out["mcnemar"]["p_value"] == pytest.approx(0.5)
    assert any("within noise" in r for r in out["reasons"])
    assert out["warnings"], "a 5-point tolerance on 10 tasks must be flagged as unresolvable"


def test_gate_passes_a_significant_drop_within_tolerance(tmp_path: Path):
    # 8 of 10 tasks lost (significant) but the tolerance is 90 points.
    base = {f"t{i}": "PPPPP" for i in range(10)}
    cand = {f"t{i}": ("PPPFP" if i < 8 else "PPPPP") for i in range(10)}
    code, out = _gate(tmp_path, base, cand, "--max-drop", "90")
    assert code == 0
    assert out["beyond_noise"] and not out["beyond_tolerance"]


def test_gate_per_run_metric_uses_the_paired_interval(tmp_path: Path):
    # Every task drops from 5/5 to 1/5 per run: the paired difference is -80 points on each
    # task, so the bootstrap interval is [80, 80] and excludes zero.
    base = {f"t{i}": "PPPPP" for i in range(6)}
    cand = {f"t{i}": "PFFFF" for i in range(6)}
    code, out = _gate(tmp_path, base, cand, "--metric", "per-run")
    assert code == 1
    assert out["drop_low"] == pytest.approx(80.0) and out["drop_high"] == pytest.approx(80.0)


def test_gate_without_shared_tasks_is_bad_input(tmp_path: Path):
    a = _write(tmp_path / "a.jsonl", {"x": "PP"})
    b = _write(tmp_path / "b.jsonl", {"y": "PP"})
    proc = subprocess.run(
        [
            sys.executable, "-m", "oncourse.adapters.cli", "gate",
            "--baseline", str(a), "--candidate", str(b),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("oncourse: error:")
    assert "share no task" in proc.stderr


def test_gate_missing_file_is_bad_input(tmp_path: Path):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "oncourse.adapters.cli",
            "gate",
            "--baseline",
            str(tmp_path / "nope.jsonl"),
            "--candidate",
            str(tmp_path / "nope.jsonl"),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
