"""Contacts app: the address book and the user's own profile."""

from __future__ import annotations

from typing import Any

from oncourse.adapters.suites._tools import ToolFunction, World
from oncourse.adapters.suites.mini_apps._search import matches, public


def search_contacts(world: World, query: str) -> list[dict[str, Any]]:
    """Search the address book for contacts by name or company.

    Args:
        world: The world the tool acts on.
        query: Words of the contact's name or company, e.g. a person's full name.

    Returns:
        The matching contacts. contact_id: the contact's identifier; name: the person's full
        name; company: the organisation the person works for; work_email: their office
        address, the business email at the company they work for; personal_email: their
        private home address, for personal mail outside work;
        city: where the person lives; timezone: the time zone of the place the person lives.
    """
    fields = ("name", "company")
    return [public(c) for c in world.state.get("contacts", []) if matches(query, c, fields)]


def get_my_profile(world: World) -> dict[str, Any]:
    """Show your own profile: your name, email address, home city and time zone.

    Args:
        world: The world the tool acts on.

    Returns:
        Your own profile. name: your name; email: your own address; city: where you live;
        timezone: your own time zone, the one you are in.
    """
    return public(world.state.get("profile", {}))


TOOLS: list[ToolFunction] = [search_contacts, get_my_profile]
