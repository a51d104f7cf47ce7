"""Task suites: the built-in `mini-apps` world and suites loaded from a directory."""

from adapters.suites.base import SPLITS, Environment, StepResult, Suite, Task

__all__ = ["SPLITS", "Environment", "StepResult", "Suite", "Task"]
