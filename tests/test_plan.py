"""`oncourse plan` and consistency/planning.py against hand computations."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import typer
from oncourse.adapters.cli import cmd_plan
from oncourse.consistency.errors import StatsError
from oncourse.consistency.planning import (
    count_flips,
    detection_probability,
    flip_rate_upper_bound,
    parse_volume,
    runs_to_detect,
    smallest_detectable_rate,
)
from oncourse.consistency.trajectory import Trajectory
from typer.testing import CliRunner


def _app() -> typer.Typer:
    app = typer.Typer()
    app.callback()(lambda: None)
    cmd_plan.register(app)
    return app


def _runs(task: str, outcomes: str) -> list[Trajectory]:
    return [
        Trajectory(task_id=task, success=o == "P", steps=[], run_id=f"{task}-{i}")
        for i, o in enumerate(outcomes)
    ]


def test_runs_to_detect_two_percent():
    # log(0.05) / log(0.98) = 148.28 -> 149; 0.98^148 = 0.0503 (not enough), 0.98^149 = 0.0493.
    assert runs_to_detect(0.02, 0.95) == 149
    assert detection_probability(0.02, 148) < 0.95 <= detection_probability(0.02, 149)


def test_runs_to_detect_exact_boundary():
    # p = 1/2, conf = 3/4: 1 - (1/2)^2 = 3/4 exactly, so N = 2, not 3.
    assert runs_to_detect(0.5, 0.75) == 2


def test_five_runs_catch_a_two_percent_flip_rarely():
    # 1 - 0.98^5 = 0.0961.
    assert detection_probability(0.02, 5) == pytest.approx(0.096079, abs=1e-6)


def test_rule_of_three_for_zero_flips():
    upper, method = flip_rate_upper_bound(0, 100)
    assert upper == pytest.approx(1 - 0.05**0.01)
    assert upper == pytest.approx(3 / 100, rel=0.02)
    assert "rule of three" in method


def test_smallest_detectable_rate_with_five_runs():
    # 1 - 0.05^(1/5) = 0.4507.
    assert smallest_detectable_rate(5) == pytest.approx(0.450720, abs=1e-6)


@pytest.mark.parametrize(
    ("text", "per_day"), [("400/day", 400), ("50/hour", 1200), ("700/week", 100), ("12", 12)]
)
def test_parse_volume(text, per_day):
    assert parse_volume(text) == pytest.approx(per_day)


@pytest.mark.parametrize("text", ["lots/day", "400/month", "-3/day", "0"])
def test_parse_volume_rejects_nonsense(text):
    with pytest.raises(StatsError):
        parse_volume(text)


def test_count_flips_counts_the_minority_per_task():
    trajs = _runs("a", "PPPPF") + _runs("b", "PPFFF") + _runs("c", "PPPPP")
    assert count_flips(trajs) == (3, 15)


def test_plan_json_for_the_brief_example():
    result = CliRunner().invoke(
        _app(), ["plan", "--flip-rate", "0.02", "--volume", "400/day", "--json"]
    )
    assert result.exit_code == 0, result.output
    plan = json.loads(result.stdout)
    assert plan["expected_wrong_per_day"] == pytest.approx(8.0)
    assert plan["runs_per_task"] == 149
    assert set(plan["detection_probability"]) == {"1", "5", "149"}
    assert plan["observed"] is None


def test_plan_with_runs_reports_what_data_rule_out(tmp_path: Path):
    path = tmp_path / "runs.jsonl"
    trajs = [t for i in range(20) for t in _runs(f"t{i}", "PPPPP")]
    path.write_text("".join(t.model_dump_json() + "\n" for t in trajs))
    result = CliRunner().invoke(
        _app(), ["plan", "--flip-rate", "0.02", "--runs", str(path), "--json"]
    )
    assert result.exit_code == 0, result.output
    obs = json.loads(result.stdout)["observed"]
    assert (obs["flips"], obs["runs"], obs["tasks"]) == (0, 100, 20)
    # Zero flips in 100 runs rule out rates above 1 - 0.05^(1/100) = 2.95%, not 2%.
    assert obs["upper_bound"] == pytest.approx(1 - 0.05 ** (1 / 100))
    assert obs["rules_out_flip_rate"] is False
    assert math.isclose(obs["expected_wrong_per_day_at_upper"], 400 * obs["upper_bound"])


def test_plan_text_output_names_the_numbers():
    result = CliRunner().invoke(_app(), ["plan", "--flip-rate", "0.02"])
    assert result.exit_code == 0, result.output
    assert "149" in result.stdout
    assert "8 wrong decisions per day" in result.stdout
