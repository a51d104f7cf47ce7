"""The reliability report of N runs per task: the `oncourse report --json` object, as models.

`reliability` computes it from the estimators in `consistency/stats.py`; undefined values
(a pass^k over a task with fewer than k runs, an interval with no pairs) are None. The keys
`pass@1`, `pass^k`, ... are field aliases: they are what the JSON has always used.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
from oncourse.consistency.errors import StatsError
from oncourse.consistency.stats import (
    bootstrap_mean_interval,
    distinct_final_answers,
    distinct_paths,
    group_by_task,
    identical_pair_share,
    pass_at_k,
    pass_hat_k,
    path_counter,
    step_count_spread,
    wilson_interval,
)
from oncourse.consistency.trajectory import Trajectory
from pydantic import BaseModel, ConfigDict, Field

Rates = dict[str, float | None]
"""A rate per k (`"1"`, `"2"`, ...); None where undefined."""


class _Aliased(BaseModel):
    """Fields named `pass_hat_k` in Python are `pass^k` in JSON (read by either name)."""

    model_config = ConfigDict(validate_by_name=True, serialize_by_alias=True)


class StepSpread(BaseModel):
    """Step counts of one task's runs."""

    min: int = Field(description="Fewest steps of a run.")
    max: int = Field(description="Most steps of a run.")
    std: float = Field(description="Population standard deviation of the step counts.")


class TaskReliability(_Aliased):
    """One task's runs: counts, pass^k and pass@k per k, path and output variance."""

    task_id: str = Field(description="The task.")
    runs: int = Field(description="Runs of the task.")
    successes: int = Field(description="Runs that passed.")
    pass_hat_k: Rates = Field(
        serialization_alias="pass^k",
        validation_alias="pass^k",
        description="All k of k drawn runs pass, per k.",
    )
    pass_at_k: Rates = Field(
        serialization_alias="pass@k",
        validation_alias="pass@k",
        description="At least one of k passes, per k.",
    )
    distinct_paths: int = Field(description="Distinct action sequences (path variance).")
    distinct_final_answers: int = Field(description="Distinct final answers (output variance).")
    steps: StepSpread = Field(description="Spread of the step counts.")
    instruction: str | None = Field(description="The task's input (what repeats across runs).")


class PathCount(BaseModel):
    """One distinct tool path of a task: how many runs took it and how many of those passed."""

    path: str = Field(description="Tool names joined by ' > ' (args variants numbered).")
    runs: int = Field(description="Runs that took this path.")
    successes: int = Field(description="Of those, runs that passed.")


class FlakyTask(BaseModel):
    """A task with 0 < passes < runs, with its distinct paths (most taken first)."""

    task_id: str = Field(description="The task.")
    runs: int = Field(description="Runs of the task.")
    successes: int = Field(description="Runs that passed.")
    paths: list[PathCount] = Field(description="The distinct paths and their outcomes.")


class RunsPerTask(BaseModel):
    """Fewest and most runs of a task."""

    min: int = Field(description="Fewest runs of any task.")
    max: int = Field(description="Most runs of any task.")


class DateRange(BaseModel):
    """First and last start time of the runs (ISO-8601)."""

    first: str = Field(description="Earliest start time.")
    last: str = Field(description="Latest start time.")


class Provenance(BaseModel):
    """Where the runs come from: models, providers, dates, versions, source files."""

    models: list[str] = Field(description="Models that made the runs.")
    providers: list[str] = Field(description="Their providers.")
    simulated: bool = Field(description="Whether any run came from a simulated model.")
    dates: DateRange | None = Field(description="Start times; None when no run has one.")
    oncourse_versions: list[str] = Field(description="oncourse versions that recorded the runs.")
    sources: list[str] = Field(description="Source files named in the runs' metadata.")


class PathVariance(BaseModel):
    """How many ways the tasks were done."""

    mean_distinct_paths: float = Field(description="Mean distinct action sequences per task.")
    mean_step_std: float = Field(description="Mean standard deviation of step counts.")
    all_pass_with_several_paths: int = Field(
        description="Tasks that always passed but on more than one path (an early warning)."
    )


class OutputVariance(BaseModel):
    """How many different final answers the tasks got."""

    mean_distinct_final_answers: float = Field(description="Mean distinct final answers per task.")


class ReliabilityReport(_Aliased):
    """Per-run vs all-N reliability of N runs per task, with intervals and provenance."""

    tasks: int = Field(description="Tasks with at least one run.")
    runs: int = Field(description="Runs in all.")
    runs_per_task: RunsPerTask = Field(description="Fewest and most runs of a task.")
    k: int = Field(description="N: the largest k reported (default: the smallest run count).")
    successes: int = Field(description="Runs that passed.")
    pass_at_1: float = Field(
        serialization_alias="pass@1",
        validation_alias="pass@1",
        description="Mean of the per-task pass rates.",
    )
    pass_at_1_pooled: float = Field(
        serialization_alias="pass@1_pooled",
        validation_alias="pass@1_pooled",
        description="successes / runs.",
    )
    pass_at_1_wilson: list[float] = Field(
        serialization_alias="pass@1_wilson",
        validation_alias="pass@1_wilson",
        description="95% Wilson interval of the pooled per-run rate.",
    )
    pass_hat_k: Rates = Field(
        serialization_alias="pass^k",
        validation_alias="pass^k",
        description="Suite pass^k per k (None when a task has fewer than k runs).",
    )
    pass_at_k: Rates = Field(
        serialization_alias="pass@k",
        validation_alias="pass@k",
        description="Suite pass@k per k (None likewise).",
    )
    pass_hat_n_bootstrap: list[float] | None = Field(
        serialization_alias="pass^N_bootstrap",
        validation_alias="pass^N_bootstrap",
        description="95% percentile bootstrap over tasks of pass^N.",
    )
    gap_points: float | None = Field(description="100 x (pass@1 - pass^N): the consistency gap.")
    identical_pair_share: float | None = Field(
        description="Share of within-task run pairs with identical action sequences."
    )
    distinct_instructions: int = Field(description="Distinct task inputs among the tasks.")
    unequal_runs: bool = Field(description="Whether run counts differ between tasks.")
    tasks_with_fewer_than_k_runs: list[str] = Field(description="Tasks with fewer than k runs.")
    path_variance: PathVariance = Field(description="Path variance over tasks.")
    run_errors: dict[str, int] = Field(description="Thrown runs by error kind (counted failed).")
    output_variance: OutputVariance = Field(description="Output variance over tasks.")
    provenance: Provenance = Field(description="Models, dates, versions of the runs.")
    per_task: list[TaskReliability] = Field(description="Every task's numbers.")
    flaky: list[FlakyTask] = Field(description="Flaky tasks, lowest pass rate first.")


def _none_if_nan(value: float) -> float | None:
    return None if math.isnan(value) else value


def _suite_mean(per_task: list[float]) -> float:
    # A suite value over tasks where some are undefined would average different task sets.
    if any(math.isnan(v) for v in per_task):
        return math.nan
    return float(np.mean(per_task))


def _provenance(trajs: Sequence[Trajectory]) -> Provenance:
    dates = sorted(t.meta.started_at for t in trajs if t.meta.started_at)
    versions = sorted({t.meta.oncourse_version for t in trajs if t.meta.oncourse_version})
    return Provenance(
        models=sorted({t.meta.model for t in trajs if t.meta.model}),
        providers=sorted({t.meta.provider for t in trajs if t.meta.provider}),
        simulated=any(t.meta.simulated or t.meta.provider == "simulated" for t in trajs),
        dates=DateRange(first=dates[0], last=dates[-1]) if dates else None,
        oncourse_versions=versions,
        sources=sorted({str(s) for t in trajs if (s := getattr(t.meta, "source", None))}),
    )


def _check_k(k: int | None) -> None:
    if k is None:
        return
    if isinstance(k, bool) or not isinstance(k, int | np.integer):
        raise StatsError(f"k must be a positive integer, got {k!r}")
    if k < 1:
        raise StatsError(f"k must be a positive integer, got {k} (k = 0 makes pass^k vacuously 1)")


def _task_entry(task_id: str, runs: list[Trajectory], ks: range) -> TaskReliability:
    n, c = len(runs), sum(run.success for run in runs)
    return TaskReliability(
        task_id=task_id,
        runs=n,
        successes=c,
        pass_hat_k={str(k): _none_if_nan(pass_hat_k(n, c, k)) for k in ks},
        pass_at_k={str(k): _none_if_nan(pass_at_k(n, c, k)) for k in ks},
        distinct_paths=distinct_paths(runs),
        distinct_final_answers=distinct_final_answers(runs),
        steps=StepSpread.model_validate(step_count_spread(runs)),
        instruction=next((text for text in map(_task_input, runs) if text), None),
    )


def _task_input(run: Trajectory) -> str | None:
    """The task's input: the recorded instruction when the importer kept one, else the task text.

    An imported benchmark run's task text is the first user message the agent saw, which a
    simulated user words differently on each trial; the instruction behind it is what repeats, so
    it is what counts as one input (distinct instructions are reported next to the intervals).
    """
    instruction = (run.meta.model_extra or {}).get("instruction")
    return instruction if isinstance(instruction, str) and instruction else run.task


def _flaky(per_task: list[TaskReliability], groups: dict[str, list[Trajectory]]) -> list[FlakyTask]:
    ordered = sorted(per_task, key=lambda e: (e.successes / e.runs, -e.distinct_paths, e.task_id))
    return [
        FlakyTask(
            task_id=e.task_id,
            runs=e.runs,
            successes=e.successes,
            paths=[PathCount.model_validate(p) for p in path_counter(groups[e.task_id])],
        )
        for e in ordered
        if 0 < e.successes < e.runs
    ]


def _suite_rates(
    per_task: list[TaskReliability], ks: range, estimator: Callable[[int, int, int], float]
) -> Rates:
    return {
        str(j): _none_if_nan(_suite_mean([estimator(e.runs, e.successes, j) for e in per_task]))
        for j in ks
    }


def reliability(trajs: Iterable[Trajectory], k: int | None = None) -> ReliabilityReport:
    """The reliability numbers of N runs per task: the `oncourse report --json` object.

    N is the smallest run count over tasks unless `k` is given. Suite values are means over
    tasks (Yao et al. 2024); a suite pass^k or pass@k is None when some task has fewer than k
    runs, rather than a mean over a different task set. `pass@1_wilson` is the Wilson interval
    of the pooled per-run rate; `pass^N_bootstrap` a percentile bootstrap over tasks.

    Raises:
        StatsError: k is not a positive integer, or there are no runs.
    """
    _check_k(k)
    runs_list = list(trajs)
    groups = group_by_task(runs_list)
    if not groups:
        raise StatsError("no runs: an empty task set has no rate")
    counts = [len(runs) for runs in groups.values()]
    min_runs, max_runs = min(counts), max(counts)
    big_n = int(k) if k is not None else min_runs
    ks = range(1, big_n + 1)

    per_task = [_task_entry(task_id, runs, ks) for task_id, runs in groups.items()]
    pass_1 = float(np.mean([e.successes / e.runs for e in per_task]))
    successes = sum(e.successes for e in per_task)
    per_task_n = [pass_hat_k(e.runs, e.successes, big_n) for e in per_task]
    pass_n = _suite_mean(per_task_n)
    boot = None if math.isnan(pass_n) else list(bootstrap_mean_interval(per_task_n))
    instructions = {e.instruction or f"\0id:{e.task_id}" for e in per_task}
    return ReliabilityReport(
        tasks=len(groups),
        runs=len(runs_list),
        runs_per_task=RunsPerTask(min=min_runs, max=max_runs),
        k=big_n,
        successes=successes,
        pass_at_1=pass_1,
        pass_at_1_pooled=successes / len(runs_list),
        pass_at_1_wilson=list(wilson_interval(successes, len(runs_list))),
        pass_hat_k=_suite_rates(per_task, ks, pass_hat_k),
        pass_at_k=_suite_rates(per_task, ks, pass_at_k),
        pass_hat_n_bootstrap=boot,
        gap_points=None if math.isnan(pass_n) else 100.0 * (pass_1 - pass_n),
        identical_pair_share=_none_if_nan(identical_pair_share(groups)),
        distinct_instructions=len(instructions),
        unequal_runs=min_runs != max_runs,
        tasks_with_fewer_than_k_runs=[e.task_id for e in per_task if e.runs < big_n],
        path_variance=PathVariance(
            mean_distinct_paths=float(np.mean([e.distinct_paths for e in per_task])),
            mean_step_std=float(np.mean([e.steps.std for e in per_task])),
            all_pass_with_several_paths=sum(
                1 for e in per_task if e.successes == e.runs and e.distinct_paths > 1
            ),
        ),
        run_errors=dict(Counter(t.error.kind for t in runs_list if t.error is not None)),
        output_variance=OutputVariance(
            mean_distinct_final_answers=float(np.mean([e.distinct_final_answers for e in per_task]))
        ),
        provenance=_provenance(runs_list),
        per_task=per_task,
        flaky=_flaky(per_task, groups),
    )


def reliability_report(trajs: Iterable[Trajectory], k: int | None = None) -> dict[str, Any]:
    """`reliability(trajs, k)` as its JSON object (the keys of `oncourse report --json`)."""
    return reliability(trajs, k).model_dump(mode="json")
