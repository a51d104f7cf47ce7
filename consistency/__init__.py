"""Pure analysis of agent runs: the trajectory model, statistics, alignment, forks, guidelines.

No network and no disk beyond reading trajectories happens in this package.
"""

from oncourse.consistency._version import __version__
from oncourse.consistency.analyzer import (
    Branch,
    Divergence,
    Fork,
    ForkContext,
    ObservationAt,
    TaskAnalysis,
    analyze_runs,
)
from oncourse.consistency.canonical import CanonicalConfig
from oncourse.consistency.errors import (
    ConfigError,
    InputError,
    MemoryStoreError,
    ModelCallError,
    OncourseError,
    StatsError,
)
from oncourse.consistency.generators import (
    GENERATORS,
    ContrastiveGuidelineGenerator,
    LLMGuidelineGenerator,
    make_generator,
)
from oncourse.consistency.guidelines import (
    Guideline,
    GuidelineGenerator,
    GuidelineProvenance,
    GuidelineScope,
)
from oncourse.consistency.reliability import ReliabilityReport, reliability, reliability_report
from oncourse.consistency.stats import (
    bootstrap_mean_interval,
    group_by_task,
    pass_at_k,
    pass_hat_k,
    wilson_interval,
)
from oncourse.consistency.trajectory import (
    RESPOND_TOOL,
    SCHEMA_VERSION,
    Action,
    RunError,
    RunMeta,
    Step,
    Trajectory,
)

__all__ = [
    "Branch",
    "CanonicalConfig",
    "Divergence",
    "Fork",
    "ForkContext",
    "ObservationAt",
    "TaskAnalysis",
    "analyze_runs",
    "GENERATORS",
    "ContrastiveGuidelineGenerator",
    "Guideline",
    "GuidelineGenerator",
    "GuidelineProvenance",
    "GuidelineScope",
    "LLMGuidelineGenerator",
    "make_generator",
    "RESPOND_TOOL",
    "SCHEMA_VERSION",
    "Action",
    "ConfigError",
    "InputError",
    "MemoryStoreError",
    "ModelCallError",
    "OncourseError",
    "RunError",
    "RunMeta",
    "StatsError",
    "Step",
    "Trajectory",
    "__version__",
    "bootstrap_mean_interval",
    "group_by_task",
    "pass_at_k",
    "pass_hat_k",
    "ReliabilityReport",
    "reliability",
    "reliability_report",
    "wilson_interval",
]
