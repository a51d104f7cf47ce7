"""What `oncourse run` reports about a results file: counts, rates, errors, provenance."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from oncourse.consistency.trajectory import Trajectory
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)


class RunSummary(BaseModel):
    """Outcome counts of the runs in a results file, per run and all-N.

    Serialised with one extra key, `all_<n>` (e.g. `all_5`), equal to `all_n`: the name the
    first versions used. It is deprecated; read `all_n` with `n` beside it.
    """

    # The legacy key is not a field: the schema says it with a pattern.
    model_config = ConfigDict(
        json_schema_extra={
            "patternProperties": {
                "^all_[0-9]+$": {
                    "anyOf": [{"type": "number"}, {"type": "null"}],
                    "description": "Deprecated copy of all_n under the name all_<n>.",
                }
            }
        },
    )

    n: int = Field(description="Runs per task asked for (the N of all-N).")
    tasks: int = Field(description="Tasks with at least one run.")
    runs: int = Field(description="Runs in the file.")
    new_runs: int = Field(description="Runs this invocation added.")
    successes: int = Field(description="Runs that passed.")
    per_run: float | None = Field(description="successes / runs (None without runs).")
    all_n_tasks: int = Field(description="Tasks whose every run passed.")
    all_n: float | None = Field(description="all_n_tasks / tasks (None without tasks).")
    errors: dict[str, int] = Field(description="Thrown runs by error kind (counted failed).")
    models: list[str] = Field(description="Models that made the runs.")
    simulated: bool = Field(description="Whether any run came from a simulated model.")

    @model_serializer(mode="wrap")
    def _with_legacy_key(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        data.setdefault(f"all_{self.n}", data["all_n"])  # deprecated name, kept for old readers
        return data


class RunReport(RunSummary):
    """`oncourse run --json`: the summary with the invocation that produced it."""

    out: str = Field(description="The results file.")
    suite: str = Field(description="Suite name or directory.")
    split: str = Field(description="train, heldout, heldout-novel or all.")
    model: str = Field(description="Model spec as given.")
    seed: int = Field(description="Base seed.")
    memory: str | None = Field(description="Guideline memory injected from, if any.")
    duration_s: float = Field(description="Wall time of the invocation, seconds.")


def summarize_runs(runs: Sequence[Trajectory], n: int, new_runs: int = 0) -> RunSummary:
    """Count passes per run and per task (all-N) over a results file's runs."""
    by_task: dict[str, list[bool]] = {}
    for run in runs:
        by_task.setdefault(run.task_id, []).append(run.success)
    successes = sum(run.success for run in runs)
    all_n = sum(1 for outcomes in by_task.values() if all(outcomes))
    return RunSummary(
        n=n,
        tasks=len(by_task),
        runs=len(runs),
        new_runs=new_runs,
        successes=successes,
        per_run=successes / len(runs) if runs else None,
        all_n_tasks=all_n,
        all_n=all_n / len(by_task) if by_task else None,
        errors=dict(Counter(run.error.kind for run in runs if run.error is not None)),
        models=sorted({run.meta.model for run in runs if run.meta.model}),
        simulated=any(run.meta.simulated for run in runs),
    )


__all__ = ["RunReport", "RunSummary", "summarize_runs"]
