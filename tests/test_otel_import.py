"""OTLP JSON traces from the real OpenTelemetry SDK import to the runs the recorder records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("opentelemetry.sdk.trace")
pytest.importorskip("opentelemetry.exporter.otlp.proto.common.trace_encoder")

from oncourse.adapters.importers import detect_format, load_trajectories  # noqa: E402
from oncourse.adapters.otel import OtelOptions, read_otel  # noqa: E402
from oncourse.consistency.errors import InputError  # noqa: E402

from tests._otel_agent import (  # noqa: E402
    BROKEN,
    GOOD,
    TASK,
    WRONG,
    otlp_json,
    run_instrumented,
    sdk_tracer,
)

APP = OtelOptions(task_attr="app.task", task_id_attr="app.task_id", success_attr="app.passed")
SCRIPTS = [GOOD, WRONG, GOOD, BROKEN, WRONG]


def _comparable(traj) -> dict:  # type: ignore[no-untyped-def]
    data = traj.model_dump(mode="json", exclude={"meta"})
    data["meta"] = {k: getattr(traj.meta, k) for k in ("model", "tokens_in", "tokens_out")}
    return data


@pytest.fixture
def traced(tmp_path: Path) -> tuple[Path, Path]:
    """Five runs of one task: recorder JSONL and the SDK's spans as OTLP JSON."""
    tracer, exporter = sdk_tracer()
    recorded = tmp_path / "recorded.jsonl"
    for i, script in enumerate(SCRIPTS):
        run_instrumented(tracer, script, "refund-dup", f"run-{i}", recorded)
    otlp = tmp_path / "traces.json"
    otlp.write_text(otlp_json(exporter.get_finished_spans()))
    return recorded, otlp


def test_sdk_trace_imports_to_the_recorders_trajectories(traced: tuple[Path, Path]) -> None:
    recorded, otlp = traced
    from_recorder = load_trajectories([recorded])
    from_otel = read_otel(otlp, APP)
    assert [t.run_id for t in from_otel] == [f"run-{i}" for i in range(5)]
    assert [_comparable(t) for t in from_otel] == [_comparable(t) for t in from_recorder]
    # what that equality covers, spelled out on the run with a failed tool call
    broken = from_otel[3]
    assert [s.action.tool for s in broken.steps] == [
        "find_customer",
        "get_order",
        "get_order",
        "refund",
    ]
    assert broken.steps[1].error == "'no order 99'" and broken.steps[1].observation is None
    assert broken.steps[2].thought == "That order does not exist."
    assert broken.steps[0].observation == {
        "customer_id": 7,
        "email": "alice@example.com",
        "orders": [41, 42],
    }
    assert [t.success for t in from_otel] == [True, False, True, True, False]
    assert from_otel[0].meta.tokens_in == 100 + 101 + 102 + 103
    assert from_otel[0].meta.provider == "scripted"
    # protobuf's JSON printer writes ids in base64; they come back as the usual hex
    trace_ids = [t.meta.model_extra["trace_id"] for t in from_otel]
    assert all(len(t) == 32 and int(t, 16) for t in trace_ids) and len(set(trace_ids)) == 5


def test_auto_detection_and_format_flag_read_the_same_runs(traced: tuple[Path, Path]) -> None:
    _, otlp = traced
    assert detect_format(otlp) == "otel"
    auto = load_trajectories([otlp], "auto", APP)
    named = load_trajectories([otlp], "otel", APP)
    assert [t.model_dump() for t in auto] == [t.model_dump() for t in named]


def test_analyze_finds_the_fork_in_imported_traces(traced: tuple[Path, Path]) -> None:
    from oncourse.consistency.analyzer import analyze_runs

    _, otlp = traced
    (analysis,) = analyze_runs(read_otel(otlp, APP))
    assert analysis.task_id == "refund-dup"
    assert (analysis.n_runs, analysis.n_success) == (5, 3)
    assert analysis.divergence is not None
    assert analysis.distinct_paths == 3


def test_missing_outcome_attribute_is_one_clear_error(traced: tuple[Path, Path]) -> None:
    _, otlp = traced
    with pytest.raises(InputError) as caught:
        read_otel(otlp, OtelOptions(task_attr="app.task"))
    message = str(caught.value)
    assert str(otlp) in message and "'oncourse.success'" in message and "--success-attr" in message


def test_without_task_attributes_the_task_is_the_first_user_message(
    traced: tuple[Path, Path],
) -> None:
    _, otlp = traced
    runs = read_otel(otlp, OtelOptions(success_attr="app.passed"))
    assert {t.task for t in runs} == {TASK}
    assert len({t.task_id for t in runs}) == 1  # same task text, same derived id


def test_status_as_outcome_and_run_per_trace(traced: tuple[Path, Path]) -> None:
    _, otlp = traced
    runs = read_otel(otlp, OtelOptions(success_attr="status", run_per="trace"))
    assert len(runs) == 5 and all(t.success for t in runs)  # no agent span was marked ERROR


def test_spans_split_over_collector_json_lines(traced: tuple[Path, Path], tmp_path: Path) -> None:
    _, otlp = traced
    request = json.loads(otlp.read_text())
    spans = request["resourceSpans"][0]["scopeSpans"][0]["spans"]
    lines = []
    for i in range(0, len(spans), 4):  # a batch exporter flushes a trace in pieces
        part = json.loads(json.dumps(request))
        part["resourceSpans"][0]["scopeSpans"][0]["spans"] = spans[i : i + 4]
        lines.append(json.dumps(part))
    jsonl = tmp_path / "collector.jsonl"
    jsonl.write_text("\n".join(lines) + "\n")
    assert [t.model_dump() for t in read_otel(jsonl, APP)] == [
        t.model_dump() for t in read_otel(otlp, APP)
    ]


def test_bad_otlp_input_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    second = '{"resourceSpans": [{"scopeSpans": [{"spans": [{}]}]}]}'
    bad.write_text('{"resourceSpans": []}\n' + second + "\n")
    with pytest.raises(InputError) as caught:
        load_trajectories([bad], "otel")
    assert str(caught.value).startswith(f"{bad}:2: ") and "traceId" in str(caught.value)
