"""Chat messages as OpenTelemetry GenAI instrumentations record them, in one normal form.

Read from (newest convention first): the `gen_ai.input.messages` / `gen_ai.output.messages`
span attributes (JSON, `{"role", "parts": [{"type": "text" | "tool_call" |
"tool_call_response", ...}]}`), the same attributes on a `gen_ai.client.inference.operation.details`
event, the older per-message events (`gen_ai.user.message`, `gen_ai.assistant.message`,
`gen_ai.tool.message`, `gen_ai.choice`), Logfire's `events` attribute, and Langfuse's
`langfuse.observation.input` / `.output`. OpenAI-style messages (`content`, `tool_calls`) are
accepted wherever parts are.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from oncourse.adapters._otel_spans import Span, json_value

INPUT_MESSAGES = "gen_ai.input.messages"
OUTPUT_MESSAGES = "gen_ai.output.messages"
_DETAILS_EVENT = "gen_ai.client.inference.operation.details"
_ROLE_EVENTS = {
    "gen_ai.system.message": "system",
    "gen_ai.user.message": "user",
    "gen_ai.assistant.message": "assistant",
    "gen_ai.tool.message": "tool",
}


@dataclass
class ToolCall:
    """A tool call the model asked for."""

    call_id: str | None
    name: str
    args: dict[str, Any]


@dataclass
class Message:
    """One chat message: its role, its text, the calls it makes, the results it carries."""

    role: str
    text: str = ""
    calls: list[ToolCall] = field(default_factory=list)
    results: dict[str, Any] = field(default_factory=dict)


def call_args(raw: Any) -> dict[str, Any]:
    """Tool-call arguments as a dict (a JSON string is decoded; invalid JSON is kept raw)."""
    if raw is None or raw == "":
        return {}
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        try:
            parsed = json.loads(raw)
        except (ValueError, RecursionError):
            return {"_raw_arguments": raw}
        return parsed if isinstance(parsed, dict) else {"_value": parsed}
    return {"_value": raw}


def _text_of(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = []
        for part in content:
            if isinstance(part, str):
                texts.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                texts.append(part["text"])
            elif isinstance(part, dict) and part.get("type") == "text":
                texts.append(str(part.get("content", "")))
        return "".join(texts)
    return str(content)


def _openai_calls(raw: Any) -> list[ToolCall]:
    calls = []
    for call in json_value(raw) or []:
        if not isinstance(call, dict):
            continue
        function = call.get("function", call)
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            calls.append(
                ToolCall(call.get("id"), function["name"], call_args(function.get("arguments")))
            )
    return calls


def message(raw: Any, default_role: str = "assistant") -> Message | None:
    """One message in normal form, from the parts form or the OpenAI form."""
    raw = json_value(raw)
    if isinstance(raw, str):
        return Message(role=default_role, text=raw)
    if not isinstance(raw, dict):
        return None
    if isinstance(raw.get("message"), dict):  # a `gen_ai.choice` body or a Langfuse output
        return message(raw["message"], default_role)
    out = Message(role=str(raw.get("role") or default_role))
    parts = raw.get("parts")
    if isinstance(parts, list):
        texts = []
        for part in parts:
            if not isinstance(part, dict):
                continue
            kind = part.get("type")
            if kind == "text":
                texts.append(str(part.get("content", "")))
            elif kind == "tool_call" and isinstance(part.get("name"), str):
                out.calls.append(
                    ToolCall(part.get("id"), part["name"], call_args(part.get("arguments")))
                )
            elif kind == "tool_call_response" and part.get("id") is not None:
                out.results[str(part["id"])] = json_value(part.get("response"))
        out.text = "".join(texts)
        return out
    out.text = _text_of(raw.get("content"))
    out.calls = _openai_calls(raw.get("tool_calls"))
    if out.role == "tool" and raw.get("tool_call_id") is not None:
        out.results[str(raw["tool_call_id"])] = json_value(raw.get("content"))
    if out.role == "tool" and raw.get("id") is not None:
        out.results[str(raw["id"])] = json_value(raw.get("content"))
    return out


def messages(raw: Any, default_role: str) -> list[Message]:
    """A list of messages in normal form (one message or a list of them)."""
    raw = json_value(raw)
    items = raw if isinstance(raw, list) else [raw]
    return [m for m in (message(item, default_role) for item in items) if m is not None]


def _from_events(span: Span) -> tuple[list[Message], list[Message]]:
    inputs: list[Message] = []
    outputs: list[Message] = []
    events = list(span.events)
    logfire_events = json_value(span.attrs.get("events"))
    if isinstance(logfire_events, list):
        events += [(str(e.get("event.name", "")), e) for e in logfire_events if isinstance(e, dict)]
    for name, attrs in events:
        if name == _DETAILS_EVENT:
            inputs += messages(attrs.get(INPUT_MESSAGES), "user")
            outputs += messages(attrs.get(OUTPUT_MESSAGES), "assistant")
        elif name in _ROLE_EVENTS:
            found = message({**attrs, "role": attrs.get("role", _ROLE_EVENTS[name])})
            if found is not None:
                inputs.append(found)
        elif name == "gen_ai.choice":
            body = attrs.get("message", attrs)
            found = message(body)
            if found is not None:
                outputs.append(found)
    return inputs, outputs


def chat_messages(span: Span) -> tuple[list[Message], list[Message]]:
    """The input and output messages recorded on one model-call span."""
    attrs = span.attrs
    inputs = messages(attrs.get(INPUT_MESSAGES), "user")
    outputs = messages(attrs.get(OUTPUT_MESSAGES), "assistant")
    if not inputs:
        inputs = messages(attrs.get("langfuse.observation.input"), "user")
    if not outputs:
        outputs = messages(attrs.get("langfuse.observation.output"), "assistant")
    if not inputs and not outputs:
        inputs, outputs = _from_events(span)
    return inputs, outputs


def first_user_text(found: list[Message]) -> str | None:
    """The text of the first user message, if any."""
    return next((m.text for m in found if m.role == "user" and m.text), None)


__all__ = [
    "INPUT_MESSAGES",
    "OUTPUT_MESSAGES",
    "Message",
    "ToolCall",
    "call_args",
    "chat_messages",
    "first_user_text",
    "message",
    "messages",
]
