"""Pick N from volume: how many runs per task it takes to see a flip, and what data rules out.

A *flip* is a run whose outcome differs from the usual outcome of the same input. With a
per-run flip rate p and runs assumed independent, N runs of a task show at least one flip with
probability 1 - (1 - p)^N.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from oncourse.consistency.errors import StatsError
from oncourse.consistency.stats import group_by_task, wilson_interval
from oncourse.consistency.trajectory import Trajectory


def _check_rate(flip_rate: float, confidence: float) -> None:
    if not 0 < flip_rate < 1:
        raise StatsError(f"flip rate must be in (0, 1), got {flip_rate}")
    if not 0 < confidence < 1:
        raise StatsError(f"confidence must be in (0, 1), got {confidence}")


def detection_probability(flip_rate: float, runs: int) -> float:
    """Chance that `runs` independent runs show at least one flip: 1 - (1 - p)^N."""
    if runs < 0:
        raise StatsError(f"runs must be >= 0, got {runs}")
    return 1.0 - (1.0 - flip_rate) ** runs


def runs_to_detect(flip_rate: float, confidence: float = 0.95) -> int:
    """Smallest N with 1 - (1 - p)^N >= confidence, i.e. ceil(log(1 - conf) / log(1 - p))."""
    _check_rate(flip_rate, confidence)
    n = max(1, math.ceil(math.log(1 - confidence) / math.log(1 - flip_rate)))
    # Guard the ceiling against rounding on either side of an exact integer.
    while n > 1 and detection_probability(flip_rate, n - 1) >= confidence:
        n -= 1
    while detection_probability(flip_rate, n) < confidence:
        n += 1
    return n


def expected_flips(volume: float, flip_rate: float) -> float:
    """Expected wrong decisions per period: volume x flip rate (400/day x 2% = 8/day)."""
    return volume * flip_rate


def smallest_detectable_rate(runs: int, confidence: float = 0.95) -> float:
    """Smallest flip rate that N runs show at least once with the given confidence."""
    if runs < 1:
        raise StatsError(f"runs must be >= 1, got {runs}")
    return 1.0 - (1.0 - confidence) ** (1.0 / runs)


def count_flips(trajs: Sequence[Trajectory]) -> tuple[int, int]:
    """(flips, runs): per task, the runs in the minority outcome count as flips.

    A task with c successes in n runs contributes min(c, n - c) flips. This is the estimate of
    the per-run flip rate that assumes the majority outcome is the usual one.
    """
    flips = runs = 0
    for task_runs in group_by_task(list(trajs)).values():
        c = sum(r.success for r in task_runs)
        flips += min(c, len(task_runs) - c)
        runs += len(task_runs)
    return flips, runs


def flip_rate_upper_bound(flips: int, runs: int, confidence: float = 0.95) -> tuple[float, str]:
    """Upper bound on the per-run flip rate and the method that gave it.

    With zero flips the exact one-sided binomial (Clopper-Pearson) bound 1 - (1 - conf)^(1/n)
    is used; at 95% it is about 3/n, Hanley & Lippman-Hand (1983)'s "rule of three". Otherwise
    the upper end of the two-sided Wilson (1927) score interval.
    """
    if runs < 1:
        raise StatsError("no runs: an empty task list has no rate")
    if flips == 0:
        return 1.0 - (1.0 - confidence) ** (1.0 / runs), "exact one-sided (rule of three)"
    return wilson_interval(flips, runs, confidence)[1], "wilson"


def parse_volume(text: str) -> float:
    """Parse '400/day', '50/hour', '2000/week' or a bare number (per day) into runs per day."""
    per = {"day": 1.0, "d": 1.0, "hour": 24.0, "h": 24.0, "week": 1 / 7, "w": 1 / 7}
    number, _, unit = text.strip().partition("/")
    unit = unit.strip().lower() or "day"
    try:
        value = float(number)
    except ValueError:
        raise StatsError(f"volume must look like 400/day, got {text!r}") from None
    if unit not in per:
        raise StatsError(f"volume unit must be day, hour or week, got {unit!r}")
    if value <= 0 or not math.isfinite(value):
        raise StatsError(f"volume must be positive, got {text!r}")
    return value * per[unit]


__all__ = [
    "count_flips",
    "detection_probability",
    "expected_flips",
    "flip_rate_upper_bound",
    "parse_volume",
    "runs_to_detect",
    "smallest_detectable_rate",
]
