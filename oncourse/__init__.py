"""oncourse: make AI agents consistent.

Run each task N times, find the step where the runs fork, learn a guideline from it, inject the
relevant guidelines on later tasks, and measure the all-N lift against a control.

The repository keeps its three layers at the top (`consistency/`, `memory/`, `adapters/`); they
install as `oncourse.consistency`, `oncourse.memory` and `oncourse.adapters`. This module
re-exports the public verbs. Names are resolved on first use, so `import oncourse` stays light
(no torch, no provider SDK) until a verb that needs them is called.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from oncourse.consistency._version import __version__

# public name -> (module, attribute)
_EXPORTS: dict[str, tuple[str, str]] = {
    # runs in, runs out
    "load_trajectories": ("oncourse.adapters.importers", "load_trajectories"),
    "load_runs": ("oncourse.adapters.importers", "load_trajectories"),
    "write_trajectories": ("oncourse.adapters.importers", "write_trajectories"),
    "Trajectory": ("oncourse.consistency.trajectory", "Trajectory"),
    "Step": ("oncourse.consistency.trajectory", "Step"),
    "record": ("oncourse.adapters.recorder", "record"),
    "RunRecorder": ("oncourse.adapters.recorder", "RunRecorder"),
    # measuring
    "reliability_report": ("oncourse.consistency.reliability", "reliability_report"),
    "pass_hat_k": ("oncourse.consistency.stats", "pass_hat_k"),
    "pass_at_k": ("oncourse.consistency.stats", "pass_at_k"),
    "wilson_interval": ("oncourse.consistency.stats", "wilson_interval"),
    # analysing and learning
    "analyze": ("oncourse.consistency.analyzer", "analyze_runs"),
    "analyze_runs": ("oncourse.consistency.analyzer", "analyze_runs"),
    "TaskAnalysis": ("oncourse.consistency.analyzer", "TaskAnalysis"),
    "Guideline": ("oncourse.consistency.guidelines", "Guideline"),
    "make_generator": ("oncourse.consistency.generators", "make_generator"),
    "learn": ("oncourse.adapters.learning", "learn"),
    # memory
    "GuidelineMemory": ("oncourse.memory.store", "GuidelineMemory"),
    "inject": ("oncourse.memory.inject", "inject"),
    "memory_hook": ("oncourse.memory.inject", "memory_hook"),
    "screen": ("oncourse.memory.screen", "screen"),
    # running and evaluating agents
    "get_model": ("oncourse.adapters.models", "get_model"),
    "run_agent": ("oncourse.adapters.agent", "run_agent"),
    "run_many": ("oncourse.adapters.runner", "run_many"),
    "evaluate": ("oncourse.adapters.evaluation", "run_eval"),
    "run_eval": ("oncourse.adapters.evaluation", "run_eval"),
    # errors
    "OncourseError": ("oncourse.consistency.errors", "OncourseError"),
    "InputError": ("oncourse.consistency.errors", "InputError"),
}

__all__ = [
    "__version__",
    "Guideline",
    "GuidelineMemory",
    "InputError",
    "OncourseError",
    "RunRecorder",
    "Step",
    "TaskAnalysis",
    "Trajectory",
    "analyze",
    "analyze_runs",
    "evaluate",
    "get_model",
    "inject",
    "learn",
    "load_runs",
    "load_trajectories",
    "make_generator",
    "memory_hook",
    "pass_at_k",
    "pass_hat_k",
    "record",
    "reliability_report",
    "run_agent",
    "run_eval",
    "run_many",
    "screen",
    "wilson_interval",
    "write_trajectories",
]


def __getattr__(name: str) -> Any:
    """Resolve a public name on first use (PEP 562)."""
    try:
        module, attribute = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module 'oncourse' has no attribute {name!r}") from None
    value = getattr(import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from oncourse.adapters.agent import run_agent
    from oncourse.adapters.evaluation import run_eval
    from oncourse.adapters.evaluation import run_eval as evaluate
    from oncourse.adapters.importers import load_trajectories, write_trajectories
    from oncourse.adapters.importers import load_trajectories as load_runs
    from oncourse.adapters.models import get_model
    from oncourse.adapters.recorder import RunRecorder, record
    from oncourse.consistency.analyzer import TaskAnalysis, analyze_runs
    from oncourse.consistency.analyzer import analyze_runs as analyze
    from oncourse.consistency.errors import InputError, OncourseError
    from oncourse.consistency.generators import make_generator
    from oncourse.consistency.guidelines import Guideline
    from oncourse.consistency.reliability import reliability_report
    from oncourse.consistency.stats import (
        pass_at_k,
        pass_hat_k,
        wilson_interval,
    )
    from oncourse.consistency.trajectory import Step, Trajectory
    from oncourse.memory.inject import inject, memory_hook
    from oncourse.memory.screen import screen
    from oncourse.memory.store import GuidelineMemory
