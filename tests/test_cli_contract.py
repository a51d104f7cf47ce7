"""The library models behind `gate`, `plan` and `run` and the reading rules the CLI relies on.

Regression tests for issue 13/14: a NaN alpha or tolerance let a 66.7-point drop pass the gate;
`plan --flip-rate 1e-300` divided by zero; `report S S` doubled every run; a task id such as
`refund[/]x` crashed the text renderer; `run --json` named its all-N key after N.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from oncourse.adapters.importers import read_runs
from oncourse.consistency.gate import GateOptions, decide_gate
from oncourse.consistency.planning import make_plan
from oncourse.consistency.run_summary import RunReport, summarize_runs
from oncourse.consistency.trajectory import Trajectory
from pydantic import ValidationError
from test_malformed_inputs import run_cli


def _runs(task: str, outcomes: str, tag: str = "") -> list[Trajectory]:
    return [
        Trajectory(
            task_id=task,
            success=o == "P",
            steps=[],
            run_id=f"{task}#r{i}",
            final_answer=f"{tag}{i}",
        )
        for i, o in enumerate(outcomes)
    ]


def _write(path: Path, trajs: list[Trajectory]) -> Path:
    path.write_text("".join(t.model_dump_json() + "\n" for t in trajs))
    return path


GATE_KEYS = {
    "metric", "max_drop", "alpha", "confidence", "passed", "beyond_tolerance", "beyond_noise",
    "noise_test", "drop_points", "drop_low", "drop_high", "shared_tasks", "baseline_only_tasks",
    "candidate_only_tasks", "baseline", "candidate", "mcnemar", "harm_rate", "harmed_tasks",
    "reasons", "warnings",
}  # fmt: skip


def test_run_summary_has_stable_keys_and_the_deprecated_one() -> None:
    runs = _runs("a", "PPP") + _runs("b", "PPF")
    summary = summarize_runs(runs, n=3, new_runs=6)
    data = summary.model_dump(mode="json")
    assert (data["n"], data["all_n_tasks"], data["all_n"]) == (3, 1, 0.5)
    assert data["per_run"] == pytest.approx(5 / 6)
    assert data["all_3"] == data["all_n"]  # old readers keep working
    report = RunReport(
        **summary.model_dump(),
        out="x.jsonl",
        suite="s",
        split="all",
        model="m",
        seed=0,
        memory=None,
        duration_s=1.0,
    )
    assert report.model_dump(mode="json")["all_3"] == 0.5


def _gate_arms() -> tuple[list[Trajectory], list[Trajectory]]:
    base = [r for i in range(12) for r in _runs(f"t{i}", "PPP")]
    cand = [r for i in range(12) for r in _runs(f"t{i}", "PPP" if i < 4 else "PFP")]
    return base, cand


def test_gate_fails_a_large_significant_drop() -> None:
    base, cand = _gate_arms()
    result = decide_gate(base, cand, GateOptions(max_drop=5, alpha=0.05))
    assert result.drop_points == pytest.approx(200 / 3)
    assert result.mcnemar.only_baseline == 8 and result.mcnemar.p_value < 0.01
    assert (result.beyond_tolerance, result.beyond_noise, result.passed) == (True, True, False)


@pytest.mark.parametrize(
    ("field", "value"),
    [("alpha", math.nan), ("alpha", 0.0), ("alpha", -1.0), ("alpha", 2.0), ("max_drop", math.nan),
     ("max_drop", -1.0), ("max_drop", math.inf), ("confidence", 1.0)],
)  # fmt: skip
def test_gate_options_refuse_meaningless_thresholds(field: str, value: float) -> None:
    # With alpha = 2 or max_drop = nan the 66.7-point drop above used to pass.
    with pytest.raises(ValidationError):
        GateOptions(**{field: value})


def test_gate_json_keeps_every_key(tmp_path: Path) -> None:
    base, cand = _gate_arms()
    a, b = _write(tmp_path / "a.jsonl", base), _write(tmp_path / "b.jsonl", cand)
    code, out, _ = run_cli(["gate", "--baseline", str(a), "--candidate", str(b), "--json"])
    data = json.loads(out)
    assert code == 1 and data["passed"] is False
    assert GATE_KEYS | {"duplicates"} == set(data)


def test_plan_for_a_tiny_flip_rate_is_finite_and_right() -> None:
    plan = make_plan(1e-300, "400/day", 0.95)
    # ln(0.05) / -1e-300 = 2.9957e300 runs.
    assert float(plan.runs_per_task) == pytest.approx(2.995732e300, rel=1e-6)
    assert plan.detection_probability[str(plan.runs_per_task)] == pytest.approx(0.95)
    assert make_plan(0.02).runs_per_task == 149


def test_plan_json_shape(tmp_path: Path) -> None:
    runs = _write(tmp_path / "r.jsonl", _runs("a", "PPPPF") + _runs("b", "PPPPP"))
    code, out, _ = run_cli(["plan", "--flip-rate", "0.02", "--runs", str(runs), "--json"])
    data = json.loads(out)
    assert code == 0 and data["runs_per_task"] == 149
    assert data["observed"]["flips"] == 1 and data["observed"]["duplicates"] == 0


def test_same_file_twice_counts_once_and_says_so(tmp_path: Path) -> None:
    runs = _write(tmp_path / "r.jsonl", _runs("a", "PPPF") + _runs("b", "PPPP"))
    _, once, _ = run_cli(["report", "--json", str(runs)])
    code, twice, err = run_cli(["report", "--json", str(runs), str(runs)])
    one, two = json.loads(once), json.loads(twice)
    assert code == 0 and two["duplicates"] == 8 and one["duplicates"] == 0
    assert two["pass^k"] == one["pass^k"] and two["runs"] == 8
    assert err.count("oncourse: warning:") == 1 and "given twice" in err


def test_repeated_run_id_in_a_file_keeps_the_first(tmp_path: Path) -> None:
    first, again = _runs("a", "P"), _runs("a", "F", tag="other")
    path = _write(tmp_path / "r.jsonl", first + again + _runs("b", "PF"))
    with pytest.warns(UserWarning, match="repeat a task.s run id"):
        loaded = read_runs([path])
    assert loaded.duplicates == 1
    assert [t.success for t in loaded.trajectories if t.task_id == "a"] == [True]


def test_same_run_ids_in_different_experiments_are_not_duplicates(tmp_path: Path) -> None:
    # Two invocations of the runner both name their runs a#r0..; different runs, both count.
    a = _write(tmp_path / "monday.jsonl", _runs("a", "PP", tag="mon"))
    b = _write(tmp_path / "tuesday.jsonl", _runs("a", "FF", tag="tue"))
    loaded = read_runs([a, b])
    assert loaded.duplicates == 0 and len(loaded.trajectories) == 4


def test_a_copied_run_in_another_file_counts_once(tmp_path: Path) -> None:
    shared = _runs("a", "P")
    a = _write(tmp_path / "a.jsonl", shared + _runs("b", "P"))
    b = _write(tmp_path / "b.jsonl", shared + _runs("c", "F"))
    with pytest.warns(UserWarning):
        loaded = read_runs([a, b])
    assert loaded.duplicates == 1
    assert sorted(t.task_id for t in loaded.trajectories) == ["a", "b", "c"]


MARKUP_IDS = ["refund[/]x", "[link=http://evil.example]click[/link]", "[bold red]boom"]


def test_report_prints_markup_in_data_literally(tmp_path: Path) -> None:
    runs = [r for task in MARKUP_IDS for r in _runs(task, "PPF")]
    path = _write(tmp_path / "m.jsonl", runs)
    code, out, err = run_cli(["report", str(path)])
    assert code == 0, err
    for task in MARKUP_IDS:
        assert task in out  # shown as written: not parsed, not turned into a link or a style
    assert "\x1b]8;" not in out  # no OSC-8 hyperlink escape


def test_run_ids_repeat_across_tasks_without_being_duplicates(tmp_path: Path) -> None:
    # Files that number runs per task ("0", "1", ...) are common; a run id is unique per task.
    runs = [
        Trajectory(task_id=task, success=True, steps=[], run_id=str(i))
        for task in ("a", "b")
        for i in range(3)
    ]
    loaded = read_runs([_write(tmp_path / "r.jsonl", runs)])
    assert loaded.duplicates == 0 and len(loaded.trajectories) == 6


@pytest.mark.slow
def test_learn_prints_markup_in_task_and_tool_names(tmp_path: Path) -> None:
    # `refund[/]x` as a task id or tool name crashed learn (its table, or its abstention lines).
    lines = []
    for r in range(4):
        ok = r % 2 == 0
        # An id argument makes the pick a call on a record (a note takes none and is scratch).
        pick = {"tool": "pick[/]first" if ok else "pick_last", "args": {"result": "R-1001"}}
        steps = [
            {"action": {"tool": "search", "args": {"q": "x"}}, "observation": "two results"},
            {"action": pick},
            {"action": {"tool": "respond", "args": {"text": "done"}}},
        ]
        lines.append(json.dumps({"task_id": "refund[/]x", "success": ok, "steps": steps}))
    path = tmp_path / "m.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run_cli(["learn", str(path), "--memory", str(tmp_path / "m.db")])
    assert code == 0, err
    assert "refund[/]x" in out and "refund[/]x" in err  # result table/lines and progress


def test_memory_ls_prints_markup_in_source_tasks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from oncourse.consistency.guidelines import Guideline, GuidelineProvenance
    from oncourse.memory.store import GuidelineMemory

    store = tmp_path / "m.db"
    guideline = Guideline(
        instruction="Call [bold]lookup[/] before refund[/]x.",
        trigger="When a refund is asked for",
        provenance=[GuidelineProvenance(source_tasks=["refund[/]x", "[link=http://e.x]y[/link]"])],
    )
    with GuidelineMemory(store) as memory:
        memory.add(guideline)
    monkeypatch.setenv("COLUMNS", "300")  # one table row per guideline: nothing wraps
    code, out, err = run_cli(["memory", "ls", "--memory", str(store)])
    assert code == 0, err
    assert "refund[/]x, [link=http://e.x]y[/link]" in out
    assert "Call [bold]lookup[/] before refund[/]x." in out
