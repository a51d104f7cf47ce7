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
from pydantic import BaseModel, Field

_EXACT_INT = 2**52  # above this, N and N - 1 are the same float: no rounding guard is possible
_TINY_RATE = 1e-4  # below this, 1 - p loses the digits of p; use log1p/expm1 instead


def _check_rate(flip_rate: float, confidence: float) -> None:
    # Written so that NaN fails both checks (every comparison with NaN is false).
    if not 0 < flip_rate < 1:
        raise StatsError(f"flip rate must be in (0, 1), got {flip_rate}")
    if not 0 < confidence < 1:
        raise StatsError(f"confidence must be in (0, 1), got {confidence}")


def detection_probability(flip_rate: float, runs: int) -> float:
    """Chance that `runs` independent runs show at least one flip: 1 - (1 - p)^N."""
    if runs < 0:
        raise StatsError(f"runs must be >= 0, got {runs}")
    if flip_rate < _TINY_RATE:
        return -math.expm1(runs * math.log1p(-flip_rate))
    return 1.0 - (1.0 - flip_rate) ** runs


def runs_to_detect(flip_rate: float, confidence: float = 0.95) -> int:
    """Smallest N with 1 - (1 - p)^N >= confidence, i.e. ceil(log(1 - conf) / log(1 - p))."""
    _check_rate(flip_rate, confidence)
    # log1p: with p = 1e-300, log(1 - p) is log(1.0) = 0 and the division fails.
    n = max(1, math.ceil(math.log1p(-confidence) / math.log1p(-flip_rate)))
    if n >= _EXACT_INT:
        return n
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
    return 1.0 - float((1.0 - confidence) ** (1.0 / runs))


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


class ObservedFlips(BaseModel):
    """What runs already on disk say about the flip rate."""

    runs: int = Field(description="Runs read.")
    tasks: int = Field(description="Tasks they cover.")
    min_runs_per_task: int = Field(description="Fewest runs any task has.")
    flips: int = Field(description="Runs in their task's minority outcome.")
    flip_rate: float = Field(description="flips / runs.")
    low: float = Field(description="Low end of the Wilson interval of the flip rate.")
    high: float = Field(description="High end of the Wilson interval of the flip rate.")
    upper_bound: float = Field(description="Highest flip rate the data leave possible.")
    upper_bound_method: str = Field(description="How upper_bound was computed.")
    rules_out_flip_rate: bool = Field(description="The planned flip rate is above upper_bound.")
    smallest_detectable_rate: float = Field(description="At min_runs_per_task runs per task.")
    expected_wrong_per_day_at_upper: float = Field(description="Volume x upper_bound.")
    duplicates: int = Field(default=0, description="Repeated runs dropped while reading.")


class Plan(BaseModel):
    """How many runs per task it takes to see a flip rate (`oncourse plan --json`)."""

    flip_rate: float = Field(description="Per-run flip rate planned for.")
    confidence: float = Field(description="Wanted chance of seeing at least one flip.")
    volume_per_day: float = Field(description="Runs per day in production.")
    runs_per_task: int = Field(description="Smallest N with 1 - (1 - p)^N >= confidence.")
    expected_wrong_per_day: float = Field(description="volume_per_day x flip_rate.")
    detection_probability: dict[str, float] = Field(
        description="N ('1', '5', runs_per_task) -> chance that N runs show a flip."
    )
    observed: ObservedFlips | None = Field(default=None, description="From runs, if given.")


def observe_flips(
    trajs: Sequence[Trajectory], flip_rate: float, confidence: float, per_day: float
) -> ObservedFlips:
    """The flip rate that recorded runs show, and the rates they rule out."""
    flips, total = count_flips(trajs)
    if total < 1:
        raise StatsError("no runs: an empty task list has no rate")
    min_runs = min(len(r) for r in group_by_task(list(trajs)).values())
    low, high = wilson_interval(flips, total, confidence)
    upper, method = flip_rate_upper_bound(flips, total, confidence)
    return ObservedFlips(
        runs=total,
        tasks=len(group_by_task(list(trajs))),
        min_runs_per_task=min_runs,
        flips=flips,
        flip_rate=flips / total,
        low=low,
        high=high,
        upper_bound=upper,
        upper_bound_method=method,
        rules_out_flip_rate=flip_rate > upper,
        smallest_detectable_rate=smallest_detectable_rate(min_runs, confidence),
        expected_wrong_per_day_at_upper=expected_flips(per_day, upper),
    )


def make_plan(
    flip_rate: float,
    volume: str | float = "400/day",
    confidence: float = 0.95,
    runs: Sequence[Trajectory] | None = None,
) -> Plan:
    """Pick N from volume, and (with runs) what the data already rule out."""
    per_day = parse_volume(volume) if isinstance(volume, str) else float(volume)
    if not (per_day > 0 and math.isfinite(per_day)):
        raise StatsError(f"volume must be a positive number of runs per day, got {volume!r}")
    n = runs_to_detect(flip_rate, confidence)
    return Plan(
        flip_rate=flip_rate,
        confidence=confidence,
        volume_per_day=per_day,
        runs_per_task=n,
        expected_wrong_per_day=expected_flips(per_day, flip_rate),
        detection_probability={
            str(k): detection_probability(flip_rate, k) for k in sorted({1, 5, n})
        },
        observed=observe_flips(runs, flip_rate, confidence, per_day) if runs else None,
    )


__all__ = [
    "ObservedFlips",
    "Plan",
    "count_flips",
    "detection_probability",
    "expected_flips",
    "flip_rate_upper_bound",
    "make_plan",
    "observe_flips",
    "parse_volume",
    "runs_to_detect",
    "smallest_detectable_rate",
]
