"""Terminal output for the CLI: data is printed literally, never interpreted as rich markup.

Task ids, tool names, guideline texts and file names come from users' files. Rich reads `[...]`
as markup (`refund[/]x` crashes the renderer, `[link=...]` becomes a hyperlink) and `:name:` as
an emoji, so every such string goes through `esc` and every console is made here without emoji
codes or highlighting.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape


def esc(value: Any) -> str:
    """`value` as text that rich prints literally (markup such as `[red]` or `[/]` escaped)."""
    return escape(str(value))


def out_console(**kwargs: Any) -> Console:
    """A console on stdout for results: no emoji codes, no highlighting, soft wrap."""
    return Console(**{"soft_wrap": True, "highlight": False, "emoji": False, **kwargs})


def err_console(**kwargs: Any) -> Console:
    """A console on stderr for progress, warnings and notes."""
    return Console(**{"stderr": True, "highlight": False, "emoji": False, **kwargs})


__all__ = ["err_console", "esc", "out_console"]
