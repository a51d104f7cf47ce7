"""A suite of small Python apps over one JSON world: the engine of `mini-apps` and user suites.

A task's `params` hold everything its environment needs: `apps` (which app modules' tools are
offered), `world` (the initial state), and `expected` (the state changes that count as success).
The check compares the log of changes the agent made with `expected`, so wording never matters.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from typing import Any

from oncourse.adapters.suites._tools import ToolCallError, ToolFunction, World, call_tool, tool_spec
from oncourse.adapters.suites.base import SPLITS, StepResult, Task
from oncourse.consistency.chat import ToolSpec
from oncourse.consistency.errors import InputError
from oncourse.consistency.trajectory import RESPOND_TOOL, Action

_TOLERANCE = 0.005


def _same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected == actual
    if isinstance(expected, int | float) and isinstance(actual, int | float):
        return abs(float(expected) - float(actual)) <= _TOLERANCE
    if isinstance(expected, str) and isinstance(actual, str):
        return expected.strip().lower() == actual.strip().lower()
    return bool(expected == actual)


def log_matches(log: Sequence[Mapping[str, Any]], expected: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the changes made are exactly the expected ones (each matched once, none extra)."""
    if len(log) != len(expected):
        return False
    unused = list(log)
    for want in expected:
        hit = next(
            (
                entry
                for entry in unused
                if all(key in entry and _same(value, entry[key]) for key, value in want.items())
            ),
            None,
        )
        if hit is None:
            return False
        unused.remove(hit)
    return True


class AppEnvironment:
    """One run's world: typed app tools acting on a copy of the task's initial state."""

    def __init__(
        self,
        tools: Sequence[ToolFunction],
        state: dict[str, Any],
        expected: list[dict[str, Any]],
    ):
        self._functions = {fn.__name__: fn for fn in tools}
        self._initial = state
        self.expected = expected
        self.world = World(copy.deepcopy(state))
        self.reply: str | None = None

    def tools(self) -> list[ToolSpec]:
        """The offered tools with schemas generated from their signatures."""
        return [_spec(fn) for fn in self._functions.values()]

    def reset(self) -> None:
        """Restore the task's initial world and forget every change and reply."""
        self.world = World(copy.deepcopy(self._initial))
        self.reply = None

    def step(self, action: Action) -> StepResult:
        """Run one tool call; a `respond` action records the final reply and ends the run."""
        if action.tool == RESPOND_TOOL:
            self.reply = str(action.args.get("text", ""))
            return StepResult(observation={"status": "replied"}, done=True)
        fn = self._functions.get(action.tool)
        if fn is None:
            return StepResult(error=f"unknown tool {action.tool!r}")
        try:
            result = call_tool(fn, self.world, dict(action.args))
        except ToolCallError as exc:
            return StepResult(observation={"error": str(exc)}, error=str(exc))
        # Observations are JSON, as a provider would carry them back to the model.
        return StepResult(observation=json.loads(json.dumps(result)))

    def check(self) -> bool:
        """Whether the agent made exactly the expected changes to the world."""
        return log_matches(self.world.log, self.expected)


_SPECS: dict[ToolFunction, ToolSpec] = {}


def _spec(fn: ToolFunction) -> ToolSpec:
    if fn not in _SPECS:
        _SPECS[fn] = tool_spec(fn)
    return _SPECS[fn]


class AppSuite:
    """Tasks over a set of apps; each task's environment offers the tools of the apps it names."""

    def __init__(
        self,
        name: str,
        system_prompt: str,
        apps: Mapping[str, Sequence[ToolFunction]],
        tasks: Sequence[Task],
    ):
        self.name = name
        self.system_prompt = system_prompt
        self.apps = {app: list(tools) for app, tools in apps.items()}
        self._tasks = list(tasks)

    def tasks(self, split: str = "all") -> list[Task]:
        """Tasks of one split, or all of them."""
        if split != "all" and split not in SPLITS:
            raise InputError(f"unknown split {split!r}; use one of {', '.join(SPLITS)} or all")
        return [t for t in self._tasks if split == "all" or t.split == split]

    def tools_for(self, task: Task) -> list[ToolFunction]:
        """The tool functions of the apps the task uses (every app when it names none)."""
        names = task.params.get("apps") or list(self.apps)
        unknown = [app for app in names if app not in self.apps]
        if unknown:
            raise InputError(f"task {task.task_id}: unknown app(s) {', '.join(unknown)}")
        return [fn for app in names for fn in self.apps[app]]

    def make_env(self, task: Task) -> AppEnvironment:
        """A fresh environment holding a copy of the task's initial world."""
        return AppEnvironment(
            self.tools_for(task),
            task.params.get("world", {}),
            list(task.params.get("expected", [])),
        )
