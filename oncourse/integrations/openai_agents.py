"""Re-export of `oncourse.adapters.integrations.openai_agents` (see there)."""

from oncourse.adapters.integrations.openai_agents import *  # noqa: F403
from oncourse.adapters.integrations.openai_agents import __all__ as __all__
