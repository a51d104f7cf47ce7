"""Fit oncourse into the agent stacks people already run: MCP, OpenAI Agents SDK, LangGraph.

Each module imports its framework only when used; install the matching extra
(`pip install 'oncourse[mcp]'`, `'oncourse[agents]'`, `'oncourse[langgraph]'`). Also importable
as `oncourse.integrations.<module>`.
"""

__all__: list[str] = []
