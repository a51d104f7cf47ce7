"""LangGraph with LangChain's own fake chat model: the guideline node/prompt injects, the callback
records each run into JSONL that `oncourse report` reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langgraph.graph")

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import AIMessage, BaseMessage  # noqa: E402
from langchain_core.tools import tool  # noqa: E402
from langgraph.graph import END, START, MessagesState, StateGraph  # noqa: E402
from langgraph.prebuilt import ToolNode, tools_condition  # noqa: E402
from oncourse.adapters.cli import app  # noqa: E402
from oncourse.adapters.importers import load_trajectories  # noqa: E402
from oncourse.adapters.recorder import record  # noqa: E402
from oncourse.memory.admit import admit  # noqa: E402
from oncourse.memory.inject import inject  # noqa: E402
from oncourse.memory.store import GuidelineMemory  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from oncourse.integrations.langgraph import (  # noqa: E402
    TrajectoryCallback,
    guideline_node,
    guideline_prompt,
)
from tests._otel_agent import GUIDELINE, TASK, Shop  # noqa: E402

BASE = "You are the support agent of a web shop."
TOOL_NAMES = ["find_customer", "get_order", "refund"]


def _replies(order: int, i: int) -> list[AIMessage]:
    usage = {"input_tokens": 100, "output_tokens": 10, "total_tokens": 110}
    return [
        AIMessage(content="Looking the customer up.", usage_metadata=usage, tool_calls=[
            {"name": "find_customer", "args": {"email": "alice@example.com"}, "id": f"a{i}"}]),
        AIMessage(content="", usage_metadata=usage, tool_calls=[
            {"name": "get_order", "args": {"order_id": order}, "id": f"b{i}"}]),
        AIMessage(content="", usage_metadata=usage, tool_calls=[
            {"name": "refund", "args": {"order_id": order, "amount": 30}, "id": f"c{i}"}]),
        AIMessage(content=f"Order {order} is refunded.", usage_metadata=usage),
    ]


def _tools(shop: Shop) -> list[Any]:
    @tool
    def find_customer(email: str) -> dict:
        """Find a customer by e-mail."""
        return shop.find_customer(email)

    @tool
    def get_order(order_id: int) -> dict:
        """Open one order."""
        return shop.get_order(order_id)

    @tool
    def refund(order_id: int, amount: int) -> str:
        """Refund an order."""
        return shop.refund(order_id, amount)

    return [find_customer, get_order, refund]


def _graph(shop: Shop, model: GenericFakeChatModel, memory: GuidelineMemory,
           sent: list[list[BaseMessage]], use_prompt: bool) -> Any:
    tools = _tools(shop)
    prompt = guideline_prompt(memory, BASE, tools) if use_prompt else None

    def agent(state: MessagesState) -> dict[str, Any]:
        messages = prompt(state) if prompt else state["messages"]
        sent.append(list(messages))
        return {"messages": [model.invoke(messages)]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(tools, handle_tool_errors=True))
    if use_prompt:
        graph.add_edge(START, "agent")
    else:
        graph.add_node("guidelines", guideline_node(memory, BASE, tools))
        graph.add_edge(START, "guidelines")
        graph.add_edge("guidelines", "agent")
    graph.add_conditional_edges("agent", tools_condition, {"tools": "tools", END: END})
    graph.add_edge("tools", "agent")
    return graph.compile()


@pytest.fixture
def memory(tmp_path: Path) -> GuidelineMemory:
    store = GuidelineMemory(tmp_path / "guidelines.db")
    admit(store, [GUIDELINE.model_copy()], status="active")
    return store


@pytest.mark.parametrize("use_prompt", [False, True], ids=["node", "prompt"])
def test_langgraph_runs_are_injected_and_recorded(
    memory: GuidelineMemory, tmp_path: Path, use_prompt: bool
) -> None:
    out = tmp_path / "runs.jsonl"
    orders = [42, 41, 42, 42, 41]
    sent: list[list[BaseMessage]] = []
    for i, order in enumerate(orders):
        shop = Shop()
        model = GenericFakeChatModel(messages=iter(_replies(order, i)))
        app_ = _graph(shop, model, memory, sent, use_prompt)
        with record("refund-dup", TASK, out=out, run_id=f"lg-{i}") as run:
            state = app_.invoke({"messages": [("user", TASK)]},
                                config={"callbacks": [TrajectoryCallback(run)]})
            run.finish(success=shop.check(), final_answer=state["messages"][-1].content)

    expected = inject(memory, TASK, BASE, tools=TOOL_NAMES)
    assert expected.guideline_ids
    assert len(sent) == 4 * len(orders)
    for messages in sent:  # every model call starts with the injected system prompt
        assert messages[0].type == "system" and messages[0].content == expected.system_prompt
        assert [m.type for m in messages].count("system") == 1
        assert messages[1].type == "human" and messages[1].content == TASK

    runs = load_trajectories([out])
    assert [r.success for r in runs] == [True, False, True, True, False]
    first = runs[0]
    assert [(s.action.tool, s.action.args) for s in first.steps] == [
        ("find_customer", {"email": "alice@example.com"}),
        ("get_order", {"order_id": 42}),
        ("refund", {"order_id": 42, "amount": 30}),
    ]
    assert first.steps[0].thought == "Looking the customer up."
    assert first.steps[1].observation == {"order_id": 42, "charges": 2, "amount": 30}
    assert first.steps[2].observation == "refunded 30 on order 42"
    assert first.final_answer == "Order 42 is refunded."
    assert all(r.meta.injected_guidelines == expected.guideline_ids for r in runs)
    assert (first.meta.tokens_in, first.meta.tokens_out) == (400, 40)
    counted = memory.get(expected.guideline_ids[0]).counters.injected
    assert counted == (0 if use_prompt else 5)  # the node counts once per run; prompts do not

    done = CliRunner().invoke(app, ["report", str(out), "--json"])
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert (report["tasks"], report["runs"], report["successes"]) == (1, 5, 3)


def test_a_failing_tool_is_a_step_with_its_error(memory: GuidelineMemory) -> None:
    shop = Shop()
    replies = [
        AIMessage(content="", tool_calls=[
            {"name": "get_order", "args": {"order_id": 99}, "id": "x1"}]),
        AIMessage(content="No such order."),
    ]
    app_ = _graph(shop, GenericFakeChatModel(messages=iter(replies)), memory, [], False)
    with record("t", TASK) as run:
        app_.invoke({"messages": [("user", TASK)]},
                    config={"callbacks": [TrajectoryCallback(run)]})
        traj = run.finish(success=False)
    (step,) = traj.steps
    assert step.action.tool == "get_order" and step.action.args == {"order_id": 99}
    assert step.error is not None and "no order 99" in step.error
