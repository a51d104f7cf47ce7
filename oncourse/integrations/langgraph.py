"""Re-export of `oncourse.adapters.integrations.langgraph` (see there)."""

from oncourse.adapters.integrations.langgraph import *  # noqa: F403
from oncourse.adapters.integrations.langgraph import __all__ as __all__
