"""The chat-model seam: messages and tool schemas in, one assistant message out.

Provider adapters (OpenAI, Anthropic, OpenAI-compatible, simulated, scripted) live in `adapters/`;
the types live here so that guideline generators can call any model without importing adapters.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field


class ToolCall(BaseModel):
    """A tool call requested by the model."""

    id: str = Field(description="Provider's id of the call, echoed back with the result.")
    name: str = Field(description="Tool name.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Parsed arguments.")


class Message(BaseModel):
    """One chat message in a provider-neutral shape."""

    model_config = ConfigDict(extra="allow")

    role: Literal["system", "user", "assistant", "tool"] = Field(description="Who speaks.")
    content: str = Field(default="", description="Text content.")
    tool_calls: list[ToolCall] = Field(default_factory=list, description="Assistant tool calls.")
    tool_call_id: str | None = Field(default=None, description="For role=tool: the call answered.")
    name: str | None = Field(default=None, description="For role=tool: the tool's name.")


class ToolSpec(BaseModel):
    """A tool offered to the model, with its JSON schema."""

    name: str = Field(description="Tool name.")
    description: str = Field(default="", description="What the tool does.")
    parameters: dict[str, Any] = Field(
        default_factory=lambda: {"type": "object", "properties": {}},
        description="JSON schema of the arguments object.",
    )


class ModelSettings(BaseModel):
    """Sampling and transport settings for one call."""

    model_config = ConfigDict(extra="allow")

    temperature: float | None = Field(default=None, description="Sampling temperature.")
    max_tokens: int | None = Field(default=1024, description="Completion token cap.")
    seed: int | None = Field(default=None, description="Seed, where the provider honours one.")
    timeout_s: float | None = Field(default=60.0, description="Per-call timeout in seconds.")
    tool_choice: str | None = Field(
        default=None, description="auto, none, required, or a tool name to force."
    )
    response_schema: dict[str, Any] | None = Field(
        default=None,
        description="JSON schema the reply must follow (structured output); its 'title' names it.",
    )


class Usage(BaseModel):
    """Token usage of one call."""

    tokens_in: int = Field(default=0, description="Prompt tokens.")
    tokens_out: int = Field(default=0, description="Completion tokens.")


class AssistantMessage(BaseModel):
    """What a model returned: text and/or tool calls, with token usage."""

    content: str = Field(default="", description="Text reply (may be empty with tool calls).")
    tool_calls: list[ToolCall] = Field(default_factory=list, description="Requested tool calls.")
    usage: Usage = Field(default_factory=Usage, description="Token usage of the call.")
    model: str | None = Field(default=None, description="Model id reported by the provider.")
    raw: dict[str, Any] | None = Field(default=None, description="Provider response, if kept.")


@runtime_checkable
class ChatModel(Protocol):
    """Anything that can answer a chat: the one seam every provider implements.

    Besides `complete`, a model declares what every run's provenance records about it.
    """

    name: str
    """Model id as provenance records it (`gpt-4.1`, `simulated`)."""
    provider: str
    """Who serves it: `openai`, `anthropic`, `openai-compatible`, `simulated`, ..."""
    simulated: bool
    """True for stand-ins that are not a language model; their results are labelled so."""

    def complete(
        self, messages: list[Message], tools: list[ToolSpec], settings: ModelSettings
    ) -> AssistantMessage:
        """Return the assistant's next message; raise ModelCallError when the call fails."""
        ...
