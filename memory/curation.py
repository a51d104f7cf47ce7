"""What `oncourse memory ...` does to a store, with the models its `--json` prints.

Opening never creates a store: the verbs that read or curate one refuse a location with nothing
there (`learn`, `import` and `migrate` create stores).
"""

from __future__ import annotations

from pathlib import Path

from oncourse.consistency.errors import ConfigError
from oncourse.consistency.guidelines import GUIDELINE_STATUSES, Guideline, GuidelineStatus
from oncourse.memory.integrity import SalvageReport
from oncourse.memory.store import GuidelineMemory
from pydantic import BaseModel, Field


class StoredGuidelines(BaseModel):
    """`oncourse memory ls --json`: the store and its guidelines, oldest first."""

    memory: str = Field(description="The store as given (file path or URL).")
    count: int = Field(description="Guidelines listed.")
    guidelines: list[Guideline] = Field(description="The guidelines, oldest first.")


class RemovedGuideline(BaseModel):
    """`oncourse memory rm --json`: the id deleted."""

    removed: str = Field(description="Id of the guideline deleted for good.")


class GuidelineExport(BaseModel):
    """`oncourse memory export --json`: where the guidelines were written."""

    path: str = Field(description="The JSONL file written.")
    count: int = Field(description="Guidelines written.")


def open_store(
    location: str | Path, must_exist: bool = True, read_only: bool | None = None
) -> GuidelineMemory:
    """The store at a path or `postgresql://` URL; ConfigError if `must_exist` and there is none."""
    store = GuidelineMemory(location, read_only=read_only)
    if must_exist and not store.backend.exists():
        raise ConfigError(
            f"{store.backend.location}: no guideline store there (create one with `oncourse learn`)"
        )
    return store


def parse_statuses(text: str) -> list[GuidelineStatus] | None:
    """`all` (None: every status) or statuses separated by commas, each a known status."""
    if text == "all":
        return None
    chosen = [s.strip() for s in text.split(",") if s.strip()]
    unknown = [s for s in chosen if s not in GUIDELINE_STATUSES]
    if unknown:
        raise ConfigError(f"unknown status {unknown}; use all or {', '.join(GUIDELINE_STATUSES)}")
    return [status for status in GUIDELINE_STATUSES if status in chosen]


def list_guidelines(location: str, statuses: list[GuidelineStatus] | None) -> StoredGuidelines:
    """The guidelines of a store (optionally of some statuses), oldest first."""
    guidelines = open_store(location, read_only=True).all(statuses)
    return StoredGuidelines(memory=str(location), count=len(guidelines), guidelines=guidelines)


def remove_guideline(location: str, guideline_id: str) -> RemovedGuideline:
    """Delete a guideline for good (MemoryStoreError when there is none)."""
    open_store(location).remove(guideline_id)
    return RemovedGuideline(removed=guideline_id)


def export_guidelines(location: str, path: Path) -> GuidelineExport:
    """Write every guideline of a store as JSON lines."""
    count = open_store(location, read_only=True).export_jsonl(path)
    return GuidelineExport(path=str(path), count=count)


def salvage_into_new(source: Path, target: Path) -> SalvageReport:
    """Recover what a damaged store still holds into a new store (never over an existing one)."""
    from oncourse.memory.integrity import salvage

    if target.exists():
        raise ConfigError(f"{target}: already exists; salvage writes a new store")
    return salvage(source, target)


__all__ = [
    "GuidelineExport",
    "StoredGuidelines",
    "RemovedGuideline",
    "export_guidelines",
    "list_guidelines",
    "open_store",
    "parse_statuses",
    "remove_guideline",
    "salvage_into_new",
]
