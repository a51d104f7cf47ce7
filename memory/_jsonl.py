"""Guidelines as JSON lines: the store's export and import format (one `Guideline` per line)."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from oncourse.consistency.errors import InputError
from oncourse.consistency.guidelines import Guideline
from oncourse.memory.screen import screen
from pydantic import ValidationError


def write_guidelines(path: str | Path, guidelines: Iterable[Guideline]) -> int:
    """Write guidelines as JSON lines atomically (temp file + rename); returns the count."""
    target = Path(path)
    count = 0
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            for guideline in guidelines:
                handle.write(guideline.model_dump_json() + "\n")
                count += 1
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return count


def read_guidelines(
    path: str | Path, allowed_tools: Iterable[str] | None = None
) -> list[Guideline]:
    """Read guidelines from JSON lines; an active one failing the safety screen is quarantined.

    Raises InputError naming the file and line of the first line that is not a guideline.
    """
    source = Path(path)
    try:
        lines = source.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path=str(source)) from exc
    tools = None if allowed_tools is None else list(allowed_tools)
    out: list[Guideline] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            guideline = Guideline.model_validate(json.loads(line))
        except (json.JSONDecodeError, ValidationError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise InputError(f"not a guideline: {reason}", path=str(source), line=number) from exc
        if guideline.status == "active":
            verdict = screen(guideline, tools)
            if not verdict.ok:
                guideline = guideline.model_copy(
                    update={"status": "quarantined", "quarantine_reasons": verdict.reasons}
                )
        out.append(guideline)
    return out
