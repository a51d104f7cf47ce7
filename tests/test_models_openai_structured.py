"""Structured output on OpenAI-compatible servers: the `json_schema` form, and JSON mode after it.

Replies here are scripted at the HTTP level (httpx2 mock transport); the rejection text is the one
llama-cpp-python's server sends (recorded from it). The real server is exercised in
tests/test_llm_generator_llamacpp.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from oncourse.adapters.models import OpenAIModel
from oncourse.consistency.chat import Message, ModelSettings
from oncourse.consistency.errors import ModelCallError
from test_models_openai import completion, error_body

SCHEMA: dict[str, Any] = {
    "title": "answer",
    "type": "object",
    "properties": {"text": {"type": "string", "maxLength": 20}},
    "required": ["text"],
    "additionalProperties": False,
}
ASK = [Message(role="user", content="Say hi as JSON.")]
STRUCTURED = ModelSettings(response_schema=SCHEMA, temperature=0.0)
# What llama-cpp-python 0.3.x answers to `{"type": "json_schema", ...}` (HTTP 500).
LLAMA_CPP_PYTHON_REFUSAL = error_body(
    "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', "
    "'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}",
    "internal_server_error",
)


def _completion(content: str) -> httpx2.Response:
    return httpx2.Response(200, json=completion({"content": content}))


def _server(
    answer: Callable[[dict[str, Any]], httpx2.Response], provider: str = "openai-compatible"
) -> tuple[OpenAIModel, list[dict[str, Any]]]:
    seen: list[dict[str, Any]] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        seen.append(body)
        return answer(body)

    model = OpenAIModel(
        "local-gguf",
        api_key="none",
        base_url="http://127.0.0.1:9/v1",
        provider=provider,
        max_retries=0,
        http_client=httpx2.Client(transport=httpx2.MockTransport(handler)),
    )
    return model, seen


def _forms(seen: list[dict[str, Any]]) -> list[str]:
    return [body["response_format"]["type"] for body in seen]


def test_a_server_that_refuses_json_schema_is_asked_in_json_mode_with_the_schema():
    def answer(body: dict[str, Any]) -> httpx2.Response:
        if body["response_format"]["type"] == "json_schema":
            return httpx2.Response(500, json=LLAMA_CPP_PYTHON_REFUSAL)
        return _completion('{"text": "hi"}')

    model, seen = _server(answer)
    first = model.complete(ASK, [], STRUCTURED)
    second = model.complete(ASK, [], STRUCTURED)
    assert json.loads(first.content) == json.loads(second.content) == {"text": "hi"}
    # Refused once; from then on JSON mode carrying the whole schema (with its bounds).
    assert _forms(seen) == ["json_schema", "json_object", "json_object"]
    assert seen[1]["response_format"] == {"type": "json_object", "schema": SCHEMA}
    assert model.structured_form == "json_object"
    assert seen[1]["messages"] == seen[0]["messages"]


def test_a_server_that_ignores_json_schema_is_asked_again_in_json_mode():
    def answer(body: dict[str, Any]) -> httpx2.Response:
        if body["response_format"]["type"] == "json_schema":
            return _completion("Sure! hi")  # accepted, not honoured
        return _completion('{"text": "hi"}')

    model, seen = _server(answer)
    assert json.loads(model.complete(ASK, [], STRUCTURED).content) == {"text": "hi"}
    model.complete(ASK, [], STRUCTURED)
    assert _forms(seen) == ["json_schema", "json_object", "json_object"]


def test_when_json_mode_does_not_help_the_first_reply_stands_and_the_form_stays():
    def answer(body: dict[str, Any]) -> httpx2.Response:
        if body["response_format"]["type"] == "json_schema":
            return _completion('```json\n{"text": "hi"}\n```')
        return httpx2.Response(400, json={"error": {"message": "unknown field: schema"}})

    model, seen = _server(answer)
    reply = model.complete(ASK, [], STRUCTURED)
    assert reply.content.startswith("```json")  # the generator's reader still finds the object
    assert model.structured_form == "json_schema"
    assert _forms(seen) == ["json_schema", "json_object"]


def test_a_server_that_honours_json_schema_gets_one_request_per_call():
    model, seen = _server(lambda body: _completion('{"text": "hi"}'))
    model.complete(ASK, [], STRUCTURED)
    model.complete(ASK, [], STRUCTURED)
    assert _forms(seen) == ["json_schema", "json_schema"]
    assert seen[0]["response_format"]["json_schema"]["schema"] == SCHEMA


@pytest.mark.parametrize(
    ("status", "error"),
    [
        (500, {"error": {"message": "model crashed"}}),  # not about response_format
        (401, {"error": {"message": "bad key"}}),
    ],
)
def test_other_failures_are_not_mistaken_for_a_refused_format(status, error):
    model, seen = _server(lambda body: httpx2.Response(status, json=error))
    with pytest.raises(ModelCallError):
        model.complete(ASK, [], STRUCTURED)
    assert _forms(seen) == ["json_schema"]
    assert model.structured_form == "json_schema"


def test_openai_itself_is_never_probed_in_json_mode():
    model, seen = _server(lambda body: _completion("not json"), provider="openai")
    model.complete(ASK, [], STRUCTURED)
    assert _forms(seen) == ["json_schema"]
    assert "maxLength" not in json.dumps(seen[0]["response_format"])


def test_calls_without_a_schema_are_sent_as_they_are():
    model, seen = _server(lambda body: _completion("plain text"))
    assert model.complete(ASK, [], ModelSettings()).content == "plain text"
    assert len(seen) == 1 and "response_format" not in seen[0]
