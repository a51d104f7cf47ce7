"""What each tool does, as far as the runs show it: reply, read, write or scratch.

The analyzer weighs forks by what differs there: a state-changing call (write) or a reply that
decides something outweighs a lookup (read), and a scratch call (a note, a calculator) never
makes the decisive fork on its own. Kinds come, in this order, from:

1. what the user declares (`CanonicalConfig.scratch_tools`, `CanonicalConfig.read_tools`);
2. the runs themselves: a tool whose calls never return anything and take no ids is a note
   (scratch); a tool whose result is a bare number that its arguments alone fix (the same
   arguments always give the same number, and no argument is an id of a record) is a calculator
   (scratch); a tool called between two equal calls of another tool whose results differ
   changed state (write); a tool whose own call, repeated with the same arguments in a run,
   returns the same thing again (and that never changed state) is a read;
3. the name pattern of reads (`CanonicalConfig.read_only_tools`, generic verbs such as get/list);
4. otherwise a write: a call that may change the world is assumed to.

No tool name of any benchmark is known here: every rule reads the runs or the user's declaration.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Literal

from oncourse.consistency.canonical import CanonicalConfig, observation_text
from oncourse.consistency.trajectory import RESPOND_TOOL, Trajectory

ToolKind = Literal["reply", "read", "write", "scratch"]

_NUMBER = re.compile(r"^\s*[-+]?[$€£]?\s*(?:\d[\d,]*\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*%?\s*$")
FAILED_RESULT = re.compile(
    r"^\W*(?:error|exception|failed|failure|invalid|denied|not found)\b", re.I
)
"""A result that reports a failed call: repeating a failed write returns the same failure."""
_ID_VALUE = re.compile(r"^(?:(?=[^\s]*\d)[A-Za-z0-9][A-Za-z0-9_\-.:/#@]{3,}|[A-Z0-9]{5,12})$")


def _scalar(observation: Any) -> bool:
    if isinstance(observation, bool):
        return False
    if isinstance(observation, int | float):
        return True
    return isinstance(observation, str) and bool(_NUMBER.match(observation))


def _empty(observation: Any) -> bool:
    return observation is None or (isinstance(observation, str) and not observation.strip())


def _has_id(value: Any) -> bool:
    """Whether an argument holds a value shaped like a record id (no spaces, has a digit)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _ID_VALUE.match(item.strip()):
                return True
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return False


class _Evidence:
    """What the runs showed of one tool."""

    __slots__ = ("calls", "empty", "repeatable", "results", "scalar", "with_ids")

    def __init__(self) -> None:
        self.calls = 0
        self.empty = 0
        self.scalar = 0
        self.with_ids = False
        self.repeatable = False
        """A repeated call (same arguments, same run) returned the same result again."""
        self.results: dict[str, str] | None = {}
        """Arguments -> result for calculator candidates; None once a result is not a number."""


def infer_tool_kinds(
    runs: Iterable[Trajectory], config: CanonicalConfig | None = None
) -> dict[str, ToolKind]:
    """The kind of every tool called in the runs (declared, else inferred, else by name)."""
    config = config or CanonicalConfig()
    evidence: dict[str, _Evidence] = {}
    between: list[set[str]] = []
    for run in runs:
        _collect(run, evidence)
        _state_changes(run, between, evidence)
    pattern = re.compile(config.read_only_tools) if config.read_only_tools else None
    scratch, reads = set(config.scratch_tools), set(config.read_tools)
    changes: set[str] = set()
    for tools in between:
        # A result changed between two equal calls: blame the tools in between that nothing
        # else marks as a lookup or a note (a `list_files` or a `think` between two test runs
        # did not change the tests' result); all of them when every one looks harmless.
        suspects = {
            t
            for t in tools
            if t not in reads
            and not (pattern is not None and pattern.search(t))
            and not _note(evidence[t])
        }
        changes.update(suspects or tools)
    out: dict[str, ToolKind] = {}
    for tool, ev in evidence.items():
        out[tool] = _kind(tool, ev, scratch, reads, tool in changes, pattern, config)
    return out


def _collect(run: Trajectory, evidence: dict[str, _Evidence]) -> None:
    for step in run.steps:
        tool = step.action.tool
        ev = evidence.get(tool)
        if ev is None:
            ev = evidence[tool] = _Evidence()
        ev.calls += 1
        obs = step.observation
        if _empty(obs) or (isinstance(obs, str) and FAILED_RESULT.match(obs)):
            ev.empty += 1  # a failed call says nothing about what the tool returns
        elif ev.results is not None:
            if _scalar(obs):
                ev.scalar += 1
                key = repr(step.action.args)
                text = str(obs).strip()
                if ev.results.setdefault(key, text) != text:
                    ev.results = None  # same arguments, another number: not a pure function
            else:
                ev.results = None
        if not ev.with_ids and _has_id(step.action.args):
            ev.with_ids = True


def _note(ev: _Evidence) -> bool:
    """Nothing ever came back and no record was named: a note."""
    return ev.empty == ev.calls and not ev.with_ids


def _state_changes(
    run: Trajectory, between: list[set[str]], evidence: dict[str, _Evidence]
) -> None:
    """Mark the tools that changed state, and those whose repeated call returned the same.

    A tool called between two equal calls whose results differ changed state; a call repeated
    with the same arguments and the same result marks its own tool repeatable (a read).
    """
    last: dict[tuple[str, str], tuple[int, str]] = {}
    for i, step in enumerate(run.steps):
        if step.action.tool == RESPOND_TOOL:
            continue
        key = (step.action.tool, repr(step.action.args))
        seen = observation_text(step.observation)
        before = last.get(key)
        if before is not None and before[1] == seen:
            if step.error is None and not FAILED_RESULT.match(seen):
                evidence[key[0]].repeatable = True
        elif before is not None:
            tools = {
                s.action.tool
                for s in run.steps[before[0] + 1 : i]
                if s.action.tool not in (RESPOND_TOOL, key[0])
            }
            if tools:
                between.append(tools)
        last[key] = (i, seen)


def _kind(
    tool: str,
    ev: _Evidence,
    scratch: set[str],
    reads: set[str],
    changed_state: bool,
    pattern: re.Pattern[str] | None,
    config: CanonicalConfig,
) -> ToolKind:
    if tool == RESPOND_TOOL:
        return "reply"
    if tool in scratch:
        return "scratch"
    if tool in reads:
        return "read"
    if changed_state:
        return "write"
    if _note(ev):
        return "scratch"  # a note: nothing comes back and no record is named
    if ev.results is not None and ev.scalar and ev.scalar + ev.empty == ev.calls:
        if not ev.with_ids:
            return "scratch"  # a calculator: a number its arguments alone fix
    if ev.repeatable:
        return "read"
    if pattern is not None and tool not in config.text_tools and pattern.search(tool):
        return "read"
    return "write"


__all__ = ["FAILED_RESULT", "ToolKind", "infer_tool_kinds"]
