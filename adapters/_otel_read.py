"""Read OpenTelemetry GenAI traces (OTLP JSON) into oncourse trajectories.

A run is one top-level agent span (`gen_ai.operation.name` = `invoke_agent`, Langfuse type
`agent`, OpenInference kind `AGENT`) with everything below it, or a whole trace when it has no
agent span. Steps are its tool executions (`execute_tool` spans: `gen_ai.tool.name`,
`gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`; a failed span's status message is the
step's error), in start order; a tool call a model span asked for that no tool span executed is
a step too. The text a model wrote with its tool calls is the first such step's thought; its
last text-only reply is the final answer, an earlier one a `respond` step. Task, task id and
outcome come from the attributes named in `OtelOptions`, looked up on the run's root span, then
its ancestors, then the spans below it, then the resource.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from datetime import UTC, datetime
from typing import Any, Literal

from oncourse.adapters._chat_steps import RecordError
from oncourse.adapters._otel_messages import (
    OUTPUT_MESSAGES,
    Message,
    ToolCall,
    call_args,
    chat_messages,
    first_user_text,
    messages,
)
from oncourse.adapters._otel_spans import Span, json_value
from oncourse.consistency.trajectory import RESPOND_TOOL
from pydantic import BaseModel, ConfigDict, Field

FORMAT = "otel"
STEP_INDEX = "oncourse.step.index"
STEP_EXTRA = "oncourse.step.extra"
STEP_OBSERVATION = "oncourse.step.observation"
RUN_EXTRA = "oncourse.extra"
RESULT_IS_JSON = "oncourse.step.result_is_json"
_TRUE = {"true", "yes", "pass", "passed", "success", "succeeded", "ok", "1"}
_FALSE = {"false", "no", "fail", "failed", "failure", "error", "0"}
_KINDS = {"agent": "invoke_agent", "tool": "execute_tool", "generation": "chat", "llm": "chat"}
_CHAT_OPS = {"chat", "text_completion", "generate_content"}
_ARG_KEYS = (
    "gen_ai.tool.call.arguments",
    "tool_arguments",
    "input.value",
    "langfuse.observation.input",
)
_RESULT_KEYS = (
    "gen_ai.tool.call.result",
    "tool_response",
    "output.value",
    "langfuse.observation.output",
)


class OtelOptions(BaseModel):
    """Which span attributes hold a run's task, task id and outcome."""

    model_config = ConfigDict(extra="forbid")

    task_attr: str = Field(default="oncourse.task", description="Attribute with the task text.")
    task_id_attr: str = Field(default="oncourse.task_id", description="Attribute with the id.")
    success_attr: str = Field(
        default="oncourse.success",
        description="Attribute with the outcome (bool, pass/fail, 1/0); `status` reads the "
        "root span's status (ERROR = failed).",
    )
    run_per: Literal["agent", "trace"] = Field(
        default="agent", description="One run per top-level agent span, or per trace."
    )


def operation(span: Span) -> str:
    """The GenAI operation of a span: invoke_agent, execute_tool, chat, ... or ''."""
    op = span.attrs.get("gen_ai.operation.name")
    if isinstance(op, str) and op:
        return op
    kind = span.attrs.get("langfuse.observation.type") or span.attrs.get("openinference.span.kind")
    if isinstance(kind, str) and kind.lower() in _KINDS:
        return _KINDS[kind.lower()]
    if "gen_ai.tool.name" in span.attrs:
        return "execute_tool"
    head = span.name.split(" ", 1)[0]
    return head if head in ("invoke_agent", "execute_tool", *_CHAT_OPS) else ""


def _runs_of_trace(spans: list[Span], run_per: str) -> list[tuple[Span, list[Span]]]:
    """(root, spans of the run) for each run in one trace."""
    by_id = {s.span_id: s for s in spans}
    children: dict[str | None, list[Span]] = defaultdict(list)
    for s in spans:
        children[s.parent_id if s.parent_id in by_id else None].append(s)

    def subtree(root: Span) -> list[Span]:
        out, todo = [], [root]
        while todo:
            node = todo.pop()
            out.append(node)
            todo.extend(children.get(node.span_id, []))
        return sorted(out, key=lambda s: (s.start, s.seq))

    def under_agent(s: Span) -> bool:
        parent = by_id.get(s.parent_id or "")
        while parent is not None:
            if operation(parent) == "invoke_agent":
                return True
            parent = by_id.get(parent.parent_id or "")
        return False

    agents = [s for s in spans if operation(s) == "invoke_agent" and not under_agent(s)]
    if run_per == "agent" and agents:
        return [(a, subtree(a)) for a in sorted(agents, key=lambda s: (s.start, s.seq))]
    roots = sorted(children[None], key=lambda s: (s.start, s.seq))
    return [(roots[0], sorted(spans, key=lambda s: (s.start, s.seq)))]


def _lookup(key: str, root: Span, run: list[Span], by_id: dict[str, Span]) -> Any:
    if key in root.attrs:
        return root.attrs[key]
    parent = by_id.get(root.parent_id or "")
    while parent is not None:
        if key in parent.attrs:
            return parent.attrs[key]
        parent = by_id.get(parent.parent_id or "")
    for span in run:
        if key in span.attrs:
            return span.attrs[key]
    return root.resource.get(key)


def _outcome(value: Any, key: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        if value >= 1:
            return True
        if value <= 0:
            return False
        raise RecordError(f"attribute '{key}' = {value}: a score between 0 and 1 is no outcome")
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise RecordError(f"attribute '{key}' = {value!r} is not an outcome (true/false, pass/fail)")


def _first(span: Span, keys: tuple[str, ...]) -> Any:
    return next((span.attrs[k] for k in keys if k in span.attrs), None)


class _Steps:
    """Builds the steps of one run from its tool spans and model-call spans, in time order."""

    def __init__(self) -> None:
        self.steps: list[dict[str, Any]] = []
        self.pending: list[ToolCall] = []
        self.thought: str | None = None
        self.reply: str | None = None

    def _flush_pending(self, results: dict[str, Any]) -> None:
        for call in self.pending:
            step: dict[str, Any] = {"action": {"tool": call.name, "args": call.args}}
            if call.call_id is not None and call.call_id in results:
                step["observation"] = results[call.call_id]
            self._add(step)
        self.pending = []

    def _add(self, step: dict[str, Any]) -> None:
        if self.reply is not None:
            self.steps.append({"action": {"tool": RESPOND_TOOL, "args": {"text": self.reply}}})
            self.reply = None
        if self.thought:
            step["thought"] = self.thought
            self.thought = None
        self.steps.append(step)

    def chat(self, span: Span, inputs: list[Message], outputs: list[Message]) -> None:
        results: dict[str, Any] = {}
        for m in inputs:
            results.update(m.results)
        self._flush_pending(results)
        said = "".join(m.text for m in outputs if m.role == "assistant")
        calls = [c for m in outputs for c in m.calls]
        if STEP_INDEX in span.attrs:  # an oncourse export marks its respond steps
            step = {"action": {"tool": RESPOND_TOOL, "args": {"text": said}}, **_extra(span)}
            if STEP_OBSERVATION in span.attrs:
                step["observation"] = json.loads(span.attrs[STEP_OBSERVATION])
            self._add(step)
        elif calls:
            self.thought, self.pending = (said or None), calls
        elif said:
            if self.reply is not None:
                self.steps.append({"action": {"tool": RESPOND_TOOL, "args": {"text": self.reply}}})
            self.reply = said

    def tool(self, span: Span) -> None:
        name = span.attrs.get("gen_ai.tool.name") or span.attrs.get("tool.name")
        if not isinstance(name, str) or not name:
            name = span.name.removeprefix("execute_tool ").strip() or "tool"
        call_id = span.attrs.get("gen_ai.tool.call.id")
        match = next((c for c in self.pending if call_id and c.call_id == call_id), None)
        match = match or next((c for c in self.pending if c.name == name), None)
        if match is not None:
            self.pending.remove(match)
        args = _first(span, _ARG_KEYS)
        step: dict[str, Any] = {
            "action": {
                "tool": name,
                "args": call_args(args) if args is not None else (match.args if match else {}),
            },
            "observation": _result(span),
            **_extra(span),
        }
        if span.error:
            step["error"] = span.status_message or _exception_message(span) or "error"
        self._add(step)


def _result(span: Span) -> Any:
    """A tool's result; JSON text is decoded unless an oncourse export says it was a string."""
    result = _first(span, _RESULT_KEYS)
    if STEP_INDEX in span.attrs and isinstance(result, str):
        return json.loads(result) if span.attrs.get(RESULT_IS_JSON) else result
    return json_value(result)


def _extra(span: Span) -> dict[str, Any]:
    extra = json_value(span.attrs.get(STEP_EXTRA))
    return extra if isinstance(extra, dict) else {}


def _exception_message(span: Span) -> str | None:
    for name, attrs in span.events:
        if name == "exception":
            return str(attrs.get("exception.message") or attrs.get("exception.type") or "")
    return None


def _exception_type(span: Span) -> str | None:
    for name, attrs in span.events:
        if name == "exception" and attrs.get("exception.type"):
            return str(attrs["exception.type"])
    value = span.attrs.get("error.type")
    return str(value) if value else None


def _iso(ns: int) -> str | None:
    return datetime.fromtimestamp(ns / 1e9, UTC).isoformat(timespec="seconds") if ns else None


def _meta(root: Span, chats: list[Span]) -> dict[str, Any]:
    exported = json_value(root.attrs.get("oncourse.meta"))
    if isinstance(exported, dict):  # an oncourse export carries the run's provenance whole
        return {**exported, "trace_id": root.trace_id}
    meta: dict[str, Any] = {}
    sources = [root, *chats]
    for key, attrs in (
        ("model", ("gen_ai.response.model", "gen_ai.request.model")),
        ("provider", ("gen_ai.provider.name", "gen_ai.system")),
        ("temperature", ("gen_ai.request.temperature",)),
        ("seed", ("gen_ai.request.seed",)),
    ):
        if meta.get(key) is None:
            found = (_first(s, attrs) for s in sources)
            meta[key] = next((value for value in found if value is not None), None)
    for key, attr in (
        ("tokens_in", "gen_ai.usage.input_tokens"),
        ("tokens_out", "gen_ai.usage.output_tokens"),
    ):
        counts = [s.attrs[attr] for s in chats if isinstance(s.attrs.get(attr), int)]
        if meta.get(key) is None and counts:
            meta[key] = sum(counts)
    if meta.get("started_at") is None:
        meta["started_at"] = _iso(root.start)
    if meta.get("duration_s") is None and root.end >= root.start > 0:
        meta["duration_s"] = round((root.end - root.start) / 1e9, 4)
    ids = json_value(root.attrs.get("oncourse.guideline_ids"))
    if isinstance(ids, list) and not meta.get("injected_guidelines"):
        meta["injected_guidelines"] = [str(i) for i in ids]
    meta["source"] = FORMAT
    meta["trace_id"] = root.trace_id
    return {k: v for k, v in meta.items() if v is not None}


def _run(
    root: Span, run: list[Span], by_id: dict[str, Span], options: OtelOptions
) -> dict[str, Any]:
    builder = _Steps()
    chats: list[Span] = []
    first_inputs: list[Message] = []
    timeline = []
    for span in run:
        op = operation(span)
        if span is not root and op == "execute_tool":
            timeline.append((span.start, span.seq, span))
        elif op in _CHAT_OPS:
            timeline.append((span.end, span.seq, span))
    for _, _, span in sorted(timeline, key=lambda item: (item[0], item[1])):
        if operation(span) == "execute_tool":
            builder.tool(span)
        else:
            chats.append(span)
            inputs, outputs = chat_messages(span)
            first_inputs = first_inputs or inputs
            builder.chat(span, inputs, outputs)
    builder._flush_pending({})
    final = next((m.text for m in messages(root.attrs.get(OUTPUT_MESSAGES), "assistant")), None)
    if final is None and isinstance(root.attrs.get("final_result"), str):  # Logfire's agent run
        final = root.attrs["final_result"]
    if final is None:
        final = builder.reply

    def look(key: str) -> Any:
        return _lookup(key, root, run, by_id)

    task = _task(look(options.task_attr), root, first_inputs)
    task_id = look(options.task_id_attr)
    if task_id is None:
        basis = task if task is not None else root.trace_id
        task_id = "task-" + hashlib.sha256(basis.encode("utf-8")).hexdigest()[:10]
    extra = json_value(root.attrs.get(RUN_EXTRA))
    record: dict[str, Any] = dict(extra) if isinstance(extra, dict) else {}
    record |= {
        "task_id": str(task_id),
        "run_id": str(look("oncourse.run_id") or f"{root.trace_id}:{root.span_id}"),
        "task": task,
        "steps": builder.steps,
        "final_answer": final,
        "meta": _meta(root, chats),
    }
    reward = look("oncourse.reward")
    if isinstance(reward, int | float) and not isinstance(reward, bool):
        record["reward"] = float(reward)
    if root.error:
        record["error"] = {
            "kind": _exception_type(root) or "error",
            "message": root.status_message or _exception_message(root) or "",
        }
    record["success"] = _success(root, options.success_attr, look)
    return record


def _task(given: Any, root: Span, first_inputs: list[Message]) -> str | None:
    task = given
    for fallback in ("langfuse.trace.input", "input.value"):
        task = task if task is not None else json_value(root.attrs.get(fallback))
    if task is not None and not isinstance(task, str):
        task = first_user_text(messages(task, "user")) or json.dumps(task, ensure_ascii=False)
    return task if task is not None else first_user_text(first_inputs)


def _success(root: Span, key: str, look: Any) -> bool:
    if key == "status":
        return not root.error
    value = look(key)
    if value is not None:
        return _outcome(value, key)
    if root.error:
        return False
    raise RecordError(
        f"trace {root.trace_id}: no '{key}' attribute on the run's spans; name the attribute "
        "that holds the outcome with --success-attr (or --success-attr status to use the span "
        "status)"
    )


def runs_from_spans(spans: list[Span], options: OtelOptions | None = None) -> list[dict[str, Any]]:
    """Trajectory dicts (validated by the caller) for every run in these spans, trace order."""
    options = options or OtelOptions()
    traces: dict[str, list[Span]] = defaultdict(list)
    for span in spans:
        traces[span.trace_id].append(span)
    records: list[dict[str, Any]] = []
    for trace_spans in sorted(traces.values(), key=lambda ss: min((s.start, s.seq) for s in ss)):
        by_id = {s.span_id: s for s in trace_spans}
        for root, run in _runs_of_trace(trace_spans, options.run_per):
            records.append(_run(root, run, by_id, options))
    return records


__all__ = ["FORMAT", "OtelOptions", "operation", "runs_from_spans"]
