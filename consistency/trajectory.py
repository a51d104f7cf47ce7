"""The one trajectory format every part of oncourse reads and writes (JSONL, one run per line)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

SCHEMA_VERSION = "1"
SUPPORTED_SCHEMA_VERSIONS = frozenset({SCHEMA_VERSION})
RESPOND_TOOL = "respond"


class Action(BaseModel):
    """One tool call: the tool's name and its arguments."""

    model_config = ConfigDict(extra="allow")

    tool: str = Field(min_length=1, description="Name of the tool called; `respond` for a reply.")
    args: dict[str, Any] = Field(default_factory=dict, description="Arguments of the call.")

    @field_validator("args", mode="before")
    @classmethod
    def _args_default(cls, value: Any) -> Any:
        return {} if value is None else value


class Step(BaseModel):
    """One step of a run: what the agent thought, did, and saw back."""

    model_config = ConfigDict(extra="allow")

    action: Action = Field(description="The tool call made at this step.")
    thought: str | None = Field(default=None, description="Reasoning text before the call.")
    observation: Any = Field(default=None, description="What the tool returned.")
    error: str | None = Field(default=None, description="Error text if the tool call failed.")


class RunError(BaseModel):
    """Why a run was thrown or timed out; such a run counts as failed."""

    model_config = ConfigDict(extra="allow")

    kind: str = Field(min_length=1, description="Error kind: timeout, rate_limit, server, ...")
    message: str = Field(default="", description="Human-readable detail.")


class RunMeta(BaseModel):
    """Provenance of one run: which model, settings and software produced it."""

    model_config = ConfigDict(extra="allow")

    model: str | None = Field(default=None, description="Model id as the provider names it.")
    provider: str | None = Field(default=None, description="Provider: openai, anthropic, ...")
    temperature: float | None = Field(default=None, description="Sampling temperature.")
    seed: int | None = Field(default=None, description="Seed of the run, when one was set.")
    started_at: str | None = Field(default=None, description="ISO-8601 start time.")
    duration_s: float | None = Field(default=None, description="Wall time of the run.")
    tokens_in: int | None = Field(default=None, description="Prompt tokens over the run.")
    tokens_out: int | None = Field(default=None, description="Completion tokens over the run.")
    oncourse_version: str | None = Field(default=None, description="oncourse version.")
    simulated: bool | None = Field(default=None, description="True when a simulated model ran.")
    injected_guidelines: list[str] = Field(
        default_factory=list, description="Ids of guidelines injected into the system prompt."
    )


class Trajectory(BaseModel):
    """One recorded run of an agent on one task."""

    model_config = ConfigDict(extra="allow")

    schema_version: str = Field(default=SCHEMA_VERSION, description="Trajectory schema version.")
    task_id: str = Field(min_length=1, description="Id of the task; runs of a task share it.")
    success: bool = Field(description="Whether the run passed the task's check.")
    steps: list[Step] = Field(description="The steps, in order; a step's index is its position.")
    run_id: str | None = Field(default=None, description="Id of this run, unique in a file.")
    task: str | None = Field(default=None, description="The task's instruction text.")
    reward: float | None = Field(default=None, description="Raw reward when the source has one.")
    final_answer: str | None = Field(default=None, description="The agent's final answer.")
    error: RunError | None = Field(default=None, description="Set when the run threw/timed out.")
    meta: RunMeta = Field(default_factory=RunMeta, description="Provenance of the run.")

    @field_validator("schema_version", mode="before")
    @classmethod
    def _known_schema(cls, value: Any) -> Any:
        # A file from a newer oncourse may mean something else by the same fields: refuse it.
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if isinstance(value, str) and value not in SUPPORTED_SCHEMA_VERSIONS:
            known = ", ".join(sorted(SUPPORTED_SCHEMA_VERSIONS))
            raise ValueError(f"unknown schema_version {value!r}; this oncourse reads {known}")
        return value

    @field_validator("task_id", mode="before")
    @classmethod
    def _task_id_str(cls, value: Any) -> Any:
        # Sources such as tau-bench use integer task ids; an id is an id.
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        return value

    @field_validator("success", mode="before")
    @classmethod
    def _strict_bool(cls, value: Any) -> Any:
        if not isinstance(value, bool):
            raise ValueError("must be true or false")
        return value

    def actions(self) -> list[Action]:
        """The actions of the run, in order."""
        return [step.action for step in self.steps]

    def model_post_init(self, __context: Any) -> None:
        """A run that threw is a failed run, whatever the source said."""
        if self.error is not None and self.success:
            object.__setattr__(self, "success", False)
