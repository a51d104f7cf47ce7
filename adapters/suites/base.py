"""What a suite is: tasks with splits, and an environment per task that tools act on."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from oncourse.consistency.chat import ToolSpec
from oncourse.consistency.trajectory import Action
from pydantic import BaseModel, ConfigDict, Field

SPLITS = ("train", "validation", "heldout", "heldout-novel")
"""Every split name a suite may use: train (learn), validation (promote or retire a guideline),
heldout (unseen tasks of trained families), heldout-novel (unseen families)."""

EVAL_SPLITS = ("train", "heldout", "heldout-novel")
"""The splits `oncourse eval` and the demo report by default (validation is evolve's own)."""


class Task(BaseModel):
    """One task of a suite: an instruction the agent gets, and what it is checked against."""

    model_config = ConfigDict(extra="allow")

    task_id: str = Field(description="Unique id of the task within its suite.")
    instruction: str = Field(description="The text the agent is given.")
    split: str = Field(default="train", description="train, validation, heldout, heldout-novel.")
    family: str | None = Field(
        default=None, description="Template family; for reports only, never shown to a model."
    )
    params: dict[str, Any] = Field(
        default_factory=dict, description="Hidden world seed and expected outcome (checker only)."
    )


class StepResult(BaseModel):
    """What the environment returns for one action."""

    observation: Any = Field(default=None, description="Tool output shown to the agent.")
    error: str | None = Field(default=None, description="Set when the call was invalid.")
    done: bool = Field(default=False, description="True when the episode ended (final reply).")


@runtime_checkable
class Environment(Protocol):
    """A task's world: tools to call, state they change, and a check on the final state."""

    def tools(self) -> list[ToolSpec]:
        """The tools offered to the agent, with JSON schemas."""
        ...

    def reset(self) -> None:
        """Put the world back into the task's initial state."""
        ...

    def step(self, action: Action) -> StepResult:
        """Execute one tool call (or the final `respond`) against the world."""
        ...

    def check(self) -> bool:
        """Whether the final world state satisfies the task."""
        ...


@runtime_checkable
class Suite(Protocol):
    """A named collection of tasks with splits and a way to build each task's environment."""

    name: str
    system_prompt: str

    def tasks(self, split: str = "all") -> list[Task]:
        """Tasks of a split (`train`, `heldout`, `heldout-novel`, or `all`)."""
        ...

    def make_env(self, task: Task) -> Environment:
        """A fresh environment for one run of a task."""
        ...
