"""OpenAI chat completions with tools, through the official `openai` SDK.

The same class serves any OpenAI-compatible server (vLLM, Ollama, llama.cpp server) through
`base_url`. Key, client set-up and error mapping are `SDKChatModel`'s, shared with Anthropic.

Structured output (`ModelSettings.response_schema`) goes out as OpenAI's `response_format`
`json_schema`. Compatible servers do not all take that form: some reject it (llama-cpp-python's
server answers that `type` must be `text` or `json_object`), some accept it and decode freely.
Both are seen on the first structured call, which is then repeated in the JSON-mode form those
servers document, `{"type": "json_object", "schema": ...}` (decoding constrained by a grammar
built from the schema); the form that worked is kept for the model's later calls.
"""

from __future__ import annotations

import json
from typing import Any, Literal

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

OPENAI_KEY_VAR = "OPENAI_API_KEY"

StructuredForm = Literal["json_schema", "json_object"]
"""How `response_format` carries a schema: OpenAI's `json_schema`, or JSON mode plus `schema`."""

# OpenAI's strict structured outputs accept a subset of JSON Schema without the length keywords;
# a compatible server's grammar honours them, and they keep a small model from writing forever.
_NOT_IN_STRICT_SUBSET = frozenset({"maxLength", "minLength"})


class OpenAIModel(SDKChatModel):
    """A `ChatModel` backed by OpenAI's chat completions API (or a compatible server)."""

    sdk_module = "openai"
    client_class = "OpenAI"
    sdk_error = "OpenAIError"
    key_var = OPENAI_KEY_VAR

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        provider: str = "openai",
        max_retries: int = 2,
        timeout_s: float = 60.0,
        http_client: Any = None,
    ):
        """Describe the model; nothing is sent until `complete` is called.

        Args:
            model: Model id, e.g. `gpt-4.1`, or the served name on a compatible server.
            api_key: Key to use; defaults to `OPENAI_API_KEY`. A compatible server may need none.
            base_url: Endpoint of an OpenAI-compatible server (`http://host:port/v1`).
            provider: Name recorded in provenance: `openai` or `openai-compatible`.
            max_retries: Retries the SDK makes itself on 408/409/429/5xx and connection errors.
            timeout_s: Default per-request timeout; `ModelSettings.timeout_s` overrides it.
            http_client: An `httpx2.Client` for the SDK (tests pass one with a mock transport).
        """
        super().__init__(
            model,
            provider=provider,
            api_key=api_key,
            base_url=base_url,
            max_retries=max_retries,
            timeout_s=timeout_s,
            http_client=http_client,
            key_required=base_url is None,
        )
        self.structured_form: StructuredForm = "json_schema"
        """The `response_format` form in use; a compatible server may switch it to json_object."""

    def __repr__(self) -> str:
        where = f", base_url={self.base_url!r}" if self.base_url else ""
        return f"OpenAIModel({self.name!r}, provider={self.provider!r}{where})"

    def _send(self, client: Any, request: dict[str, Any], timeout: float) -> Any:
        return client.chat.completions.create(**request, timeout=timeout)

    def parse_response(self, body: dict[str, Any]) -> AssistantMessage:
        """A chat completion response body as an `AssistantMessage`."""
        return parse_completion(body, self.name)

    def request_body(
        self, messages: list[Message], tools: list[ToolSpec], settings: ModelSettings
    ) -> dict[str, Any]:
        """The JSON body of a chat completion request, as the API documents it."""
        body: dict[str, Any] = {
            "model": self.name,
            "messages": [to_wire_message(m) for m in messages],
        }
        if tools:
            body["tools"] = [to_wire_tool(t) for t in tools]
            if settings.tool_choice:
                body["tool_choice"] = to_wire_tool_choice(settings.tool_choice)
        if settings.temperature is not None:
            body["temperature"] = settings.temperature
        if settings.max_tokens is not None:
            # OpenAI's own models want the newer name; compatible servers know the older one.
            cap = "max_completion_tokens" if self.provider == "openai" else "max_tokens"
            body[cap] = settings.max_tokens
        if settings.seed is not None:
            body["seed"] = settings.seed
        if settings.response_schema is not None:
            # Structured output: the server constrains decoding to the schema.
            body["response_format"] = self.response_format(
                settings.response_schema, self.structured_form
            )
        return body

    def response_format(self, schema: dict[str, Any], form: StructuredForm) -> dict[str, Any]:
        """The `response_format` asking for `schema` in the given form."""
        if form == "json_object":
            return {"type": "json_object", "schema": schema}
        if self.provider == "openai":
            schema = _strict_subset(schema)
        return {
            "type": "json_schema",
            "json_schema": {
                "name": str(schema.get("title") or "reply"),
                "schema": schema,
                "strict": True,
            },
        }

    def complete(
        self, messages: list[Message], tools: list[ToolSpec], settings: ModelSettings
    ) -> AssistantMessage:
        """Send one request; a compatible server that does not take `json_schema` gets JSON mode."""
        body = self.request_body(messages, tools, settings)
        schema = settings.response_schema
        if schema is None or self.provider == "openai" or self.structured_form != "json_schema":
            return self._complete_body(body, settings)
        try:
            reply = self._complete_body(body, settings)
        except ModelCallError as exc:
            if not _rejects_response_format(exc):
                raise
            self.structured_form = "json_object"
            return self._complete_body(self._in_form(body, schema, "json_object"), settings)
        if reply.tool_calls or _is_json_object(reply.content):
            return reply
        # Accepted but not honoured: the schema did not constrain the reply. Try JSON mode once;
        # where that fails too, the first reply stands (its reader may still find JSON in it).
        try:
            retried = self._complete_body(self._in_form(body, schema, "json_object"), settings)
        except ModelCallError:
            return reply
        if not _is_json_object(retried.content):
            return reply
        self.structured_form = "json_object"
        return retried

    def _in_form(
        self, body: dict[str, Any], schema: dict[str, Any], form: StructuredForm
    ) -> dict[str, Any]:
        return {**body, "response_format": self.response_format(schema, form)}


def _strict_subset(schema: Any) -> Any:
    """`schema` without the keywords OpenAI's strict mode refuses (recursively)."""
    if isinstance(schema, dict):
        return {k: _strict_subset(v) for k, v in schema.items() if k not in _NOT_IN_STRICT_SUBSET}
    if isinstance(schema, list):
        return [_strict_subset(v) for v in schema]
    return schema


def _rejects_response_format(exc: ModelCallError) -> bool:
    """Whether a failed call is the server refusing the `json_schema` form of `response_format`."""
    text = str(exc)
    return exc.kind in {"api_error", "server"} and (
        "response_format" in text or "json_schema" in text
    )


def _is_json_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def to_wire_tool(tool: ToolSpec) -> dict[str, Any]:
    """A `ToolSpec` as an OpenAI function tool."""
    return {
        "type": "function",
        "function": {
            "name": tool.name,
            "description": tool.description,
            "parameters": tool.parameters,
        },
    }


def to_wire_tool_choice(choice: str) -> Any:
    """`auto`, `none`, `required`, or a tool name to force."""
    if choice in {"auto", "none", "required"}:
        return choice
    return {"type": "function", "function": {"name": choice}}


def to_wire_message(message: Message) -> dict[str, Any]:
    """One provider-neutral `Message` as an OpenAI chat message."""
    if message.role == "tool":
        return {
            "role": "tool",
            "tool_call_id": message.tool_call_id or "",
            "content": message.content,
        }
    if message.role == "assistant" and message.tool_calls:
        return {
            "role": "assistant",
            "content": message.content or None,
            "tool_calls": [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
                }
                for call in message.tool_calls
            ],
        }
    return {"role": message.role, "content": message.content}


def parse_tool_arguments(raw: Any, tool: str, model: str) -> dict[str, Any]:
    """Arguments of a tool call: a JSON object string (empty means no arguments)."""
    if isinstance(raw, dict):
        return raw
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}
    try:
        parsed = json.loads(raw)
    except (TypeError, json.JSONDecodeError) as exc:
        raise ModelCallError(
            "malformed_tool_call", f"{model}: arguments of {tool!r} are not JSON: {raw!r:.200}"
        ) from exc
    if not isinstance(parsed, dict):
        raise ModelCallError(
            "malformed_tool_call", f"{model}: arguments of {tool!r} are not an object: {raw!r:.200}"
        )
    return parsed


def parse_completion(body: dict[str, Any], model: str) -> AssistantMessage:
    """An OpenAI chat completion response body as an `AssistantMessage`."""
    choices = body.get("choices") or []
    if not choices:
        raise ModelCallError("api_error", f"{model}: the response has no choices")
    message = choices[0].get("message") or {}
    calls: list[ToolCall] = []
    for index, call in enumerate(message.get("tool_calls") or []):
        function = call.get("function") or {}
        name = function.get("name")
        if not name:
            raise ModelCallError("malformed_tool_call", f"{model}: a tool call has no name")
        arguments = parse_tool_arguments(function.get("arguments"), name, model)
        calls.append(ToolCall(id=call.get("id") or f"call_{index}", name=name, arguments=arguments))
    usage = body.get("usage") or {}
    return AssistantMessage(
        content=message.get("content") or "",
        tool_calls=calls,
        usage=Usage(
            tokens_in=usage.get("prompt_tokens") or 0,
            tokens_out=usage.get("completion_tokens") or 0,
        ),
        model=body.get("model") or model,
    )
