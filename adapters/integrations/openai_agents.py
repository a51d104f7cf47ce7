"""OpenAI Agents SDK: inject guidelines through dynamic instructions, record runs with run hooks.

    from agents import Agent, Runner
    from oncourse import GuidelineMemory, record
    from oncourse.integrations.openai_agents import RecordingHooks, guideline_instructions

    memory = GuidelineMemory("guidelines.db")
    agent = Agent(name="support", tools=[...],
                  instructions=guideline_instructions(memory, "You are a support agent."))
    hooks = RecordingHooks()
    with record("refund-42", task, out="runs.jsonl", meta={"model": "gpt-4.1"}) as run:
        result = await Runner.run(agent, task, context=run, hooks=hooks)
        run.finish(success=check(), final_answer=str(result.final_output))

The run's context is the oncourse `RunRecorder` (or any object with a `recorder` attribute that
holds one): the instructions read the task from it and note which guidelines they injected in
its provenance; the hooks add one step per tool call (arguments, result, and the text the model
wrote with the call as the step's thought) and the token usage. An exception inside the `with`
block records a failed run, as `record` does.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from oncourse.adapters.recorder import RunRecorder
from oncourse.memory.inject import memory_hook
from oncourse.memory.store import GuidelineMemory

try:
    from agents import RunHooks
except ImportError as exc:  # pragma: no cover - depends on the install
    raise ImportError(
        "oncourse.integrations.openai_agents needs the OpenAI Agents SDK: "
        "pip install 'oncourse[agents]'"
    ) from exc

Hook = Callable[[str, Sequence[str] | None], tuple[str, list[str]]]


def recorder_of(context: Any) -> RunRecorder | None:
    """The `RunRecorder` behind an Agents SDK run context, if there is one."""
    if isinstance(context, RunRecorder):
        return context
    found = getattr(context, "recorder", None)
    return found if isinstance(found, RunRecorder) else None


def _tool_names(agent: Any) -> list[str]:
    return [str(t.name) for t in getattr(agent, "tools", []) if getattr(t, "name", None)]


def guideline_instructions(
    memory: GuidelineMemory | Hook,
    base: str = "",
    *,
    task_of: Callable[[Any], str | None] | None = None,
    **hook_settings: Any,
) -> Callable[[Any, Any], str]:
    """Dynamic `instructions` for an `Agent`: the base prompt plus the task's guideline block.

    Args:
        memory: the guideline store (or a ready `memory_hook`).
        base: the agent's own instructions, kept first.
        task_of: reads the task text from the run context; by default the recorder's task or
            the context's `task` attribute.
        **hook_settings: passed to `memory_hook` (k, min_similarity, budget_tokens, ...).

    The block is computed once per run (the SDK asks for instructions on every model call) and
    scoped to the agent's tools, exactly as `inject()` does.
    """
    hook = memory_hook(memory, **hook_settings) if isinstance(memory, GuidelineMemory) else memory
    blocks: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()

    def instructions(context: Any, agent: Any) -> str:
        run_context = getattr(context, "context", None)
        try:
            cached = blocks.get(run_context)
        except TypeError:  # a context that cannot be weakly referenced is not cached
            cached = None
        if cached is None:
            run = recorder_of(run_context)
            task = task_of(run_context) if task_of else None
            task = task or (run.task if run is not None else getattr(run_context, "task", None))
            if not task:
                cached = ""
            elif run is not None:
                cached = run.apply_memory(hook, _tool_names(agent))
            else:
                cached = hook(str(task), _tool_names(agent))[0]
            try:
                blocks[run_context] = cached
            except TypeError:
                pass
        return f"{base.rstrip()}\n\n{cached}" if cached and base.strip() else (cached or base)

    return instructions


def _turn(output: Sequence[Any]) -> tuple[str, int]:
    """The text a model response wrote and how many tool calls it made."""
    texts, calls = [], 0
    for item in output:
        kind = getattr(item, "type", None)
        if kind == "message":
            for part in getattr(item, "content", []) or []:
                if isinstance(getattr(part, "text", None), str):
                    texts.append(part.text)
        elif kind == "function_call":
            calls += 1
    return "".join(texts), calls


def _args(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    try:
        parsed = json.loads(raw) if isinstance(raw, str) and raw else {}
    except ValueError:
        return {"_raw_arguments": raw}
    return parsed if isinstance(parsed, dict) else {"_value": parsed}


class RecordingHooks(RunHooks[Any]):
    """Agents SDK run hooks that add each tool call and the token usage to the run's recorder.

    Args:
        recorder: finds the `RunRecorder` in a run context (default: `recorder_of`).
    """

    def __init__(self, recorder: Callable[[Any], RunRecorder | None] = recorder_of) -> None:
        self._recorder = recorder
        self._thoughts: dict[int, str] = {}

    async def on_llm_end(self, context: Any, agent: Any, response: Any) -> None:
        """Count the call's tokens; keep the text written with tool calls as their thought."""
        run = self._recorder(getattr(context, "context", None))
        if run is None:
            return
        usage = getattr(response, "usage", None)
        if usage is not None:
            run.add_usage(int(usage.input_tokens or 0), int(usage.output_tokens or 0))
        text, calls = _turn(getattr(response, "output", []))
        if calls and text:
            self._thoughts[id(run)] = text

    async def on_tool_end(self, context: Any, agent: Any, tool: Any, result: Any) -> None:
        """Record the finished tool call as one step."""
        run = self._recorder(getattr(context, "context", None))
        if run is None:
            return
        name = getattr(context, "tool_name", None) or getattr(tool, "name", "tool")
        run.step(
            str(name),
            _args(getattr(context, "tool_arguments", None)),
            observation=result,
            thought=self._thoughts.pop(id(run), None),
        )


__all__ = ["RecordingHooks", "guideline_instructions", "recorder_of"]
