"""Flag checks that run while the command line is parsed, before any work or progress line.

Each is a typer `callback=`: it returns the value or raises `typer.BadParameter`, which the entry
point prints as one line with exit code 2.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import typer

N = TypeVar("N", int, float)
P = TypeVar("P", Path, str, Path | None, str | None)


def number_in(
    low: float | None = None,
    high: float | None = None,
    *,
    low_open: bool = False,
    high_open: bool = False,
) -> Callable[[N | None], N | None]:
    """A callback that accepts only a finite number in the range (open ends where asked)."""
    left = "(" if low_open else "["
    right = ")" if high_open else "]"
    lo = "-inf" if low is None else f"{low:g}"
    hi = "inf" if high is None else f"{high:g}"
    span = f"{left}{lo}, {hi}{right}"

    def check(value: N | None) -> N | None:
        if value is None:
            return value
        if isinstance(value, float) and not math.isfinite(value):
            raise typer.BadParameter(f"{value} is not a finite number")
        below = low is not None and (value <= low if low_open else value < low)
        above = high is not None and (value >= high if high_open else value > high)
        if below or above:
            raise typer.BadParameter(f"{value:g} is not in {span}")
        return value

    return check


def one_of(*choices: str) -> Callable[[str], str]:
    """A callback that accepts only one of `choices`."""

    def check(value: str) -> str:
        if value not in choices:
            raise typer.BadParameter(f"must be one of {', '.join(choices)}, got {value!r}")
        return value

    return check


def _nearest_existing(path: Path) -> Path:
    current = path.absolute()
    while not current.exists() and current != current.parent:
        current = current.parent
    return current


def _can_create_in(folder: Path) -> bool:
    # os.access says yes to root everywhere (even /proc); creating a file is the real test.
    if not os.access(folder, os.W_OK | os.X_OK):
        return False
    try:
        handle, name = tempfile.mkstemp(dir=folder, prefix=".oncourse-probe-")
    except OSError:
        return False
    os.close(handle)
    os.unlink(name)
    return True


def writable_file(value: P) -> P:
    """A callback for an output file: not a directory, and creatable or writable by this user.

    A URL (`postgresql://...`) is not a file and passes through unchecked.
    """
    if value is None or "://" in str(value):
        return value
    path = Path(value)
    if path.is_dir():
        raise typer.BadParameter(f"{path} is a directory; give a file path")
    if path.exists():
        if not os.access(path, os.W_OK):
            raise typer.BadParameter(f"{path} is not writable")
        return value
    ancestor = _nearest_existing(path.parent)
    if not ancestor.is_dir():
        raise typer.BadParameter(f"{path}: {ancestor} is not a directory")
    if not _can_create_in(ancestor):
        raise typer.BadParameter(f"{path}: cannot create files under {ancestor}")
    return value


def writable_dir(value: P) -> P:
    """A callback for an output folder: a directory (or creatable as one) this user may write."""
    if value is None:
        return value
    path = Path(value)
    if path.exists():
        if not path.is_dir():
            raise typer.BadParameter(f"{path} is not a directory")
        if not _can_create_in(path):
            raise typer.BadParameter(f"{path} is not writable")
        return value
    ancestor = _nearest_existing(path)
    if not ancestor.is_dir():
        raise typer.BadParameter(f"{path}: {ancestor} is not a directory")
    if not _can_create_in(ancestor):
        raise typer.BadParameter(f"{path}: cannot create a folder under {ancestor}")
    return value


__all__ = ["number_in", "one_of", "writable_dir", "writable_file"]
