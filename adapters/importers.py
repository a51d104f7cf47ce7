"""Read and write trajectory files: oncourse JSONL, tau-bench, OpenAI transcripts, OTLP traces.

Every problem with an input file becomes an `InputError` naming the file and line; nothing else
escapes. Formats are chosen through the `READERS` registry (one record at a time) and the
`FILE_READERS` registry (a whole file, as OTLP traces need); `auto` detects them per file.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oncourse.adapters import _openai_transcripts, _tau_bench, otel
from oncourse.adapters._chat_steps import RecordError
from oncourse.consistency.errors import ConfigError, InputError, InputWarning
from oncourse.consistency.trajectory import Trajectory
from pydantic import ValidationError

ONCOURSE = "oncourse"
FORMATS = (ONCOURSE, _tau_bench.FORMAT, _openai_transcripts.FORMAT, otel.FORMAT)
EXAMPLE_FILE = "support-desk-synthetic.jsonl"
_SUFFIXES = (".jsonl", ".json")
MAX_DEPTH = 100
"""Deepest nesting of objects and lists a record may have (analysis recurses over arguments)."""
MAX_RECORD_CHARS = 64 * 2**20
"""Longest record (a JSONL line, or one item of a JSON list) read, in characters."""

_COMPRESSED = {
    b"\x1f\x8b": "gzip-compressed (decompress it first, e.g. gunzip)",
    b"PK\x03\x04": "a zip archive (extract it first)",
    b"BZh": "bzip2-compressed (decompress it first, e.g. bunzip2)",
    b"\xfd7zXZ\x00": "xz-compressed (decompress it first, e.g. unxz)",
    b"(\xb5/\xfd": "zstd-compressed (decompress it first, e.g. unzstd)",
}
_WIDE_BOMS = (  # UTF-32 before UTF-16: the UTF-32-LE mark starts with the UTF-16-LE one
    (b"\xff\xfe\x00\x00", "UTF-32-LE"),
    (b"\x00\x00\xfe\xff", "UTF-32-BE"),
    (b"\xff\xfe", "UTF-16-LE"),
    (b"\xfe\xff", "UTF-16-BE"),
)


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


def _decode(path: Path, data: bytes) -> str:
    """The text of a file: UTF-8 with or without a byte-order mark; anything else is named."""
    for magic, what in _COMPRESSED.items():
        if data.startswith(magic):
            raise InputError(f"{what}; expected UTF-8 JSON or JSONL text", path=str(path))
    for bom, name in _WIDE_BOMS:
        if data.startswith(bom):
            raise InputError(
                f"{name} text (byte-order mark), not UTF-8; save it as UTF-8", path=str(path)
            )
    head = data[:4096]
    if b"\x00" in head:
        odd_nuls = head[1::2].count(0) > len(head) // 4
        even_nuls = head[0::2].count(0) > len(head) // 4
        what = "UTF-16 text without a byte-order mark" if odd_nuls != even_nuls else "binary data"
        raise InputError(f"{what} (NUL bytes), not UTF-8 text", path=str(path))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(
            f"not UTF-8 text (byte {exc.start}: 0x{data[exc.start]:02X}); save it as UTF-8",
            path=str(path),
            line=line,
        ) from None


def _read_bytes(path: Path) -> bytes:
    if not path.exists():
        raise InputError("no such file", path=str(path))
    if path.is_dir():
        raise InputError("is a directory (expected a file)", path=str(path))
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=str(path)) from None


def _read_text(path: Path) -> str:
    text = _decode(path, _read_bytes(path))
    if not text.strip():
        raise InputError("empty file: no trajectories", path=str(path))
    return text


def _too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether `value` nests objects/lists deeper than `limit` (iterative: no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Iterable[Any] = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _check_record(path: Path, line: int, value: Any) -> None:
    if _too_deep(value):
        raise InputError(
            f"record nested more than {MAX_DEPTH} levels deep", path=str(path), line=line
        )


def _check_size(path: Path, line: int, size: int) -> None:
    if size > MAX_RECORD_CHARS:
        raise InputError(
            f"record of {size} characters is over the limit of {MAX_RECORD_CHARS}",
            path=str(path),
            line=line,
        )


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
        _check_size(path, line, end - pos)
        _check_record(path, line, value)
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
        _check_size(path, number, len(raw))
        try:
            value = _loads(raw)
        except (ValueError, RecursionError) as exc:
            if tolerate_truncated_tail and number - 1 == last and not text.endswith("\n"):
                break  # a writer was killed mid-line; the complete lines stand
            raise _decode_error(path, exc, number, offset_line=number - 1) from None
        _check_record(path, number, value)
        records.append(_Record(number, value))
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
    message = first["msg"].removeprefix("Value error, ")
    return f"field '{where}': {message}{more}"


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


@dataclass
class LoadedRuns:
    """The runs read from a set of files, after repeated files and run ids were dropped."""

    trajectories: list[Trajectory]
    duplicates: int = 0
    """Runs dropped: a file given twice, or a run id seen before (in its file, or with the same
    content in another file)."""
    warnings: list[str] = field(default_factory=list)
    """One line per dropped file or run id group, as the CLI prints them."""


def _load_records(
    path: Path, fmt: str, otel_options: otel.OtelOptions | None = None
) -> list[tuple[Trajectory, bool]]:
    """Trajectories of one file, each with whether its run id came from the file itself."""
    whole = _whole_file_format(path, fmt)
    if whole is not None:
        trajs = FILE_READERS[whole](path, _read_text(path), otel_options)
        return [(traj, traj.run_id is not None) for traj in trajs]
    records = _parse(path)
    chosen = _detect(path, records) if fmt == "auto" else fmt
    return [
        (
            _to_trajectory(path, rec, i, chosen),
            isinstance(rec.value, dict) and rec.value.get("run_id") is not None,
        )
        for i, rec in enumerate(records)
    ]


def load_file(
    path: str | Path, fmt: str = "auto", otel_options: otel.OtelOptions | None = None
) -> list[Trajectory]:
    """The trajectories of one file in the given format, or the detected one with "auto".

    `otel_options` names the span attributes holding task and outcome in OTLP traces.
    """
    _check_format(fmt)
    return [traj for traj, _ in _load_records(Path(path), fmt, otel_options)]


def _content_key(traj: Trajectory) -> str:
    blob = json.dumps(traj.model_dump(mode="json"), sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def _drop_repeated_ids(
    path: Path, loaded: list[tuple[Trajectory, bool]], seen_content: set[tuple[str, ...]]
) -> tuple[list[Trajectory], int, list[str]]:
    """Drop a (task, run id) repeated in the file, or given by the file with content seen before.

    Run ids are unique within a task of one file; files from separate invocations reuse them
    (`t#r0`), so across files only a run with the same content is a repeat.
    """
    kept: list[Trajectory] = []
    in_file: set[tuple[str, str]] = set()
    repeated: dict[str, int] = {}
    for traj, own_id in loaded:
        if traj.run_id is None:
            kept.append(traj)
            continue
        rid = (traj.task_id, traj.run_id)
        key = (*rid, _content_key(traj)) if own_id else None
        if rid in in_file or (key is not None and key in seen_content):
            label = f"{traj.task_id}/{traj.run_id}"
            repeated[label] = repeated.get(label, 0) + 1
            continue
        in_file.add(rid)
        if key is not None:
            seen_content.add(key)
        kept.append(traj)
    notes = []
    if repeated:
        ids = ", ".join(sorted(repeated)[:5]) + (" ..." if len(repeated) > 5 else "")
        notes.append(
            f"{path}: {sum(repeated.values())} run(s) repeat a task's run id already read "
            f"({ids}); each run is counted once"
        )
    return kept, sum(repeated.values()), notes


def read_runs(
    paths: Iterable[str | Path], fmt: str = "auto", otel_options: otel.OtelOptions | None = None
) -> LoadedRuns:
    """The runs of every file, each counted once: a repeated file or run id is dropped and said.

    A file given twice (the same file, or one with the same bytes) is read once; a task's run id
    that repeats within a file, or that a file gives with the same content as a run already
    read, keeps its first run. Each drop adds a warning (also issued as an `InputWarning`).
    """
    _check_format(fmt)
    if isinstance(paths, str | Path):
        paths = [paths]
    files = list(_expand(paths))
    if not files:
        raise InputError("no input files given")
    result = LoadedRuns(trajectories=[])
    seen_files: dict[str, Path] = {}
    seen_content: set[tuple[str, ...]] = set()
    for path in files:
        digest = hashlib.sha256(_read_bytes(path)).hexdigest()
        if digest in seen_files:
            runs = len(_load_records(path, fmt, otel_options))
            result.duplicates += runs
            same = seen_files[digest]
            how = "given twice" if _same_file(same, path) else f"has the same content as {same}"
            result.warnings.append(f"{path}: {how}; its {runs} run(s) are counted once")
            continue
        seen_files[digest] = path
        kept, dropped, notes = _drop_repeated_ids(
            path, _load_records(path, fmt, otel_options), seen_content
        )
        result.trajectories.extend(kept)
        result.duplicates += dropped
        result.warnings.extend(notes)
    for note in result.warnings:
        warnings.warn(note, InputWarning, stacklevel=2)
    return result


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def load_trajectories(
    paths: Iterable[str | Path], fmt: str = "auto", otel_options: otel.OtelOptions | None = None
) -> list[Trajectory]:
    """The trajectories of every file (a directory means its .json/.jsonl files), in order.

    Repeated files and run ids are dropped with a warning, as `read_runs` does.
    """
    return read_runs(paths, fmt, otel_options).trajectories


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
    "MAX_DEPTH",
    "MAX_RECORD_CHARS",
    "READERS",
    "LoadedRuns",
    "detect_format",
    "example_path",
    "load_file",
    "read_runs",
    "load_trajectories",
    "read_jsonl_trajectories",
    "trajectory_line",
    "write_trajectories",
]
