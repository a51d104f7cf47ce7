"""Paired comparison of two arms run on the same tasks: baseline vs memory, release A vs B.

Every function here is pure. The unit of pairing is the task: each task contributes one
outcome per arm, so the tests and intervals below resample or count tasks, never runs (repeats
of one task are not independent; see the brief).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
from oncourse.consistency.errors import StatsError
from oncourse.consistency.stats import (
    bootstrap_mean_interval,
    group_by_task,
    pass_hat_k,
    wilson_interval,
)
from oncourse.consistency.trajectory import Trajectory
from pydantic import BaseModel, Field


class McNemarResult(BaseModel):
    """Exact McNemar test on paired binary outcomes."""

    n_pairs: int = Field(description="Number of paired tasks.")
    only_baseline: int = Field(description="Discordant pairs: passed in baseline only (b).")
    only_candidate: int = Field(description="Discordant pairs: passed in candidate only (c).")
    p_value: float = Field(description="Two-sided exact p-value; 1.0 with no discordant pairs.")


class LiftInterval(BaseModel):
    """Difference of two paired means in percentage points, with a bootstrap interval."""

    points: float = Field(description="Candidate mean minus baseline mean, x100 (NaN if empty).")
    low: float = Field(description="Lower end of the paired bootstrap interval, in points.")
    high: float = Field(description="Upper end of the paired bootstrap interval, in points.")
    confidence: float = Field(description="Confidence level of the interval.")


class ArmSummary(BaseModel):
    """Per-run and all-N rates of one arm, each with its range."""

    n_tasks: int = Field(description="Tasks in the arm.")
    n_runs: int = Field(description="Runs in the arm.")
    k: int = Field(description="N of all-N: the k used for pass^k.")
    per_run_rate: float = Field(description="Successful runs / runs (pass@1).")
    per_run_low: float = Field(description="Wilson lower bound of the per-run rate.")
    per_run_high: float = Field(description="Wilson upper bound of the per-run rate.")
    all_n_rate: float = Field(description="Mean over tasks of pass^k (share passing all N).")
    all_n_low: float = Field(description="Bootstrap-over-tasks lower bound of the all-N rate.")
    all_n_high: float = Field(description="Bootstrap-over-tasks upper bound of the all-N rate.")


def mcnemar_exact(baseline: Sequence[bool], candidate: Sequence[bool]) -> McNemarResult:
    """Exact (binomial) McNemar test on paired binary outcomes.

    McNemar (1947), exact form: under H0 the discordant pairs split 50/50, so the two-sided
    p-value is that of a binomial test of c successes in b + c trials with p = 1/2
    (`scipy.stats.binomtest`). With no discordant pairs there is no evidence either way: p = 1.
    """
    if len(baseline) != len(candidate):
        raise StatsError("paired outcomes must have the same length")
    b = sum(1 for x, y in zip(baseline, candidate, strict=True) if x and not y)
    c = sum(1 for x, y in zip(baseline, candidate, strict=True) if y and not x)
    from scipy.stats import binomtest  # lazily: scipy.stats costs ~1.5 s at every CLI start

    p_value = 1.0 if b + c == 0 else float(binomtest(c, b + c, 0.5).pvalue)
    return McNemarResult(n_pairs=len(baseline), only_baseline=b, only_candidate=c, p_value=p_value)


def paired_lift(
    baseline: Sequence[float],
    candidate: Sequence[float],
    confidence: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 0,
) -> LiftInterval:
    """Lift of candidate over baseline in points, with a paired percentile bootstrap interval.

    Efron & Tibshirani (1993), ch. 13: resample tasks with replacement, keeping each task's
    pair together (i.e. bootstrap the per-task differences), and take the (1-conf)/2 and
    (1+conf)/2 percentiles of the mean difference. NaN for an empty task list.
    """
    if len(baseline) != len(candidate):
        raise StatsError("paired outcomes must have the same length")
    if not 0 < confidence < 1:
        raise StatsError(f"confidence must be in (0, 1), got {confidence}")
    if not baseline:
        nan = float("nan")
        return LiftInterval(points=nan, low=nan, high=nan, confidence=confidence)
    diff = np.asarray(candidate, dtype=float) - np.asarray(baseline, dtype=float)
    low, high = bootstrap_mean_interval(diff, confidence, n_resamples=n_resamples, seed=seed)
    return LiftInterval(
        points=100 * float(diff.mean()),
        low=100 * low,
        high=100 * high,
        confidence=confidence,
    )


def harm_rate(baseline: Sequence[bool], candidate: Sequence[bool]) -> float:
    """Share of tasks all-N-consistent in the baseline that are not in the candidate.

    The practitioners' caveat made a number: P(candidate fails all-N | baseline passed all-N).
    NaN when no task passed all-N in the baseline.
    """
    if len(baseline) != len(candidate):
        raise StatsError("paired outcomes must have the same length")
    consistent = [y for x, y in zip(baseline, candidate, strict=True) if x]
    if not consistent:
        return float("nan")
    return sum(1 for y in consistent if not y) / len(consistent)


def harmed_tasks(baseline: Mapping[str, bool], candidate: Mapping[str, bool]) -> list[str]:
    """Ids of tasks that passed all-N in the baseline and not in the candidate, sorted."""
    return sorted(t for t, ok in baseline.items() if ok and t in candidate and not candidate[t])


def all_runs_passed(trajs: Sequence[Trajectory]) -> dict[str, bool]:
    """Task id -> whether every run of the task passed (the binary all-N outcome)."""
    return {task: all(t.success for t in runs) for task, runs in group_by_task(list(trajs)).items()}


def arm_summary(
    trajs: Sequence[Trajectory],
    k: int | None = None,
    confidence: float = 0.95,
    seed: int = 0,
) -> ArmSummary:
    """Per-run rate with a Wilson interval and all-N rate with a bootstrap interval over tasks.

    pass^k per task is `C(c, k) / C(n, k)` (Yao et al. 2024, tau-bench); k defaults to the
    smallest number of runs of any task, so that with N runs per task it is the all-N rate.
    """
    by_task = group_by_task(list(trajs))
    if not by_task:
        raise StatsError("an empty task list has no rate")
    counts = [(len(runs), sum(r.success for r in runs)) for runs in by_task.values()]
    k = k if k is not None else min(n for n, _ in counts)
    n_runs = sum(n for n, _ in counts)
    n_success = sum(c for _, c in counts)
    per_task = [pass_hat_k(n, c, k) for n, c in counts]
    per_task = [v for v in per_task if not math.isnan(v)]
    if not per_task:
        raise StatsError(f"no task has at least k={k} runs")
    low, high = wilson_interval(n_success, n_runs, confidence)
    a_low, a_high = bootstrap_mean_interval(per_task, confidence=confidence, seed=seed)
    return ArmSummary(
        n_tasks=len(by_task),
        n_runs=n_runs,
        k=k,
        per_run_rate=n_success / n_runs,
        per_run_low=low,
        per_run_high=high,
        all_n_rate=float(np.mean(per_task)),
        all_n_low=a_low,
        all_n_high=a_high,
    )


class ArmComparison(BaseModel):
    """Baseline vs candidate on the tasks both arms ran."""

    shared_tasks: int = Field(description="Tasks present in both arms (the paired set).")
    baseline: ArmSummary = Field(description="Baseline arm on the shared tasks.")
    candidate: ArmSummary = Field(description="Candidate arm on the shared tasks.")
    all_n_lift: LiftInterval = Field(description="Lift of the all-N rate, paired bootstrap.")
    per_run_lift: LiftInterval = Field(description="Lift of the per-task per-run rate.")
    mcnemar: McNemarResult = Field(description="Exact McNemar test on task all-N outcomes.")
    harm_rate: float = Field(description="Share of baseline-consistent tasks lost (NaN if none).")
    harmed_tasks: list[str] = Field(description="Ids of those lost tasks.")


def compare_arms(
    baseline: Sequence[Trajectory],
    candidate: Sequence[Trajectory],
    confidence: float = 0.95,
    seed: int = 0,
) -> ArmComparison:
    """Compare two arms on their shared tasks: rates, lifts, McNemar and harm, all paired."""
    base_by_task = group_by_task(list(baseline))
    cand_by_task = group_by_task(list(candidate))
    shared = sorted(set(base_by_task) & set(cand_by_task))
    if not shared:
        raise StatsError("the two arms share no task; a paired comparison needs common tasks")
    base = [r for t in shared for r in base_by_task[t]]
    cand = [r for t in shared for r in cand_by_task[t]]
    k = min(len(runs) for t in shared for runs in (base_by_task[t], cand_by_task[t]))
    base_all, cand_all = all_runs_passed(base), all_runs_passed(cand)
    base_rate, cand_rate = per_task_rates(base), per_task_rates(cand)
    b_all = [base_all[t] for t in shared]
    c_all = [cand_all[t] for t in shared]
    return ArmComparison(
        shared_tasks=len(shared),
        baseline=arm_summary(base, k=k, confidence=confidence, seed=seed),
        candidate=arm_summary(cand, k=k, confidence=confidence, seed=seed),
        all_n_lift=paired_lift(
            [_pass_hat(base_by_task[t], k) for t in shared],
            [_pass_hat(cand_by_task[t], k) for t in shared],
            confidence=confidence,
            seed=seed,
        ),
        per_run_lift=paired_lift(
            [base_rate[t] for t in shared],
            [cand_rate[t] for t in shared],
            confidence=confidence,
            seed=seed,
        ),
        mcnemar=mcnemar_exact(b_all, c_all),
        harm_rate=harm_rate(b_all, c_all),
        harmed_tasks=harmed_tasks(base_all, cand_all),
    )


def _pass_hat(runs: Sequence[Trajectory], k: int) -> float:
    return pass_hat_k(len(runs), sum(r.success for r in runs), k)


def per_task_rates(trajs: Sequence[Trajectory]) -> dict[str, float]:
    """Task id -> share of its runs that passed."""
    return {
        task: sum(r.success for r in runs) / len(runs)
        for task, runs in group_by_task(list(trajs)).items()
    }


__all__ = [
    "ArmComparison",
    "ArmSummary",
    "LiftInterval",
    "McNemarResult",
    "all_runs_passed",
    "arm_summary",
    "compare_arms",
    "harm_rate",
    "harmed_tasks",
    "mcnemar_exact",
    "paired_lift",
    "per_task_rates",
]
