"""Calendar app: creating events with one invited attendee."""

from __future__ import annotations

import re
from typing import Any

from oncourse.adapters.suites._tools import ToolCallError, ToolFunction, World

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TIME = re.compile(r"^\d{2}:\d{2}$")


def create_event(
    world: World, title: str, date: str, start_time: str, timezone: str, attendee_email: str
) -> dict[str, Any]:
    """Create a calendar event at a date and time in a time zone, inviting one attendee.

    Args:
        world: The world the tool acts on.
        title: Title of the event.
        date: Day of the event, YYYY-MM-DD.
        start_time: Start time, HH:MM on a 24-hour clock, in the event's time zone.
        timezone: IANA time zone the start time is expressed in, e.g. Europe/Berlin.
        attendee_email: Email address of the person invited.
    """
    if not _DATE.match(date):
        raise ToolCallError(f"date must be YYYY-MM-DD, got {date!r}")
    if not _TIME.match(start_time):
        raise ToolCallError(f"start_time must be HH:MM, got {start_time!r}")
    if "/" not in timezone and timezone.upper() != "UTC":
        raise ToolCallError(f"not an IANA time zone: {timezone!r}")
    world.record(
        "event",
        title=title,
        date=date,
        start_time=start_time,
        timezone=timezone,
        attendee_email=attendee_email.strip().lower(),
    )
    return {"status": "created", "event_id": f"evt-{len(world.log)}"}


TOOLS: list[ToolFunction] = [create_event]
