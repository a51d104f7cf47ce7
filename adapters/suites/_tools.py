"""Tools as typed Python functions: JSON schemas generated from signatures, calls validated.

An app tool is a plain function whose first parameter is the `World` it acts on and whose other
parameters are typed and described in a Google-style `Args:` section. The schema offered to a
model is generated from exactly that (pydantic `TypeAdapter` per parameter), so there is never a
second, hand-written copy that could drift from the code.
"""

from __future__ import annotations

import functools
import inspect
import re
import typing
from collections.abc import Callable
from typing import Any

from oncourse.consistency.chat import ToolSpec
from pydantic import TypeAdapter, ValidationError

ToolFunction = Callable[..., Any]

_ARG_LINE = re.compile(r"^\s{2,}(\w+)(?:\s*\([^)]*\))?:\s*(.*)$")
_SECTION = re.compile(r"^\s*(Args|Arguments|Returns|Raises|Yields|Examples?|Note):\s*$")


class ToolCallError(Exception):
    """A tool was called with arguments it cannot use; the agent sees the message."""


class World:
    """The mutable state of one run of an app suite, plus a log of what the agent changed.

    `state` holds the apps' data (contacts, invoices, ...); app tools append one entry to `log`
    for every state-changing action, and task checks compare that log with what was expected.
    """

    def __init__(self, state: dict[str, Any]):
        self.state = state
        self.log: list[dict[str, Any]] = []

    def record(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Log one state change made by the agent and return the entry."""
        entry = {"kind": kind, **fields}
        self.log.append(entry)
        return entry


def _doc_parts(fn: ToolFunction) -> tuple[str, dict[str, str], str]:
    """The summary paragraph of a docstring, its `Args:` descriptions and its `Returns:` text."""
    doc = inspect.getdoc(fn) or ""
    summary: list[str] = []
    args: dict[str, str] = {}
    returns: list[str] = []
    section = "summary"
    current: str | None = None
    for line in doc.splitlines():
        header = _SECTION.match(line)
        if header:
            section, current = header.group(1).lower(), None
        elif section == "summary":
            if line.strip():
                summary.append(line.strip())
            elif summary:
                section = "body"
        elif section in {"args", "arguments"}:
            match = _ARG_LINE.match(line)
            indent = len(line) - len(line.lstrip())
            if match and indent <= 4:
                current = match.group(1)
                args[current] = match.group(2).strip()
            elif current and line.strip():
                args[current] = f"{args[current]} {line.strip()}"
        elif section == "returns" and line.strip():
            returns.append(line.strip())
    return " ".join(summary), args, " ".join(returns)


def _params(fn: ToolFunction) -> list[inspect.Parameter]:
    params = list(inspect.signature(fn).parameters.values())
    return params[1:]  # the first parameter is the World


def tool_spec(fn: ToolFunction) -> ToolSpec:
    """Generate the ToolSpec (name, description, JSON schema) of a typed tool function."""
    hints = typing.get_type_hints(fn)
    summary, arg_docs, returns = _doc_parts(fn)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for param in _params(fn):
        annotation = hints.get(param.name, Any)
        schema = TypeAdapter(annotation).json_schema()
        schema.pop("title", None)
        if param.name in arg_docs:
            schema["description"] = arg_docs[param.name]
        if param.default is inspect.Parameter.empty:
            required.append(param.name)
        else:
            schema["default"] = param.default
        properties[param.name] = schema
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = required
    # What a result's fields mean is part of the tool's documentation, as a model reads it.
    description = f"{summary}\nReturns: {returns}" if returns else summary
    return ToolSpec(name=fn.__name__, description=description, parameters=parameters)


@functools.lru_cache(maxsize=1024)
def _adapter(annotation: Any) -> TypeAdapter[Any]:
    return TypeAdapter(annotation)


@functools.lru_cache(maxsize=1024)
def _hints(fn: ToolFunction) -> dict[str, Any]:
    return typing.get_type_hints(fn)


def call_tool(fn: ToolFunction, world: World, args: dict[str, Any]) -> Any:
    """Validate `args` against the function's signature and call it on `world`.

    Raises:
        ToolCallError: on unknown, missing or ill-typed arguments, or when the tool refuses.
    """
    hints = _hints(fn)
    params = {p.name: p for p in _params(fn)}
    unknown = sorted(set(args) - set(params))
    if unknown:
        raise ToolCallError(f"unknown argument(s) for {fn.__name__}: {', '.join(unknown)}")
    values: dict[str, Any] = {}
    for name, param in params.items():
        if name not in args:
            if param.default is inspect.Parameter.empty:
                raise ToolCallError(f"missing required argument {name!r} for {fn.__name__}")
            continue
        try:
            values[name] = _adapter(hints.get(name, Any)).validate_python(args[name])
        except ValidationError as exc:
            detail = exc.errors()[0].get("msg", "invalid value")
            raise ToolCallError(f"argument {name!r} of {fn.__name__}: {detail}") from None
    return fn(world, **values)
