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
    """
    fields = ("name", "company")
    return [public(c) for c in world.state.get("contacts", []) if matches(query, c, fields)]


def get_my_profile(world: World) -> dict[str, Any]:
    """Show your own profile: your name, email address, home city and time zone.

    Args:
        world: The world the tool acts on.
    """
    return public(world.state.get("profile", {}))


TOOLS: list[ToolFunction] = [search_contacts, get_my_profile]
