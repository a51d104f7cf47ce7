"""Write trajectories as OTLP JSON traces with the OpenTelemetry GenAI conventions.

One trace per run: an `invoke_agent` root span (task, outcome, provenance, final answer in
`gen_ai.output.messages`), one `execute_tool` span per tool step (`gen_ai.tool.name`,
`gen_ai.tool.call.id`, `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`, ERROR status
for a failed call), and a `chat` span before a step whose thought was recorded (the text and the
tool call the model wrote) or for a `respond` step. Ids are derived from the run, so the same
runs always give the same file. `_otel_read` reads it back to the same trajectories.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from oncourse.adapters._otel_read import (
    RESULT_IS_JSON,
    RUN_EXTRA,
    STEP_EXTRA,
    STEP_INDEX,
    STEP_OBSERVATION,
)
from oncourse.consistency._version import __version__
from oncourse.consistency.trajectory import RESPOND_TOOL, Step, Trajectory

SCOPE = "oncourse"
_KIND_INTERNAL = 1
_STATUS_ERROR = 2
_STEP_NS = 1_000_000
_BASE_NS = 1_700_000_000 * 10**9
_META_ATTRS = {
    "model": "gen_ai.request.model",
    "provider": "gen_ai.provider.name",
    "temperature": "gen_ai.request.temperature",
    "seed": "gen_ai.request.seed",
    "tokens_in": "gen_ai.usage.input_tokens",
    "tokens_out": "gen_ai.usage.output_tokens",
}


def any_value(value: Any) -> dict[str, Any]:
    """An OTLP `AnyValue` for a Python value (64-bit integers as strings, per the spec)."""
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, list | tuple):
        return {"arrayValue": {"values": [any_value(v) for v in value]}}
    if isinstance(value, str):
        return {"stringValue": value}
    return {"stringValue": json.dumps(value, ensure_ascii=False, default=str)}


def _attrs(values: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"key": k, "value": any_value(v)} for k, v in values.items() if v is not None]


def _hex(*parts: object, size: int) -> str:
    text = "\x1f".join(str(p) for p in parts)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[: size * 2]


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def _start_ns(traj: Trajectory, index: int) -> int:
    if traj.meta.started_at:
        try:
            return int(datetime.fromisoformat(traj.meta.started_at).timestamp()) * 10**9
        except ValueError:
            pass
    return _BASE_NS + index * 10**9


def _span(
    trace_id: str,
    span_id: str,
    parent: str | None,
    name: str,
    start: int,
    end: int,
    attrs: dict[str, Any],
    error: str | None = None,
) -> dict[str, Any]:
    span: dict[str, Any] = {
        "traceId": trace_id,
        "spanId": span_id,
        "name": name,
        "kind": _KIND_INTERNAL,
        "startTimeUnixNano": str(start),
        "endTimeUnixNano": str(end),
        "attributes": _attrs(attrs),
        "status": {"code": _STATUS_ERROR, "message": error} if error is not None else {},
    }
    if parent is not None:
        span["parentSpanId"] = parent
    return span


def _step_extra(step: Step) -> str | None:
    extra = step.model_extra or {}
    return json.dumps(extra, ensure_ascii=False, default=str) if extra else None


def _chat_span(
    trace_id: str,
    root_id: str,
    index: int,
    clock: int,
    model: str | None,
    parts: list[dict[str, Any]],
    attrs: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The model's turn at step `index`: one chat span whose output is the assistant's parts."""
    messages = [{"role": "assistant", "parts": parts}]
    return _span(
        trace_id,
        _hex(trace_id, index, "chat", size=8),
        root_id,
        f"chat {model or ''}".strip(),
        clock,
        clock + _STEP_NS,
        {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": model,
            "gen_ai.output.messages": json.dumps(messages, ensure_ascii=False, default=str),
            **(attrs or {}),
        },
    )


def _step_spans(
    traj: Trajectory, trace_id: str, root_id: str, start: int, model: str | None
) -> list[dict[str, Any]]:
    spans = []
    clock = start
    for i, step in enumerate(traj.steps):
        call_id = f"call_{i}"
        if step.action.tool == RESPOND_TOOL:
            text = step.action.args.get("text", "")
            reply: list[dict[str, Any]] = [{"type": "text", "content": _text(text)}]
            observation = step.observation
            attrs = {
                STEP_INDEX: i,
                STEP_OBSERVATION: None
                if observation is None
                else json.dumps(observation, ensure_ascii=False, default=str),
                STEP_EXTRA: _step_extra(step),
            }
            spans.append(_chat_span(trace_id, root_id, i, clock, model, reply, attrs))
            clock += _STEP_NS
            continue
        if step.thought is not None:
            parts: list[dict[str, Any]] = [
                {"type": "text", "content": step.thought},
                {
                    "type": "tool_call",
                    "id": call_id,
                    "name": step.action.tool,
                    "arguments": step.action.args,
                },
            ]
            spans.append(_chat_span(trace_id, root_id, i, clock, model, parts))
            clock += _STEP_NS
        spans.append(
            _span(
                trace_id,
                _hex(trace_id, i, "tool", size=8),
                root_id,
                f"execute_tool {step.action.tool}",
                clock,
                clock + _STEP_NS,
                {
                    "gen_ai.operation.name": "execute_tool",
                    "gen_ai.tool.name": step.action.tool,
                    "gen_ai.tool.type": "function",
                    "gen_ai.tool.call.id": call_id,
                    "gen_ai.tool.call.arguments": json.dumps(
                        step.action.args, ensure_ascii=False, default=str
                    ),
                    "gen_ai.tool.call.result": None
                    if step.observation is None
                    else _text(step.observation),
                    STEP_INDEX: i,
                    RESULT_IS_JSON: not isinstance(step.observation, str | None),
                    STEP_EXTRA: _step_extra(step),
                },
                error=step.error,
            )
        )
        clock += _STEP_NS
    return spans


def _root_attrs(traj: Trajectory) -> dict[str, Any]:
    meta = traj.meta.model_dump(mode="json", exclude_none=True)
    attrs: dict[str, Any] = {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": str(meta.get("agent") or "agent"),
        "oncourse.task_id": traj.task_id,
        "oncourse.task": traj.task,
        "oncourse.run_id": traj.run_id,
        "oncourse.success": traj.success,
        "oncourse.reward": traj.reward,
        "oncourse.meta": json.dumps(meta, ensure_ascii=False, default=str),
        "oncourse.guideline_ids": list(traj.meta.injected_guidelines) or None,
    }
    for field, attr in _META_ATTRS.items():
        attrs[attr] = meta.get(field)
    if traj.final_answer is not None:
        output = [{"role": "assistant", "parts": [{"type": "text", "content": traj.final_answer}]}]
        attrs["gen_ai.output.messages"] = json.dumps(output, ensure_ascii=False)
    if traj.error is not None:
        attrs["error.type"] = traj.error.kind
    if traj.model_extra:
        attrs[RUN_EXTRA] = json.dumps(traj.model_extra, ensure_ascii=False, default=str)
    return attrs


def trace_of(traj: Trajectory, index: int = 0) -> list[dict[str, Any]]:
    """The OTLP spans (JSON objects) of one run: the agent span first, then its children."""
    key = traj.run_id or f"{traj.task_id}#{index}"
    trace_id = _hex("trace", key, index, size=16)
    root_id = _hex(trace_id, "root", size=8)
    start = _start_ns(traj, index)
    children = _step_spans(traj, trace_id, root_id, start + _STEP_NS, traj.meta.model)
    end = start + _STEP_NS * (len(children) + 2)
    if traj.meta.duration_s:
        end = max(end, start + int(traj.meta.duration_s * 1e9))
    name = f"invoke_agent {(traj.meta.model_extra or {}).get('agent', 'agent')}"
    error = None if traj.error is None else (traj.error.message or traj.error.kind)
    root = _span(trace_id, root_id, None, name, start, end, _root_attrs(traj), error=error)
    return [root, *children]


def otlp_request(trajs: Iterable[Trajectory], service: str = "oncourse") -> dict[str, Any]:
    """One OTLP JSON `ExportTraceServiceRequest` holding every run as its own trace."""
    spans = [span for i, t in enumerate(trajs) for span in trace_of(t, i)]
    return {
        "resourceSpans": [
            {
                "resource": {
                    "attributes": _attrs(
                        {
                            "service.name": service,
                            "telemetry.sdk.name": "oncourse",
                            "telemetry.sdk.language": "python",
                            "telemetry.sdk.version": __version__,
                        }
                    )
                },
                "scopeSpans": [{"scope": {"name": SCOPE, "version": __version__}, "spans": spans}],
            }
        ]
    }


__all__ = ["any_value", "otlp_request", "trace_of"]
