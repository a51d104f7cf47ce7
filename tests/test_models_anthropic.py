"""Anthropic adapter against the documented messages wire format, through the SDK's HTTP layer.

Response shapes follow https://docs.anthropic.com/en/api/messages (tool_use content blocks,
`usage.input_tokens`, error bodies `{"type": "error", "error": {...}}`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from oncourse.adapters.models import AnthropicModel, get_model
from oncourse.consistency.chat import Message, ModelSettings, ToolCall, ToolSpec
from oncourse.consistency.errors import ConfigError, ModelCallError

WEATHER = ToolSpec(
    name="get_weather",
    description="Current weather in a city.",
    parameters={"type": "object", "properties": {"city": {"type": "string"}}},
)
CONVERSATION = [
    Message(role="system", content="You are terse."),
    Message(role="user", content="Weather in Paris and Oslo?"),
]


def message(*blocks: dict[str, Any], stop: str = "end_turn") -> dict[str, Any]:
    return {
        "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-5-5-20260901",
        "content": list(blocks),
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 120, "output_tokens": 31},
    }


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def tool_use(block_id: str, name: str, tool_input: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": block_id, "name": name, "input": tool_input}


def error_body(kind: str, detail: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": detail}}


class FakeAnthropic:
    """An httpx2 transport that answers /v1/messages from a list of handlers."""

    def __init__(self, *responses: httpx2.Response | Callable[[httpx2.Request], httpx2.Response]):
        self.responses = list(responses)
        self.requests: list[httpx2.Request] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        answer = self.responses[min(len(self.requests), len(self.responses)) - 1]
        return answer(request) if callable(answer) else answer

    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(r.content) for r in self.requests]

    def model(self, *, max_retries: int = 2) -> AnthropicModel:
        client = httpx2.Client(transport=httpx2.MockTransport(self))
        return AnthropicModel(
            "claude-sonnet-5-5", api_key="sk-ant-test", max_retries=max_retries, http_client=client
        )


@pytest.fixture(autouse=True)
def _fast_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the SDK's retry logic but shrink its back-off so retry tests take milliseconds."""
    import anthropic._base_client as base

    monkeypatch.setattr(base, "INITIAL_RETRY_DELAY", 0.001)
    monkeypatch.setattr(base, "MAX_RETRY_DELAY", 0.002)


def test_plain_answer_puts_system_at_top_level_and_sends_no_sampling_params() -> None:
    fake = FakeAnthropic(httpx2.Response(200, json=message(text("Sunny, 21C."))))
    reply = fake.model().complete(
        CONVERSATION, [WEATHER], ModelSettings(temperature=0.3, max_tokens=200, seed=9)
    )
    assert (reply.content, reply.tool_calls) == ("Sunny, 21C.", [])
    assert (reply.usage.tokens_in, reply.usage.tokens_out) == (120, 31)
    assert reply.model == "claude-sonnet-5-5-20260901"
    (body,) = fake.bodies()
    assert fake.requests[0].url.path == "/v1/messages"
    # SDK 2.x (API version 2026-10-21) sends the key as a bearer token.
    assert fake.requests[0].headers["authorization"] == "Bearer sk-ant-test"
    assert body["system"] == "You are terse."
    assert body["messages"] == [{"role": "user", "content": "Weather in Paris and Oslo?"}]
    assert body["tools"] == [
        {
            "name": "get_weather",
            "description": "Current weather in a city.",
            "input_schema": WEATHER.parameters,
        }
    ]
    assert body["max_tokens"] == 200
    # API version 2026-10-21 answers 400 to any sampling parameter; the API has no seed.
    assert not {"temperature", "top_p", "top_k", "seed"} & set(body)


def test_one_tool_use_block() -> None:
    fake = FakeAnthropic(
        httpx2.Response(
            200,
            json=message(
                text("I'll look it up."),
                tool_use("toolu_01", "get_weather", {"city": "Paris"}),
                stop="tool_use",
            ),
        )
    )
    reply = fake.model().complete(CONVERSATION, [WEATHER], ModelSettings())
    assert reply.content == "I'll look it up."
    assert reply.tool_calls == [
        ToolCall(id="toolu_01", name="get_weather", arguments={"city": "Paris"})
    ]


def test_parallel_tool_use_blocks() -> None:
    fake = FakeAnthropic(
        httpx2.Response(
            200,
            json=message(
                tool_use("toolu_a", "get_weather", {"city": "Paris"}),
                tool_use("toolu_b", "get_weather", {"city": "Oslo"}),
                stop="tool_use",
            ),
        )
    )
    reply = fake.model().complete(CONVERSATION, [WEATHER], ModelSettings())
    assert [(c.id, c.arguments) for c in reply.tool_calls] == [
        ("toolu_a", {"city": "Paris"}),
        ("toolu_b", {"city": "Oslo"}),
    ]


def test_tool_results_are_grouped_into_one_user_message() -> None:
    fake = FakeAnthropic(httpx2.Response(200, json=message(text("Both sunny."))))
    calls = [
        ToolCall(id="toolu_a", name="get_weather", arguments={"city": "Paris"}),
        ToolCall(id="toolu_b", name="get_weather", arguments={"city": "Oslo"}),
    ]
    history = [
        *CONVERSATION,
        Message(role="assistant", content="Checking.", tool_calls=calls),
        Message(role="tool", tool_call_id="toolu_a", name="get_weather", content="sun"),
        Message(role="tool", tool_call_id="toolu_b", content="no such city", is_error=True),
    ]
    fake.model().complete(history, [WEATHER], ModelSettings(tool_choice="required"))
    body = fake.bodies()[0]
    assert body["messages"][1:] == [
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Checking."},
                {
                    "type": "tool_use",
                    "id": "toolu_a",
                    "name": "get_weather",
                    "input": {"city": "Paris"},
                },
                {
                    "type": "tool_use",
                    "id": "toolu_b",
                    "name": "get_weather",
                    "input": {"city": "Oslo"},
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_a", "content": "sun"},
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_b",
                    "content": "no such city",
                    "is_error": True,
                },
            ],
        },
    ]
    assert body["tool_choice"] == {"type": "any"}


@pytest.mark.parametrize("broken", ['{"city": "Par', "Paris", ["Paris"]])
def test_malformed_tool_input_is_a_model_call_error(broken: Any) -> None:
    fake = FakeAnthropic(
        httpx2.Response(
            200, json=message(tool_use("toolu_1", "get_weather", broken), stop="tool_use")
        )
    )
    with pytest.raises(ModelCallError) as caught:
        fake.model().complete(CONVERSATION, [WEATHER], ModelSettings())
    assert caught.value.kind == "malformed_tool_call"


def test_rate_limit_then_success_is_retried_by_the_sdk() -> None:
    limited = httpx2.Response(
        429,
        json=error_body("rate_limit_error", "Number of requests has exceeded your rate limit"),
        headers={"retry-after": "0.001"},
    )
    fake = FakeAnthropic(limited, httpx2.Response(200, json=message(text("ok"))))
    assert fake.model(max_retries=2).complete(CONVERSATION, [], ModelSettings()).content == "ok"
    assert len(fake.requests) == 2


def test_overloaded_until_retries_run_out_is_kind_server() -> None:
    fake = FakeAnthropic(httpx2.Response(529, json=error_body("overloaded_error", "Overloaded")))
    with pytest.raises(ModelCallError) as caught:
        fake.model(max_retries=2).complete(CONVERSATION, [], ModelSettings())
    assert caught.value.kind == "server"
    assert len(fake.requests) == 3


def test_internal_error_500_is_kind_server() -> None:
    fake = FakeAnthropic(httpx2.Response(500, json=error_body("api_error", "Internal error")))
    with pytest.raises(ModelCallError) as caught:
        fake.model(max_retries=1).complete(CONVERSATION, [], ModelSettings())
    assert caught.value.kind == "server"
    assert len(fake.requests) == 2


def test_timeout_is_kind_timeout() -> None:
    def hang(request: httpx2.Request) -> httpx2.Response:
        raise httpx2.ReadTimeout("timed out", request=request)

    fake = FakeAnthropic(hang)
    with pytest.raises(ModelCallError) as caught:
        fake.model(max_retries=1).complete(CONVERSATION, [], ModelSettings(timeout_s=2.0))
    assert caught.value.kind == "timeout"
    assert len(fake.requests) == 2
    assert fake.requests[0].extensions["timeout"]["read"] == 2.0


def test_missing_key_names_the_variable() -> None:
    assert "ANTHROPIC_API_KEY" not in os.environ
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
        get_model("anthropic:claude-sonnet-5-5")


def test_spec_builds_an_anthropic_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-env")
    model = get_model("anthropic:claude-sonnet-5-5")
    assert isinstance(model, AnthropicModel)
    assert (model.name, model.provider, model.simulated) == (
        "claude-sonnet-5-5",
        "anthropic",
        False,
    )


@pytest.mark.live("ANTHROPIC_API_KEY")
def test_live_anthropic_tool_call() -> None:
    model = get_model(os.environ.get("ONCOURSE_LIVE_ANTHROPIC_MODEL", "anthropic:claude-haiku-5-5"))
    reply = model.complete(
        [Message(role="user", content="What is the weather in Paris? Use the tool.")],
        [WEATHER],
        ModelSettings(temperature=0, max_tokens=200, tool_choice="required"),
    )
    assert [c.name for c in reply.tool_calls] == ["get_weather"]
    assert reply.usage.tokens_in > 0
