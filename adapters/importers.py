"""Read and write trajectory files: oncourse JSONL, tau-bench, OpenAI transcripts, OTLP traces.

Every problem with an input file becomes an `InputError` naming the file and line; nothing else
escapes. Formats are chosen through the `READERS` registry (one record at a time) and the
`FILE_READERS` registry (a whole file, as OTLP traces need); `auto` detects them per file.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oncourse.adapters import _openai_transcripts, _tau_bench, otel
from oncourse.adapters._chat_steps import RecordError
from oncourse.consistency.errors import ConfigError, InputError
from oncourse.consistency.trajectory import Trajectory
from pydantic import ValidationError

ONCOURSE = "oncourse"
FORMATS = (ONCOURSE, _tau_bench.FORMAT, _openai_transcripts.FORMAT, otel.FORMAT)
EXAMPLE_FILE = "support-desk-synthetic.jsonl"
_SUFFIXES = (".jsonl", ".json")


@dataclass(frozen=True)
class _Record:
    """One decoded JSON value and where it came from."""

    line: int
    value: Any


def _oncourse_dict(obj: Any, index: int) -> Any:
    if not isinstance(obj, dict):
        raise RecordError(f"expected a JSON object, got {type(obj).__name__}")
    return obj


READERS: dict[str, Callable[[Any, int], Any]] = {
    ONCOURSE: _oncourse_dict,
    _tau_bench.FORMAT: _tau_bench.to_trajectory_dict,
    _openai_transcripts.FORMAT: _openai_transcripts.to_trajectory_dict,
}

# Formats read a whole file at once: (path, text, OTel options) -> trajectories.
FILE_READERS: dict[str, Callable[[Path, str, otel.OtelOptions | None], list[Trajectory]]] = {
    otel.FORMAT: otel.trajectories_from_text,
}
# How a file in one of those formats starts (its first 4 KiB), for `auto`.
FILE_SNIFFERS: dict[str, Callable[[str], bool]] = {otel.FORMAT: otel.looks_like_otlp}


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _read_text(path: Path) -> str:
    if not path.exists():
        raise InputError("no such file", path=str(path))
    if path.is_dir():
        raise InputError("is a directory (expected a file)", path=str(path))
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=str(path)) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"not UTF-8 text (byte {exc.start})", path=str(path), line=line) from None
    if not text.strip():
        raise InputError("empty file: no trajectories", path=str(path))
    return text


def _loads(text: str) -> Any:
    return json.loads(text, parse_constant=_reject_constant)


def _decode_error(path: Path, exc: Exception, line: int, offset_line: int = 0) -> InputError:
    if isinstance(exc, json.JSONDecodeError):
        return InputError(
            f"not valid JSON: {exc.msg} (column {exc.colno})",
            path=str(path),
            line=offset_line + exc.lineno,
        )
    if isinstance(exc, RecursionError):
        return InputError("not valid JSON: nested too deeply", path=str(path), line=line)
    return InputError(f"not valid JSON: {exc}", path=str(path), line=line)


def _json_array(path: Path, text: str) -> list[_Record]:
    """The items of a top-level JSON array, each with the line where it starts."""
    decoder = json.JSONDecoder(parse_constant=_reject_constant)
    pos = text.index("[") + 1
    line = 1 + text.count("\n", 0, pos)
    records: list[_Record] = []
    while True:
        start = pos
        while pos < len(text) and text[pos] in " \t\r\n":
            pos += 1
        line += text.count("\n", start, pos)
        if pos >= len(text):
            raise InputError("not valid JSON: unterminated list", path=str(path), line=line)
        if text[pos] == "]" and not records:
            break
        try:
            value, end = decoder.raw_decode(text, pos)
        except (ValueError, RecursionError) as exc:
            raise _decode_error(path, exc, line) from None
        records.append(_Record(line, value))
        line += text.count("\n", pos, end)
        pos = end
        start = pos
        while pos < len(text) and text[pos] in " \t\r\n":
            pos += 1
        line += text.count("\n", start, pos)
        if pos < len(text) and text[pos] == ",":
            pos += 1
            continue
        if pos < len(text) and text[pos] == "]":
            break
        raise InputError("not valid JSON: expected ',' or ']'", path=str(path), line=line)
    if text[pos + 1 :].strip():
        raise InputError("not valid JSON: extra data after the list", path=str(path), line=line)
    return records


def _json_lines(path: Path, text: str, tolerate_truncated_tail: bool = False) -> list[_Record]:
    # Split on newlines only: str.splitlines would also cut at U+2028 inside JSON strings.
    lines = [raw.rstrip("\r") for raw in text.split("\n")]
    last = max((i for i, raw in enumerate(lines) if raw.strip()), default=-1)
    records = []
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            records.append(_Record(number, _loads(raw)))
        except (ValueError, RecursionError) as exc:
            if tolerate_truncated_tail and number - 1 == last and not text.endswith("\n"):
                break  # a writer was killed mid-line; the complete lines stand
            raise _decode_error(path, exc, number, offset_line=number - 1) from None
    return records


def _parse(path: Path, tolerate_truncated_tail: bool = False) -> list[_Record]:
    text = _read_text(path)
    if text.lstrip().startswith("["):
        records = _json_array(path, text)
        if not records:
            raise InputError("empty list: no trajectories", path=str(path), line=1)
        return records
    return _json_lines(path, text, tolerate_truncated_tail)


def _kind(value: Any) -> str | None:
    if not isinstance(value, dict):
        return None
    if "steps" in value:
        return ONCOURSE
    if _tau_bench.is_record(value):
        return _tau_bench.FORMAT
    if _openai_transcripts.is_record(value):
        return _openai_transcripts.FORMAT
    return None


def _detect(path: Path, records: list[_Record]) -> str:
    first: tuple[str, int] | None = None
    for record in records:
        kind = _kind(record.value)
        if kind is None:
            raise InputError(
                "not a trajectory: expected an object with 'steps' (oncourse), 'traj' "
                "(tau-bench) or 'messages' (openai)",
                path=str(path),
                line=record.line,
            )
        if first is None:
            first = (kind, record.line)
        elif kind != first[0]:
            raise InputError(
                f"mixed formats: line {first[1]} is {first[0]}, this line is {kind}",
                path=str(path),
                line=record.line,
            )
    if first is None:
        raise InputError("no trajectories", path=str(path))
    return first[0]


def detect_format(path: str | Path) -> str:
    """The format of one file: oncourse, tau-bench, openai or otel (InputError if unclear)."""
    path = Path(path)
    whole = _whole_file_format(path, "auto")
    if whole is not None:
        return whole
    return _detect(path, _parse(path))


def _validation_message(exc: ValidationError) -> str:
    errors = exc.errors()
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"]) or "record"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    if first["type"] == "missing":
        return f"missing required field '{where}'{more}"
    return f"field '{where}': {first['msg']}{more}"


def _to_trajectory(path: Path, record: _Record, index: int, fmt: str) -> Trajectory:
    try:
        data = READERS[fmt](record.value, index)
        return Trajectory.model_validate(data)
    except RecordError as exc:
        raise InputError(str(exc), path=str(path), line=record.line) from None
    except ValidationError as exc:
        raise InputError(_validation_message(exc), path=str(path), line=record.line) from None
    except RecursionError:
        raise InputError("record nested too deeply", path=str(path), line=record.line) from None


def _check_format(fmt: str) -> None:
    if fmt != "auto" and fmt not in READERS and fmt not in FILE_READERS:
        raise ConfigError(f"unknown format {fmt!r}; choose auto, {', '.join(FORMATS)}")


def _expand(paths: Iterable[str | Path]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in _SUFFIXES)
            if not found:
                raise InputError("directory holds no .json or .jsonl files", path=str(path))
            yield from found
        else:
            yield path


def _whole_file_format(path: Path, fmt: str) -> str | None:
    if fmt in FILE_READERS:
        return fmt
    if fmt != "auto" or not path.is_file():
        return None
    try:
        with path.open("rb") as handle:
            head = handle.read(4096).decode("utf-8-sig", errors="ignore")
    except OSError:
        return None
    return next((name for name, sniff in FILE_SNIFFERS.items() if sniff(head)), None)


def load_file(
    path: str | Path, fmt: str = "auto", otel_options: otel.OtelOptions | None = None
) -> list[Trajectory]:
    """The trajectories of one file in the given format, or the detected one with "auto".

    `otel_options` names the span attributes holding task and outcome in OTLP traces.
    """
    _check_format(fmt)
    path = Path(path)
    whole = _whole_file_format(path, fmt)
    if whole is not None:
        return FILE_READERS[whole](path, _read_text(path), otel_options)
    records = _parse(path)
    chosen = _detect(path, records) if fmt == "auto" else fmt
    return [_to_trajectory(path, rec, i, chosen) for i, rec in enumerate(records)]


def load_trajectories(
    paths: Iterable[str | Path], fmt: str = "auto", otel_options: otel.OtelOptions | None = None
) -> list[Trajectory]:
    """The trajectories of every file (a directory means its .json/.jsonl files), in order."""
    _check_format(fmt)
    if isinstance(paths, str | Path):
        paths = [paths]
    files = list(_expand(paths))
    if not files:
        raise InputError("no input files given")
    trajs: list[Trajectory] = []
    for path in files:
        trajs.extend(load_file(path, fmt, otel_options))
    return trajs


def read_jsonl_trajectories(
    path: str | Path, *, tolerate_truncated_tail: bool = False
) -> list[Trajectory]:
    """The trajectories of one oncourse JSONL file.

    Args:
        path: The file.
        tolerate_truncated_tail: Skip an unterminated last line (a writer killed mid-line), as a
            resumed run wants; by default it is an error like any other bad line.
    """
    path = Path(path)
    records = _json_lines(path, _read_text(path), tolerate_truncated_tail)
    return [_to_trajectory(path, rec, i, ONCOURSE) for i, rec in enumerate(records)]


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


def trajectory_line(traj: Trajectory) -> str:
    """One trajectory as a JSONL line (no newline); NaN and infinities become null."""
    data = _finite(traj.model_dump(mode="json", exclude_none=True))
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def write_trajectories(path: str | Path, trajs: Trajectory | Iterable[Trajectory]) -> int:
    """Append trajectories to a JSONL file in one write, then flush and fsync; returns the count.

    Append-only: earlier lines are never rewritten, so an interrupted run keeps what it had.
    """
    batch = [trajs] if isinstance(trajs, Trajectory) else list(trajs)
    if not batch:
        return 0
    blob = "".join(trajectory_line(t) + "\n" for t in batch)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(blob)
        handle.flush()
        os.fsync(handle.fileno())
    return len(batch)


def example_path() -> Path:
    """The shipped synthetic example file (installed package data, or the repo's data/)."""
    try:
        from importlib.resources import files

        candidate = Path(str(files("oncourse.data") / "examples" / EXAMPLE_FILE))
        if candidate.is_file():
            return candidate
    except (ModuleNotFoundError, TypeError):
        pass
    return Path(__file__).resolve().parents[1] / "data" / "examples" / EXAMPLE_FILE


__all__ = [
    "FILE_READERS",
    "FORMATS",
    "READERS",
    "detect_format",
    "example_path",
    "load_file",
    "load_trajectories",
    "read_jsonl_trajectories",
    "trajectory_line",
    "write_trajectories",
]
