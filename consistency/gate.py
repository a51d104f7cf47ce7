"""The release gate: block only on a drop larger than both the tolerance and the noise.

The rule (agreed before results arrive, as the brief asks):

    fail  <=>  drop > max_drop  AND  the drop is beyond noise

where `drop` is baseline minus candidate in points on the tasks both arms ran, and "beyond
noise" is, for metric `all-n`, the exact paired McNemar test on task-level all-N outcomes
(p < alpha, with more tasks lost than gained), and for `per-run`, the paired bootstrap interval
over tasks of the per-run rate difference lying wholly below zero. A tolerance smaller than the
half-width of that interval is flagged: such a gate is a coin toss.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from oncourse.consistency.compare import ArmSummary, McNemarResult, compare_arms
from oncourse.consistency.errors import StatsError
from oncourse.consistency.stats import group_by_task
from oncourse.consistency.trajectory import Trajectory
from pydantic import BaseModel, Field, field_validator

GateMetricName = Literal["all-n", "per-run"]


class GateOptions(BaseModel):
    """The gate's thresholds; agree them before the results arrive."""

    max_drop: float = Field(default=5.0, ge=0, le=100, description="Tolerated drop, points.")
    metric: GateMetricName = Field(default="all-n", description="all-n (pass^N) or per-run.")
    alpha: float = Field(default=0.05, gt=0, lt=1, description="Level of the paired test.")
    confidence: float = Field(default=0.95, gt=0, lt=1, description="Level of the intervals.")
    seed: int = Field(default=0, description="Seed of the paired bootstrap.")

    @field_validator("max_drop", "alpha", "confidence")
    @classmethod
    def _finite(cls, value: float) -> float:
        if not math.isfinite(value):
            raise ValueError("must be a finite number")
        return value


class GateResult(BaseModel):
    """The gate's decision and everything it rests on (`oncourse gate --json`)."""

    metric: GateMetricName = Field(description="The rate compared.")
    max_drop: float = Field(description="Tolerated drop, points.")
    alpha: float = Field(description="Significance level of the paired test.")
    confidence: float = Field(description="Level of the drop interval.")
    passed: bool = Field(description="False only when the drop is beyond tolerance AND noise.")
    beyond_tolerance: bool = Field(description="drop_points > max_drop.")
    beyond_noise: bool = Field(description="The paired test says the drop is not noise.")
    noise_test: str = Field(description="The noise test and its figures, in words.")
    drop_points: float = Field(description="Baseline minus candidate rate, points.")
    drop_low: float = Field(description="Low end of the drop's interval, points.")
    drop_high: float = Field(description="High end of the drop's interval, points.")
    shared_tasks: int = Field(description="Tasks both arms ran (the paired set).")
    baseline_only_tasks: int = Field(description="Tasks only the baseline ran (left out).")
    candidate_only_tasks: int = Field(description="Tasks only the candidate ran (left out).")
    baseline: ArmSummary = Field(description="Baseline on the shared tasks.")
    candidate: ArmSummary = Field(description="Candidate on the shared tasks.")
    mcnemar: McNemarResult = Field(description="Exact McNemar test on all-N task outcomes.")
    harm_rate: float = Field(description="Share of baseline-consistent tasks lost (NaN if none).")
    harmed_tasks: list[str] = Field(description="Ids of those lost tasks.")
    reasons: list[str] = Field(description="Why it passed or failed, one line per test.")
    warnings: list[str] = Field(description="A tolerance below the noise, left-out tasks.")
    duplicates: int = Field(default=0, description="Repeated runs dropped while reading.")


def _rate(arm: ArmSummary, metric: str) -> float:
    return float(arm.all_n_rate if metric == "all-n" else arm.per_run_rate)


def decide_gate(
    baseline: Sequence[Trajectory],
    candidate: Sequence[Trajectory],
    options: GateOptions | None = None,
) -> GateResult:
    """Compare two arms on their shared tasks and decide whether the candidate may ship."""
    opts = options or GateOptions()
    if not baseline or not candidate:
        raise StatsError("the gate needs runs in both arms; an empty arm has no rate")
    base_tasks, cand_tasks = set(group_by_task(baseline)), set(group_by_task(candidate))
    cmp = compare_arms(baseline, candidate, confidence=opts.confidence, seed=opts.seed)
    lift = cmp.all_n_lift if opts.metric == "all-n" else cmp.per_run_lift
    drop, drop_low, drop_high = -lift.points, -lift.high, -lift.low
    if opts.metric == "all-n":
        mc = cmp.mcnemar
        beyond_noise = mc.p_value < opts.alpha and mc.only_baseline > mc.only_candidate
        noise_test = (
            f"exact McNemar on {mc.n_pairs} tasks: {mc.only_baseline} lost, "
            f"{mc.only_candidate} gained, p = {mc.p_value:.3g} (alpha {opts.alpha})"
        )
    else:
        beyond_noise = drop_low > 0
        verb = "excludes" if beyond_noise else "includes"
        noise_test = (
            f"paired bootstrap over {cmp.shared_tasks} tasks: drop {opts.confidence:.0%} "
            f"interval [{drop_low:.1f}, {drop_high:.1f}] points {verb} 0"
        )
    beyond_tolerance = drop > opts.max_drop
    reasons = [
        f"{opts.metric} rate {_rate(cmp.baseline, opts.metric):.1%} -> "
        f"{_rate(cmp.candidate, opts.metric):.1%}: drop {drop:+.1f} points "
        f"{'>' if beyond_tolerance else '<='} tolerance {opts.max_drop:g}",
        noise_test + (": beyond noise" if beyond_noise else ": within noise"),
    ]
    warnings = []
    half_width = (drop_high - drop_low) / 2
    if opts.max_drop < half_width:
        warnings.append(
            f"tolerance {opts.max_drop:g} points is smaller than the interval's half-width "
            f"({half_width:.1f} points): with this many tasks the gate cannot resolve it"
        )
    if base_tasks ^ cand_tasks:
        warnings.append(
            f"{len(base_tasks - cand_tasks)} baseline-only and {len(cand_tasks - base_tasks)} "
            "candidate-only tasks were left out of the paired comparison"
        )
    return GateResult(
        metric=opts.metric,
        max_drop=opts.max_drop,
        alpha=opts.alpha,
        confidence=opts.confidence,
        passed=not (beyond_tolerance and beyond_noise),
        beyond_tolerance=beyond_tolerance,
        beyond_noise=beyond_noise,
        noise_test=noise_test,
        drop_points=drop,
        drop_low=drop_low,
        drop_high=drop_high,
        shared_tasks=cmp.shared_tasks,
        baseline_only_tasks=len(base_tasks - cand_tasks),
        candidate_only_tasks=len(cand_tasks - base_tasks),
        baseline=cmp.baseline,
        candidate=cmp.candidate,
        mcnemar=cmp.mcnemar,
        harm_rate=cmp.harm_rate,
        harmed_tasks=cmp.harmed_tasks,
        reasons=reasons,
        warnings=warnings,
    )


__all__ = ["GateMetricName", "GateOptions", "GateResult", "decide_gate"]
