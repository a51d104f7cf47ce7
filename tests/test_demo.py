"""`oncourse demo` end to end on mini-apps with the simulated model (small N to stay fast)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_demo_runs_the_whole_loop_and_reuses_runs(tmp_path: Path):
    out = tmp_path / "demo"
    cli = [sys.executable, "-m", "oncourse.adapters.cli"]
    cmd = [*cli, "demo", "--n", "2", "--out", str(out), "--json"]
    first = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, timeout=600, check=False)
    assert first.returncode == 0, first.stderr[-2000:]
    demo = json.loads(first.stdout)
    assert demo["label"].startswith("SIMULATED")
    assert set(demo["eval"]["splits"]) == {"train", "heldout", "heldout-novel"}
    for split in demo["eval"]["splits"].values():
        assert split["baseline"]["n_runs"] == 2 * split["tasks"]
        assert split["memory"]["k"] == 2
        assert set(split) >= {"all_n_lift", "mcnemar", "harm_rate", "mean_injected_tokens"}
        # The placebo ran on the same tasks with the same seeds, next to memory.
        placebo = split["controls"]["placebo"]
        assert placebo["arm"]["n_runs"] == split["memory"]["n_runs"]
        assert set(placebo["mcnemar"]) == {"n_pairs", "only_control", "only_memory", "p_value"}
        assert len(split["task_changes"]) == split["tasks"]
    assert demo["eval"]["splits"]["train"]["in_sample"] is True
    assert demo["eval"]["splits"]["heldout"]["in_sample"] is False
    evolve = demo["evolve"]
    assert evolve["baseline"]["n_tasks"] == demo["eval"]["splits"]["train"]["tasks"]
    decided = len(evolve["promoted"]) + len(evolve["retired"]) + len(evolve["unvalidated"])
    assert decided <= len(evolve["added"]) + len(evolve["merged"])
    # The suite's runs carry no hostile text, so the screen must let every learned guideline
    # through: a meaning-layer fit that quarantined six of them turned the held-out verdict.
    assert evolve["generated"] > 0 and evolve["quarantined"] == []
    report = Path(demo["html_report"]).read_text()
    assert "SIMULATED" in report and "<svg" in report
    # The train baseline is shared by evolve and eval: one file, reused, not run twice.
    assert demo["eval"]["splits"]["train"]["baseline_runs"] == evolve["baseline_runs"]
    assert demo["eval"]["splits"]["train"]["baseline_reused"] is True
    again = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, timeout=600, check=False)
    assert again.returncode == 0, again.stderr[-2000:]
    second = json.loads(again.stdout)
    assert second["evolve"]["runs_made"] == evolve["runs_made"], "a rerun makes no new runs"
    for name, split in second["eval"]["splits"].items():
        assert split["baseline_reused"] is True
        for key in ("baseline", "memory", "all_n_lift", "mcnemar", "harm_rate", "controls"):
            assert split[key] == demo["eval"]["splits"][name][key]
