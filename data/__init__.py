"""Built-in suites shipped with oncourse; installed as the package `oncourse.data`."""

from pathlib import Path


def data_dir() -> Path:
    """The folder holding the built-in suites and examples."""
    return Path(__file__).resolve().parent
