"""Turn OpenAI-style chat messages into trajectory steps (for the tau-bench and openai readers).

Mapping: each assistant tool call is one step (parallel calls in order); each assistant text reply
is a `respond` step with args `{"text": ...}`. The tool message answering a call (matched by
`tool_call_id`) is that step's observation; the user message that follows a reply is the reply's
observation, since it is what the agent sees next. User text that came before a step is kept on it
as `user_before`. System messages are not steps.
"""

from __future__ import annotations

import json
from typing import Any

from oncourse.consistency.trajectory import RESPOND_TOOL


class RecordError(ValueError):
    """One record of an input file cannot be used; the caller adds file and line."""


def message_text(content: Any, where: str) -> str | None:
    """The text of a message's content: a string, a list of text parts, or None."""
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif not (isinstance(part, dict) and "type" in part):
                raise RecordError(f"{where}: content part must be text or a typed part")
        return "".join(parts)
    raise RecordError(f"{where}: content must be a string, a list of parts or null")


def _call_args(raw: Any, where: str) -> dict[str, Any]:
    if raw is None or raw == "":
        return {}
    if isinstance(raw, dict):
        return raw
    if not isinstance(raw, str):
        raise RecordError(f"{where}: function arguments must be a JSON string or an object")
    try:
        parsed = json.loads(raw)
    except (ValueError, RecursionError):
        # The agent emitted invalid JSON: that is the run's behaviour, not a broken file.
        return {"_raw_arguments": raw}
    return parsed if isinstance(parsed, dict) else {"_value": parsed}


def _tool_call_step(call: Any, where: str) -> tuple[dict[str, Any], str | None]:
    if not isinstance(call, dict):
        raise RecordError(f"{where}: a tool call must be an object")
    function = call.get("function", call)
    if not isinstance(function, dict):
        raise RecordError(f"{where}: tool call 'function' must be an object")
    name = function.get("name")
    if not isinstance(name, str) or not name:
        raise RecordError(f"{where}: tool call has no function name")
    call_id = call.get("id")
    if call_id is not None and not isinstance(call_id, str):
        raise RecordError(f"{where}: tool call id must be a string")
    args = _call_args(function.get("arguments"), where)
    return {"action": {"tool": name, "args": args}}, call_id


class _StepBuilder:
    """Walks the messages once, building steps and attaching observations."""

    def __init__(self) -> None:
        self.steps: list[dict[str, Any]] = []
        self.unanswered: list[dict[str, Any]] = []
        self.user_pending: list[str] = []
        self.first_user: str | None = None

    def _add(self, step: dict[str, Any]) -> None:
        if self.user_pending:
            step["user_before"] = "\n".join(self.user_pending)
            self.user_pending = []
        self.steps.append(step)

    def user(self, text: str | None) -> None:
        text = text or ""
        if self.first_user is None:
            self.first_user = text
        last = self.steps[-1] if self.steps else None
        if last is not None and last["action"]["tool"] == RESPOND_TOOL:
            previous = last.get("observation")
            last["observation"] = text if previous is None else f"{previous}\n{text}"
        self.user_pending.append(text)

    def assistant(self, message: dict[str, Any], where: str) -> None:
        text = message_text(message.get("content"), where)
        calls = message.get("tool_calls") or []
        if not isinstance(calls, list):
            raise RecordError(f"{where}: 'tool_calls' must be a list")
        legacy = message.get("function_call")
        if not calls and isinstance(legacy, dict):
            calls = [{"function": legacy}]
        if not calls:
            self._add({"action": {"tool": RESPOND_TOOL, "args": {"text": text or ""}}})
            return
        for i, call in enumerate(calls):
            step, call_id = _tool_call_step(call, f"{where}, tool call {i}")
            if i == 0 and text:
                step["thought"] = text
            step["_call_id"] = call_id
            self._add(step)
            self.unanswered.append(step)

    def tool(self, message: dict[str, Any], where: str) -> None:
        text = message_text(message.get("content"), where)
        call_id = message.get("tool_call_id")
        name = message.get("name")
        # Sources reuse call ids within a run (tau-bench does), so the answer goes to the oldest
        # unanswered call with that id; old transcripts without ids are matched by name.
        step = next((s for s in self.unanswered if call_id and s["_call_id"] == call_id), None)
        if step is None:
            step = next(
                (
                    s
                    for s in self.unanswered
                    if s["_call_id"] is None and name in (None, s["action"]["tool"])
                ),
                None,
            )
        if step is None:
            raise RecordError(f"{where}: tool result answers no earlier tool call")
        self.unanswered.remove(step)
        step["observation"] = text


def messages_to_steps(messages: Any, where: str) -> tuple[list[dict[str, Any]], str | None]:
    """Steps (as plain dicts) from a list of chat messages, and the first user message's text."""
    if not isinstance(messages, list):
        raise RecordError(f"{where} must be a list of chat messages")
    builder = _StepBuilder()
    for index, message in enumerate(messages):
        at = f"message {index}"
        if not isinstance(message, dict):
            raise RecordError(f"{at}: a chat message must be an object")
        role = message.get("role")
        if role in ("system", "developer"):
            message_text(message.get("content"), at)
        elif role == "user":
            builder.user(message_text(message.get("content"), at))
        elif role == "assistant":
            builder.assistant(message, at)
        elif role in ("tool", "function"):
            builder.tool(message, at)
        else:
            raise RecordError(f"{at}: unknown role {role!r}")
    for step in builder.steps:
        step.pop("_call_id", None)
    return builder.steps, builder.first_user


def final_reply(steps: list[dict[str, Any]]) -> str | None:
    """The text of the last `respond` step, if any."""
    for step in reversed(steps):
        if step["action"]["tool"] == RESPOND_TOOL:
            text = step["action"]["args"].get("text")
            return text if isinstance(text, str) else None
    return None
