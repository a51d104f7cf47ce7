"""The ReAct loop: system prompt and task in, tool calls against an environment, one trajectory out.

A run ends with a final text answer (recorded as a `respond` step, which the environment also
sees so it can score the reply), at the step limit, at the per-run timeout, or on a model call
that failed for good. The last three are failed runs with `error.kind` set; none of them raises.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from oncourse.adapters.models import describe_model
from oncourse.adapters.suites.base import Environment, StepResult, Task
from oncourse.consistency._version import __version__
from oncourse.consistency.chat import AssistantMessage, ChatModel, Message, ModelSettings, ToolCall
from oncourse.consistency.errors import ConfigError, ModelCallError
from oncourse.consistency.trajectory import (
    RESPOND_TOOL,
    Action,
    RunError,
    RunMeta,
    Step,
    Trajectory,
)

MemoryHook = Callable[[str, list[str]], tuple[str, list[str]]]
"""`(task_text, tool_names) -> (extra_system_text, guideline_ids)`, run before the first call."""

DEFAULT_SYSTEM_PROMPT = (
    "You are an agent that completes the user's task by calling the tools you are given. "
    "Call one tool at a time, read each result, and when the task is done reply with a short "
    "final answer and no tool call."
)


@dataclass
class _RunState:
    """What accumulates over one run."""

    deadline: float
    messages: list[Message]
    steps: list[Step] = field(default_factory=list)
    tokens_in: int = 0
    tokens_out: int = 0
    reported_model: str | None = None
    final_answer: str | None = None
    error: RunError | None = None
    done: bool = False

    def remaining_s(self) -> float:
        return self.deadline - time.monotonic()


def _observation_text(result: StepResult) -> str:
    if result.error:
        return f"Error: {result.error}"
    observation = result.observation
    if isinstance(observation, str):
        return observation
    return json.dumps(observation, ensure_ascii=False, default=str)


def _execute(env: Environment, action: Action) -> StepResult:
    # A tool that raises is a tool error the agent sees, as with any agent framework.
    try:
        return env.step(action)
    except Exception as exc:  # noqa: BLE001 - any tool failure becomes an observation
        return StepResult(error=f"{type(exc).__name__}: {exc}")


def _task_fields(task: Task | str) -> tuple[str, str]:
    if isinstance(task, str):
        digest = hashlib.sha1(task.encode("utf-8")).hexdigest()[:10]
        return f"task-{digest}", task
    return task.task_id, task.instruction


def _build_system_prompt(
    base: str, hook: MemoryHook | None, task_text: str, tool_names: list[str]
) -> tuple[str, list[str]]:
    if hook is None:
        return base, []
    extra, ids = hook(task_text, tool_names)
    if not extra:
        return base, list(ids)
    return (f"{base}\n\n{extra}" if base else extra), list(ids)


def _act(env: Environment, state: _RunState, reply: AssistantMessage, max_steps: int) -> None:
    """Execute the reply's tool calls in order, or record its final answer."""
    if not reply.tool_calls:
        action = Action(tool=RESPOND_TOOL, args={"text": reply.content})
        result = _execute(env, action)
        state.steps.append(
            Step(action=action, thought=None, observation=result.observation, error=result.error)
        )
        state.final_answer = reply.content
        state.done = True
        return
    calls = [
        call if call.id else call.model_copy(update={"id": f"call_{len(state.steps)}_{i}"})
        for i, call in enumerate(reply.tool_calls)
    ]
    state.messages.append(Message(role="assistant", content=reply.content, tool_calls=calls))
    for index, call in enumerate(calls):
        if len(state.steps) >= max_steps or state.remaining_s() <= 0:
            _answer_unexecuted(state, calls[index:])
            return
        action = Action(tool=call.name, args=call.arguments)
        result = _execute(env, action)
        state.steps.append(
            Step(
                action=action,
                thought=(reply.content or None) if index == 0 else None,
                observation=result.observation,
                error=result.error,
            )
        )
        state.messages.append(_tool_message(call, result))
        if result.done:
            if call.name == RESPOND_TOOL:
                state.final_answer = str(call.arguments.get("text", ""))
            state.done = True
            return


def _tool_message(call: ToolCall, result: StepResult) -> Message:
    message = Message(
        role="tool", tool_call_id=call.id, name=call.name, content=_observation_text(result)
    )
    if result.error:
        message.is_error = True  # type: ignore[attr-defined]  # an allowed extra field
    return message


def _answer_unexecuted(state: _RunState, calls: list[ToolCall]) -> None:
    # Providers require an answer to every call of a turn, even the ones cut off by a limit.
    for call in calls:
        state.messages.append(
            Message(role="tool", tool_call_id=call.id, name=call.name, content="Error: not run")
        )


def run_agent(
    model: ChatModel,
    env: Environment,
    task: Task | str,
    *,
    settings: ModelSettings | None = None,
    system_prompt: str = DEFAULT_SYSTEM_PROMPT,
    memory_hook: MemoryHook | None = None,
    max_steps: int = 30,
    timeout_s: float = 120.0,
    seed: int | None = None,
    run_id: str | None = None,
) -> Trajectory:
    """Run the agent once on a task and return the recorded trajectory; never raises for a run.

    Args:
        model: The chat model that plays the agent.
        env: The task's environment; it is reset before the run.
        task: A suite `Task`, or a bare instruction (its id is then a hash of the text).
        settings: Sampling settings; `seed` fills in `settings.seed` when that is unset.
        system_prompt: The base system prompt; the memory hook's text is appended to it.
        memory_hook: `(task_text, tool_names) -> (extra_system_text, guideline_ids)`.
        max_steps: Most steps (tool calls plus the final answer) before the run fails.
        timeout_s: Wall-clock budget of the run in seconds; must be positive.
        seed: Seed of the run, recorded in provenance and passed to the model.
        run_id: Id of the run, unique within a results file.

    Returns:
        The trajectory; `success` is `env.check()` for a run that ended with an answer.

    Raises:
        ConfigError: when `timeout_s` or `max_steps` is not positive.
    """
    if not timeout_s > 0:
        raise ConfigError(f"timeout must be a positive number of seconds, got {timeout_s}")
    if max_steps < 1:
        raise ConfigError(f"max_steps must be at least 1, got {max_steps}")
    settings = (settings or ModelSettings()).model_copy()
    if settings.seed is None and seed is not None:
        settings.seed = seed
    task_id, task_text = _task_fields(task)
    started_at = datetime.now(UTC)
    start = time.monotonic()

    env.reset()
    tools = env.tools()
    system, guideline_ids = _build_system_prompt(
        system_prompt, memory_hook, task_text, [t.name for t in tools]
    )
    messages = [Message(role="system", content=system)] if system else []
    messages.append(Message(role="user", content=task_text))
    state = _RunState(deadline=start + timeout_s, messages=messages)

    while not state.done:
        if len(state.steps) >= max_steps:
            state.error = RunError(kind="step_limit", message=f"no answer after {max_steps} steps")
            break
        if state.remaining_s() <= 0:
            state.error = RunError(kind="timeout", message=f"run exceeded {timeout_s:g} s")
            break
        call_settings = settings.model_copy()
        if call_settings.timeout_s is None or call_settings.timeout_s > state.remaining_s():
            call_settings.timeout_s = max(state.remaining_s(), 0.001)
        try:
            reply = model.complete(list(state.messages), tools, call_settings)
        except ModelCallError as exc:
            kind = "timeout" if state.remaining_s() <= 0 else exc.kind
            state.error = RunError(kind=kind, message=str(exc))
            break
        state.tokens_in += reply.usage.tokens_in
        state.tokens_out += reply.usage.tokens_out
        state.reported_model = reply.model or state.reported_model
        if state.remaining_s() <= 0:  # a reply that came too late does not count
            state.error = RunError(kind="timeout", message=f"run exceeded {timeout_s:g} s")
            break
        _act(env, state, reply, max_steps)

    success = False
    if state.error is None:
        try:
            success = bool(env.check())
        except Exception as exc:  # noqa: BLE001 - a checker bug fails the run, not the eval
            state.error = RunError(kind="check_error", message=f"{type(exc).__name__}: {exc}")

    meta = _run_meta(model, settings, seed, started_at, time.monotonic() - start, state)
    meta.injected_guidelines = guideline_ids
    meta.max_steps = max_steps  # type: ignore[attr-defined]  # RunMeta keeps extra fields
    return Trajectory(
        task_id=task_id,
        run_id=run_id,
        task=task_text,
        success=success,
        steps=state.steps,
        final_answer=state.final_answer,
        error=state.error,
        meta=meta,
    )


def effective_temperature(model: ChatModel, settings: ModelSettings | None) -> float | None:
    """The temperature a run is recorded with: the settings', else the model's own, if honoured."""
    if not getattr(model, "supports_temperature", True):
        return None
    if settings is not None and settings.temperature is not None:
        return settings.temperature
    value = getattr(model, "temperature", None)
    return float(value) if isinstance(value, int | float) else None


def _run_meta(
    model: ChatModel,
    settings: ModelSettings,
    seed: int | None,
    started_at: datetime,
    duration_s: float,
    state: _RunState,
) -> RunMeta:
    info: dict[str, Any] = describe_model(model)
    temperature = effective_temperature(model, settings)
    if state.reported_model and state.reported_model != info["model"]:
        # Providers change what runs behind a stable name; keep what they said ran.
        info["model_reported"] = state.reported_model
    return RunMeta(
        **info,
        temperature=temperature,
        seed=seed if seed is not None else settings.seed,
        started_at=started_at.isoformat(timespec="seconds"),
        duration_s=round(duration_s, 4),
        tokens_in=state.tokens_in,
        tokens_out=state.tokens_out,
        oncourse_version=__version__,
    )


__all__ = ["DEFAULT_SYSTEM_PROMPT", "MemoryHook", "effective_temperature", "run_agent"]
