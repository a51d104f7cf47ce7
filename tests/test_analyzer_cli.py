"""`oncourse analyze`: JSON contract, human tree, task filter, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from oncourse.adapters.cli import app
from oncourse.adapters.importers import write_trajectories
from oncourse.consistency.trajectory import Action, Step, Trajectory
from typer.testing import CliRunner

REPO = Path(__file__).resolve().parents[1]
SAMPLE = next(
    (
        base / "shared" / "data" / "tau-bench-airline-gpt-4o-sample.json"
        for base in REPO.parents
        if (base / "shared" / "data" / "tau-bench-airline-gpt-4o-sample.json").exists()
    ),
    REPO.parent / "shared" / "data" / "tau-bench-airline-gpt-4o-sample.json",
)
needs_sample = pytest.mark.skipif(not SAMPLE.exists(), reason="shared tau-bench sample absent")
runner = CliRunner()


def _runs(path: Path) -> Path:
    def traj(rid: str, ok: bool, last: str) -> Trajectory:
        steps = [
            Step(action=Action(tool="find_contact", args={"name": "Ada"}), observation="2 found"),
            Step(action=Action(tool=last, args={"to": "ada@x.org"}), observation="sent"),
        ]
        return Trajectory(task_id="mail", run_id=rid, success=ok, steps=steps, task="Mail Ada.")

    file = path / "runs.jsonl"
    write_trajectories(
        file,
        [
            traj("mail:0", True, "send_email"),
            traj("mail:1", True, "send_email"),
            traj("mail:2", False, "send_sms"),
        ],
    )
    return file


def test_json_output_is_the_task_contract(tmp_path: Path):
    result = runner.invoke(
        app, ["analyze", str(_runs(tmp_path)), "--json", "--embedder", "lexical"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    [task] = data["tasks"]
    assert (task["task_id"], task["n_runs"], task["n_success"], task["status"]) == (
        "mail",
        3,
        2,
        "divergent",
    )
    div = task["divergence"]
    assert (div["step"], div["column"]) == (1, 1)
    assert [
        (b["action"], b["runs"], b["successes"], b["success_rate"]) for b in div["branches"]
    ] == [
        ({"tool": "send_email", "args": {"to": "ada@x.org"}}, ["mail:0", "mail:1"], 2, 1.0),
        ({"tool": "send_sms", "args": {"to": "ada@x.org"}}, ["mail:2"], 0, 0.0),
    ]
    # Fisher exact, two-sided, on [[2, 0], [0, 1]]: only the observed table and its mirror
    # image are possible; P(observed) = C(2,2)C(1,0)/C(3,2) = 1/3.
    assert div["p_value"] == pytest.approx(1 / 3)
    assert div["context"]["task"] == "Mail Ada."
    assert div["context"]["preceding_observations"][0]["observation"] == "2 found"
    assert task["benign_forks"] == []


def test_json_adds_the_decision_point_candidates_and_declared_tool_kinds(tmp_path: Path):
    args = ["analyze", str(_runs(tmp_path)), "--json", "--embedder", "lexical"]
    plain = json.loads(runner.invoke(app, args).stdout)["tasks"][0]
    # Both sends change the world (writes): the fork is the consequence and the decision.
    assert plain["tool_kinds"] == {
        "find_contact": "read",
        "send_email": "write",
        "send_sms": "write",
    }
    assert plain["decision_step"] == plain["consequence_step"] == plain["divergence"]["step"] == 1
    assert plain["divergence"]["context_driven"] is False
    [candidate] = plain["candidates"]
    assert (candidate["step"], candidate["kind"], candidate["role"]) == (1, "write", "decision")
    assert "send_sms (write): 0/1 passed" in candidate["why"]

    declared = runner.invoke(
        app, [*args, "--read-only-tools", "send_email,send_sms", "--scratch-tools", "find_contact"]
    )
    assert declared.exit_code == 0, declared.output
    task = json.loads(declared.stdout)["tasks"][0]
    assert task["tool_kinds"] == {
        "find_contact": "scratch",
        "send_email": "read",
        "send_sms": "read",
    }
    # No write differs any more: no consequence; the differing reads still decide.
    assert task["consequence_step"] is None and task["decision_step"] == 1
    assert task["candidates"][0]["kind"] == "read"


def test_human_output_draws_the_divergence_tree(tmp_path: Path):
    result = runner.invoke(
        app, ["analyze", str(_runs(tmp_path)), "--embedder", "lexical"], env={"COLUMNS": "160"}
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "mail  2/3  divergent" in out
    assert "► step 1" in out
    assert "2/2 passed (100%) send_email(to=ada@x.org)" in out
    assert "0/1 passed (0%) send_sms(to=ada@x.org)" in out
    assert "shared prefix (1 steps): find_contact(name=Ada)" in out


@needs_sample
def test_task_filter_on_real_runs():
    result = runner.invoke(
        app, ["analyze", str(SAMPLE), "--task", "45", "--json", "--embedder", "lexical"]
    )
    assert result.exit_code == 0, result.output
    [task] = json.loads(result.stdout)["tasks"]
    assert (task["task_id"], task["status"], task["divergence"]["step"]) == ("45", "divergent", 5)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--task", "nope"], "no runs of task 'nope'"),
        (["--embedder", "bert"], "unknown embedder 'bert'"),
    ],
)
def test_bad_options_exit_2_with_one_line(tmp_path: Path, args: list[str], needle: str):
    proc = subprocess.run(
        [sys.executable, "-m", "oncourse.adapters.cli", "analyze", str(_runs(tmp_path)), *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("oncourse: error:")
    assert needle in lines[0]
