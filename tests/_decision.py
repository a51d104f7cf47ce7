"""Test helper: the simulated model at a mini-apps task's decision point, and P(right move).

The situation is set up from the task's (hidden) decision description: the lookups are made
against the task's own environment and shown to the model as tool calls and JSON observations,
exactly as the agent loop would. Which moves are right is found by executing each candidate in a
fresh copy of the environment and asking its checker, so no expected value is restated here.
"""

from __future__ import annotations

import json

from oncourse.adapters.models._simulated_policy import RESPOND
from oncourse.adapters.models.simulated import SimulatedModel
from oncourse.adapters.suites.base import Task
from oncourse.adapters.suites.mini_apps import mini_apps_suite
from oncourse.consistency.chat import Message, ToolCall
from oncourse.consistency.guidelines import Guideline
from oncourse.consistency.trajectory import Action
from oncourse.memory.inject import HEADER, render_guideline

SUITE = mini_apps_suite()


def prompt_with(guidelines: list[tuple[str, str]] | list[str]) -> str:
    """The suite's system prompt with a guideline block as `memory.inject` renders it."""
    base = SUITE.system_prompt
    if not guidelines:
        return base
    entries = []
    for i, g in enumerate(guidelines):
        trigger, text = g if isinstance(g, tuple) else ("a task like this one", g)
        entries.append(render_guideline(i + 1, Guideline(trigger=trigger, instruction=text)))
    return "\n\n".join([base, "\n".join([HEADER, *entries])])


def decision_messages(task: Task, system: str) -> list[Message]:
    """The chat at the task's decision point: its lookups made and their results shown."""
    env = SUITE.make_env(task)
    messages = [
        Message(role="system", content=system),
        Message(role="user", content=task.instruction),
    ]
    calls = list(task.params["decision"]["calls"])
    emails = {e.get("email") for e in task.params["expected"]} - {None}
    if emails and all(c["tool"] != "search_contacts" for c in calls):
        # Sharing needs the person's address too: look them up first, as a run would.
        person = next(c for c in task.params["world"]["contacts"] if c["work_email"] in emails)
        calls.insert(0, {"tool": "search_contacts", "args": {"query": person["name"]}})
    for i, call in enumerate(calls):
        result = env.step(Action(tool=call["tool"], args=call["args"]))
        call_id = f"call_{i}"
        messages.append(
            Message(
                role="assistant",
                tool_calls=[ToolCall(id=call_id, name=call["tool"], arguments=call["args"])],
            )
        )
        messages.append(
            Message(
                role="tool",
                tool_call_id=call_id,
                name=call["tool"],
                content=json.dumps(result.observation),
            )
        )
    return messages


def p_right(model: SimulatedModel, task: Task, system: str) -> float:
    """Probability the model's next move is a write that passes the task's checker."""
    messages = decision_messages(task, system)
    tools = SUITE.make_env(task).tools()
    total = 0.0
    for cand, prob in model.distribution(messages, tools):
        if cand.tool == RESPOND:
            continue
        env = SUITE.make_env(task)
        env.step(Action(tool=cand.tool, args=cand.arguments))
        if env.check():
            total += prob
    return total
