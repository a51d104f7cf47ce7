"""The LLM guideline generator: structured output, malformed replies, abstention, its prompt."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest
from oncourse.adapters.models import AnthropicModel, OpenAIModel
from oncourse.adapters.models.scripted import ScriptedModel
from oncourse.consistency.chat import AssistantMessage, ModelSettings, ToolCall
from oncourse.consistency.errors import ModelCallError
from oncourse.consistency.guidelines import Guideline, NoGuideline
from oncourse.consistency.llm_generator import (
    GUIDELINE_SCHEMA,
    GuidelineDraft,
    LLMGuidelineGenerator,
)
from oncourse.consistency.trajectory import Trajectory
from test_guidelines_generators import _analyzed, _invoice_runs
from test_models_openai import completion

VALID = {
    "decision": "guideline",
    "trigger": "The invoice list shows several invoices for the period the user named",
    "instruction": "Pay the invoice whose status is 'open', not the one already 'paid'.",
    "rationale": "Both passing runs paid the open invoice; both failing runs paid the paid one.",
    "preconditions": ["the lookup lists more than one invoice for the period"],
    "reason": "",
}


def _case() -> tuple[Any, list[Trajectory]]:
    analysis, runs = _analyzed(_invoice_runs())
    for run in runs:
        run.meta.__pydantic_extra__ = {"system_prompt": "You are the accounts-payable agent."}
    return analysis, runs


@pytest.mark.parametrize(
    ("bad", "told"),
    [
        ("Sure! Here is a guideline: be careful with invoices.", "invalid guideline JSON"),
        (json.dumps({**VALID, "decision": "maybe"}), "invalid guideline JSON"),  # outside the enum
        ('{"decision": "guideline", "trigger": "truncated', "invalid guideline JSON"),  # cut off
        (json.dumps({**VALID, "preconditions": ["x"] * 9}), "invalid guideline JSON"),  # too many
        # Well-formed JSON whose guideline is unusable: told why, not "invalid JSON".
        (json.dumps({**VALID, "instruction": "", "trigger": ""}), "must be filled in"),
        (json.dumps({**VALID, "trigger": "no_guideline"}), "must be filled in"),
        (json.dumps({**VALID, "instruction": "guideline."}), "must be filled in"),
        (
            json.dumps(
                {**VALID, "trigger": "The invoice list", "instruction": "the invoice list!"}
            ),
            "say the same thing",
        ),
        (json.dumps({**VALID, "instruction": "pay the invoice " * 4}), "repeats itself"),
        (
            json.dumps({**VALID, "instruction": "Pay invoice INV9931 before the others."}),
            "quotes run-specific values 'INV9931'",
        ),
    ],
)
def test_a_malformed_reply_is_sent_back_and_a_valid_one_accepted(bad, told):
    model = ScriptedModel([bad, "```json\n" + json.dumps(VALID) + "\n```"])
    analysis, runs = _case()
    (guideline,) = LLMGuidelineGenerator(model, max_retries=2).generate(analysis, runs)
    assert guideline.instruction == VALID["instruction"]
    assert guideline.model_extra["preconditions"] == VALID["preconditions"]
    assert guideline.provenance[0].generator == "llm"
    assert guideline.provenance[0].model == "scripted"
    retry = model.requests[1].messages
    assert retry[-2].content == bad  # its own bad reply was shown back
    assert told in retry[-1].content


def test_a_reply_that_stays_unusable_ends_as_an_abstention_with_the_reason():
    garbage = json.dumps(
        {**VALID, "trigger": "no_guideline", "instruction": "no_guideline", "rationale": "x"}
    )
    model = ScriptedModel([garbage] * 3)
    analysis, runs = _case()
    with pytest.raises(NoGuideline, match="no usable guideline after 3 attempts: .*filled in"):
        LLMGuidelineGenerator(model, max_retries=2).generate(analysis, runs)
    assert len(model.requests) == 3


def test_a_reply_that_stays_malformed_is_a_failed_call():
    model = ScriptedModel(['{"decision": "guideline", "trigger": "cut'] * 3)
    analysis, runs = _case()
    with pytest.raises(ModelCallError, match="invalid_output.*after 3 attempts: invalid guideline"):
        LLMGuidelineGenerator(model, max_retries=2).generate(analysis, runs)


def test_the_schema_bounds_every_string_and_list_the_draft_bounds():
    # Under constrained decoding the schema is all a small model is held to: an unbounded string
    # or list lets it write until its token cap and the JSON is cut off.
    props = GUIDELINE_SCHEMA["properties"]
    for name, prop in props.items():
        if prop["type"] == "string" and "enum" not in prop:
            field = GuidelineDraft.model_fields[name]
            assert prop["maxLength"] == next(m.max_length for m in field.metadata)
    precondition = props["preconditions"]
    assert precondition["maxItems"] >= 1 and precondition["items"]["maxLength"] >= 100
    too_many = {**VALID, "preconditions": ["a fact"] * (precondition["maxItems"] + 1)}
    with pytest.raises(ValueError):
        GuidelineDraft.model_validate(too_many)


def test_a_structured_reply_given_as_a_tool_call_is_read():
    reply = AssistantMessage(tool_calls=[ToolCall(id="t1", name="guideline", arguments=VALID)])
    analysis, runs = _case()
    (guideline,) = LLMGuidelineGenerator(ScriptedModel([reply])).generate(analysis, runs)
    assert guideline.trigger == VALID["trigger"]


def test_the_model_may_decline_and_says_why():
    declined = {**VALID, "decision": "no_guideline", "reason": "the branches differ only in notes"}
    analysis, runs = _case()
    with pytest.raises(NoGuideline, match="declined: the branches differ only in notes"):
        LLMGuidelineGenerator(ScriptedModel([json.dumps(declined)])).generate(analysis, runs)


def test_a_decline_reason_does_not_carry_run_values():
    declined = {**VALID, "decision": "no_guideline", "reason": "inv_100 was already paid"}
    analysis, runs = _case()
    with pytest.raises(NoGuideline) as info:
        LLMGuidelineGenerator(ScriptedModel([json.dumps(declined)])).generate(analysis, runs)
    assert info.value.reason == "the model declined: [value] was already paid"


@pytest.mark.parametrize("reason", ["", "no_guideline", "No-Guideline", "none."])
def test_a_decline_without_a_real_reason_is_reported_as_such(reason):
    # A small model under constrained decoding fills `reason` with the enum value it just chose.
    declined = {**VALID, "decision": "no_guideline", "reason": reason}
    analysis, runs = _case()
    with pytest.raises(NoGuideline, match="declined without giving a reason") as info:
        LLMGuidelineGenerator(ScriptedModel([json.dumps(declined)])).generate(analysis, runs)
    assert repr(reason) in info.value.reason


def test_quoted_run_values_are_refused_until_the_retries_run_out():
    leaky = json.dumps({**VALID, "instruction": "Pay inv_100 and never inv_200."})
    model = ScriptedModel([leaky, leaky, leaky])
    analysis, runs = _case()
    with pytest.raises(NoGuideline, match="after 3 attempts: .*quotes run-specific values"):
        LLMGuidelineGenerator(model, max_retries=2).generate(analysis, runs)
    assert "inv_100" in model.requests[1].messages[-1].content  # told what it leaked


def test_the_prompt_carries_both_branches_evidence_policy_and_existing_guidelines():
    existing = Guideline(
        id="g-old", trigger="Paying a vendor invoice", instruction="Pay the oldest invoice first."
    )
    asked: list[str] = []

    def similar(text: str) -> list[Guideline]:
        asked.append(text)
        return [existing]

    model = ScriptedModel([json.dumps(VALID)])
    analysis, runs = _case()
    LLMGuidelineGenerator(model, similar=similar).generate(analysis, runs)
    request = model.requests[0]
    sent = json.loads(request.messages[1].content)
    assert "no_guideline" in request.messages[0].content  # the explicit way out
    assert request.settings.response_schema == GUIDELINE_SCHEMA
    assert request.settings.temperature == 0.0
    assert sent["first_user_message"].startswith("Please pay the March invoice")
    win, lose = sent["branches"]
    assert (win["runs"], win["successes"], lose["runs"], lose["successes"]) == (2, 2, 2, 0)
    # Each branch: the steps before the fork (with what they returned) and what came after.
    assert [s["tool"] for s in win["last_steps_before"]] == ["list_invoices"]
    assert "open" in win["last_steps_before"][0]["observation"]
    assert win["action"]["args"] != lose["action"]["args"]
    assert "steps_after" in win and "steps_after" in lose
    assert sent["observation_before_fork"][0]["tool"] == "list_invoices"
    assert sent["evidence"]["choices"]["pay_invoice"].startswith("on the invoice whose status")
    assert sent["tool_kinds"]["pay_invoice"] == "write"
    assert sent["agent_system_prompt"] == "You are the accounts-payable agent."
    assert sent["existing_guidelines"] == [
        {"id": "g-old", "trigger": existing.trigger, "instruction": existing.instruction}
    ]
    assert asked


# -- the providers' structured-output features --------------------------------------------------


def test_openai_asks_for_the_schema_through_response_format():
    body = OpenAIModel("gpt-4.1", api_key="sk-test").request_body(
        [], [], ModelSettings(response_schema=GUIDELINE_SCHEMA)
    )
    sent = body["response_format"]
    assert (sent["type"], sent["json_schema"]["name"], sent["json_schema"]["strict"]) == (
        "json_schema",
        "guideline",
        True,
    )
    # OpenAI's strict subset has no length keywords; everything else goes as written.
    schema = sent["json_schema"]["schema"]
    assert "maxLength" not in json.dumps(schema)
    assert schema["required"] == GUIDELINE_SCHEMA["required"]
    assert schema["properties"]["preconditions"]["maxItems"] == 4
    assert schema["properties"]["decision"] == GUIDELINE_SCHEMA["properties"]["decision"]
    assert "maxLength" in json.dumps(GUIDELINE_SCHEMA)  # the generator's own schema is untouched
    compatible = OpenAIModel("m", base_url="http://127.0.0.1:9/v1", provider="openai-compatible")
    body = compatible.request_body([], [], ModelSettings(response_schema=GUIDELINE_SCHEMA))
    assert body["response_format"]["json_schema"]["schema"] == GUIDELINE_SCHEMA
    plain = OpenAIModel("gpt-4.1", api_key="sk-test").request_body([], [], ModelSettings())
    assert "response_format" not in plain


def test_anthropic_asks_for_the_schema_through_a_forced_tool():
    body = AnthropicModel("claude-sonnet-5-5", api_key="sk-ant-test").request_body(
        [], [], ModelSettings(response_schema=GUIDELINE_SCHEMA)
    )
    assert body["tools"] == [
        {
            "name": "guideline",
            "description": "Give your reply through this tool.",
            "input_schema": GUIDELINE_SCHEMA,
        }
    ]
    assert body["tool_choice"] == {"type": "tool", "name": "guideline"}


def test_an_openai_compatible_server_round_trip_writes_the_guideline():
    seen: list[dict[str, Any]] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        seen.append(json.loads(request.content))
        return httpx2.Response(200, json=completion({"content": json.dumps(VALID)}))

    client = httpx2.Client(transport=httpx2.MockTransport(handler))
    model = OpenAIModel(
        "local-gguf",
        api_key="none",
        base_url="http://127.0.0.1:9/v1",
        provider="openai-compatible",
        http_client=client,
    )
    analysis, runs = _case()
    (guideline,) = LLMGuidelineGenerator(model).generate(analysis, runs)
    assert guideline.instruction == VALID["instruction"]
    assert seen[0]["response_format"]["json_schema"]["schema"] == GUIDELINE_SCHEMA
