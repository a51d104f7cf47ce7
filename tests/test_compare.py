"""Paired statistics of consistency/compare.py against hand computations."""

from __future__ import annotations

import math

import pytest
from oncourse.consistency.compare import (
    all_runs_passed,
    arm_summary,
    compare_arms,
    harm_rate,
    harmed_tasks,
    mcnemar_exact,
    paired_lift,
)
from oncourse.consistency.errors import StatsError
from oncourse.consistency.trajectory import Trajectory


def runs(task: str, outcomes: str) -> list[Trajectory]:
    """Runs of one task from a string like 'PPF' (P = pass, F = fail)."""
    return [
        Trajectory(task_id=task, success=o == "P", steps=[], run_id=f"{task}-{i}")
        for i, o in enumerate(outcomes)
    ]


def test_mcnemar_all_discordant_one_way():
    # b = 0, c = 6: two-sided exact p = 2 * (1/2)^6 = 1/32.
    base = [False] * 6 + [True] * 4
    cand = [True] * 6 + [True] * 4
    result = mcnemar_exact(base, cand)
    assert (result.only_baseline, result.only_candidate) == (0, 6)
    assert result.p_value == pytest.approx(1 / 32)


def test_mcnemar_seven_to_one():
    # b = 1, c = 7: P(X >= 7 | n=8) = (8 + 1) / 256, doubled = 18/256.
    base = [True] + [False] * 7 + [True, False]
    cand = [False] + [True] * 7 + [True, False]
    assert mcnemar_exact(base, cand).p_value == pytest.approx(18 / 256)


def test_mcnemar_no_discordant_pairs_is_one():
    assert mcnemar_exact([True, False], [True, False]).p_value == 1.0


def test_mcnemar_rejects_unpaired():
    with pytest.raises(StatsError):
        mcnemar_exact([True], [True, False])


def test_paired_lift_hand_computed_interval():
    # diffs (0, 1, 0, 0): lift 25 points. Resampled means are X/4 with X ~ Bin(4, 1/4):
    # P(X = 0) = 0.316 > 2.5% so the low end is 0; P(X = 4) = 0.4% < 2.5% < P(X >= 3) = 5.1%,
    # so the 97.5th percentile is 3/4.
    lift = paired_lift([1, 0, 0, 1], [1, 1, 0, 1], seed=3)
    assert lift.points == pytest.approx(25.0)
    assert lift.low == pytest.approx(0.0)
    assert lift.high == pytest.approx(75.0)


def test_paired_lift_constant_difference_has_no_spread():
    lift = paired_lift([0, 0, 0], [1, 1, 1])
    assert (lift.points, lift.low, lift.high) == (100.0, 100.0, 100.0)


def test_paired_lift_empty_is_nan():
    assert math.isnan(paired_lift([], []).points)


def test_harm_rate_hand_computed():
    # Three tasks consistent in baseline; one of them is lost.
    assert harm_rate([True, True, True, False], [True, False, True, True]) == pytest.approx(1 / 3)
    assert math.isnan(harm_rate([False, False], [True, False]))


def test_harmed_tasks_lists_only_lost_consistent_tasks():
    base = {"a": True, "b": True, "c": False}
    cand = {"a": False, "b": True, "c": False}
    assert harmed_tasks(base, cand) == ["a"]


def _wilson(c: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    p = c / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def test_arm_summary_rates_and_ranges():
    trajs = runs("a", "PPPPP") + runs("b", "PPPPF") + runs("c", "FFFFF")
    summary = arm_summary(trajs)
    assert summary.k == 5
    assert summary.per_run_rate == pytest.approx(9 / 15)
    low, high = _wilson(9, 15)
    assert summary.per_run_low == pytest.approx(low, abs=1e-6)
    assert summary.per_run_high == pytest.approx(high, abs=1e-6)
    assert summary.all_n_rate == pytest.approx(1 / 3)
    assert 0.0 <= summary.all_n_low <= 1 / 3 <= summary.all_n_high <= 1.0


def test_arm_summary_empty_is_an_error():
    with pytest.raises(StatsError):
        arm_summary([])


def test_all_runs_passed_is_per_task():
    trajs = runs("a", "PP") + runs("b", "PF")
    assert all_runs_passed(trajs) == {"a": True, "b": False}


def test_compare_arms_pairs_on_shared_tasks_only():
    base = runs("a", "PPP") + runs("b", "PPP") + runs("c", "PFP") + runs("d", "FFF")
    cand = runs("a", "PPP") + runs("b", "PPF") + runs("c", "PPP") + runs("d", "PPP")
    cand += runs("only-candidate", "FFF")
    cmp = compare_arms(base, cand)
    assert cmp.shared_tasks == 4
    # all-N: baseline {a, b} = 2/4, candidate {a, c, d} = 3/4 -> +25 points.
    assert cmp.baseline.all_n_rate == pytest.approx(0.5)
    assert cmp.candidate.all_n_rate == pytest.approx(0.75)
    assert cmp.all_n_lift.points == pytest.approx(25.0)
    # per-run: baseline 8/12, candidate 11/12 -> per-task mean lift (0 - 1/3 + 1/3 + 1) / 4.
    assert cmp.per_run_lift.points == pytest.approx(25.0)
    # discordant: b lost (only baseline), c and d gained (only candidate): p = 1 for 1 vs 2.
    assert (cmp.mcnemar.only_baseline, cmp.mcnemar.only_candidate) == (1, 2)
    assert cmp.mcnemar.p_value == pytest.approx(1.0)
    assert cmp.harm_rate == pytest.approx(0.5)
    assert cmp.harmed_tasks == ["b"]


def test_compare_arms_without_shared_tasks_is_an_error():
    with pytest.raises(StatsError):
        compare_arms(runs("a", "P"), runs("b", "P"))
