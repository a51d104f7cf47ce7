"""Hooks into the agent stacks people already run (code in `oncourse.adapters.integrations`).

    from oncourse.integrations.openai_agents import guideline_instructions, TrajectoryHooks
    from oncourse.integrations.langgraph import guideline_prompt, TrajectoryCallback
    from oncourse.integrations.mcp_server import build_server

Each module imports its framework only when used (extras: `oncourse[agents]`,
`oncourse[langgraph]`, `oncourse[mcp]`).
"""

__all__: list[str] = []
