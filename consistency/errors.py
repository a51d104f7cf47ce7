"""The project's own exceptions; the CLI turns each into one line on stderr and exit code 2."""

from __future__ import annotations


class OncourseError(Exception):
    """Base class of every error oncourse raises on purpose."""


class InputError(OncourseError):
    """Bad input: a file, a line or a value that cannot be used.

    The message names the file and line where they are known, so the CLI can print it as is.
    """

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
        self.path = path
        self.line = line
        self.reason = message
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        super().__init__(f"{where}{message}")


class ConfigError(OncourseError):
    """A setting is missing or invalid (an API key, a model string, a flag value)."""


class StatsError(OncourseError, ValueError):
    """A statistic was asked for on meaningless input (k <= 0, an empty task set, ...)."""


class MemoryStoreError(OncourseError):
    """The guideline store cannot be opened, read or written."""


class RunsLostError(OncourseError):
    """Runs were lost with their worker or node (not failed by the model); resume to redo them."""


class ModelCallError(OncourseError):
    """A model call failed for good (after the SDK's own retries); ends the run, not the eval."""

    def __init__(self, kind: str, message: str):
        self.kind = kind
        super().__init__(f"{kind}: {message}")


class InputWarning(UserWarning):
    """Usable but suspect input (a file given twice, a repeated run id); printed as one line."""
