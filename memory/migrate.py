"""Copy a guideline store to another backend (SQLite file <-> PostgreSQL), rows as they are.

A migration is a copy, not an admission: each row keeps its id, status, provenance, counters,
quarantine reasons and stored vector (nothing is re-embedded, re-screened or merged), in the
source's order. The target must be empty or built with the same embedder; ids it already holds
are skipped, so a migration that was interrupted can simply be run again.
"""

from __future__ import annotations

import json
from pathlib import Path

from oncourse.consistency.errors import MemoryStoreError
from oncourse.memory.backend import open_backend
from pydantic import BaseModel, Field


class MigrateReport(BaseModel):
    """What `migrate` copied (the `--json` of `oncourse memory migrate`)."""

    source: str = Field(description="The store copied from (a URL without its password).")
    target: str = Field(description="The store copied to.")
    copied: int = Field(description="Guidelines written to the target.")
    skipped: int = Field(description="Guidelines whose id the target already held.")
    embedder: str | None = Field(description="The embedding space of the vectors copied.")


def migrate(source: str | Path, target: str | Path) -> MigrateReport:
    """Copy every guideline of `source` into `target` in one write transaction."""
    src = open_backend(source, read_only=True)
    dst = open_backend(target)
    try:
        if not src.exists():
            raise MemoryStoreError(f"{src.location}: no guideline store there")
        with src.read() as session:
            embedder = session.get_meta("embedder")
            tools = json.loads(session.get_meta("tools") or "[]")
            ids, vectors = session.vectors_above(0)
            records = session.records([int(i) for i in ids])
        copied = skipped = 0
        with dst.write() as out:
            present = out.get_meta("embedder")
            if embedder is not None and present is not None and present != embedder:
                raise MemoryStoreError(
                    f"{dst.location}: holds vectors of {present}, not {embedder}; "
                    "migrate into an empty store"
                )
            if embedder is not None and present is None:
                out.set_meta("embedder", embedder)
            for vec_id, vector in zip(ids, vectors, strict=True):
                guideline = records[int(vec_id)]
                if out.get(guideline.id) is not None:
                    skipped += 1
                    continue
                out.insert(guideline, vector)
                copied += 1
            known = set(json.loads(out.get_meta("tools") or "[]"))
            out.set_meta("tools", json.dumps(sorted(known | set(tools))))
        return MigrateReport(
            source=src.location,
            target=dst.location,
            copied=copied,
            skipped=skipped,
            embedder=embedder,
        )
    finally:
        src.close()
        dst.close()


__all__ = ["MigrateReport", "migrate"]
