"""The simulated reader at decision points the 24 hand-written cases do not cover.

Regressions found while tracing why the demo's learned memory did not beat the placebo:
- a lookup by vendor name returns three invoices, two of them open: the reader described each
  record only by fields unique among *all* siblings, so the open copy lost its status and a
  plain-English "never pay an invoice that is already settled" pushed towards the paid copy;
- a guideline about *which* record to use raised the chance of calling that tool at all.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from oncourse.adapters.models.simulated import SimulatedModel
from oncourse.consistency.chat import Message, ToolCall
from oncourse.consistency.trajectory import Action

from tests._decision import SUITE, decision_messages, p_right, prompt_with

SETTLED = "Never file or pay an invoice copy that is already settled; use the copy still unpaid."
STATUS = (
    "Call pay_invoice on the invoice whose status is 'open', not the one whose status is 'paid'."
)
NO_LESSON = (
    "Call pay_invoice with the invoice id the passing runs used (runs that chose a different "
    "invoice id failed); do not call file_invoice."
)
"""Says nothing about which invoice: it must not move the choice between them."""


@pytest.fixture(scope="module")
def model() -> SimulatedModel:
    return SimulatedModel()


def _messages_after(task, system: str, tool: str, args: dict) -> list[Message]:
    env = SUITE.make_env(task)
    result = env.step(Action(tool=tool, args=args))
    return [
        Message(role="system", content=system),
        Message(role="user", content=task.instruction),
        Message(role="assistant", tool_calls=[ToolCall(id="c0", name=tool, arguments=args)]),
        Message(role="tool", tool_call_id="c0", name=tool, content=json.dumps(result.observation)),
    ]


def _p_right_after(model: SimulatedModel, task, system: str, tool: str, args: dict) -> float:
    total = 0.0
    for cand, prob in model.distribution(_messages_after(task, system, tool, args), _tools(task)):
        env = SUITE.make_env(task)
        env.step(Action(tool=cand.tool, args=cand.arguments))
        total += prob if env.check() else 0.0
    return total


def _tools(task):
    return SUITE.make_env(task).tools()


def test_with_two_open_copies_among_three_hits_the_settled_one_is_still_avoided(
    model: SimulatedModel,
) -> None:
    task = next(t for t in SUITE.tasks("heldout-novel") if t.family == "file_open_invoice")
    vendor = next(
        c["args"]["query"] for c in task.params["decision"]["calls"]
    )  # the invoice number
    records = (
        SUITE.make_env(task)
        .step(Action(tool="search_invoices", args={"query": vendor}))
        .observation
    )
    name = next(r["vendor"] for r in records)
    hits = SUITE.make_env(task).step(Action(tool="search_invoices", args={"query": name}))
    statuses = [r["status"] for r in hits.observation]
    assert len(statuses) >= 3 and statuses.count("open") >= 2, "the case needs two open hits"
    args = {"query": name}
    before = _p_right_after(model, task, prompt_with([]), "search_invoices", args)
    for lesson in (SETTLED, STATUS):
        after = _p_right_after(model, task, prompt_with([lesson]), "search_invoices", args)
        assert after > before + 0.03, (lesson, before, after)
    # Before the fix the open copies were described by due date and amount, and this sentence
    # moved P(right) by -0.2: words of it matched the rival descriptions, not a lesson.
    blank = _p_right_after(model, task, prompt_with([NO_LESSON]), "search_invoices", args)
    assert abs(blank - before) <= 0.03, (before, blank)


def test_a_guideline_about_which_record_leaves_the_chance_of_calling_the_tool_unchanged(
    model: SimulatedModel,
) -> None:
    task = next(t for t in SUITE.tasks("heldout") if t.family == "pay_open_duplicate")
    tools = _tools(task)

    def by_tool(system: str) -> dict[str, float]:
        out: dict[str, float] = {}
        for cand, prob in model.distribution(decision_messages(task, system), tools):
            out[cand.tool] = out.get(cand.tool, 0.0) + prob
        return out

    before, after = by_tool(prompt_with([])), by_tool(prompt_with([SETTLED]))
    assert set(before) == set(after)
    np.testing.assert_allclose([after[t] for t in before], list(before.values()), atol=1e-9)
    # ... while it still moves the choice between the records of the tool.
    assert p_right(model, task, prompt_with([SETTLED])) > p_right(model, task, prompt_with([]))
