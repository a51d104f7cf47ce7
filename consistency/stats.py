"""Reliability statistics over N runs per task: pass@k, pass^k, intervals, path variance.

Every estimator is a small pure function citing where its formula comes from. Undefined values
are NaN here; `consistency/reliability.py` assembles them into the report, with None for NaN.
"""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

import numpy as np
from oncourse.consistency.errors import StatsError
from oncourse.consistency.trajectory import RESPOND_TOOL, Action, Trajectory

PATH_SEPARATOR = " > "


def _check_counts(n: int, c: int, k: int) -> None:
    for name, value in (("n", n), ("c", c), ("k", k)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise StatsError(f"{name} must be an integer, got {value!r}")
    if k < 1:
        raise StatsError(f"k must be a positive integer, got {k} (k = 0 makes pass^k vacuously 1)")
    if n < 0 or c < 0 or c > n:
        raise StatsError(f"need 0 <= c <= n, got n={n}, c={c}")


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of k runs drawn from n succeeds: 1 - C(n-c,k)/C(n,k).

    Unbiased estimator of Chen et al. 2021, "Evaluating Large Language Models Trained on Code"
    (https://arxiv.org/abs/2107.03374), eq. 1. NaN when n < k.
    """
    _check_counts(n, c, k)
    if n < k:
        return math.nan
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Probability that all k runs drawn from n succeed: C(c,k)/C(n,k).

    The pass^k metric of Yao et al. 2024, "tau-bench" (https://arxiv.org/abs/2406.12045), sec. 4.
    NaN when n < k.
    """
    _check_counts(n, c, k)
    if n < k:
        return math.nan
    return math.comb(c, k) / math.comb(n, k)


def wilson_interval(successes: int, total: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial rate (Wilson 1927), computed by scipy.

    Uses `scipy.stats.binomtest(...).proportion_ci(method="wilson")`; 10 of 10 gives 72-100%.
    """
    _check_counts(total, successes, 1)
    if total == 0:
        raise StatsError("a rate over zero runs has no interval")
    if not 0.0 < confidence < 1.0:
        raise StatsError(f"confidence must be in (0, 1), got {confidence}")
    from scipy.stats import binomtest

    ci = binomtest(int(successes), int(total)).proportion_ci(
        confidence_level=confidence, method="wilson"
    )
    return float(ci.low), float(ci.high)


def fisher_exact_2x2(a: int, b: int, c: int, d: int) -> float:
    """Two-sided Fisher exact p-value of the 2x2 table [[a, b], [c, d]].

    Fisher (1922): with the margins fixed, the top-left cell is hypergeometric; the p-value sums
    the probabilities of every table no more likely than the one observed (within a relative
    1e-7, as scipy's `fisher_exact` does, so ties in floating point count as equal). Exact
    integer arithmetic; no scipy import (it costs seconds at a command's start).
    """
    row1, col1, n = a + b, a + c, a + b + c + d
    if n == 0 or row1 in (0, n) or col1 in (0, n):
        return 1.0
    low, high = max(0, row1 + col1 - n), min(row1, col1)
    weights = [math.comb(col1, x) * math.comb(n - col1, row1 - x) for x in range(low, high + 1)]
    observed = weights[a - low] * (1 + 1e-7)
    return min(1.0, sum(w for w in weights if w <= observed) / math.comb(n, row1))


def bootstrap_mean_interval(
    values: Sequence[float] | np.ndarray,
    confidence: float = 0.95,
    n_resamples: int = 10000,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean (Efron & Tibshirani 1993), by scipy.

    Resamples the values (one per task) with replacement through `scipy.stats.bootstrap`;
    seeded, so the same input gives the same interval. A single value or identical values give
    a zero-width interval.
    """
    data = np.asarray(values, dtype=float)
    if data.ndim != 1 or data.size == 0:
        raise StatsError("the bootstrap needs a non-empty list of values")
    if not np.all(np.isfinite(data)):
        raise StatsError("the bootstrap needs finite values (drop undefined tasks first)")
    if not 0.0 < confidence < 1.0:
        raise StatsError(f"confidence must be in (0, 1), got {confidence}")
    if n_resamples < 1:
        raise StatsError(f"n_resamples must be positive, got {n_resamples}")
    if data.size == 1 or np.all(data == data[0]):
        return float(data[0]), float(data[0])
    from scipy.stats import bootstrap

    rng = np.random.default_rng(seed)
    kwargs: dict[str, Any] = {
        "confidence_level": confidence,
        "n_resamples": n_resamples,
        "method": "percentile",
        "vectorized": True,
    }
    try:
        result = bootstrap((data,), np.mean, rng=rng, **kwargs)
    except TypeError:  # scipy < 1.15 names the generator `random_state`
        result = bootstrap((data,), np.mean, random_state=rng, **kwargs)
    ci = result.confidence_interval
    return float(ci.low), float(ci.high)


def group_by_task(trajs: Iterable[Trajectory]) -> dict[str, list[Trajectory]]:
    """The runs of each task, keyed by task id, in first-seen order."""
    groups: dict[str, list[Trajectory]] = {}
    for traj in trajs:
        groups.setdefault(traj.task_id, []).append(traj)
    return groups


def action_key(action: Action) -> str:
    """Canonical JSON of one action (tool and args, sorted keys) used for path identity.

    A reply's wording is output variance, not path variance (the brief's three variances), so a
    `respond` step is keyed by its tool alone.
    """
    args = {} if action.tool == RESPOND_TOOL else action.args
    return json.dumps(
        [action.tool, args], sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
    )


def action_signature(traj: Trajectory) -> str:
    """Canonical JSON of a run's whole action sequence; equal signatures mean identical paths."""
    return "[" + ",".join(action_key(step.action) for step in traj.steps) + "]"


def path_label(traj: Trajectory) -> str:
    """The run's tool names joined by ' > ', for humans (arguments left out)."""
    return PATH_SEPARATOR.join(step.action.tool for step in traj.steps) or "(no steps)"


def distinct_paths(runs: Sequence[Trajectory]) -> int:
    """Number of distinct action sequences among the runs of one task (path variance)."""
    return len({action_signature(run) for run in runs})


def path_counter(runs: Sequence[Trajectory]) -> list[dict[str, Any]]:
    """The distinct paths of one task with how many runs took each and how many passed.

    The `paths` Counter of the blog harness the brief describes; most-taken path first.
    """
    counts: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    labels: dict[str, str] = {}
    for run in runs:
        signature = action_signature(run)
        counts[signature] += 1
        wins[signature] += int(run.success)
        labels.setdefault(signature, path_label(run))
    ordered = sorted(counts.items(), key=lambda item: (-item[1], labels[item[0]], item[0]))
    # Paths with the same tools but other arguments would print alike; number them.
    same_label = Counter(labels[sig] for sig, _ in ordered)
    seen: Counter[str] = Counter()
    entries = []
    for sig, n in ordered:
        label = labels[sig]
        seen[label] += 1
        if same_label[label] > 1:
            label = f"{label} [args variant {seen[label]}]"
        entries.append({"path": label, "runs": n, "successes": wins[sig]})
    return entries


def step_count_spread(runs: Sequence[Trajectory]) -> dict[str, float]:
    """Min, max and population standard deviation of the step counts of one task's runs."""
    if not runs:
        raise StatsError("no runs to measure")
    counts = [len(run.steps) for run in runs]
    return {"min": min(counts), "max": max(counts), "std": statistics.pstdev(counts)}


def identical_pairs(runs: Sequence[Trajectory]) -> tuple[int, int]:
    """(identical, total) unordered run pairs of one task with the same action sequence."""
    signatures = [action_signature(run) for run in runs]
    same = sum(1 for a, b in combinations(signatures, 2) if a == b)
    return same, math.comb(len(signatures), 2)


def identical_pair_share(groups: dict[str, list[Trajectory]]) -> float:
    """Share of within-task run pairs whose action sequences are identical; NaN with no pairs.

    Repeats are not independent when this is high, so intervals over runs are optimistic.
    """
    same = total = 0
    for runs in groups.values():
        s, t = identical_pairs(runs)
        same, total = same + s, total + t
    return same / total if total else math.nan


def _answer_key(answer: str | None) -> str | None:
    return None if answer is None else " ".join(answer.split()).casefold()


def distinct_final_answers(runs: Sequence[Trajectory]) -> int:
    """Number of distinct final answers (whitespace and case ignored) among a task's runs.

    Output variance, the third of the brief's three variances; a run without one counts as one
    more answer.
    """
    return len({_answer_key(run.final_answer) for run in runs})


__all__ = [
    "PATH_SEPARATOR",
    "action_key",
    "action_signature",
    "bootstrap_mean_interval",
    "distinct_final_answers",
    "distinct_paths",
    "fisher_exact_2x2",
    "group_by_task",
    "identical_pair_share",
    "identical_pairs",
    "pass_at_k",
    "pass_hat_k",
    "path_counter",
    "path_label",
    "step_count_spread",
    "wilson_interval",
]
