"""Guidelines: short targeted instructions learned at a fork, stored with their provenance.

A guideline is one or two imperative sentences with a trigger (the situation it applies to). It
records where it came from (tasks, runs, fork step, the branch success rates that justified it,
the generator and model that wrote it) and how it fared once injected, so that it can be
promoted (`proposed` -> `active`), retired when it hurts, or quarantined by the safety screen.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, field_validator

if TYPE_CHECKING:
    from oncourse.consistency.analyzer import TaskAnalysis
    from oncourse.consistency.trajectory import Trajectory

GuidelineStatus = Literal["proposed", "active", "retired", "quarantined"]
GUIDELINE_STATUSES: tuple[GuidelineStatus, ...] = ("proposed", "active", "retired", "quarantined")


def new_guideline_id() -> str:
    """A fresh, random guideline id such as `g-3f9a0c1b2d4e`."""
    return f"g-{uuid.uuid4().hex[:12]}"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class GuidelineScope(BaseModel):
    """Which tasks and tools a guideline concerns; empty lists mean "any"."""

    families: list[str] = Field(default_factory=list, description="Task families or tags.")
    tools: list[str] = Field(default_factory=list, description="Tool names the guideline names.")

    def conflicts_with(self, other: GuidelineScope) -> bool:
        """True when both scopes name families (or tools) and share none of them.

        Two guidelines with conflicting scopes are never merged, however alike their text: the
        same words can mean different things for a refund desk and for a booking desk.
        """
        if self.families and other.families and not set(self.families) & set(other.families):
            return True
        return bool(self.tools and other.tools and not set(self.tools) & set(other.tools))

    def union(self, other: GuidelineScope) -> GuidelineScope:
        """The scope covering both (used when two guidelines merge)."""
        return GuidelineScope(
            families=sorted(set(self.families) | set(other.families)),
            tools=sorted(set(self.tools) | set(other.tools)),
        )


class GuidelineProvenance(BaseModel):
    """Where one version of a guideline came from; a merged guideline keeps every one."""

    model_config = ConfigDict(extra="allow")

    source_tasks: list[str] = Field(default_factory=list, description="Task ids it was learned on.")
    source_runs: list[str] = Field(default_factory=list, description="Run ids behind the fork.")
    fork_step: int | None = Field(default=None, description="Step index of the divergence.")
    branch_success_rates: dict[str, float] = Field(
        default_factory=dict, description="Success rate of each branch, keyed by action label."
    )
    generator: str = Field(default="manual", description="Generator that wrote it.")
    model: str | None = Field(default=None, description="Model id of an LLM generator, if any.")
    created_at: str = Field(default_factory=_now, description="ISO-8601 creation time (UTC).")


class OutcomeCount(BaseModel):
    """Runs and successes counted under one condition."""

    runs: int = Field(default=0, ge=0, description="Runs counted.")
    successes: int = Field(default=0, ge=0, description="Of those, runs that passed.")


class GuidelineCounters(BaseModel):
    """How a guideline fared once in use."""

    injected: int = Field(default=0, ge=0, description="Times injected into a system prompt.")
    outcomes_with: OutcomeCount = Field(
        default_factory=OutcomeCount, description="Task outcomes of runs where it was injected."
    )
    outcomes_without: OutcomeCount = Field(
        default_factory=OutcomeCount, description="Outcomes of comparable runs without it."
    )


class Guideline(BaseModel):
    """One learned instruction with its trigger, scope, provenance, status and counters."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(default_factory=new_guideline_id, min_length=1, description="Stable id.")
    instruction: str = Field(min_length=1, description="One or two imperative sentences.")
    trigger: str = Field(min_length=1, description="When it applies, phrased as a situation.")
    rationale: str = Field(default="", description="Why: the evidence from the fork.")
    scope: GuidelineScope = Field(default_factory=GuidelineScope, description="Tasks/tools.")
    provenance: list[GuidelineProvenance] = Field(
        default_factory=list, description="Every source it was learned (or merged) from."
    )
    status: GuidelineStatus = Field(default="proposed", description="Lifecycle state.")
    counters: GuidelineCounters = Field(
        default_factory=GuidelineCounters, description="Use and outcome counters."
    )
    quarantine_reasons: list[str] = Field(
        default_factory=list, description="Why the safety screen quarantined it, if it did."
    )

    @field_validator("instruction", "trigger")
    @classmethod
    def _strip(cls, value: str) -> str:
        value = " ".join(value.split())
        if not value:
            raise ValueError("must not be blank")
        return value

    @field_validator("provenance", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        # A single provenance object is accepted for convenience.
        return [value] if isinstance(value, dict | GuidelineProvenance) else value

    def text(self) -> str:
        """The text that is embedded for retrieval: trigger then instruction."""
        return f"{self.trigger} {self.instruction}"

    def source_tasks(self) -> list[str]:
        """All task ids over every provenance, in first-seen order."""
        return list(dict.fromkeys(t for p in self.provenance for t in p.source_tasks))


def retrieval_query(task_text: str) -> str:
    """The task as retrieval sees it: its request with run-specific values abstracted to roles.

    Guidelines are stored with triggers written the same way (names, ids, dates and amounts
    replaced by `[name]`, `[id]`, ...), so abstracting the query too makes two tasks of the same
    kind match on what is asked rather than on whom or how much it concerns.
    """
    from oncourse.consistency._roles import task_gist

    gist = task_gist(task_text)
    return gist if gist.strip() else task_text


class NoGuideline(Exception):  # noqa: N818 - an outcome, not a failure
    """A generator declined to write a guideline for a divergent task; `reason` says why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@runtime_checkable
class GuidelineGenerator(Protocol):
    """Writes guidelines from one task's analysis (its divergence and benign forks)."""

    def generate(self, analysis: TaskAnalysis, runs: Sequence[Trajectory] = ()) -> list[Guideline]:
        """Guidelines for the task's divergence: none without one; `NoGuideline` to abstain.

        `runs` are the task's runs in the order of `analysis.run_ids`; with them a generator can
        read what the runs looked up and said, without them only the fork itself.
        """
        ...


__all__ = [
    "retrieval_query",
    "GUIDELINE_STATUSES",
    "Guideline",
    "GuidelineCounters",
    "GuidelineGenerator",
    "GuidelineProvenance",
    "GuidelineScope",
    "GuidelineStatus",
    "NoGuideline",
    "OutcomeCount",
    "new_guideline_id",
]
