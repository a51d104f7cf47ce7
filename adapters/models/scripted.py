"""Test doubles shipped with the library: a model that replays a script, one that calls a function.

Both record every request they were sent, so a test can assert on what the agent loop did with a
reply (the system prompt it built, the observations it passed back) rather than on the reply.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from oncourse.consistency.chat import AssistantMessage, Message, ModelSettings, ToolCall, ToolSpec
from oncourse.consistency.errors import ModelCallError

ReplyFunction = Callable[[list[Message], list[ToolSpec], ModelSettings], "AssistantMessage | str"]
Reply = AssistantMessage | str | BaseException | ReplyFunction


@dataclass(frozen=True)
class ModelRequest:
    """One request a test double received."""

    messages: list[Message]
    tools: list[ToolSpec]
    settings: ModelSettings

    @property
    def system_prompt(self) -> str:
        """The system messages of the request, joined."""
        return "\n\n".join(m.content for m in self.messages if m.role == "system")


def tool_call(
    name: str, arguments: dict[str, Any] | None = None, *, thought: str = ""
) -> AssistantMessage:
    """An assistant reply that calls one tool (a scripting convenience)."""
    return AssistantMessage(
        content=thought, tool_calls=[ToolCall(id="", name=name, arguments=arguments or {})]
    )


def final_answer(text: str) -> AssistantMessage:
    """An assistant reply with text and no tool call: the end of a run."""
    return AssistantMessage(content=text)


def _as_message(reply: AssistantMessage | str) -> AssistantMessage:
    message = AssistantMessage(content=reply) if isinstance(reply, str) else reply
    # Give unnamed calls distinct ids, as providers do, so results can be matched to calls.
    calls = [
        call if call.id else call.model_copy(update={"id": f"call_{i}"})
        for i, call in enumerate(message.tool_calls)
    ]
    return message.model_copy(update={"tool_calls": calls})


class _Recording:
    """Shared request recording, safe under the runner's threads."""

    name: str
    provider: str
    simulated: bool

    def __init__(self) -> None:
        self.requests: list[ModelRequest] = []
        self._lock = threading.Lock()

    def _record(
        self, messages: list[Message], tools: list[ToolSpec], settings: ModelSettings
    ) -> int:
        request = ModelRequest(
            messages=[m.model_copy(deep=True) for m in messages],
            tools=list(tools),
            settings=settings.model_copy(),
        )
        with self._lock:
            self.requests.append(request)
            return len(self.requests) - 1


class ScriptedModel(_Recording):
    """Replays a fixed list of replies in order and records every request.

    A reply is an `AssistantMessage`, a plain string (a final answer), an exception to raise
    (e.g. `ModelCallError("rate_limit", ...)`), or a callable `(messages, tools, settings)` that
    returns one of the first two. When the script runs out the call fails with kind
    `script_exhausted`, which ends the run as a failed run.
    """

    def __init__(
        self,
        replies: Iterable[Reply],
        *,
        name: str = "scripted",
        provider: str = "scripted",
        simulated: bool = False,
    ):
        """Keep the script; `name`/`provider`/`simulated` are what provenance will show."""
        super().__init__()
        self.replies = list(replies)
        self.name = name
        self.provider = provider
        self.simulated = simulated

    def complete(
        self, messages: list[Message], tools: list[ToolSpec], settings: ModelSettings
    ) -> AssistantMessage:
        """Return the next scripted reply."""
        index = self._record(messages, tools, settings)
        if index >= len(self.replies):
            raise ModelCallError(
                "script_exhausted", f"{self.name}: no reply {index + 1} in a script of {index}"
            )
        reply = self.replies[index]
        if isinstance(reply, BaseException):
            raise reply
        if callable(reply):
            reply = reply(messages, tools, settings)
        return _as_message(reply)


class FunctionModel(_Recording):
    """A model whose every reply comes from `fn(messages, tools, settings)`."""

    def __init__(
        self,
        fn: ReplyFunction,
        *,
        name: str = "function",
        provider: str = "function",
        simulated: bool = False,
    ):
        """Wrap `fn`; `name`/`provider`/`simulated` are what provenance will show."""
        super().__init__()
        self.fn = fn
        self.name = name
        self.provider = provider
        self.simulated = simulated

    def complete(
        self, messages: list[Message], tools: list[ToolSpec], settings: ModelSettings
    ) -> AssistantMessage:
        """Return what the function answers."""
        self._record(messages, tools, settings)
        return _as_message(self.fn(messages, tools, settings))
