"""Statistics for repeated runs of the same tasks: the task is the unit, not the run.

Runs of one task are not independent (see the brief), so intervals and tests here resample or
count tasks: a cluster bootstrap for the per-run rate, a sign test on per-task rates for a paired
A/B, a per-task exact test for harm, and the smallest lift a paired design of this many tasks
could detect.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from oncourse.consistency.stats import fisher_exact_2x2
from pydantic import BaseModel, Field


class RateInterval(BaseModel):
    """A rate with its interval; `degenerate` when the interval has zero width."""

    rate: float = Field(description="The point estimate.")
    low: float = Field(description="Lower end of the interval.")
    high: float = Field(description="Upper end of the interval.")
    degenerate: bool = Field(
        description="True when low == high: every resample agreed, which is not certainty."
    )


def cluster_bootstrap_rate(
    counts: Sequence[tuple[int, int]],
    confidence: float = 0.95,
    n_resamples: int = 5_000,
    seed: int = 0,
) -> RateInterval:
    """Per-run rate sum(c)/sum(n) with a percentile bootstrap over tasks (clusters).

    Field & Welsh (2007), cluster bootstrap: resample whole tasks with replacement, keeping each
    task's runs together, so repeats of a task are never treated as independent evidence.

    Args:
        counts: (runs, successes) per task.
        confidence: the interval's level.
        n_resamples: bootstrap resamples.
        seed: seed of the resampling.
    """
    if not counts:
        nan = float("nan")
        return RateInterval(rate=nan, low=nan, high=nan, degenerate=False)
    n = np.array([r for r, _ in counts], dtype=float)
    c = np.array([s for _, s in counts], dtype=float)
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(counts), size=(n_resamples, len(counts)))
    rates = c[picks].sum(axis=1) / np.maximum(n[picks].sum(axis=1), 1.0)
    alpha = (1 - confidence) / 2
    low, high = (float(x) for x in np.quantile(rates, [alpha, 1 - alpha]))
    return RateInterval(
        rate=float(c.sum() / n.sum()), low=low, high=high, degenerate=math.isclose(low, high)
    )


class SignTest(BaseModel):
    """Exact sign test on paired per-task values (ties dropped)."""

    n_pairs: int = Field(description="Tasks compared.")
    higher: int = Field(description="Tasks where the candidate's value is higher.")
    lower: int = Field(description="Tasks where it is lower.")
    p_value: float = Field(description="Two-sided exact p-value; 1.0 when every pair ties.")


def sign_test(baseline: Sequence[float], candidate: Sequence[float]) -> SignTest:
    """Two-sided exact sign test: under H0 a non-tied task is higher or lower with p = 1/2.

    Dixon & Mood (1946); scipy's `binomtest` gives the exact p-value.
    """
    pairs = list(zip(baseline, candidate, strict=True))
    higher = sum(1 for b, c in pairs if c > b)
    lower = sum(1 for b, c in pairs if c < b)
    from scipy.stats import binomtest

    p = 1.0 if higher + lower == 0 else float(binomtest(higher, higher + lower, 0.5).pvalue)
    return SignTest(n_pairs=len(pairs), higher=higher, lower=lower, p_value=p)


def task_change_p(base: tuple[int, int], cand: tuple[int, int]) -> float:
    """Two-sided Fisher exact p-value that one task's success rate differs between two arms.

    Fisher (1922): the 2x2 table of successes and failures of the task's runs in each arm.
    """
    (n_b, c_b), (n_c, c_c) = base, cand
    return fisher_exact_2x2(c_b, n_b - c_b, c_c, n_c - c_c)


def min_detectable_lift(
    null_variances: Sequence[float], alpha: float = 0.05, power: float = 0.8
) -> float:
    """Smallest mean paired difference a design of this many tasks detects (normal approx.).

    MDE = (z_{1-alpha/2} + z_{power}) * sqrt(mean variance) / sqrt(T) (Cohen 1988), where each
    task's variance is that of its paired difference when nothing changes (for a per-run rate
    p over n runs in each arm, 2 p (1 - p) / n). NaN with fewer than two tasks.
    """
    if len(null_variances) < 2:
        return float("nan")
    sd = math.sqrt(float(np.mean(np.asarray(null_variances, dtype=float))))
    from scipy.stats import norm

    z = float(norm.ppf(1 - alpha / 2) + norm.ppf(power))
    return z * sd / math.sqrt(len(null_variances))


__all__ = [
    "RateInterval",
    "SignTest",
    "cluster_bootstrap_rate",
    "min_detectable_lift",
    "sign_test",
    "task_change_p",
]
