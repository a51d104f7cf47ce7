"""The result models of `oncourse eval` (its `--json` contract; keys documented in evaluation.py).

Paired tests are `consistency.compare.McNemarResult` everywhere; only here, at the JSON edge,
its neutral field names become the arms' names (`only_memory`, `only_control`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from oncourse.consistency._version import __version__
from oncourse.consistency.compare import ArmSummary, LiftInterval, McNemarResult
from oncourse.consistency.paired import RateInterval, SignTest
from pydantic import BaseModel, Field, field_serializer, model_validator


def _named(test: McNemarResult, baseline: str, candidate: str) -> dict[str, Any]:
    return {
        "n_pairs": test.n_pairs,
        f"only_{baseline}": test.only_baseline,
        f"only_{candidate}": test.only_candidate,
        "p_value": test.p_value,
    }


def _unnamed(data: Any, key: str, baseline: str, candidate: str) -> Any:
    """Read back a test written with the arms' names (the JSON edge, the other way)."""
    if isinstance(data, dict) and isinstance(data.get(key), dict):
        test = dict(data[key])
        if f"only_{candidate}" in test:
            test["only_baseline"] = test.pop(f"only_{baseline}", 0)
            test["only_candidate"] = test.pop(f"only_{candidate}")
            data = {**data, key: test}
    return data


class _ArmNamedMcNemar(BaseModel):
    """A model whose `mcnemar` field is written with the two arms' names (`only_<arm>`)."""

    MCNEMAR_ARMS: ClassVar[tuple[str, str]] = ("baseline", "memory")

    @field_serializer("mcnemar", check_fields=False)
    def _mcnemar_json(self, test: McNemarResult) -> dict[str, Any]:
        return _named(test, *self.MCNEMAR_ARMS)

    @model_validator(mode="before")
    @classmethod
    def _mcnemar_read(cls, data: Any) -> Any:
        return _unnamed(data, "mcnemar", *cls.MCNEMAR_ARMS)


PairedTest = McNemarResult
"""The exact McNemar test on task all-N outcomes (kept as a name for earlier imports)."""


class HarmedTask(BaseModel):
    """A task all-N in the baseline that is not with memory, and what was injected into it."""

    task_id: str = Field(description="The task.")
    guidelines: list[str] = Field(description="Ids of guidelines injected into its runs.")


class TaskChange(BaseModel):
    """One task's per-run rate without and with memory: the change, both directions."""

    task_id: str = Field(description="The task.")
    baseline_rate: float = Field(description="Share of its baseline runs that passed.")
    memory_rate: float = Field(description="Share of its memory-arm runs that passed.")
    change_points: float = Field(description="memory minus baseline, in points.")
    p_value: float = Field(description="Two-sided Fisher exact p-value of the change.")
    beyond_noise: bool = Field(description="True when p_value < 0.05.")
    guidelines: list[str] = Field(description="Ids of guidelines injected into its runs.")


class ControlComparison(_ArmNamedMcNemar):
    """The memory arm against one control arm (placebo or shuffled) on the same tasks and seeds."""

    MCNEMAR_ARMS: ClassVar[tuple[str, str]] = ("control", "memory")

    control: str = Field(description="placebo or shuffled.")
    runs: str = Field(description="JSONL file of the control arm's runs.")
    arm: ArmSummary = Field(description="Rates of the control arm.")
    per_run_cluster: RateInterval = Field(description="Per-run rate, task bootstrap interval.")
    all_n_lift: LiftInterval = Field(description="memory minus control, all-N, in points.")
    per_run_lift: LiftInterval = Field(description="memory minus control, per-run, in points.")
    mcnemar: McNemarResult = Field(description="Exact McNemar on task all-N, memory vs control.")
    sign_test: SignTest = Field(description="Sign test on per-task per-run rates (higher=memory).")
    helped: bool = Field(
        description="True only when memory beats this control: per-run lift > 0 with the sign "
        "test's p < 0.05 and no all-N loss."
    )


class SplitEvaluation(_ArmNamedMcNemar):
    """Baseline vs memory (and the controls) on one split."""

    split: str = Field(description="Split name.")
    in_sample: bool = Field(default=False, description="True for the split learned from (train).")
    tasks: int = Field(description="Tasks compared (both arms ran them).")
    baseline_runs: str = Field(description="JSONL file of the baseline runs.")
    memory_runs: str = Field(description="JSONL file of the memory-arm runs.")
    baseline_reused: bool = Field(description="True when the baseline came from disk.")
    baseline: ArmSummary = Field(description="Rates of the baseline arm.")
    memory: ArmSummary = Field(description="Rates of the memory arm.")
    baseline_per_run_cluster: RateInterval | None = Field(
        default=None, description="Baseline per-run rate with a task (cluster) bootstrap interval."
    )
    memory_per_run_cluster: RateInterval | None = Field(
        default=None, description="Memory per-run rate with a task (cluster) bootstrap interval."
    )
    all_n_lift: LiftInterval = Field(description="All-N lift in points, paired bootstrap.")
    per_run_lift: LiftInterval = Field(description="Per-run lift in points, paired bootstrap.")
    mcnemar: McNemarResult = Field(description="Exact McNemar test on task all-N outcomes.")
    min_detectable_per_run_points: float | None = Field(
        default=None, description="Smallest per-run lift these tasks detect (alpha .05, power .8)."
    )
    min_detectable_all_n_points: float | None = Field(
        default=None, description="Smallest all-N lift these tasks detect (alpha .05, power .8)."
    )
    baseline_consistent: int = Field(description="Tasks all-N in the baseline (harm's base).")
    harm_rate: float | None = Field(description="Share of baseline-consistent tasks lost.")
    harmed: list[HarmedTask] = Field(description="The lost tasks and their guidelines.")
    task_changes: list[TaskChange] = Field(
        default_factory=list, description="Every task's per-run change, both directions."
    )
    harmed_beyond_noise: list[str] = Field(
        default_factory=list, description="Tasks whose per-run rate dropped beyond noise."
    )
    helped_beyond_noise: list[str] = Field(
        default_factory=list, description="Tasks whose per-run rate rose beyond noise."
    )
    controls: dict[str, ControlComparison] = Field(
        default_factory=dict, description="Memory vs each control arm run on this split."
    )
    mean_injected_tokens: float | None = Field(description="Mean tokens injected per run/task.")
    mean_injected_guidelines: float = Field(description="Mean guidelines injected per run/task.")
    tasks_with_injection: int = Field(description="Tasks that got at least one guideline.")


class EvalResult(BaseModel):
    """Everything `oncourse eval` measured, with provenance."""

    suite: str = Field(description="Suite name or path.")
    model: str = Field(description="Model spec.")
    n: int = Field(description="Runs per task per arm.")
    seed: int = Field(description="Base seed shared by both arms.")
    simulated: bool = Field(description="True when a simulated model produced the runs.")
    memory: str = Field(description="Path of the guideline store.")
    memory_fingerprint: str = Field(description="Hash of the active guidelines' ids and text.")
    active_guidelines: int = Field(description="Active guidelines in the store.")
    controls: list[str] = Field(default_factory=list, description="Control arms run.")
    oncourse_version: str = Field(default=__version__, description="oncourse version.")
    started_at: str = Field(description="ISO-8601 start time (UTC).")
    finished_at: str = Field(description="ISO-8601 end time (UTC).")
    html_report: str | None = Field(default=None, description="Path of the HTML report.")
    splits: dict[str, SplitEvaluation] = Field(description="Per-split results.")


__all__ = [
    "ControlComparison",
    "EvalResult",
    "HarmedTask",
    "PairedTest",
    "SplitEvaluation",
    "TaskChange",
]
