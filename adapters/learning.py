"""Learning: analyze runs, write a guideline per divergent task, screen it, store it.

analyze -> generate (contrastive by default, or an LLM) -> safety screen -> add to the memory as
`proposed` (or `active` with `activate`; a guideline that fails the screen is `quarantined`
whatever the flag). Near-duplicates merge into the stored guideline, keeping both provenances.
Screening, deduplication and storing go through `memory.admit`.

A generator may abstain (the runs teach nothing worth injecting); the abstention and its reason
are reported, as is a failed model call. `LearnReport` is the `oncourse learn --json` object.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from oncourse.consistency.errors import ModelCallError
from oncourse.consistency.guidelines import GuidelineScope, NoGuideline
from oncourse.consistency.trajectory import RESPOND_TOOL, Trajectory
from pydantic import BaseModel, Field
from rich.console import Console
from rich.markup import escape


class LearnedGuideline(BaseModel):
    """One guideline a learn run stored (or merged into a stored one)."""

    task_id: str = Field(description="The task it was learned from.")
    id: str = Field(description="Id of the stored guideline.")
    status: str = Field(description="proposed, active or quarantined.")
    merged_into: str | None = Field(description="The stored guideline's id when it merged.")
    instruction: str = Field(description="What to do.")
    trigger: str = Field(description="When it applies.")
    rationale: str = Field(description="The evidence.")
    scope: GuidelineScope = Field(description="Families and tools it concerns.")
    quarantine_reasons: list[str] = Field(description="Why the screen quarantined it, if so.")


class LearnAbstention(BaseModel):
    """A divergent task the generator wrote no guideline for, and why."""

    task_id: str = Field(description="The task.")
    reason: str = Field(description="Why no guideline (scratch-only, context-driven, ...).")


class LearnError(BaseModel):
    """A divergent task whose guideline could not be written (a failed model call)."""

    task_id: str = Field(description="The task.")
    error: str = Field(description="What failed.")


class LearnReport(BaseModel):
    """What `oncourse learn` did: the `--json` object (keys are a contract)."""

    memory: str = Field(description="The guideline store written to.")
    generator: str = Field(description="Generator name.")
    model: str | None = Field(description="Model spec of an LLM generator.")
    tasks: int = Field(description="Tasks analyzed.")
    divergent_tasks: int = Field(description="Tasks with a divergence.")
    guidelines: list[LearnedGuideline] = Field(description="Guidelines stored or merged.")
    errors: list[LearnError] = Field(description="Tasks whose generation failed.")
    abstentions: list[LearnAbstention] = Field(
        default_factory=list, description="Divergent tasks with no guideline, with the reason."
    )


NO_DECIDING_FORK = (
    "no deciding fork: the runs' outcomes differ, but only in notes or calculations "
    "(scratch-only), in wording, or not at all"
)


def _task_tools(trajs: Sequence[Trajectory]) -> dict[str, set[str]]:
    tools: dict[str, set[str]] = {}
    for traj in trajs:
        tools.setdefault(traj.task_id, {RESPOND_TOOL}).update(s.action.tool for s in traj.steps)
    return tools


def learn(
    files: Sequence[str | Path],
    memory_path: str | Path,
    generator: str = "contrastive",
    model: str | None = None,
    activate: bool = False,
    fmt: str = "auto",
    console: Console | None = None,
) -> LearnReport:
    """Learn guidelines from the forks of recorded runs and store them in a memory.

    Args:
        files: trajectory files (oncourse JSONL, tau-bench, OpenAI transcripts).
        memory_path: the guideline store (SQLite file), created when missing.
        generator: registry name of the generator (`contrastive`, `llm`).
        model: model spec for the llm generator (`openai:gpt-4.1`, ...).
        activate: store screened guidelines as `active` rather than `proposed`.
        fmt: input format, or `auto`.
        console: where progress goes (stderr by default).
    """
    from oncourse.adapters.importers import load_trajectories
    from oncourse.consistency.analyzer import analyze_runs, group_runs
    from oncourse.consistency.generators import make_generator
    from oncourse.memory.admit import admit
    from oncourse.memory.store import GuidelineMemory

    console = console or Console(stderr=True)
    options: dict[str, Any] = {}
    if model is not None:
        from oncourse.adapters.models import get_model

        options["model"] = get_model(model)
    opened: list[GuidelineMemory] = []
    if generator == "llm":
        # The model sees the closest guidelines already stored, to merge or flag a conflict.
        options["similar"] = lambda text: [
            hit.guideline
            for memory in opened
            for hit in memory.search(text, k=3, status=("proposed", "active"))
        ]
    writer = make_generator(generator, **options)
    trajs = load_trajectories(files, fmt)
    console.print(f"Analyzing {len(trajs)} runs …", highlight=False)
    analyses = analyze_runs(trajs)
    groups = group_runs(trajs)
    tools = _task_tools(trajs)
    divergent = [a for a in analyses if a.divergence is not None]
    report = LearnReport(
        memory=str(memory_path),
        generator=generator,
        model=model,
        tasks=len(analyses),
        divergent_tasks=len(divergent),
        guidelines=[],
        errors=[],
    )
    report.abstentions.extend(
        LearnAbstention(task_id=a.task_id, reason=NO_DECIDING_FORK)
        for a in analyses
        if a.status == "mixed_no_fork"
    )
    with GuidelineMemory(memory_path) as memory:
        opened.append(memory)
        for analysis in divergent:
            console.print(
                f"Task {escape(analysis.task_id)}: writing a guideline …", highlight=False
            )
            try:
                guidelines = writer.generate(analysis, groups.get(analysis.task_id, []))
            except NoGuideline as exc:
                report.abstentions.append(
                    LearnAbstention(task_id=analysis.task_id, reason=exc.reason)
                )
                continue
            except ModelCallError as exc:
                report.errors.append(LearnError(task_id=analysis.task_id, error=str(exc)))
                continue
            admitted = admit(
                memory,
                guidelines,
                status="active" if activate else "proposed",
                allowed_tools=tools.get(analysis.task_id, set()),
            )
            for admission in admitted:
                stored = admission.guideline
                report.guidelines.append(
                    LearnedGuideline(
                        task_id=analysis.task_id,
                        id=stored.id,
                        status=stored.status,
                        merged_into=admission.merged_into,
                        instruction=stored.instruction,
                        trigger=stored.trigger,
                        rationale=stored.rationale,
                        scope=stored.scope,
                        quarantine_reasons=stored.quarantine_reasons,
                    )
                )
    return report


__all__ = ["LearnAbstention", "LearnError", "LearnReport", "LearnedGuideline", "learn"]
