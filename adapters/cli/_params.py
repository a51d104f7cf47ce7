"""Flag checks that run while the command line is parsed, before any work or progress line.

Each is a typer `callback=`: it returns the value or raises `typer.BadParameter`, which the entry
point prints as one line with exit code 2.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeVar

import typer
from oncourse.adapters.cli._paths import writable_dir, writable_file

N = TypeVar("N", int, float)


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


__all__ = ["number_in", "one_of", "writable_dir", "writable_file"]
