"""Output path checks that run while the command line is parsed (typer `callback=`s).

Each returns the value or raises `typer.BadParameter`, which the entry point prints as one line
with exit code 2, before any work starts.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TypeVar

import typer

P = TypeVar("P", Path, str, Path | None, str | None)


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


__all__ = ["writable_dir", "writable_file"]
