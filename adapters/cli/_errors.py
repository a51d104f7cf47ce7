"""One line on stderr for what goes wrong: usage errors and warnings about the user's input."""

from __future__ import annotations

import contextlib
import sys
import warnings
from collections.abc import Iterator
from typing import Any

from oncourse.consistency.errors import InputWarning
from typer._click import exceptions as click_errors


def one_line(text: str) -> str:
    """`text` with every run of white space (newlines included) folded to one space."""
    return " ".join(str(text).split())


def usage_error_line(exc: click_errors.ClickException) -> str:
    """One line for a usage error: the command, what is wrong, where to look for help."""
    ctx = getattr(exc, "ctx", None)
    where = ctx.command_path if ctx is not None else "oncourse"
    hint = f" (see '{where} --help')" if ctx is not None else ""
    return f"oncourse: error: {one_line(exc.format_message())}{hint}"


_default_showwarning = warnings.showwarning


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    # Warnings about the user's input print as one line, without the source line that raised it.
    if issubclass(category, InputWarning):
        print(f"oncourse: warning: {one_line(str(message))}", file=sys.stderr)
    else:
        _default_showwarning(message, category, filename, lineno, file, line)


@contextlib.contextmanager
def input_warnings_as_lines() -> Iterator[None]:
    """While inside: every InputWarning is shown, each as one `oncourse: warning:` line."""
    warnings.showwarning = _show_warning
    warnings.simplefilter("always", InputWarning)
    try:
        yield
    finally:
        warnings.showwarning = _default_showwarning


__all__ = ["input_warnings_as_lines", "one_line", "usage_error_line"]
