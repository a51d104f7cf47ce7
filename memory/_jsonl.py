"""Guidelines as JSON lines: the store's export and import format (one `Guideline` per line).

Lines are split on the line feed only: a guideline's text may hold U+2028, U+0085 or other
characters that `str.splitlines` treats as line breaks (JSON escapes only the line feed).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from oncourse.consistency.errors import InputError
from oncourse.consistency.guidelines import Guideline
from pydantic import ValidationError


def write_guidelines(path: str | Path, guidelines: Iterable[Guideline]) -> int:
    """Write guidelines as JSON lines atomically (temp file + rename); returns the count."""
    target = Path(path)
    if target.is_dir():
        raise InputError("is a folder, not a file to write", path=str(target))
    count = 0
    try:
        fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise InputError(f"cannot write here: {exc.strerror}", path=str(target)) from exc
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            for guideline in guidelines:
                handle.write(guideline.model_dump_json() + "\n")
                count += 1
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise InputError(f"cannot write: {exc.strerror or exc}", path=str(target)) from exc
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return count


def _decode(data: bytes, source: Path) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError("is UTF-16; save it as UTF-8", path=str(source))
    if data.startswith(b"\x1f\x8b"):
        raise InputError("is gzip-compressed; decompress it first", path=str(source))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError("not UTF-8 text", path=str(source), line=line) from exc


def read_guidelines(path: str | Path) -> list[Guideline]:
    """Read guidelines from JSON lines (as written, statuses unchanged).

    Raises InputError naming the file and line of the first line that is not a guideline, and
    for a file with no guideline at all.
    """
    source = Path(path)
    try:
        data = source.read_bytes()
    except IsADirectoryError as exc:
        raise InputError("is a folder, not a JSONL file", path=str(source)) from exc
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path=str(source)) from exc
    out: list[Guideline] = []
    for number, line in enumerate(_decode(data, source).split("\n"), start=1):
        if not line.strip():
            continue
        try:
            out.append(Guideline.model_validate(json.loads(line)))
        except (json.JSONDecodeError, ValidationError, RecursionError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise InputError(f"not a guideline: {reason}", path=str(source), line=number) from exc
    if not out:
        raise InputError("no guidelines in the file (it is empty)", path=str(source))
    return out
