"""`oncourse export --otel` writes OTLP JSON that reads back to the same runs; Logfire- and
Langfuse-shaped traces read as their tools did."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from oncourse.adapters.cli import app
from oncourse.adapters.importers import example_path, load_trajectories
from oncourse.adapters.otel import OtelOptions, read_otel, write_otel
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
TAU_SAMPLE = next(
    (d / "tau-bench-airline-gpt-4o-sample.json" for d in (ROOT.parent / "shared" / "data",
     Path("/work/shared/data")) if (d / "tau-bench-airline-gpt-4o-sample.json").exists()),
    ROOT.parent / "shared" / "data" / "tau-bench-airline-gpt-4o-sample.json",
)
runner = CliRunner()


def _without_trace_id(runs):  # type: ignore[no-untyped-def]
    dumped = [t.model_dump(mode="json") for t in runs]
    for d in dumped:
        d["meta"].pop("trace_id", None)
    return dumped


def _sources() -> list[Path]:
    return [example_path(), *([TAU_SAMPLE] if TAU_SAMPLE.exists() else [])]


@pytest.mark.parametrize("source", _sources(), ids=lambda p: p.name)
def test_round_trip_gives_back_the_same_runs(source: Path, tmp_path: Path) -> None:
    runs = load_trajectories([source])
    out = tmp_path / "runs.otlp.json"
    assert write_otel(out, runs) == len(runs)
    back = read_otel(out)
    assert _without_trace_id(back) == _without_trace_id(runs)
    assert len({t.meta.model_extra["trace_id"] for t in back}) == len(runs)


def test_export_is_valid_otlp_with_genai_conventions(tmp_path: Path) -> None:
    pytest.importorskip("opentelemetry.proto.collector.trace.v1.trace_service_pb2")
    from google.protobuf.json_format import Parse
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
    )

    runs = load_trajectories([example_path()])
    out = tmp_path / "runs.otlp.json"
    write_otel(out, runs)
    request = Parse(out.read_text(), ExportTraceServiceRequest())  # the proto's own JSON parser
    spans = request.resource_spans[0].scope_spans[0].spans
    first = runs[0]
    trace = [s for s in spans if s.trace_id == spans[0].trace_id]
    ops = [next(a.value.string_value for a in s.attributes if a.key == "gen_ai.operation.name")
           for s in trace]
    tool_steps = [s for s in first.steps if s.action.tool != "respond"]
    assert ops.count("invoke_agent") == 1
    assert ops.count("execute_tool") == len(tool_steps)
    tool_span = next(s for s in trace if s.name.startswith("execute_tool"))
    attrs = {a.key: a.value for a in tool_span.attributes}
    assert attrs["gen_ai.tool.name"].string_value == tool_steps[0].action.tool
    assert json.loads(attrs["gen_ai.tool.call.arguments"].string_value) == tool_steps[0].action.args
    assert tool_span.parent_span_id == trace[0].span_id


def test_cli_export_then_report_reads_the_same_rates(tmp_path: Path) -> None:
    out = tmp_path / "runs.otlp.json"
    result = runner.invoke(app, ["export", str(example_path()), "--otel", "-o", str(out), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"path": str(out), "runs": 20, "format": "otel"}
    reports = []
    for path in (example_path(), out):
        done = runner.invoke(app, ["report", str(path), "--json"])
        assert done.exit_code == 0, done.output
        reports.append(json.loads(done.stdout))
    assert reports[0]["tasks"] == reports[1]["tasks"]


def test_cli_converts_traces_to_jsonl_with_named_attributes(tmp_path: Path) -> None:
    trace = tmp_path / "langfuse.json"
    trace.write_text(json.dumps(_langfuse_trace()))
    out = tmp_path / "runs.jsonl"
    args = ["export", str(trace), "--format", "otel", "-o", str(out),
            "--success-attr", "langfuse.trace.metadata.passed", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    (run,) = load_trajectories([out])
    assert run.success is False and run.task == "Where is my parcel 77?"


def test_unknown_outcome_attribute_exits_2_with_one_line(tmp_path: Path) -> None:
    trace = tmp_path / "langfuse.json"
    trace.write_text(json.dumps(_langfuse_trace()))
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "oncourse.adapters.cli", "report", str(trace)],
        capture_output=True, text=True,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--success-attr" in done.stderr
    assert "Traceback" not in done.stderr


def _kv(key: str, value: object) -> dict:
    if isinstance(value, bool):
        return {"key": key, "value": {"boolValue": value}}
    if isinstance(value, int):
        return {"key": key, "value": {"intValue": str(value)}}
    return {"key": key, "value": {"stringValue": value}}


def _span(span_id: str, parent: str | None, name: str, t: int, attrs: dict, **extra) -> dict:
    span = {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": span_id, "name": name,
            "startTimeUnixNano": str(1_700_000_000_000_000_000 + t * 1000),
            "endTimeUnixNano": str(1_700_000_000_000_000_000 + t * 1000 + 500),
            "attributes": [_kv(k, v) for k, v in attrs.items()], **extra}
    if parent:
        span["parentSpanId"] = parent
    return span


def _request(spans: list[dict]) -> dict:
    return {"resourceSpans": [{"resource": {"attributes": [_kv("service.name", "shop")]},
                               "scopeSpans": [{"scope": {"name": "x"}, "spans": spans}]}]}


def _logfire_trace() -> dict:
    """The shape pydantic-ai writes through Logfire: `agent run`, `chat` with `events`,
    `running tool` with `tool_arguments` / `tool_response`."""
    first_chat = [
        {"event.name": "gen_ai.system.message", "content": "You help shoppers.", "role": "system"},
        {"event.name": "gen_ai.user.message", "content": "Cancel order 12.", "role": "user"},
        {"event.name": "gen_ai.choice", "index": 0, "message": {
            "role": "assistant", "content": "Checking the order first.",
            "tool_calls": [{"id": "tc1", "type": "function", "function": {
                "name": "get_order", "arguments": "{\"order_id\": 12}"}}]}},
    ]
    second_chat = [
        {"event.name": "gen_ai.choice", "index": 0, "message": {
            "role": "assistant", "tool_calls": [{"id": "tc2", "type": "function", "function": {
                "name": "cancel_order", "arguments": "{\"order_id\": 12}"}}]}},
    ]
    last_chat = [{"event.name": "gen_ai.choice", "index": 0,
                  "message": {"role": "assistant", "content": "Order 12 is cancelled."}}]
    return _request([
        _span("a1", None, "agent run", 0, {"agent_name": "shop", "model_name": "gpt-4o",
                                           "final_result": "Order 12 is cancelled.",
                                           "eval.passed": True}),
        _span("c1", "a1", "chat gpt-4o", 1, {"gen_ai.operation.name": "chat",
                                             "gen_ai.system": "openai",
                                             "gen_ai.request.model": "gpt-4o",
                                             "gen_ai.usage.input_tokens": 50,
                                             "events": json.dumps(first_chat)}),
        _span("t1", "a1", "running tool", 2, {"gen_ai.tool.name": "get_order",
                                              "gen_ai.tool.call.id": "tc1",
                                              "tool_arguments": "{\"order_id\": 12}",
                                              "tool_response": "{\"state\": \"open\"}"}),
        _span("c2", "a1", "chat gpt-4o", 3, {"gen_ai.operation.name": "chat",
                                             "gen_ai.request.model": "gpt-4o",
                                             "gen_ai.usage.input_tokens": 70,
                                             "events": json.dumps(second_chat)}),
        _span("t2", "a1", "running tool", 4, {"gen_ai.tool.name": "cancel_order",
                                              "gen_ai.tool.call.id": "tc2",
                                              "tool_arguments": "{\"order_id\": 12}",
                                              "tool_response": "cancelled"}),
        _span("c3", "a1", "chat gpt-4o", 5, {"gen_ai.operation.name": "chat",
                                             "gen_ai.request.model": "gpt-4o",
                                             "events": json.dumps(last_chat)}),
    ])


def test_logfire_shaped_trace(tmp_path: Path) -> None:
    path = tmp_path / "logfire.json"
    path.write_text(json.dumps(_logfire_trace()))
    (run,) = read_otel(path, OtelOptions(success_attr="eval.passed"))
    assert [(s.action.tool, s.action.args) for s in run.steps] == [
        ("get_order", {"order_id": 12}), ("cancel_order", {"order_id": 12})
    ]
    assert run.steps[0].thought == "Checking the order first."
    assert run.steps[0].observation == {"state": "open"} and run.steps[1].observation == "cancelled"
    assert run.task == "Cancel order 12." and run.final_answer == "Order 12 is cancelled."
    assert run.success is True
    assert (run.meta.model, run.meta.provider, run.meta.tokens_in) == ("gpt-4o", "openai", 120)


def _langfuse_trace() -> dict:
    """Langfuse's OTel attributes: observation types, JSON input/output, trace-level input."""
    generation_in = [{"role": "user", "content": "Where is my parcel 77?"}]
    generation_out = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "x1", "type": "function",
         "function": {"name": "track_parcel", "arguments": "{\"parcel\": 77}"}}]}
    return _request([
        _span("r1", None, "support-agent", 0, {
            "langfuse.observation.type": "agent",
            "langfuse.trace.input": "Where is my parcel 77?",
            "langfuse.trace.metadata.passed": "false"}),
        _span("g1", "r1", "llm-call", 1, {
            "langfuse.observation.type": "generation",
            "langfuse.observation.input": json.dumps(generation_in),
            "langfuse.observation.output": json.dumps(generation_out),
            "gen_ai.request.model": "claude-x"}),
        _span("t1", "r1", "track_parcel", 2, {
            "langfuse.observation.type": "tool",
            "langfuse.observation.input": "{\"parcel\": 77}",
            "langfuse.observation.output": "{\"where\": \"depot\"}"},
            status={"code": 2, "message": "carrier API timed out"}),
        _span("g2", "r1", "llm-call", 3, {
            "langfuse.observation.type": "generation",
            "langfuse.observation.output": json.dumps(
                {"role": "assistant", "content": "It is at the depot."})}),
    ])


def test_langfuse_shaped_trace(tmp_path: Path) -> None:
    path = tmp_path / "langfuse.json"
    path.write_text(json.dumps(_langfuse_trace()))
    (run,) = read_otel(path, OtelOptions(success_attr="langfuse.trace.metadata.passed"))
    (step,) = run.steps
    assert (step.action.tool, step.action.args) == ("track_parcel", {"parcel": 77})
    assert step.error == "carrier API timed out"
    assert run.task == "Where is my parcel 77?" and run.final_answer == "It is at the depot."
    assert run.success is False and run.meta.model == "claude-x"
