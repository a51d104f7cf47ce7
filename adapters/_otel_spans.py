"""Decode OTLP JSON (file exports, collector JSON) into plain span records.

OTLP JSON is the protobuf JSON mapping of `ExportTraceServiceRequest`: `resourceSpans` ->
`scopeSpans` -> `spans`, lowerCamelCase keys, hex ids, 64-bit integers as strings, enums as
integers. Exports written with protobuf's own JSON printer use enum names and base64 ids (turned
into hex here), and some tools keep the proto field names (`resource_spans`); all are read.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import string
from dataclasses import dataclass, field
from typing import Any

from oncourse.adapters._chat_steps import RecordError

_SNIFF = re.compile(r'^\s*\{\s*"(resourceSpans|resource_spans)"\s*:')
STATUS_ERROR = 2


@dataclass
class Span:
    """One span, flattened: ids, name, times (ns), attributes, events and status."""

    trace_id: str
    span_id: str
    parent_id: str | None
    name: str
    start: int
    end: int
    attrs: dict[str, Any]
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    error: bool = False
    status_message: str = ""
    resource: dict[str, Any] = field(default_factory=dict)
    seq: int = 0


def looks_like_otlp(text: str) -> bool:
    """Whether a file's text starts like an OTLP JSON trace export."""
    return bool(_SNIFF.match(text[:4096]))


def _hex_id(value: Any, size: int) -> Any:
    """An id as lowercase hex; protobuf's JSON printer writes bytes fields as base64."""
    if not isinstance(value, str) or not value:
        return value
    if len(value) == size * 2 and all(c in string.hexdigits for c in value):
        return value.lower()
    try:
        raw = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return value
    return raw.hex() if len(raw) == size else value


def _get(obj: dict[str, Any], camel: str, snake: str) -> Any:
    return obj[camel] if camel in obj else obj.get(snake)


def _int(value: Any) -> int:
    if isinstance(value, bool):
        raise RecordError("a timestamp must be a number")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    if value is None:
        return 0
    raise RecordError(f"a timestamp must be an integer, got {value!r}")


def any_value(value: Any) -> Any:
    """The Python value of an OTLP `AnyValue` object."""
    if not isinstance(value, dict):
        return value
    for camel, snake in (("stringValue", "string_value"), ("boolValue", "bool_value")):
        if camel in value or snake in value:
            return _get(value, camel, snake)
    if "intValue" in value or "int_value" in value:
        return _int(_get(value, "intValue", "int_value"))
    if "doubleValue" in value or "double_value" in value:
        return float(_get(value, "doubleValue", "double_value"))
    if "arrayValue" in value or "array_value" in value:
        inner = _get(value, "arrayValue", "array_value") or {}
        return [any_value(v) for v in inner.get("values", [])]
    if "kvlistValue" in value or "kvlist_value" in value:
        inner = _get(value, "kvlistValue", "kvlist_value") or {}
        return attributes(inner.get("values", []))
    if "bytesValue" in value or "bytes_value" in value:
        return _get(value, "bytesValue", "bytes_value")
    return None


def attributes(items: Any) -> dict[str, Any]:
    """A dict from an OTLP list of `{key, value}` objects."""
    if items is None:
        return {}
    if not isinstance(items, list):
        raise RecordError("'attributes' must be a list of {key, value} objects")
    out: dict[str, Any] = {}
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("key"), str):
            raise RecordError("an attribute must be an object with a string 'key'")
        out[item["key"]] = any_value(item.get("value"))
    return out


def _status(span: dict[str, Any]) -> tuple[bool, str]:
    status = span.get("status") or {}
    if not isinstance(status, dict):
        return False, ""
    code = status.get("code")
    error = code == STATUS_ERROR or code in ("STATUS_CODE_ERROR", "ERROR")
    return error, str(status.get("message") or "")


def _span(raw: Any, resource: dict[str, Any], seq: int) -> Span:
    if not isinstance(raw, dict):
        raise RecordError("a span must be an object")
    trace_id = _hex_id(_get(raw, "traceId", "trace_id"), 16)
    span_id = _hex_id(_get(raw, "spanId", "span_id"), 8)
    if not isinstance(trace_id, str) or not trace_id:
        raise RecordError(f"span {raw.get('name')!r} has no traceId")
    if not isinstance(span_id, str) or not span_id:
        raise RecordError(f"span {raw.get('name')!r} has no spanId")
    parent = _hex_id(_get(raw, "parentSpanId", "parent_span_id"), 8) or None
    events = []
    for event in raw.get("events") or []:
        if not isinstance(event, dict):
            raise RecordError("a span event must be an object")
        events.append((str(event.get("name", "")), attributes(event.get("attributes"))))
    error, message = _status(raw)
    return Span(
        trace_id=trace_id,
        span_id=span_id,
        parent_id=parent if isinstance(parent, str) else None,
        name=str(raw.get("name", "")),
        start=_int(_get(raw, "startTimeUnixNano", "start_time_unix_nano")),
        end=_int(_get(raw, "endTimeUnixNano", "end_time_unix_nano")),
        attrs=attributes(raw.get("attributes")),
        events=events,
        error=error,
        status_message=message,
        resource=resource,
        seq=seq,
    )


def spans_of_request(request: Any, first_seq: int = 0) -> list[Span]:
    """The spans of one decoded `ExportTraceServiceRequest` object."""
    if not isinstance(request, dict):
        raise RecordError("expected a JSON object with 'resourceSpans'")
    groups = _get(request, "resourceSpans", "resource_spans")
    if not isinstance(groups, list):
        raise RecordError("'resourceSpans' must be a list")
    spans: list[Span] = []
    for group in groups:
        if not isinstance(group, dict):
            raise RecordError("a resourceSpans entry must be an object")
        resource = attributes((group.get("resource") or {}).get("attributes"))
        scopes = _get(group, "scopeSpans", "scope_spans")
        if scopes is None:  # exports before OTLP 0.19 called it instrumentationLibrarySpans
            scopes = _get(group, "instrumentationLibrarySpans", "instrumentation_library_spans")
        for scope in scopes or []:
            if not isinstance(scope, dict):
                raise RecordError("a scopeSpans entry must be an object")
            for raw in scope.get("spans") or []:
                spans.append(_span(raw, resource, first_seq + len(spans)))
    return spans


def json_value(value: Any) -> Any:
    """A JSON document held in a string attribute, decoded; other values as they are."""
    if isinstance(value, str) and value[:1] in ("{", "["):
        try:
            return json.loads(value)
        except (ValueError, RecursionError):
            return value
    return value


__all__ = ["Span", "any_value", "attributes", "json_value", "looks_like_otlp", "spans_of_request"]
