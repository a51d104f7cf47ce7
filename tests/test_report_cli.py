"""`oncourse report`: every --json figure against an independent computation from the raw file."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import defaultdict
from itertools import combinations
from pathlib import Path
from statistics import NormalDist, pstdev

import pytest
from oncourse.adapters.cli import app
from oncourse.adapters.importers import example_path
from oncourse.consistency.errors import InputError
from typer.testing import CliRunner

REPO = Path(__file__).resolve().parents[1]
TAU_SAMPLE = REPO.parent / "shared" / "data" / "tau-bench-airline-gpt-4o-sample.json"
needs_sample = pytest.mark.skipif(not TAU_SAMPLE.exists(), reason="shared tau-bench sample absent")
runner = CliRunner()


def invoke_json(*args: str) -> dict:
    result = runner.invoke(app, ["report", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def wilson(c: int, n: int) -> tuple[float, float]:
    z = NormalDist().inv_cdf(0.975)
    centre = (c + z * z / 2) / (n + z * z)
    half = z * math.sqrt(c * (n - c) / n + z * z / 4) / (n + z * z)
    return max(0.0, centre - half), min(1.0, centre + half)


def raw_tau_paths(item: dict) -> list:
    """One run's action sequence straight from the tau-bench messages (replies by tool only)."""
    path = []
    for m in item["traj"]:
        if m["role"] == "assistant" and m.get("tool_calls"):
            path += [
                (c["function"]["name"], json.loads(c["function"]["arguments"]))
                for c in m["tool_calls"]
            ]
        elif m["role"] == "assistant":
            path.append(("respond", None))
    return path


def raw_final_answer(item: dict) -> str | None:
    replies = [
        m["content"] for m in item["traj"] if m["role"] == "assistant" and not m.get("tool_calls")
    ]
    return replies[-1] if replies else None


@needs_sample
def test_tau_bench_json_equals_a_hand_computation() -> None:
    report = invoke_json("--format", "tau-bench", str(TAU_SAMPLE))
    raw = json.loads(TAU_SAMPLE.read_text())
    by_task: dict[str, list[dict]] = defaultdict(list)
    for item in raw:
        by_task[str(item["task_id"])].append(item)
    n_of = {t: len(items) for t, items in by_task.items()}
    c_of = {t: sum(i["reward"] == 1.0 for i in items) for t, items in by_task.items()}
    big_n = min(n_of.values())

    def hat(t: str, k: int) -> float:
        return math.comb(c_of[t], k) / math.comb(n_of[t], k)

    def at(t: str, k: int) -> float:
        n, c = n_of[t], c_of[t]
        return 1.0 if n - c < k else 1 - math.comb(n - c, k) / math.comb(n, k)

    tasks = list(by_task)
    assert report["tasks"] == len(tasks) == 10
    assert report["runs"] == len(raw) == 40
    assert report["runs_per_task"] == {"min": big_n, "max": max(n_of.values())}
    rate = sum(c_of[t] / n_of[t] for t in tasks) / len(tasks)
    assert report["pass@1"] == pytest.approx(rate)
    total_c = sum(c_of.values())
    assert report["pass@1_wilson"] == pytest.approx(list(wilson(total_c, len(raw))))
    assert set(report["pass^k"]) == {str(k) for k in range(1, big_n + 1)}
    for k in range(1, big_n + 1):
        assert report["pass^k"][str(k)] == pytest.approx(sum(hat(t, k) for t in tasks) / len(tasks))
        assert report["pass@k"][str(k)] == pytest.approx(sum(at(t, k) for t in tasks) / len(tasks))
    pass_n = sum(hat(t, big_n) for t in tasks) / len(tasks)
    assert report["gap_points"] == pytest.approx(100 * (rate - pass_n))
    # Per-task pass^N here is 0/1, so resampled means follow Binomial(tasks, pass^N) / tasks.
    from scipy.stats import binom

    expected_boot = [binom.ppf(q, len(tasks), pass_n) / len(tasks) for q in (0.025, 0.975)]
    assert report["pass^N_bootstrap"] == pytest.approx(expected_boot)

    paths = {t: [raw_tau_paths(i) for i in items] for t, items in by_task.items()}
    pairs = [(a, b) for t in tasks for a, b in combinations(paths[t], 2)]
    assert report["identical_pair_share"] == pytest.approx(
        sum(a == b for a, b in pairs) / len(pairs)
    )
    per_task = {e["task_id"]: e for e in report["per_task"]}
    for t in tasks:
        distinct = len({json.dumps(p, sort_keys=True) for p in paths[t]})
        assert per_task[t]["runs"] == n_of[t] and per_task[t]["successes"] == c_of[t]
        assert per_task[t]["distinct_paths"] == distinct
        assert per_task[t]["pass^k"] == pytest.approx(
            {str(k): hat(t, k) for k in range(1, big_n + 1)}
        )
        assert per_task[t]["pass@k"] == pytest.approx(
            {str(k): at(t, k) for k in range(1, big_n + 1)}
        )
        lengths = [len(p) for p in paths[t]]
        assert per_task[t]["steps"] == pytest.approx(
            {"min": min(lengths), "max": max(lengths), "std": pstdev(lengths)}
        )
        answers = {" ".join((raw_final_answer(i) or "").split()).casefold() for i in by_task[t]}
        assert per_task[t]["distinct_final_answers"] == len(answers)
        assert per_task[t]["instruction"] == by_task[t][0]["info"]["task"]["instruction"]

    assert report["k"] == big_n and report["successes"] == total_c
    assert report["pass@1_pooled"] == pytest.approx(total_c / len(raw))
    assert report["unequal_runs"] is False and report["tasks_with_fewer_than_k_runs"] == []
    instructions = {i["info"]["task"]["instruction"] for i in raw}
    assert report["distinct_instructions"] == len(instructions)
    distinct_of = {t: len({json.dumps(p, sort_keys=True) for p in paths[t]}) for t in tasks}
    assert report["path_variance"] == pytest.approx(
        {
            "mean_distinct_paths": sum(distinct_of.values()) / len(tasks),
            "mean_step_std": sum(pstdev([len(p) for p in paths[t]]) for t in tasks) / len(tasks),
            "all_pass_with_several_paths": sum(
                1 for t in tasks if c_of[t] == n_of[t] and distinct_of[t] > 1
            ),
        }
    )
    answers_of = {
        t: len({" ".join((raw_final_answer(i) or "").split()).casefold() for i in by_task[t]})
        for t in tasks
    }
    assert report["output_variance"]["mean_distinct_final_answers"] == pytest.approx(
        sum(answers_of.values()) / len(tasks)
    )
    flaky = [t for t in tasks if 0 < c_of[t] < n_of[t]]
    flaky.sort(key=lambda t: (c_of[t] / n_of[t], -distinct_of[t], t))
    assert [f["task_id"] for f in report["flaky"]] == flaky
    for entry in report["flaky"]:
        assert sum(p["runs"] for p in entry["paths"]) == n_of[entry["task_id"]]
        assert sum(p["successes"] for p in entry["paths"]) == c_of[entry["task_id"]]
    assert report["run_errors"] == {}
    assert report["provenance"]["sources"] == ["tau-bench"]
    assert report["provenance"]["simulated"] is False
    assert report["provenance"]["models"] == [] and report["provenance"]["dates"] is None


@needs_sample
def test_tau_bench_headline_figures() -> None:
    report = invoke_json(str(TAU_SAMPLE))  # auto-detected
    assert report["pass@1"] == pytest.approx(18 / 40)
    assert report["pass^k"]["4"] == pytest.approx(2 / 10)
    assert report["gap_points"] == pytest.approx(25.0)
    assert [f["task_id"] for f in report["flaky"]] == ["5", "15", "30", "45", "40"]


def test_example_json_and_k_handling() -> None:
    report = invoke_json(str(example_path()))
    # README: passes 5, 2, 5, 4 of 5 runs.
    rates = [5 / 5, 2 / 5, 5 / 5, 4 / 5]
    assert report["pass@1"] == pytest.approx(sum(rates) / 4)
    assert report["pass^k"]["5"] == pytest.approx(2 / 4)
    assert report["run_errors"] == {"timeout": 1}  # README: one run timed out
    assert report["pass^k"]["2"] == pytest.approx((1 + 1 / 10 + 1 + 6 / 10) / 4)
    assert report["provenance"]["simulated"] is True
    # Identical pairs per task: C(5,2); C(3,2)+C(2,2); C(3,2)+C(2,2); C(4,2) of 10 each.
    assert report["identical_pair_share"] == pytest.approx((10 + (3 + 1) + (3 + 1) + 6) / 40)

    short = invoke_json(str(example_path()), "--k", "2")
    assert list(short["pass^k"]) == ["1", "2"]
    assert short["gap_points"] == pytest.approx(100 * (0.8 - short["pass^k"]["2"]))

    over = invoke_json(str(example_path()), "--k", "6")
    assert over["pass^k"]["6"] is None and over["gap_points"] is None
    assert len(over["tasks_with_fewer_than_k_runs"]) == 4


def test_human_output_has_the_headline_numbers() -> None:
    result = runner.invoke(app, ["report", str(example_path())], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    out = result.stdout
    for expected in (
        "SIMULATED",
        "16/20 = 80.0%",
        "Wilson 58–92%",
        "all-5 (pass^5)",
        "2/4 tasks = 50.0%",
        "30.0 points",
        "1 (timeout: 1)",
        "4 tasks, 4 distinct instructions",
        "optimistic",
        "hand-written-example",
        "3 × search_customers > update_address > respond (0 passed)",
        "2 × search_customers > get_customer > update_address > respond (2 passed)",
    ):
        assert expected in out
    assert out.index("change-address") < out.index("escalate-complaint")  # worst first


@needs_sample
def test_human_output_for_real_runs_has_no_simulated_label() -> None:
    result = runner.invoke(app, ["report", str(TAU_SAMPLE)], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "SIMULATED" not in result.stdout
    assert "18/40 = 45.0%" in result.stdout and "25.0 points" in result.stdout


def test_cli_runner_surfaces_input_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{nope\n")
    result = runner.invoke(app, ["report", str(bad)])
    assert isinstance(result.exception, InputError)


@pytest.mark.parametrize(
    ("content", "args", "needle"),
    [
        ('{"task_id": "a", "success": true, "steps": []}\n{broken\n', [], "bad.jsonl:2:"),
        (b"\xff\xfe\x00", [], "not UTF-8"),
        ("", [], "empty file"),
        ('{"task_id": "a", "success": true, "steps": []}\n', ["--k", "0"], "k must be a positive"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    tmp_path: Path, content: str | bytes, args: list[str], needle: str
) -> None:
    bad = tmp_path / "bad.jsonl"
    if isinstance(content, bytes):
        bad.write_bytes(content)
    else:
        bad.write_text(content)
    proc = subprocess.run(
        [sys.executable, "-m", "oncourse.adapters.cli", "report", str(bad), *args],
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
    assert "Traceback" not in proc.stderr
