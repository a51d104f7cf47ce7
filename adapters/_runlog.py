"""The runner's append-only results file: one finished run per JSONL line, flushed at once.

A run killed mid-write leaves at most one torn last line (no trailing newline). Reading for a
resume drops that line with a warning and truncates the file back to the last complete line;
a complete line that is not a valid trajectory is bad input and is reported with its line number.
"""

from __future__ import annotations

import json
import re
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from oncourse.adapters.importers import MAX_DEPTH, MAX_RECORD_CHARS, _too_deep
from oncourse.consistency.errors import ConfigError, InputError
from oncourse.consistency.trajectory import Trajectory
from pydantic import ValidationError

try:  # POSIX advisory lock: two runners must not append to one file
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


def read_run_log(path: Path, *, repair: bool) -> list[Trajectory]:
    """The complete runs in a results file, in file order.

    Args:
        path: The JSONL file; a missing file holds no runs.
        repair: Truncate a torn last line away (the caller is about to append).
    """
    if not path.exists():
        return []
    data = path.read_bytes()
    good_end = data.rfind(b"\n") + 1
    if good_end < len(data):
        torn = len(data) - good_end
        print(
            f"oncourse: warning: {path}: dropping a torn last line ({torn} bytes) "
            "left by an interrupted run",
            file=sys.stderr,
        )
        if repair:
            with path.open("r+b") as handle:
                handle.truncate(good_end)
    runs: list[Trajectory] = []
    for number, raw in enumerate(data[:good_end].split(b"\n")[:-1], start=1):
        if not raw.strip():
            continue
        if len(raw) > MAX_RECORD_CHARS:
            raise InputError(
                f"line of {len(raw)} bytes is over the limit of {MAX_RECORD_CHARS}",
                path=str(path),
                line=number,
            )
        try:
            value = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
            raise InputError(f"not valid JSON ({exc})", path=str(path), line=number) from None
        if _too_deep(value):
            raise InputError(
                f"record nested more than {MAX_DEPTH} levels deep", path=str(path), line=number
            )
        try:
            runs.append(Trajectory.model_validate(value))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "record"
            message = first["msg"].removeprefix("Value error, ")
            raise InputError(f"{where}: {message}", path=str(path), line=number) from None
    return runs


class RunLog:
    """Appends trajectories to a JSONL file from many threads, one whole line per write."""

    def __init__(self, path: Path):
        self.path = path
        self._lock = threading.Lock()
        self._handle: IO[bytes] | None = None

    def __enter__(self) -> RunLog:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("ab")
        if fcntl is not None:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.close()
                raise InputError(
                    "another oncourse run is writing this file", path=str(self.path)
                ) from None
        self._handle = handle
        return self

    def __exit__(self, *exc: Any) -> None:
        with self._lock:
            if self._handle is not None:
                self._handle.close()  # closing releases the lock
                self._handle = None

    def append(self, trajectory: Trajectory) -> None:
        """Write one run as one line and flush it to the OS before returning."""
        line = (trajectory.model_dump_json(exclude_none=False) + "\n").encode("utf-8")
        with self._lock:
            if self._handle is None:
                raise RuntimeError(f"{self.path} is not open for appending")
            self._handle.write(line)
            # A flushed line survives a kill of this process; that is what resume relies on.
            self._handle.flush()


def default_out_path(suite: str, split: str, model: str, n: int, root: Path = Path("runs")) -> Path:
    """A new results file under `root` named after the suite, split, model, N and the time."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    raw = f"{Path(suite).name}-{split}-{model}-n{n}-{stamp}"
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", raw)
    path = root / f"{name}.jsonl"
    counter = 1
    while path.exists():
        counter += 1
        path = root / f"{name}-{counter}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def default_evolve_dir(memory: str) -> Path:
    """`<store>-evolve` beside a store file; a server store has no folder to put it in."""
    if "://" in memory:
        raise ConfigError("--out is needed with a postgresql:// memory: where runs and state go")
    path = Path(memory)
    return path.parent / f"{path.stem}-evolve"


def complete_lines(path: Path) -> int:
    """Newline-terminated lines in a results file (0 when it does not exist)."""
    if not path.exists():
        return 0
    with path.open("rb") as handle:
        return sum(1 for line in handle if line.endswith(b"\n"))
