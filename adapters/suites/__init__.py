"""Task suites: the built-in `mini-apps` world and suites loaded from a directory."""

from oncourse.adapters.suites._tools import ToolCallError, World, call_tool, tool_spec
from oncourse.adapters.suites.apps import AppEnvironment, AppSuite
from oncourse.adapters.suites.base import EVAL_SPLITS, SPLITS, Environment, StepResult, Suite, Task
from oncourse.adapters.suites.loader import BUILTIN_SUITES, load_suite, load_suite_dir

__all__ = [
    "BUILTIN_SUITES",
    "EVAL_SPLITS",
    "SPLITS",
    "AppEnvironment",
    "AppSuite",
    "Environment",
    "StepResult",
    "Suite",
    "Task",
    "ToolCallError",
    "World",
    "call_tool",
    "load_suite",
    "load_suite_dir",
    "tool_spec",
]
