"""The results of `oncourse evolve` (its `--json` contract, documented in evolve.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from oncourse.adapters.learning import LearnAbstention
from oncourse.consistency.compare import ArmSummary
from pydantic import BaseModel, Field

STATE_FILE = "evolve-state.json"


class GuidelineValidation(BaseModel):
    """How one proposed guideline fared when replayed on the tasks it is retrieved for."""

    guideline_id: str = Field(description="The guideline.")
    instruction: str = Field(description="Its instruction text.")
    tasks: list[str] = Field(description="Validation tasks it is retrieved for.")
    split: str = Field(default="train", description="The split it was validated on.")
    runs_file: str | None = Field(default=None, description="JSONL of the validation runs.")
    baseline_all_n: float | None = Field(default=None, description="All-N on those tasks, before.")
    with_all_n: float | None = Field(default=None, description="All-N with it injected.")
    baseline_per_run: float | None = Field(default=None, description="Per-run rate before.")
    with_per_run: float | None = Field(default=None, description="Per-run rate with it.")
    lift_points: float | None = Field(default=None, description="All-N lift in points.")
    per_run_lift_points: float | None = Field(default=None, description="Per-run lift, points.")
    status: str = Field(description="Status after validation: active, retired or proposed.")
    reason: str = Field(description="Why.")


class EvolveResult(BaseModel):
    """What one `oncourse evolve` did."""

    suite: str = Field(description="Suite name or path.")
    model: str = Field(description="Model spec.")
    n: int = Field(description="Runs per task.")
    seed: int = Field(description="Base seed.")
    memory: str = Field(description="Guideline store.")
    generator: str = Field(description="Guideline generator name.")
    simulated: bool = Field(description="True when a simulated model produced the runs.")
    started_at: str = Field(description="ISO-8601 start (UTC).")
    finished_at: str = Field(default="", description="ISO-8601 end (UTC).")
    baseline_runs: str = Field(default="", description="JSONL of the train baseline.")
    baseline: ArmSummary | None = Field(default=None, description="Baseline rates on train.")
    analyzed_tasks: int = Field(default=0, description="Train tasks analyzed.")
    divergent_tasks: int = Field(default=0, description="Tasks whose runs fork with outcomes.")
    generated: int = Field(default=0, description="Guidelines the generator wrote.")
    added: list[str] = Field(default_factory=list, description="Ids stored as new guidelines.")
    merged: list[str] = Field(default_factory=list, description="Ids merged into.")
    quarantined: list[str] = Field(default_factory=list, description="Ids set aside by screen.")
    abstentions: list[LearnAbstention] = Field(
        default_factory=list, description="Divergent tasks with no guideline, with the reason."
    )
    validations: list[GuidelineValidation] = Field(default_factory=list, description="Verdicts.")
    promoted: list[str] = Field(default_factory=list, description="Ids made active.")
    retired: list[str] = Field(default_factory=list, description="Ids retired.")
    unvalidated: list[str] = Field(default_factory=list, description="Ids left proposed.")
    runs_made: int = Field(default=0, description="Agent runs made by this command.")
    max_runs: int | None = Field(default=None, description="The run budget, if any.")
    budget_exhausted: bool = Field(default=False, description="True when validations were cut.")


def summary_lines(result: EvolveResult) -> list[str]:
    """Human lines describing an evolve result."""
    lines = [
        f"train baseline: {result.analyzed_tasks} tasks, {result.divergent_tasks} divergent",
        f"guidelines: {result.generated} written, {len(result.added)} new, "
        f"{len(result.merged)} merged, {len(result.quarantined)} quarantined",
        f"validation: {len(result.promoted)} promoted, {len(result.retired)} retired, "
        f"{len(result.unvalidated)} left proposed; {result.runs_made} runs made"
        + (f" of a budget of {result.max_runs}" if result.max_runs else ""),
    ]
    for v in result.validations:
        lines.append(f"  {v.status:<11} {v.guideline_id}: {v.reason}")
    return lines


def state_of(out_dir: str | Path) -> dict[str, Any] | None:
    """The saved evolve state of an output directory, if any."""
    path = Path(out_dir) / STATE_FILE
    return json.loads(path.read_text()) if path.exists() else None


__all__ = ["STATE_FILE", "EvolveResult", "GuidelineValidation", "state_of", "summary_lines"]
