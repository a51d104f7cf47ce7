"""Files app: searching documents and sharing them by email address."""

from __future__ import annotations

from typing import Any

from oncourse.adapters.suites._tools import ToolCallError, ToolFunction, World
from oncourse.adapters.suites.mini_apps._search import matches, public


def search_files(world: World, query: str) -> list[dict[str, Any]]:
    """Search your documents by words in the file name.

    Args:
        world: The world the tool acts on.
        query: Words of the file name, e.g. a topic such as "budget report".

    Returns:
        The matching files. file_id: the file's identifier; name: the file name, ending in
        final (a finished, approved version) or in draft (a working copy still being edited);
        modified: the date it was last changed; owner: who owns it.
    """
    files = world.state.get("files", [])
    return [public(f) for f in files if matches(query, f, ("name", "folder"))]


def share_file(world: World, file_id: str, email: str) -> dict[str, Any]:
    """Share a document with a person, identified by their email address.

    Args:
        world: The world the tool acts on.
        file_id: The file_id of the document to share.
        email: Email address of the person to share it with.
    """
    if not any(f.get("file_id") == file_id for f in world.state.get("files", [])):
        raise ToolCallError(f"no file with file_id {file_id!r}")
    world.record("share", file_id=file_id, email=email.strip().lower())
    return {"status": "shared", "file_id": file_id, "email": email.strip().lower()}


TOOLS: list[ToolFunction] = [search_files, share_file]
