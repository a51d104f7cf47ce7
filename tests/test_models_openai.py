"""OpenAI adapter against the documented chat-completions wire format, through the SDK's HTTP layer.

The SDK is given an `httpx2.Client` whose transport answers like the API does (shapes from
https://platform.openai.com/docs/api-reference/chat/object), so request building, retries,
timeouts and error classes are the SDK's own.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from oncourse.adapters.models import OpenAIModel, get_model
from oncourse.consistency.chat import Message, ModelSettings, ToolCall, ToolSpec
from oncourse.consistency.errors import ConfigError, ModelCallError

WEATHER = ToolSpec(
    name="get_weather",
    description="Current weather in a city.",
    parameters={
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
    },
)
CONVERSATION = [
    Message(role="system", content="You are terse."),
    Message(role="user", content="Weather in Paris and Oslo?"),
]


def completion(message: dict[str, Any], *, finish: str = "stop") -> dict[str, Any]:
    return {
        "id": "chatcmpl-abc123",
        "object": "chat.completion",
        "created": 1741569952,
        "model": "gpt-4.1-2025-04-14",
        "choices": [
            {"index": 0, "message": {"role": "assistant", **message}, "finish_reason": finish}
        ],
        "usage": {"prompt_tokens": 82, "completion_tokens": 17, "total_tokens": 99},
    }


def tool_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def error_body(message: str, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


class FakeOpenAI:
    """An httpx2 transport that answers chat completions from a list of handlers."""

    def __init__(self, *responses: httpx2.Response | Callable[[httpx2.Request], httpx2.Response]):
        self.responses = list(responses)
        self.requests: list[httpx2.Request] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        answer = self.responses[min(len(self.requests), len(self.responses)) - 1]
        return answer(request) if callable(answer) else answer

    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(r.content) for r in self.requests]

    def model(self, *, max_retries: int = 2, **kwargs: Any) -> OpenAIModel:
        client = httpx2.Client(transport=httpx2.MockTransport(self))
        return OpenAIModel(
            "gpt-4.1", api_key="sk-test", max_retries=max_retries, http_client=client, **kwargs
        )


@pytest.fixture(autouse=True)
def _fast_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the SDK's retry logic but shrink its back-off so retry tests take milliseconds."""
    import openai._base_client as base

    monkeypatch.setattr(base, "INITIAL_RETRY_DELAY", 0.001)
    monkeypatch.setattr(base, "MAX_RETRY_DELAY", 0.002)


def test_plain_answer_maps_text_usage_and_request_body() -> None:
    fake = FakeOpenAI(httpx2.Response(200, json=completion({"content": "Sunny, 21C."})))
    settings = ModelSettings(temperature=0.2, max_tokens=50, seed=7)
    reply = fake.model().complete(CONVERSATION, [WEATHER], settings)

    assert (reply.content, reply.tool_calls) == ("Sunny, 21C.", [])
    assert (reply.usage.tokens_in, reply.usage.tokens_out) == (82, 17)
    assert reply.model == "gpt-4.1-2025-04-14"
    (body,) = fake.bodies()
    assert fake.requests[0].url.path == "/v1/chat/completions"
    assert fake.requests[0].headers["authorization"] == "Bearer sk-test"
    assert body["messages"] == [
        {"role": "system", "content": "You are terse."},
        {"role": "user", "content": "Weather in Paris and Oslo?"},
    ]
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Current weather in a city.",
                "parameters": WEATHER.parameters,
            },
        }
    ]
    assert (body["temperature"], body["max_completion_tokens"], body["seed"]) == (0.2, 50, 7)


def test_one_tool_call_is_parsed_into_a_dict() -> None:
    message = {
        "content": None,
        "tool_calls": [tool_call("call_1", "get_weather", '{"city":"Paris"}')],
    }
    fake = FakeOpenAI(httpx2.Response(200, json=completion(message, finish="tool_calls")))
    reply = fake.model().complete(CONVERSATION, [WEATHER], ModelSettings())
    assert reply.content == ""
    assert reply.tool_calls == [
        ToolCall(id="call_1", name="get_weather", arguments={"city": "Paris"})
    ]


def test_parallel_tool_calls_keep_order_and_ids() -> None:
    message = {
        "content": "Checking both.",
        "tool_calls": [
            tool_call("call_a", "get_weather", '{"city": "Paris"}'),
            tool_call("call_b", "get_weather", '{"city": "Oslo"}'),
        ],
    }
    fake = FakeOpenAI(httpx2.Response(200, json=completion(message, finish="tool_calls")))
    reply = fake.model().complete(CONVERSATION, [WEATHER], ModelSettings())
    assert [(c.id, c.arguments["city"]) for c in reply.tool_calls] == [
        ("call_a", "Paris"),
        ("call_b", "Oslo"),
    ]
    assert reply.content == "Checking both."


def test_tool_history_goes_back_in_wire_format() -> None:
    fake = FakeOpenAI(httpx2.Response(200, json=completion({"content": "Paris: sunny."})))
    history = [
        *CONVERSATION,
        Message(
            role="assistant",
            tool_calls=[ToolCall(id="call_a", name="get_weather", arguments={"city": "Paris"})],
        ),
        Message(role="tool", tool_call_id="call_a", name="get_weather", content='{"sky": "sun"}'),
    ]
    fake.model().complete(history, [WEATHER], ModelSettings(tool_choice="get_weather"))
    body = fake.bodies()[0]
    assert body["messages"][2] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [tool_call("call_a", "get_weather", '{"city": "Paris"}')],
    }
    assert body["messages"][3] == {
        "role": "tool",
        "tool_call_id": "call_a",
        "content": '{"sky": "sun"}',
    }
    assert body["tool_choice"] == {"type": "function", "function": {"name": "get_weather"}}


@pytest.mark.parametrize("arguments", ['{"city": "Par', "[1, 2]", "city=Paris"])
def test_malformed_tool_arguments_are_a_model_call_error(arguments: str) -> None:
    message = {"content": None, "tool_calls": [tool_call("call_1", "get_weather", arguments)]}
    fake = FakeOpenAI(httpx2.Response(200, json=completion(message, finish="tool_calls")))
    with pytest.raises(ModelCallError) as caught:
        fake.model().complete(CONVERSATION, [WEATHER], ModelSettings())
    assert caught.value.kind == "malformed_tool_call"


def test_rate_limit_then_success_is_retried_by_the_sdk() -> None:
    limited = httpx2.Response(
        429,
        json=error_body("Rate limit reached for gpt-4.1", "requests"),
        headers={"retry-after-ms": "1"},
    )
    fake = FakeOpenAI(limited, httpx2.Response(200, json=completion({"content": "ok"})))
    reply = fake.model(max_retries=2).complete(CONVERSATION, [], ModelSettings())
    assert reply.content == "ok"
    assert len(fake.requests) == 2


def test_rate_limit_past_retries_is_kind_rate_limit() -> None:
    fake = FakeOpenAI(httpx2.Response(429, json=error_body("slow down", "requests")))
    with pytest.raises(ModelCallError) as caught:
        fake.model(max_retries=1).complete(CONVERSATION, [], ModelSettings())
    assert caught.value.kind == "rate_limit"
    assert len(fake.requests) == 2


def test_server_error_until_retries_run_out_is_kind_server() -> None:
    fake = FakeOpenAI(httpx2.Response(500, json=error_body("The server had an error", "server")))
    with pytest.raises(ModelCallError) as caught:
        fake.model(max_retries=3).complete(CONVERSATION, [], ModelSettings())
    assert caught.value.kind == "server"
    assert "500" in str(caught.value)
    assert len(fake.requests) == 4  # the first try and three retries


def test_client_error_is_not_retried_and_is_kind_api_error() -> None:
    fake = FakeOpenAI(httpx2.Response(400, json=error_body("bad tool schema", "invalid_request")))
    with pytest.raises(ModelCallError) as caught:
        fake.model(max_retries=3).complete(CONVERSATION, [], ModelSettings())
    assert caught.value.kind == "api_error"
    assert len(fake.requests) == 1


def test_timeout_uses_the_settings_timeout_and_is_kind_timeout() -> None:
    def hang(request: httpx2.Request) -> httpx2.Response:
        raise httpx2.ReadTimeout("timed out", request=request)

    fake = FakeOpenAI(hang)
    with pytest.raises(ModelCallError) as caught:
        fake.model(max_retries=1).complete(CONVERSATION, [], ModelSettings(timeout_s=3.5))
    assert caught.value.kind == "timeout"
    assert len(fake.requests) == 2
    assert fake.requests[0].extensions["timeout"]["read"] == 3.5


def test_connection_refused_is_kind_connection() -> None:
    def refuse(request: httpx2.Request) -> httpx2.Response:
        raise httpx2.ConnectError("connection refused", request=request)

    fake = FakeOpenAI(refuse)
    with pytest.raises(ModelCallError) as caught:
        fake.model(max_retries=0).complete(CONVERSATION, [], ModelSettings())
    assert caught.value.kind == "connection"


def test_openai_compatible_server_uses_base_url_and_max_tokens() -> None:
    fake = FakeOpenAI(httpx2.Response(200, json=completion({"content": "hi"})))
    model = OpenAIModel(
        "qwen2.5-7b",
        base_url="http://127.0.0.1:8080/v1",
        provider="openai-compatible",
        http_client=httpx2.Client(transport=httpx2.MockTransport(fake)),
    )
    model.complete(CONVERSATION, [], ModelSettings(max_tokens=64))
    request = fake.requests[0]
    assert str(request.url) == "http://127.0.0.1:8080/v1/chat/completions"
    body = fake.bodies()[0]
    assert (body["model"], body["max_tokens"]) == ("qwen2.5-7b", 64)
    assert "max_completion_tokens" not in body
    assert request.headers["authorization"] == "Bearer not-needed"


def test_spec_strings_build_the_right_models(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    openai_model = get_model("openai:gpt-4.1")
    assert (openai_model.name, openai_model.provider, openai_model.simulated) == (  # type: ignore[attr-defined]
        "gpt-4.1",
        "openai",
        False,
    )
    compatible = get_model("openai-compatible:http://127.0.0.1:8000/v1#llama-3.1-8b")
    assert isinstance(compatible, OpenAIModel)
    assert (compatible.name, compatible.provider, compatible.base_url) == (
        "llama-3.1-8b",
        "openai-compatible",
        "http://127.0.0.1:8000/v1",
    )


def test_missing_key_names_the_variable() -> None:
    assert "OPENAI_API_KEY" not in os.environ  # conftest removes it outside live tests
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        get_model("openai:gpt-4.1")
    # A local compatible server needs no key.
    assert get_model("openai-compatible:http://127.0.0.1:8000/v1#m").name == "m"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "spec",
    ["gpt-4.1", "openai:", "openai-compatible:127.0.0.1:8000#m", "openai-compatible:http://h/v1"],
)
def test_bad_specs_are_config_errors(spec: str) -> None:
    with pytest.raises(ConfigError):
        get_model(spec)


@pytest.mark.live("OPENAI_API_KEY")
def test_live_openai_tool_call() -> None:
    model = get_model(os.environ.get("ONCOURSE_LIVE_OPENAI_MODEL", "openai:gpt-4.1-mini"))
    reply = model.complete(
        [Message(role="user", content="What is the weather in Paris? Use the tool.")],
        [WEATHER],
        ModelSettings(temperature=0, max_tokens=100, tool_choice="required"),
    )
    assert [c.name for c in reply.tool_calls] == ["get_weather"]
    assert "paris" in reply.tool_calls[0].arguments["city"].lower()
    assert reply.usage.tokens_in > 0


def test_agent_loop_against_a_local_openai_compatible_http_server() -> None:
    """Real sockets on loopback: a stand-in server that looks the contact up, then answers."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from _tiny_suite import TinySuite
    from oncourse.adapters.agent import run_agent

    received: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the http.server API
            body = json.loads(self.rfile.read(int(self.headers["content-length"])))
            received.append({"path": self.path, "body": body})
            if not any(m["role"] == "tool" for m in body["messages"]):
                args = json.dumps({"name": "Bo Chen"})
                reply = completion(
                    {"content": None, "tool_calls": [tool_call("c1", "find_contact", args)]}
                )
            else:
                reply = completion({"content": "Bo is bo@acme.test."})
            data = json.dumps(reply).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        model = get_model(f"openai-compatible:http://127.0.0.1:{port}/v1#tiny-llm")
        suite = TinySuite()
        task = suite.tasks("heldout")[0]
        run = run_agent(model, suite.make_env(task), task, seed=4)
    finally:
        server.shutdown()
        server.server_close()
    assert [r["path"] for r in received] == ["/v1/chat/completions"] * 2
    assert received[1]["body"]["messages"][-1]["role"] == "tool"
    assert json.loads(received[1]["body"]["messages"][-1]["content"])[0]["email"] == "bo@acme.test"
    assert [s.action.tool for s in run.steps] == ["find_contact", "respond"]
    assert (run.meta.provider, run.meta.model, run.meta.seed) == (
        "openai-compatible",
        "tiny-llm",
        4,
    )
    assert run.meta.model_dump()["base_url"] == f"http://127.0.0.1:{port}/v1"
    assert run.meta.model_dump()["model_reported"] == "gpt-4.1-2025-04-14"
    assert (run.meta.tokens_in, run.meta.tokens_out) == (164, 34)
