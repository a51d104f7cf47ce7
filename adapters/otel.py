"""OpenTelemetry GenAI traces in and out: `--format otel` and `oncourse export --otel`.

    from oncourse.adapters.otel import OtelOptions, read_otel, write_otel

    runs = read_otel("traces.json", OtelOptions(task_attr="app.task", success_attr="app.passed"))
    write_otel("runs.otlp.json", runs)

Input is OTLP JSON: one `ExportTraceServiceRequest` document (`{"resourceSpans": [...]}`), or
one per line as the collector's file exporter writes them; spans of one trace may be spread over
several lines. See `_otel_read` for how spans become runs and steps.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from oncourse.adapters._chat_steps import RecordError
from oncourse.adapters._otel_read import FORMAT, OtelOptions, runs_from_spans
from oncourse.adapters._otel_spans import Span, looks_like_otlp, spans_of_request
from oncourse.adapters._otel_write import otlp_request
from oncourse.consistency.errors import InputError
from oncourse.consistency.trajectory import Trajectory
from pydantic import ValidationError


def _requests(path: Path, text: str) -> list[tuple[int, object]]:
    try:
        return [(1, json.loads(text))]
    except ValueError:
        pass
    found = []
    for number, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip():
            continue
        try:
            found.append((number, json.loads(raw)))
        except (ValueError, RecursionError) as exc:
            raise InputError(f"not valid JSON: {exc}", path=str(path), line=number) from None
    return found


def spans_from_text(path: Path, text: str) -> list[Span]:
    """Every span in an OTLP JSON document or JSON-lines file."""
    spans: list[Span] = []
    for line, request in _requests(path, text):
        try:
            spans.extend(spans_of_request(request, len(spans)))
        except RecordError as exc:
            raise InputError(str(exc), path=str(path), line=line) from None
        except RecursionError:
            raise InputError("record nested too deeply", path=str(path), line=line) from None
    if not spans:
        raise InputError("no spans in this OTLP file", path=str(path))
    return spans


def trajectories_from_text(
    path: Path, text: str, options: OtelOptions | None = None
) -> list[Trajectory]:
    """The runs of an OTLP JSON file's text (errors name the file)."""
    try:
        records = runs_from_spans(spans_from_text(path, text), options)
    except RecordError as exc:
        raise InputError(str(exc), path=str(path)) from None
    runs = []
    for record in records:
        try:
            runs.append(Trajectory.model_validate(record))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "record"
            raise InputError(
                f"run {record.get('run_id')}: field '{where}': {first['msg']}", path=str(path)
            ) from None
    return runs


def read_otel(path: str | Path, options: OtelOptions | None = None) -> list[Trajectory]:
    """The runs recorded in one OTLP JSON trace file."""
    path = Path(path)
    if not path.is_file():
        raise InputError("no such file", path=str(path))
    try:
        text = path.read_text("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read: {exc}", path=str(path)) from None
    return trajectories_from_text(path, text, options)


def write_otel(path: str | Path, trajs: Iterable[Trajectory], service: str = "oncourse") -> int:
    """Write runs as one OTLP JSON document (replacing the file atomically); returns the count."""
    batch = list(trajs)
    document = json.dumps(otlp_request(batch, service), ensure_ascii=False, allow_nan=False)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(document + "\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return len(batch)


__all__ = ["FORMAT", "OtelOptions", "looks_like_otlp", "read_otel", "write_otel"]
