"""Email app: sending messages."""

from __future__ import annotations

import re
from typing import Any

from oncourse.adapters.suites._tools import ToolCallError, ToolFunction, World

_ADDRESS = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", re.IGNORECASE)


def send_email(world: World, to: str, subject: str, body: str) -> dict[str, Any]:
    """Send an email message to one recipient email address.

    Args:
        world: The world the tool acts on.
        to: The recipient's email address.
        subject: Subject line of the email.
        body: Text of the email.
    """
    if not _ADDRESS.match(to.strip()):
        raise ToolCallError(f"not an email address: {to!r}")
    entry = world.record("email", to=to.strip().lower(), subject=subject, body=body)
    return {"status": "sent", "message_id": f"msg-{len(world.log)}", "to": entry["to"]}


TOOLS: list[ToolFunction] = [send_email]
