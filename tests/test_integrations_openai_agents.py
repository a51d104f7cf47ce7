"""OpenAI Agents SDK with its own ScriptedModel: guidelines injected through dynamic instructions,
each run recorded by the hooks into JSONL that `oncourse report` reads."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("agents.testing")

from agents import Agent, Runner, function_tool, set_tracing_disabled  # noqa: E402
from agents.testing import ScriptedModel, assistant_message, function_call  # noqa: E402
from agents.usage import Usage  # noqa: E402
from oncourse.adapters.cli import app  # noqa: E402
from oncourse.adapters.importers import load_trajectories  # noqa: E402
from oncourse.adapters.recorder import record  # noqa: E402
from oncourse.memory.admit import admit  # noqa: E402
from oncourse.memory.inject import inject  # noqa: E402
from oncourse.memory.store import GuidelineMemory  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from oncourse.integrations.openai_agents import (  # noqa: E402
    RecordingHooks,
    guideline_instructions,
)
from tests._otel_agent import GUIDELINE, TASK, Shop  # noqa: E402

BASE = "You are the support agent of a web shop."
TOOLS = ["find_customer", "get_order", "refund"]


def _script(order: int, i: int) -> list[Any]:
    """The model's replies for one run: look up, open an order, refund it, answer."""
    usage = Usage(requests=1, input_tokens=100, output_tokens=10, total_tokens=110)
    return [
        {"output": [assistant_message("Looking the customer up."),
                    function_call("find_customer", {"email": "alice@example.com"},
                                  call_id=f"a{i}")], "usage": usage},
        {"output": [function_call("get_order", {"order_id": order}, call_id=f"b{i}")],
         "usage": usage},
        {"output": [function_call("refund", {"order_id": order, "amount": 30}, call_id=f"c{i}")],
         "usage": usage},
        {"output": [assistant_message(f"Order {order} is refunded.")], "usage": usage},
    ]


def _agent(shop: Shop, model: ScriptedModel, memory: GuidelineMemory) -> Agent[Any]:
    @function_tool
    def find_customer(email: str) -> dict[str, Any]:
        """Find a customer by e-mail."""
        return shop.find_customer(email)

    @function_tool
    def get_order(order_id: int) -> dict[str, Any]:
        """Open one order."""
        return shop.get_order(order_id)

    @function_tool
    def refund(order_id: int, amount: int) -> str:
        """Refund an order."""
        return shop.refund(order_id, amount)

    return Agent(
        name="support",
        instructions=guideline_instructions(memory, BASE),
        tools=[find_customer, get_order, refund],
        model=model,
    )


@pytest.fixture
def memory(tmp_path: Path) -> GuidelineMemory:
    store = GuidelineMemory(tmp_path / "guidelines.db")
    admit(store, [GUIDELINE.model_copy()], status="active")
    return store


def test_agents_sdk_runs_are_injected_and_recorded(memory: GuidelineMemory, tmp_path: Path) -> None:
    set_tracing_disabled(True)
    out = tmp_path / "runs.jsonl"
    orders = [42, 41, 42, 42, 41]  # two runs refund the wrong order
    models = []
    hooks = RecordingHooks()

    async def run_all() -> None:
        for i, order in enumerate(orders):
            shop = Shop()
            model = ScriptedModel(_script(order, i))
            models.append(model)
            with record("refund-dup", TASK, out=out, run_id=f"agents-{i}") as run:
                result = await Runner.run(_agent(shop, model, memory), TASK, context=run,
                                          hooks=hooks)
                run.finish(success=shop.check(), final_answer=str(result.final_output))

    asyncio.run(run_all())
    expected = inject(memory, TASK, BASE, tools=TOOLS)
    assert expected.guideline_ids  # the task does match the guideline
    for model in models:
        model.assert_complete()
        # every model call of the run was sent the same injected prompt
        assert {c.system_instructions for c in model.calls} == {expected.system_prompt}

    runs = load_trajectories([out])
    assert [r.run_id for r in runs] == [f"agents-{i}" for i in range(5)]
    assert [r.success for r in runs] == [True, False, True, True, False]
    first = runs[0]
    assert [(s.action.tool, s.action.args) for s in first.steps] == [
        ("find_customer", {"email": "alice@example.com"}),
        ("get_order", {"order_id": 42}),
        ("refund", {"order_id": 42, "amount": 30}),
    ]
    assert first.steps[0].thought == "Looking the customer up."
    assert first.steps[1].observation == {"order_id": 42, "charges": 2, "amount": 30}
    assert first.final_answer == "Order 42 is refunded."
    assert first.meta.injected_guidelines == expected.guideline_ids
    assert (first.meta.tokens_in, first.meta.tokens_out) == (400, 40)
    # injected once per run, counted in the store
    assert memory.get(expected.guideline_ids[0]).counters.injected == 5

    done = CliRunner().invoke(app, ["report", str(out), "--json"])
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert (report["tasks"], report["runs"], report["successes"]) == (1, 5, 3)
    assert report["pass^k"]["5"] == 0.0 and report["pass@1"] == pytest.approx(0.6)


def test_without_a_recorder_the_hooks_record_nothing_and_injection_still_works(
    memory: GuidelineMemory,
) -> None:
    set_tracing_disabled(True)
    model = ScriptedModel(_script(42, 0))

    class Ctx:
        task = TASK

    asyncio.run(Runner.run(_agent(Shop(), model, memory), TASK, context=Ctx(),
                           hooks=RecordingHooks()))
    assert model.first_call is not None
    assert "Open each of the customer's orders" in (model.first_call.system_instructions or "")
