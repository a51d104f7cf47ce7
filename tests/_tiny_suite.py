"""A tiny mail world for structural tests of the agent loop and the runner.

`find_contact` returns every contact whose name matches, so a lookup for "Ana" returns two
people; the task says which company, and the check is on who was emailed.
"""

from __future__ import annotations

import time
from typing import Any

from oncourse.adapters.models.scripted import FunctionModel
from oncourse.adapters.suites.base import StepResult, Task
from oncourse.consistency.chat import AssistantMessage, Message, ModelSettings, ToolCall, ToolSpec
from oncourse.consistency.trajectory import RESPOND_TOOL, Action

CONTACTS = [
    {"name": "Ana Ruiz", "company": "Acme", "email": "ana@acme.test"},
    {"name": "Ana Ruiz", "company": "Globex", "email": "ana.ruiz@globex.test"},
    {"name": "Bo Chen", "company": "Acme", "email": "bo@acme.test"},
]

TOOLS = [
    ToolSpec(
        name="find_contact",
        description="Contacts whose name contains the query.",
        parameters={
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
        },
    ),
    ToolSpec(
        name="send_email",
        description="Send an email.",
        parameters={
            "type": "object",
            "properties": {"to": {"type": "string"}, "subject": {"type": "string"}},
            "required": ["to", "subject"],
        },
    ),
]


class MailEnv:
    """Contacts and an outbox; success means exactly the expected address was emailed."""

    def __init__(self, task: Task):
        self.task = task
        self.outbox: list[dict[str, Any]] = []
        self.replies: list[str] = []
        self.resets = 0

    def tools(self) -> list[ToolSpec]:
        return list(TOOLS)

    def reset(self) -> None:
        self.outbox = []
        self.replies = []
        self.resets += 1

    def step(self, action: Action) -> StepResult:
        if action.tool == "find_contact":
            query = str(action.args.get("name", "")).lower()
            return StepResult(observation=[c for c in CONTACTS if query in c["name"].lower()])
        if action.tool == "send_email":
            if "to" not in action.args:
                return StepResult(error="send_email needs 'to'")
            self.outbox.append(dict(action.args))
            return StepResult(observation={"status": "sent", "id": len(self.outbox)})
        if action.tool == RESPOND_TOOL:
            self.replies.append(str(action.args.get("text", "")))
            return StepResult(observation="ok", done=True)
        if action.tool == "explode":
            raise RuntimeError("tool crashed")
        return StepResult(error=f"unknown tool {action.tool!r}")

    def check(self) -> bool:
        return [m["to"] for m in self.outbox] == [self.task.params["expected"]]


class TinySuite:
    """Three tasks: two train, one heldout."""

    name = "tiny"
    system_prompt = "You handle mail."

    def __init__(self) -> None:
        self.envs: list[MailEnv] = []

    def tasks(self, split: str = "all") -> list[Task]:
        tasks = [
            Task(
                task_id="mail-acme",
                instruction="Email Ana Ruiz at Acme: subject Invoice.",
                split="train",
                params={"expected": "ana@acme.test"},
            ),
            Task(
                task_id="mail-globex",
                instruction="Email Ana Ruiz at Globex: subject Hello.",
                split="train",
                params={"expected": "ana.ruiz@globex.test"},
            ),
            Task(
                task_id="mail-bo",
                instruction="Email Bo Chen: subject Lunch.",
                split="heldout",
                params={"expected": "bo@acme.test"},
            ),
        ]
        return [t for t in tasks if split == "all" or t.split == split]

    def make_env(self, task: Task) -> MailEnv:
        env = MailEnv(task)
        self.envs.append(env)
        return env


def picky_agent(messages: list[Message], tools: list[ToolSpec], settings: ModelSettings) -> Any:
    """Scripted policy: look the person up, then mail a wrong match (odd seeds) or the right one."""
    task = next(m.content for m in messages if m.role == "user")
    observations = [m for m in messages if m.role == "tool"]
    if not observations:
        name = "Bo Chen" if "Bo Chen" in task else "Ana Ruiz"
        return AssistantMessage(
            content="Look them up.",
            tool_calls=[ToolCall(id="c1", name="find_contact", arguments={"name": name})],
        )
    if len(observations) == 1:
        import json

        matches = json.loads(observations[0].content)
        company = "Globex" if "Globex" in task else "Acme"
        right = [c for c in matches if c["company"] == company] or matches
        wrong = [c for c in matches if c not in right] or right
        chosen = wrong[0] if (settings.seed or 0) % 2 else right[0]
        return AssistantMessage(
            tool_calls=[
                ToolCall(
                    id="c2", name="send_email", arguments={"to": chosen["email"], "subject": "x"}
                )
            ]
        )
    return AssistantMessage(content="Sent.")


def slow_model() -> FunctionModel:
    """Answers at once with text after 0.2 s: slow enough to kill a CLI run midway."""

    def reply(messages: list[Message], tools: list[ToolSpec], settings: ModelSettings) -> str:
        time.sleep(0.2)
        return f"done (seed {settings.seed})"

    return FunctionModel(reply, name="slow-answer", provider="test")
