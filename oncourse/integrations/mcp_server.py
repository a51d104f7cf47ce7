"""Re-export of `oncourse.adapters.integrations.mcp_server` (see there)."""

from oncourse.adapters.integrations.mcp_server import *  # noqa: F403
from oncourse.adapters.integrations.mcp_server import __all__ as __all__
