"""LangGraph: a state node or prompt that injects guidelines, a callback that records each run.

    from oncourse import GuidelineMemory, record
    from oncourse.integrations.langgraph import TrajectoryCallback, guideline_node

    memory = GuidelineMemory("guidelines.db")
    graph.add_node("guidelines", guideline_node(memory, "You are a support agent.", tools))
    graph.add_edge(START, "guidelines"); graph.add_edge("guidelines", "agent"); ...
    with record("refund-42", task, out="runs.jsonl") as run:
        state = app.invoke({"messages": [("user", task)]},
                           config={"callbacks": [TrajectoryCallback(run)]})
        run.finish(success=check(), final_answer=state["messages"][-1].content)

`guideline_node` runs once per invocation and puts one system message first (the base prompt and
the block `inject()` builds for the task, the first user message unless a state key is named);
`guideline_prompt` does the same as a `prompt` callable (state -> messages) for prebuilt agents.
The system message carries the injected ids, so `TrajectoryCallback` writes them into the run's
provenance with each tool call (arguments, result, the model's text as thought) and the tokens.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

from oncourse.adapters.recorder import RunRecorder
from oncourse.memory.inject import inject
from oncourse.memory.store import GuidelineMemory

try:
    from langchain_core.callbacks import BaseCallbackHandler
    from langchain_core.messages import BaseMessage, RemoveMessage, SystemMessage
    from langgraph.graph.message import REMOVE_ALL_MESSAGES
except ImportError as exc:  # pragma: no cover - depends on the install
    raise ImportError(
        "oncourse.integrations.langgraph needs LangGraph: pip install 'oncourse[langgraph]'"
    ) from exc

IDS_KEY = "oncourse_guideline_ids"
"""Key in the system message's `additional_kwargs` that lists the injected guideline ids."""


def _names(tools: Sequence[Any] | None) -> list[str] | None:
    if tools is None:
        return None
    return [t if isinstance(t, str) else str(getattr(t, "name", t)) for t in tools]


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            p if isinstance(p, str) else str(p.get("text", "")) if isinstance(p, dict) else ""
            for p in content
        )
    return "" if content is None else str(content)


def task_of(state: Any, task_key: str | None = None) -> str:
    """The task text of a graph state: `state[task_key]`, else the first user message."""
    if task_key and isinstance(state, dict) and state.get(task_key):
        return str(state[task_key])
    messages = state.get("messages", []) if isinstance(state, dict) else state
    for message in messages or []:
        if isinstance(message, BaseMessage) and message.type == "human":
            return _text(message.content)
        if isinstance(message, tuple) and message and message[0] in ("user", "human"):
            return str(message[1])
    return ""


def _system_message(
    memory: GuidelineMemory, base: str, task: str, tools: list[str] | None, count: bool, **kw: Any
) -> SystemMessage:
    found = inject(memory, task, base, tools=tools, record=count, **kw)
    ids = found.guideline_ids
    return SystemMessage(content=found.system_prompt, additional_kwargs={IDS_KEY: ids})


def guideline_node(
    memory: GuidelineMemory,
    base: str = "",
    tools: Sequence[Any] | None = None,
    *,
    task_key: str | None = None,
    **inject_settings: Any,
) -> Callable[[Any], dict[str, Any]]:
    """A graph node that puts the system prompt with the task's guidelines first in `messages`.

    Use it once per invocation (an edge from START); an earlier system message is replaced.
    Each run counts one injection on the guidelines it got.
    """
    names = _names(tools)

    def node(state: Any) -> dict[str, Any]:
        message = _system_message(
            memory, base, task_of(state, task_key), names, True, **inject_settings
        )
        rest = [m for m in state.get("messages", []) if not isinstance(m, SystemMessage)]
        # replace the list so that the system message comes first (and an earlier one goes)
        return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), message, *rest]}

    return node


def guideline_prompt(
    memory: GuidelineMemory,
    base: str = "",
    tools: Sequence[Any] | None = None,
    *,
    task_key: str | None = None,
    **inject_settings: Any,
) -> Callable[[Any], list[BaseMessage]]:
    """A `prompt` callable (state -> messages): the guideline system message, then the messages.

    The block is computed once per task text (a prompt runs on every model call) and counts no
    injection; the ids still reach `TrajectoryCallback`.
    """
    names = _names(tools)
    cache: dict[str, SystemMessage] = {}

    def prompt(state: Any) -> list[BaseMessage]:
        task = task_of(state, task_key)
        if task not in cache:
            if len(cache) > 256:
                cache.clear()
            cache[task] = _system_message(memory, base, task, names, False, **inject_settings)
        messages = state.get("messages", []) if isinstance(state, dict) else state
        return [cache[task], *[m for m in messages if not isinstance(m, SystemMessage)]]

    return prompt


def _observation(output: Any) -> Any:
    content = getattr(output, "content", output)
    if isinstance(content, str) and content[:1] in ("{", "["):
        try:
            return json.loads(content)
        except ValueError:
            return content
    return content


class TrajectoryCallback(BaseCallbackHandler):
    """A LangChain callback that records one graph run into an oncourse `RunRecorder`.

    Each finished tool call becomes a step (name, arguments, result; a failed call's error),
    the text a model wrote with its tool calls becomes the next step's thought, token usage is
    summed, and the guideline ids on the system message go into the run's provenance.
    """

    raise_error = True

    def __init__(self, run: RunRecorder):
        """Record into `run` (from `oncourse.record(...)`)."""
        super().__init__()
        self.run = run
        self._tools: dict[UUID, tuple[str, dict[str, Any]]] = {}
        self._thought: str | None = None
        self._ids_seen = False

    def on_chat_model_start(
        self, serialized: dict[str, Any], messages: list[list[BaseMessage]], **kwargs: Any
    ) -> None:
        """Note the injected guideline ids, once per run."""
        if self._ids_seen:
            return
        for message in messages[0] if messages else []:
            ids = message.additional_kwargs.get(IDS_KEY) if message.type == "system" else None
            if isinstance(ids, list):
                self.run.meta.injected_guidelines = [*self.run.meta.injected_guidelines, *ids]
                self._ids_seen = True
                return

    def on_llm_end(self, response: Any, **kwargs: Any) -> None:
        """Sum the tokens; keep the text written with tool calls as their thought."""
        for generations in response.generations:
            for generation in generations:
                message = getattr(generation, "message", None)
                if message is None:
                    continue
                usage = getattr(message, "usage_metadata", None) or {}
                self.run.add_usage(
                    int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0))
                )
                text = _text(message.content)
                if getattr(message, "tool_calls", None) and text:
                    self._thought = text

    def on_tool_start(
        self, serialized: dict[str, Any], input_str: str, *, run_id: UUID, **kwargs: Any
    ) -> None:
        """Remember the call until it ends."""
        inputs = kwargs.get("inputs")
        name = kwargs.get("name") or (serialized or {}).get("name") or "tool"
        args = inputs if isinstance(inputs, dict) else _args(input_str)
        self._tools[run_id] = (str(name), dict(args))

    def on_tool_end(self, output: Any, *, run_id: UUID, **kwargs: Any) -> None:
        """Record the finished call as one step."""
        name, args = self._tools.pop(run_id, (str(kwargs.get("name") or "tool"), {}))
        thought, self._thought = self._thought, None
        self.run.step(name, args, observation=_observation(output), thought=thought)

    def on_tool_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        """Record the failed call as one step with its error."""
        name, args = self._tools.pop(run_id, (str(kwargs.get("name") or "tool"), {}))
        thought, self._thought = self._thought, None
        self.run.step(name, args, thought=thought, error=f"{type(error).__name__}: {error}")


def _args(raw: str) -> dict[str, Any]:
    try:
        parsed = json.loads(raw)
    except ValueError:
        return {"input": raw}
    return parsed if isinstance(parsed, dict) else {"input": parsed}


__all__ = [
    "IDS_KEY",
    "TrajectoryCallback",
    "guideline_node",
    "guideline_prompt",
    "task_of",
]
