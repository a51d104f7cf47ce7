"""Store integrity: `check` (engine check, every row readable, cache verified) and `salvage`.

`salvage` recovers every readable guideline of a damaged SQLite store into a new store: first
through SQLite on a copy of the file (range by range, halving a range that fails), then, when
SQLite could not read everything, straight from the pages that survive (`memory/_recover.py`).
The stored vectors come along, so nothing is re-embedded.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
from oncourse.consistency.errors import MemoryStoreError
from oncourse.consistency.guidelines import Guideline
from oncourse.memory._index import CacheState
from oncourse.memory.backend import StorageBackend, open_backend
from oncourse.memory.store import GuidelineMemory
from pydantic import BaseModel, Field, ValidationError

Row = tuple[int, Any, Any, Any, Any]
"""(vec_id, id, status, record, vector) as read from the guidelines table."""


class IntegrityReport(BaseModel):
    """What `oncourse memory check` found."""

    store: str = Field(description="The store checked.")
    ok: bool = Field(description="True when the engine check passed and every row is readable.")
    read_only: bool = Field(description="The store was opened read-only (nothing repaired).")
    rows: int = Field(description="Rows in the store.")
    statuses: dict[str, int] = Field(description="Rows per status.")
    unreadable_rows: list[int] = Field(description="vec_ids whose record or vector is damaged.")
    engine: list[str] = Field(description="What the storage engine's own check reported.")
    cache: CacheState = Field(description="The faiss cache as found.")
    cache_rebuilt: bool = Field(description="The cache file was rewritten from the rows.")
    problems: list[str] = Field(description="One line per problem found.")


class SalvageReport(BaseModel):
    """What `oncourse memory salvage` recovered."""

    source: str = Field(description="The damaged store.")
    target: str = Field(description="The new store written.")
    recovered: int = Field(description="Guidelines written to the target.")
    statuses: dict[str, int] = Field(description="Recovered guidelines per status.")
    unreadable: int = Field(description="Rows found whose record or vector was damaged.")
    method: str = Field(description="`sqlite`, or `sqlite+pages` when pages were read directly.")
    problems: list[str] = Field(description="What SQLite could not read.")


def _vector(blob: Any, dim: int | None) -> np.ndarray | None:
    if not isinstance(blob, bytes) or not blob or len(blob) % 4:
        return None
    vector = np.frombuffer(blob, dtype=np.float32)
    if (dim is not None and len(vector) != dim) or not np.isfinite(vector).all():
        return None
    norm = float(np.linalg.norm(vector))
    return vector if abs(norm - 1.0) < 1e-3 else None


def _guideline(record: Any) -> Guideline | None:
    try:
        return Guideline.model_validate_json(record) if isinstance(record, str) else None
    except ValidationError:
        return None


def _dim(embedder: str | None) -> int | None:
    if embedder and "/" in embedder and embedder.rsplit("/", 1)[1].isdigit():
        return int(embedder.rsplit("/", 1)[1])
    return None


def check(memory: GuidelineMemory, repair: bool = True) -> IntegrityReport:
    """Check a store: the engine's check, every row decodes, the cache fits; rebuild a bad cache."""
    if not memory.backend.exists():
        raise MemoryStoreError(f"{memory.backend.location}: no guideline store there")
    problems: list[str] = []
    engine = memory.backend.integrity()
    problems += [f"storage engine: {line}" for line in engine]
    unreadable: list[int] = []
    statuses: Counter[str] = Counter()
    rows = 0
    try:
        with memory._read() as session:
            dim = _dim(session.get_meta("embedder"))
            ids, vectors = session.vectors_above(0)
            rows = len(ids)
            for vec_id, vector in zip(ids, vectors, strict=True):
                if _vector(vector.tobytes(), dim) is None:
                    unreadable.append(int(vec_id))
            for start in range(0, len(ids), 200):
                part = [int(v) for v in ids[start : start + 200]]
                for vec_id, status in session.statuses(part).items():
                    statuses[status] += 1
                    try:
                        session.records([vec_id])
                    except (ValidationError, ValueError):
                        unreadable.append(vec_id)
            cache = memory._cache.verify(session, memory._fingerprint(session))
    except (MemoryStoreError, sqlite3.Error, ValueError) as exc:
        problems.append(f"rows: {exc}")
        cache = CacheState(present=False, valid=False, reason="rows unreadable")
    if unreadable:
        problems.append(f"{len(unreadable)} row(s) with a damaged record or vector")
    rebuilt = False
    if repair and not problems and not memory.read_only and not cache.valid and rows:
        memory.save_index()
        rebuilt = True
    elif not cache.valid and cache.present:
        problems.append(f"cache: {cache.reason}")
    return IntegrityReport(
        store=memory.backend.location,
        ok=not problems,
        read_only=memory.read_only,
        rows=rows,
        statuses=dict(statuses),
        unreadable_rows=sorted(set(unreadable)),
        engine=engine,
        cache=cache,
        cache_rebuilt=rebuilt,
        problems=problems,
    )


def _sql_rows(path: Path) -> tuple[dict[int, Row], str | None, list[str]]:
    """Rows SQLite can still read from a copy of the store, its embedder, and what failed."""
    rows: dict[int, Row] = {}
    problems: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "store.db"
        shutil.copyfile(path, copy)
        wal = path.with_name(path.name + "-wal")
        if wal.exists():
            shutil.copyfile(wal, copy.with_name("store.db-wal"))
        conn = sqlite3.connect(copy)
        try:
            embedder = _sql_meta(conn, "embedder")
            top = _sql_top(conn)
            if top is None:
                return rows, embedder, ["the table's last row cannot be found"]
            _read_range(conn, 1, top, rows, problems)
            return rows, embedder, problems
        except sqlite3.DatabaseError as exc:
            return rows, None, [str(exc)]
        finally:
            conn.close()


def _sql_meta(conn: sqlite3.Connection, key: str) -> str | None:
    try:
        row = conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])
    except sqlite3.DatabaseError:
        return None


def _sql_top(conn: sqlite3.Connection) -> int | None:
    for query in (
        "SELECT MAX(vec_id) FROM guidelines",
        "SELECT seq FROM sqlite_sequence WHERE name='guidelines'",
    ):
        try:
            row = conn.execute(query).fetchone()
            if row is not None and row[0] is not None:
                return int(row[0])
        except sqlite3.DatabaseError:
            continue
    return None


def _read_range(
    conn: sqlite3.Connection, low: int, high: int, rows: dict[int, Row], problems: list[str]
) -> None:
    query = "SELECT vec_id, id, status, record, vector FROM guidelines WHERE vec_id BETWEEN ? AND ?"
    try:
        for row in conn.execute(query, (low, high)):
            rows[int(row[0])] = row
    except sqlite3.DatabaseError as exc:
        if low >= high:
            if len(problems) < 20:
                problems.append(f"row {low}: {exc}")
            return
        middle = (low + high) // 2
        _read_range(conn, low, middle, rows, problems)
        _read_range(conn, middle + 1, high, rows, problems)


def _page_rows(path: Path) -> tuple[dict[int, Row], str | None]:
    from oncourse.memory._recover import scan_rows

    rows: dict[int, Row] = {}
    embedder = None
    try:
        for rowid, values in scan_rows(path):
            if len(values) == 5 and isinstance(values[3], str):
                rows[rowid] = (rowid, values[1], values[2], values[3], values[4])
            elif len(values) == 2 and values[0] == "embedder" and isinstance(values[1], str):
                embedder = values[1]
    except (OSError, ValueError):
        pass
    return rows, embedder


def salvage(source: str | Path, target: str | Path) -> SalvageReport:
    """Copy every readable guideline (with its vector) of a damaged store into a new store."""
    src = Path(source)
    if not src.is_file():
        raise MemoryStoreError(f"{src}: no store file there")
    rows, embedder, problems = _sql_rows(src)
    method = "sqlite"
    if problems or not rows:
        method = "sqlite+pages"
        found, page_embedder = _page_rows(src)
        embedder = embedder or page_embedder
        for vec_id, row in found.items():
            rows.setdefault(vec_id, row)
    dim = _dim(embedder)
    good: list[tuple[Guideline, np.ndarray]] = []
    seen: set[str] = set()
    unreadable = 0
    for vec_id in sorted(rows):
        _, _, _, record, blob = rows[vec_id]
        guideline, vector = _guideline(record), _vector(blob, dim)
        if guideline is None or vector is None or guideline.id in seen:
            unreadable += guideline is None or vector is None
            continue
        dim = dim or len(vector)
        seen.add(guideline.id)
        good.append((guideline, vector))
    backend = open_backend(target, read_only=False)
    try:
        _fill_empty(backend, good, embedder)
    finally:
        backend.close()
    return SalvageReport(
        source=str(src),
        target=backend.location,
        recovered=len(good),
        statuses=dict(Counter(g.status for g, _ in good)),
        unreadable=unreadable,
        method=method,
        problems=problems,
    )


def copy_store(source: StorageBackend, target: StorageBackend, chunk: int = 1000) -> int:
    """Copy every row (ids, statuses, provenance, counters, vectors) into an empty store.

    The backends may differ (SQLite to a server and back); the target assigns its own vec_ids,
    in the source's order. Returns the number of rows copied.
    """
    with source.read() as reading:
        embedder = reading.get_meta("embedder")
        ids, vectors = reading.vectors_above(0)
        rows = []
        for start in range(0, len(ids), chunk):
            part = [int(v) for v in ids[start : start + chunk]]
            records = reading.records(part)
            rows += [(records[v], vectors[start + i]) for i, v in enumerate(part) if v in records]
    _fill_empty(target, rows, embedder)
    return len(rows)


def _fill_empty(
    target: StorageBackend, rows: list[tuple[Guideline, np.ndarray]], embedder: str | None
) -> None:
    """Insert the rows into a store that must be empty, in one transaction."""
    with target.write() as session:
        if session.count():
            raise MemoryStoreError(f"{target.location}: target store is not empty")
        if embedder:
            session.set_meta("embedder", embedder)
        for guideline, vector in rows:
            session.insert(guideline, vector)


__all__ = ["IntegrityReport", "SalvageReport", "check", "copy_store", "salvage"]
