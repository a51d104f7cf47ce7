"""Structural tests of the ReAct loop: the real loop, a scripted model, a tiny mail world."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from _tiny_suite import MailEnv, TinySuite, picky_agent
from oncourse.adapters.agent import run_agent
from oncourse.adapters.models.scripted import FunctionModel, ScriptedModel, final_answer, tool_call
from oncourse.consistency.chat import AssistantMessage, ModelSettings, ToolCall, Usage
from oncourse.consistency.errors import ConfigError, ModelCallError
from oncourse.consistency.trajectory import RESPOND_TOOL, Trajectory

SUITE = TinySuite()
ACME, GLOBEX, BO = SUITE.tasks("all")


def env_for(task: Any) -> MailEnv:
    return SUITE.make_env(task)


def test_steps_record_thought_action_observation_and_success() -> None:
    model = ScriptedModel(
        [
            tool_call("find_contact", {"name": "Ana Ruiz"}, thought="Two Anas, maybe."),
            AssistantMessage(
                tool_calls=[
                    ToolCall(
                        id="",
                        name="send_email",
                        arguments={"to": "ana@acme.test", "subject": "Invoice"},
                    )
                ],
                usage=Usage(tokens_in=40, tokens_out=9),
            ),
            final_answer("Emailed Ana at Acme."),
        ]
    )
    env = env_for(ACME)
    run = run_agent(
        model, env, ACME, system_prompt="You handle mail.", seed=11, run_id="mail-acme#r0"
    )

    assert run.success is True and run.error is None
    assert [s.action.tool for s in run.steps] == ["find_contact", "send_email", RESPOND_TOOL]
    assert run.steps[0].thought == "Two Anas, maybe."
    assert [c["company"] for c in run.steps[0].observation] == ["Acme", "Globex"]
    assert run.steps[2].action.args == {"text": "Emailed Ana at Acme."}
    assert env.replies == ["Emailed Ana at Acme."]  # the environment saw the reply
    assert run.final_answer == "Emailed Ana at Acme."
    assert (run.task_id, run.run_id, run.task) == ("mail-acme", "mail-acme#r0", ACME.instruction)
    assert (run.meta.seed, run.meta.tokens_in, run.meta.tokens_out) == (11, 40, 9)
    assert (run.meta.model, run.meta.provider, run.meta.simulated) == (
        "scripted",
        "scripted",
        False,
    )
    assert run.meta.oncourse_version and run.meta.started_at

    # What the model was sent: the observation of call 1 came back as a tool message with its id.
    second = model.requests[1].messages
    assert [m.role for m in second] == ["system", "user", "assistant", "tool"]
    assert second[3].tool_call_id == second[2].tool_calls[0].id == "call_0"
    assert json.loads(second[3].content)[1]["email"] == "ana.ruiz@globex.test"
    assert model.requests[0].settings.seed == 11
    # The trajectory is valid JSONL material.
    assert Trajectory.model_validate_json(run.model_dump_json()) == run


def test_wrong_choice_is_a_failed_run_without_error() -> None:
    model = ScriptedModel(
        [
            tool_call("find_contact", {"name": "Ana"}),
            tool_call("send_email", {"to": "ana.ruiz@globex.test", "subject": "Invoice"}),
            "Done.",
        ]
    )
    run = run_agent(model, env_for(ACME), ACME)
    assert run.success is False and run.error is None


def test_parallel_calls_are_separate_steps_with_one_thought() -> None:
    model = ScriptedModel(
        [
            AssistantMessage(
                content="Both at once.",
                tool_calls=[
                    ToolCall(id="a", name="find_contact", arguments={"name": "Bo"}),
                    ToolCall(id="b", name="nope", arguments={}),
                ],
            ),
            "Nothing to send.",
        ]
    )
    run = run_agent(model, env_for(BO), BO)
    assert [(s.action.tool, s.thought) for s in run.steps[:2]] == [
        ("find_contact", "Both at once."),
        ("nope", None),
    ]
    assert run.steps[1].error == "unknown tool 'nope'"
    tool_messages = [m for m in model.requests[1].messages if m.role == "tool"]
    assert [(m.tool_call_id, m.content.startswith("Error:")) for m in tool_messages] == [
        ("a", False),
        ("b", True),
    ]


def test_a_tool_that_raises_becomes_an_error_observation() -> None:
    model = ScriptedModel([tool_call("explode"), "gave up"])
    run = run_agent(model, env_for(BO), BO)
    assert run.steps[0].error == "RuntimeError: tool crashed"
    assert run.error is None and run.success is False


def test_memory_hook_extends_the_system_prompt_and_ids_go_to_meta() -> None:
    seen: list[tuple[str, list[str]]] = []

    def hook(task_text: str, tool_names: list[str]) -> tuple[str, list[str]]:
        seen.append((task_text, tool_names))
        return "## Guidelines\n1. Filter matches on the company named in the task.", ["g-12", "g-3"]

    model = ScriptedModel(["ok"])
    run = run_agent(model, env_for(GLOBEX), GLOBEX, system_prompt="Base.", memory_hook=hook)
    assert seen == [(GLOBEX.instruction, ["find_contact", "send_email"])]
    assert model.requests[0].system_prompt == (
        "Base.\n\n## Guidelines\n1. Filter matches on the company named in the task."
    )
    assert run.meta.injected_guidelines == ["g-12", "g-3"]


def test_empty_hook_leaves_the_prompt_alone() -> None:
    model = ScriptedModel(["ok"])
    run = run_agent(
        model, env_for(BO), BO, system_prompt="Base.", memory_hook=lambda t, n: ("", [])
    )
    assert model.requests[0].system_prompt == "Base."
    assert run.meta.injected_guidelines == []


def test_step_limit_fails_the_run() -> None:
    model = FunctionModel(lambda m, t, s: tool_call("find_contact", {"name": "Ana"}))
    run = run_agent(model, env_for(ACME), ACME, max_steps=4)
    assert run.error is not None and run.error.kind == "step_limit"
    assert run.success is False
    assert len(run.steps) == 4
    assert len(model.requests) == 4


def test_parallel_calls_past_the_step_limit_are_cut_and_answered() -> None:
    calls = [ToolCall(id=f"x{i}", name="find_contact", arguments={"name": "Bo"}) for i in range(3)]
    model = ScriptedModel([AssistantMessage(tool_calls=calls)])
    run = run_agent(model, env_for(BO), BO, max_steps=2)
    assert run.error is not None and run.error.kind == "step_limit"
    assert len(run.steps) == 2


def test_timeout_fails_the_run_and_caps_the_call_timeout() -> None:
    def slow(messages: Any, tools: Any, settings: ModelSettings) -> AssistantMessage:
        time.sleep(0.06)
        return tool_call("find_contact", {"name": "Ana"})

    model = FunctionModel(slow)
    started = time.monotonic()
    run = run_agent(
        model, env_for(ACME), ACME, timeout_s=0.15, settings=ModelSettings(timeout_s=60)
    )
    assert time.monotonic() - started < 1.0
    assert run.error is not None and run.error.kind == "timeout"
    assert run.success is False
    # Each call is given no more than what is left of the run's budget.
    assert all(
        r.settings.timeout_s is not None and r.settings.timeout_s <= 0.15 for r in model.requests
    )
    assert model.requests[1].settings.timeout_s < model.requests[0].settings.timeout_s  # type: ignore[operator]


@pytest.mark.parametrize("bad", [0, -1.0])
def test_non_positive_timeout_is_a_config_error(bad: float) -> None:
    with pytest.raises(ConfigError, match="timeout"):
        run_agent(ScriptedModel(["x"]), env_for(BO), BO, timeout_s=bad)


@pytest.mark.parametrize("kind", ["rate_limit", "server", "malformed_tool_call", "timeout"])
def test_model_error_is_a_failed_run_not_a_crash(kind: str) -> None:
    model = ScriptedModel(
        [tool_call("find_contact", {"name": "Bo"}), ModelCallError(kind, "provider said no")]
    )
    run = run_agent(model, env_for(BO), BO)
    assert run.success is False
    assert run.error is not None and run.error.kind == kind
    assert "provider said no" in run.error.message
    assert [s.action.tool for s in run.steps] == ["find_contact"]


def test_exhausted_script_fails_the_run() -> None:
    run = run_agent(ScriptedModel([tool_call("find_contact", {"name": "Bo"})]), env_for(BO), BO)
    assert run.error is not None and run.error.kind == "script_exhausted"


def test_seed_reaches_the_model_and_changes_the_path() -> None:
    model = FunctionModel(picky_agent)
    runs = [run_agent(model, env_for(ACME), ACME, seed=s) for s in (0, 1, 2)]
    sent = [r.steps[1].action.args["to"] for r in runs]
    assert sent == ["ana@acme.test", "ana.ruiz@globex.test", "ana@acme.test"]
    assert [r.success for r in runs] == [True, False, True]
    assert [r.meta.seed for r in runs] == [0, 1, 2]


def test_env_is_reset_before_the_run() -> None:
    env = env_for(BO)
    env.outbox.append({"to": "stale@x.test"})
    run_agent(ScriptedModel(["nothing"]), env, BO)
    assert env.resets == 1 and env.outbox == []


def test_bare_instruction_gets_a_stable_task_id() -> None:
    a = run_agent(ScriptedModel(["x"]), env_for(BO), "Email Bo Chen.")
    b = run_agent(ScriptedModel(["y"]), env_for(BO), "Email Bo Chen.")
    assert a.task_id == b.task_id and a.task_id.startswith("task-")


def test_temperature_from_settings_is_recorded() -> None:
    run = run_agent(ScriptedModel(["x"]), env_for(BO), BO, settings=ModelSettings(temperature=0.3))
    assert run.meta.temperature == 0.3
