"""Anthropic messages with tools, through the official `anthropic` SDK.

The system prompt goes in the top-level `system` field; assistant tool calls are `tool_use`
blocks and their results `tool_result` blocks in the next user message, consecutive results
grouped into one message as the API expects. Key, client set-up and error mapping are
`SDKChatModel`'s, shared with OpenAI; the SDK is imported on the first call.

API version 2026-10-21 (SDK 2.x) removed `temperature`, `top_p` and `top_k`: sending any of them
is an HTTP 400, so this adapter never sends a temperature and says so (`supports_temperature`),
and the run's provenance records none.
"""

from __future__ import annotations

import json
from typing import Any

from oncourse.adapters.models._sdk_model import SDKChatModel
from oncourse.consistency.chat import (
    AssistantMessage,
    Message,
    ModelSettings,
    ToolCall,
    ToolSpec,
    Usage,
)
from oncourse.consistency.errors import ModelCallError

ANTHROPIC_KEY_VAR = "ANTHROPIC_API_KEY"
DEFAULT_MAX_TOKENS = 1024


class AnthropicModel(SDKChatModel):
    """A `ChatModel` backed by Anthropic's messages API."""

    sdk_module = "anthropic"
    client_class = "Anthropic"
    sdk_error = "AnthropicError"
    key_var = ANTHROPIC_KEY_VAR
    supports_temperature = False

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        max_retries: int = 2,
        timeout_s: float = 60.0,
        http_client: Any = None,
    ):
        """Describe the model; nothing is sent until `complete` is called.

        Args:
            model: Model id, e.g. `claude-sonnet-4-5`.
            api_key: Key to use; defaults to `ANTHROPIC_API_KEY`.
            base_url: Another endpoint (a proxy); the SDK's default otherwise.
            max_retries: Retries the SDK makes itself on 408/409/429/5xx and connection errors.
            timeout_s: Default per-request timeout; `ModelSettings.timeout_s` overrides it.
            http_client: An `httpx2.Client` for the SDK (tests pass one with a mock transport).
        """
        super().__init__(
            model,
            provider="anthropic",
            api_key=api_key,
            base_url=base_url,
            max_retries=max_retries,
            timeout_s=timeout_s,
            http_client=http_client,
        )

    def __repr__(self) -> str:
        return f"AnthropicModel({self.name!r})"

    def _send(self, client: Any, request: dict[str, Any], timeout: float) -> Any:
        return client.messages.create(**request, timeout=timeout)

    def parse_response(self, body: dict[str, Any]) -> AssistantMessage:
        """A messages response body as an `AssistantMessage`."""
        return parse_message(body, self.name)

    def request_body(
        self, messages: list[Message], tools: list[ToolSpec], settings: ModelSettings
    ) -> dict[str, Any]:
        """The JSON body of a messages request, as the API documents it."""
        system = "\n\n".join(m.content for m in messages if m.role == "system" and m.content)
        body: dict[str, Any] = {
            "model": self.name,
            "max_tokens": settings.max_tokens or DEFAULT_MAX_TOKENS,
            "messages": to_wire_messages(messages),
        }
        if system:
            body["system"] = system
        if tools:
            body["tools"] = [to_wire_tool(t) for t in tools]
            if settings.tool_choice:
                body["tool_choice"] = to_wire_tool_choice(settings.tool_choice)
        elif settings.response_schema is not None:
            # Structured output: a tool whose input schema is the reply's, and a forced call.
            name = str(settings.response_schema.get("title") or "reply")
            body["tools"] = [
                {
                    "name": name,
                    "description": "Give your reply through this tool.",
                    "input_schema": settings.response_schema,
                }
            ]
            body["tool_choice"] = {"type": "tool", "name": name}
        return body


def to_wire_tool(tool: ToolSpec) -> dict[str, Any]:
    """A `ToolSpec` as an Anthropic tool definition."""
    return {"name": tool.name, "description": tool.description, "input_schema": tool.parameters}


def to_wire_tool_choice(choice: str) -> dict[str, Any]:
    """`auto`, `none`, `required` (Anthropic's `any`), or a tool name to force."""
    named = {"auto": {"type": "auto"}, "none": {"type": "none"}, "required": {"type": "any"}}
    return named.get(choice, {"type": "tool", "name": choice})


def _tool_result_block(message: Message) -> dict[str, Any]:
    block: dict[str, Any] = {
        "type": "tool_result",
        "tool_use_id": message.tool_call_id or "",
        "content": message.content,
    }
    if getattr(message, "is_error", False):
        block["is_error"] = True
    return block


def _assistant_blocks(message: Message) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    if message.content:
        blocks.append({"type": "text", "text": message.content})
    for call in message.tool_calls:
        blocks.append(
            {"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments}
        )
    return blocks


def to_wire_messages(messages: list[Message]) -> list[dict[str, Any]]:
    """The conversation without system messages, tool results grouped per user turn."""
    wire: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "system":
            continue
        if message.role == "tool":
            block = _tool_result_block(message)
            last = wire[-1] if wire else None
            if last and last["role"] == "user" and isinstance(last["content"], list):
                last["content"].append(block)
            else:
                wire.append({"role": "user", "content": [block]})
        elif message.role == "assistant":
            wire.append({"role": "assistant", "content": _assistant_blocks(message)})
        else:
            wire.append({"role": "user", "content": message.content})
    return wire


def _tool_input(raw: Any, tool: str, model: str) -> dict[str, Any]:
    # The API sends an object; a proxy may send it as a JSON string. Anything else is broken.
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        try:
            parsed = json.loads(raw) if raw.strip() else {}
        except json.JSONDecodeError:
            parsed = None
        if isinstance(parsed, dict):
            return parsed
    raise ModelCallError(
        "malformed_tool_call", f"{model}: input of {tool!r} is not a JSON object: {raw!r:.200}"
    )


def parse_message(body: dict[str, Any], model: str) -> AssistantMessage:
    """An Anthropic messages response body as an `AssistantMessage`."""
    texts: list[str] = []
    calls: list[ToolCall] = []
    for block in body.get("content") or []:
        if block.get("type") == "text":
            texts.append(block.get("text") or "")
        elif block.get("type") == "tool_use":
            name = block.get("name")
            if not name:
                raise ModelCallError("malformed_tool_call", f"{model}: a tool_use has no name")
            arguments = _tool_input(block.get("input"), name, model)
            call_id = block.get("id") or f"toolu_{len(calls)}"
            calls.append(ToolCall(id=call_id, name=name, arguments=arguments))
    usage = body.get("usage") or {}
    return AssistantMessage(
        content="\n".join(t for t in texts if t),
        tool_calls=calls,
        usage=Usage(
            tokens_in=usage.get("input_tokens") or 0,
            tokens_out=usage.get("output_tokens") or 0,
        ),
        model=body.get("model") or model,
    )
