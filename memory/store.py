"""The episodic guideline memory: durable records, a faiss index, dedupe, retrieval by meaning.

Storage choice: one SQLite file in WAL mode. Every write (add, merge, status change, counter
bump) is one transaction, so a writer killed mid-add (even by SIGKILL) loses only its own
uncommitted guideline and the file reopens cleanly; updating one record does not rewrite the
others (a JSONL store would have to rewrite the whole file to retire one guideline); readers see
a consistent snapshot while a writer works; and it is in the standard library. The embedding of
each guideline is stored in its row, so the faiss index (`<path>.faiss`) is a cache: it is
rebuilt from the rows whenever it is missing, unreadable, or does not match the store's
fingerprint, and caught up incrementally with rows added by other processes. A file lock
(`<path>.lock`) serializes writers across processes, so dedupe sees every committed guideline and
two concurrent writers never lose each other's work.
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from oncourse.consistency.errors import MemoryStoreError
from oncourse.consistency.guidelines import GUIDELINE_STATUSES, Guideline, GuidelineStatus
from oncourse.consistency.text import TextEmbedder
from oncourse.memory._index import IndexCache, VectorIndex
from oncourse.memory._jsonl import read_guidelines, write_guidelines
from oncourse.memory.screen import screen
from pydantic import BaseModel, Field, ValidationError

SCHEMA_VERSION = "1"
_MERGEABLE = ("proposed", "active")
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS guidelines (
    vec_id INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    record TEXT NOT NULL,
    vector BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS guidelines_status ON guidelines(status);
"""


class SearchHit(BaseModel):
    """One retrieved guideline and its cosine similarity to the query."""

    guideline: Guideline = Field(description="The stored guideline.")
    similarity: float = Field(description="Cosine similarity to the query, in [-1, 1].")


class ImportReport(BaseModel):
    """What an import did."""

    added: int = Field(default=0, description="New guidelines stored.")
    merged: int = Field(default=0, description="Lines merged into an existing near-duplicate.")
    skipped: int = Field(default=0, description="Lines whose id was already in the store.")


def _embedder_name(embedder: Any) -> str:
    return str(getattr(embedder, "name", type(embedder).__name__))


class GuidelineMemory:
    """Guidelines on disk with retrieval by embedding similarity.

    Args:
        path: the SQLite file; the index `<path>.faiss` and the lock `<path>.lock` live beside it.
        embedder: any `TextEmbedder`; defaults to the packaged all-MiniLM-L6-v2 (loaded lazily).
        dedupe_threshold: cosine at or above which an added guideline merges into an existing one.
        hnsw_threshold: above this many vectors the index is HNSW instead of exact flat search.
        lock_timeout: seconds to wait for another process's write before giving up.

    Nothing is opened until the first operation.
    """

    def __init__(
        self,
        path: str | Path,
        embedder: TextEmbedder | None = None,
        dedupe_threshold: float = 0.9,
        hnsw_threshold: int = 20_000,
        lock_timeout: float = 60.0,
    ):
        self.path = Path(path)
        self.index_path = self.path.with_name(self.path.name + ".faiss")
        self.lock_path = self.path.with_name(self.path.name + ".lock")
        self.dedupe_threshold = dedupe_threshold
        self.hnsw_threshold = hnsw_threshold
        self.lock_timeout = lock_timeout
        self._embedder = embedder
        self._conn: sqlite3.Connection | None = None
        self._cache = IndexCache(self.index_path, hnsw_threshold)
        self._meta_cache: dict[str, str] = {}
        self._file_lock: Any = None
        self._lock = threading.RLock()

    # -- opening -------------------------------------------------------------------------------

    @property
    def embedder(self) -> TextEmbedder:
        """The embedder in use (the MiniLM model is created on first need)."""
        if self._embedder is None:
            from oncourse.memory.embedding import MiniLMEmbedder

            self._embedder = MiniLMEmbedder()
        return self._embedder

    def _connect(self) -> sqlite3.Connection:
        if self._conn is not None:
            return self._conn
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self.path, timeout=self.lock_timeout, isolation_level=None, check_same_thread=False
            )
            conn.execute("PRAGMA synchronous=FULL")
            # Switching to WAL needs the database to itself and SQLite answers "database is
            # locked" at once, without waiting, when another process is creating the store at
            # the same moment: do it under the file lock, like the schema.
            with self._flock():
                conn.execute("PRAGMA journal_mode=WAL")
                conn.executescript(_SCHEMA)
                conn.execute(
                    "INSERT OR IGNORE INTO meta VALUES ('schema_version', ?), ('store_uuid', ?)",
                    (SCHEMA_VERSION, uuid.uuid4().hex),
                )
            version = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise MemoryStoreError(f"{self.path}: not a guideline store ({exc})") from exc
        if version[0] != SCHEMA_VERSION:
            raise MemoryStoreError(f"{self.path}: store schema {version[0]} is not supported")
        self._conn = conn
        return conn

    def _exists(self) -> bool:
        return self._conn is not None or self.path.exists()

    @contextmanager
    def _flock(self) -> Iterator[None]:
        from filelock import FileLock, Timeout

        if self._file_lock is None:
            self._file_lock = FileLock(str(self.lock_path), timeout=self.lock_timeout)
        try:
            # Poll often: the default 50 ms lets a busy writer starve the others.
            self._file_lock.acquire(poll_interval=0.002)
        except Timeout as exc:
            raise MemoryStoreError(f"{self.lock_path}: another writer holds the lock") from exc
        try:
            yield
        finally:
            self._file_lock.release()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction under the process lock and the cross-process file lock."""
        with self._lock:
            conn = self._connect()
            with self._flock():
                conn.execute("BEGIN IMMEDIATE")
                try:
                    yield conn
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    # The in-memory index may hold vectors of rows that were rolled back.
                    self._cache.drop()
                    self._meta_cache.clear()
                    raise

    def close(self) -> None:
        """Save the index for the next process and close the database."""
        with self._lock:
            if self._conn is None:
                return
            try:
                if self._cache.dirty:
                    with self._flock():
                        self._cache.save(self._fingerprint())
            finally:
                self._conn.close()
                self._conn = None
                self._cache.drop()
                self._meta_cache.clear()

    def __enter__(self) -> GuidelineMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- vectors and the index -----------------------------------------------------------------

    def _meta(self, key: str) -> str | None:
        # store_uuid and embedder never change once set, so they are read once per connection.
        if key in self._meta_cache:
            return self._meta_cache[key]
        row = self._connect().execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        value = None if row is None else str(row[0])
        if value is not None and key in ("store_uuid", "embedder"):
            self._meta_cache[key] = value
        return value

    def _fingerprint(self) -> dict[str, Any]:
        return {"store_uuid": self._meta("store_uuid"), "embedder": self._meta("embedder")}

    def _embed(self, texts: list[str]) -> np.ndarray:
        vectors = np.asarray(self.embedder.embed(texts), dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return vectors / norms

    def _check_embedder(self, conn: sqlite3.Connection, dim: int) -> None:
        name = f"{_embedder_name(self.embedder)}/{dim}"
        stored = self._meta("embedder")
        if stored is None:
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('embedder', ?)", (name,))
        elif stored != name:
            raise MemoryStoreError(
                f"{self.path}: store was built with embedder {stored}, not {name}; "
                "open it with the same embedder (or export and re-import)"
            )

    def _check_query(self, vectors: np.ndarray, embedded: bool) -> None:
        """Raise when query vectors are not in the store's embedding space."""
        stored = self._meta("embedder")
        if stored is None:
            return
        if not embedded:
            if not stored.endswith(f"/{vectors.shape[1]}"):
                raise MemoryStoreError(f"{self.path}: query vectors do not match {stored}")
            return
        name = f"{_embedder_name(self.embedder)}/{vectors.shape[1]}"
        if stored != name:
            raise MemoryStoreError(
                f"{self.path}: store was built with embedder {stored}, not {name}; "
                "open it with the same embedder (or export and re-import)"
            )

    def _current_index(self, conn: sqlite3.Connection) -> VectorIndex | None:
        """The index, caught up with every committed row (other processes' included)."""
        return self._cache.current(conn, self._fingerprint())

    def save_index(self) -> None:
        """Write the index file now (it is also written by `close`)."""
        with self._lock:
            self._current_index(self._connect())
            with self._flock():
                self._cache.save(self._fingerprint(), force=True)

    def index_info(self) -> dict[str, Any]:
        """Kind, size and byte size of the index (for benchmarks and `memory ls`)."""
        with self._lock:
            index = self._current_index(self._connect()) if self._exists() else None
            if index is None:
                return {"kind": None, "ntotal": 0, "bytes": 0}
            return {"kind": index.kind, "ntotal": index.ntotal, "bytes": index.nbytes()}

    # -- rows ----------------------------------------------------------------------------------

    @staticmethod
    def _decode(record: str) -> Guideline:
        return Guideline.model_validate_json(record)

    def _get_row(self, conn: sqlite3.Connection, guideline_id: str) -> Guideline | None:
        row = conn.execute("SELECT record FROM guidelines WHERE id=?", (guideline_id,)).fetchone()
        return None if row is None else self._decode(row[0])

    def _insert(self, conn: sqlite3.Connection, guideline: Guideline, vector: np.ndarray) -> int:
        cursor = conn.execute(
            "INSERT INTO guidelines (id, status, record, vector) VALUES (?, ?, ?, ?)",
            (
                guideline.id,
                guideline.status,
                guideline.model_dump_json(),
                np.ascontiguousarray(vector, dtype=np.float32).tobytes(),
            ),
        )
        return int(cursor.lastrowid or 0)

    def _replace_record(self, conn: sqlite3.Connection, guideline: Guideline) -> None:
        conn.execute(
            "UPDATE guidelines SET status=?, record=? WHERE id=?",
            (guideline.status, guideline.model_dump_json(), guideline.id),
        )

    # -- add and dedupe ------------------------------------------------------------------------

    def add(self, guideline: Guideline, dedupe: bool = True) -> Guideline:
        """Store a guideline, or merge it into a near-duplicate; returns the stored guideline.

        A merge happens when an existing proposed or active guideline has cosine similarity at
        or above `dedupe_threshold` and a scope that does not conflict; the stored guideline
        keeps its text and gains the new one's provenance and scope. Compare the returned id
        with the given one to tell a merge from a new record.
        """
        return self.add_many([guideline], dedupe=dedupe)[0]

    def add_many(
        self, guidelines: Sequence[Guideline], dedupe: bool = True, chunk: int = 1000
    ) -> list[Guideline]:
        """Store many guidelines in one transaction (embedding them in batches)."""
        if not guidelines:
            return []
        vectors = self._embed([g.text() for g in guidelines])
        stored: list[Guideline] = []
        with self._write() as conn:
            self._check_embedder(conn, vectors.shape[1])
            for start in range(0, len(guidelines), chunk):
                batch = guidelines[start : start + chunk]
                stored.extend(self._add_chunk(conn, batch, vectors[start : start + chunk], dedupe))
        return stored

    def _add_chunk(
        self,
        conn: sqlite3.Connection,
        batch: Sequence[Guideline],
        vectors: np.ndarray,
        dedupe: bool,
    ) -> list[Guideline]:
        index = self._current_index(conn)
        neighbours: tuple[np.ndarray, np.ndarray] | None = None
        if dedupe and index is not None:
            neighbours = index.search(vectors, 8)
        within = vectors @ vectors.T if dedupe else None
        new_ids: list[int] = []
        new_rows: list[int] = []
        out: list[Guideline] = []
        for i, guideline in enumerate(batch):
            if self._get_row(conn, guideline.id) is not None:
                raise MemoryStoreError(f"guideline {guideline.id} is already in the store")
            target = None
            if dedupe and guideline.status in _MERGEABLE:
                candidates: list[tuple[float, int]] = []
                if neighbours is not None:
                    candidates += [
                        (float(s), int(v))
                        for s, v in zip(neighbours[0][i], neighbours[1][i], strict=True)
                    ]
                if within is not None:
                    close = np.nonzero(within[i, :i] >= self.dedupe_threshold)[0]
                    candidates += [(float(within[i, j]), new_ids[j]) for j in close]
                target = self._merge_target(conn, guideline, candidates)
            if target is not None:
                merged = _merge(target, guideline)
                self._replace_record(conn, merged)
                out.append(merged)
                new_ids.append(-1)
            else:
                vec_id = self._insert(conn, guideline, vectors[i])
                new_ids.append(vec_id)
                new_rows.append(i)
                out.append(guideline)
        if new_rows:
            ids = np.asarray([new_ids[i] for i in new_rows], dtype=np.int64)
            self._cache.add(ids, vectors[new_rows])
        return out

    def _merge_target(
        self, conn: sqlite3.Connection, guideline: Guideline, candidates: list[tuple[float, int]]
    ) -> Guideline | None:
        for similarity, vec_id in sorted(candidates, reverse=True):
            if similarity < self.dedupe_threshold:
                break
            if vec_id < 0:
                continue
            row = conn.execute(
                "SELECT record FROM guidelines WHERE vec_id=? AND status IN (?, ?)",
                (vec_id, *_MERGEABLE),
            ).fetchone()
            if row is None:
                continue
            existing = self._decode(row[0])
            if not existing.scope.conflicts_with(guideline.scope):
                return existing
        return None

    # -- reading -------------------------------------------------------------------------------

    def search(
        self,
        query: str | np.ndarray,
        k: int = 5,
        min_similarity: float = 0.0,
        status: GuidelineStatus | Iterable[GuidelineStatus] | None = "active",
        tools: Iterable[str] | None = None,
        family: str | None = None,
    ) -> list[SearchHit]:
        """Top-k guidelines by cosine similarity to a text (or a unit vector), best first.

        Args:
            query: the task text, or its embedding.
            k: how many to return at most.
            min_similarity: drop hits below this cosine.
            status: one status, several, or None for all; only active ones by default.
            tools: when given, keep guidelines whose scope names only tools in this set.
            family: when given, keep guidelines whose scope has no families or includes it.
        """
        if k <= 0 or not self._exists():
            return []
        statuses = _statuses(status)
        allowed = None if tools is None else set(tools)
        embedded = isinstance(query, str)
        vector = self._embed([query]) if isinstance(query, str) else _as_rows(query)
        with self._lock:
            conn = self._connect()
            self._check_query(vector, embedded)
            index = self._current_index(conn)
            if index is None:
                return []
            fetch = min(index.ntotal, max(4 * k, 32))
            while True:
                scores, ids = index.search(vector.reshape(1, -1), fetch)
                hits = self._collect(
                    conn,
                    scores[0],
                    ids[0],
                    k,
                    min_similarity,
                    statuses,
                    lambda g: _in_scope(g, allowed, family),
                )
                exhausted = fetch >= index.ntotal or (
                    len(scores[0]) and scores[0][-1] < min_similarity
                )
                if len(hits) >= k or exhausted:
                    return hits[:k]
                fetch = min(index.ntotal, fetch * 4)

    def search_many(
        self,
        queries: Sequence[str] | np.ndarray,
        k: int = 5,
        min_similarity: float = 0.0,
        status: GuidelineStatus | Iterable[GuidelineStatus] | None = "active",
    ) -> list[list[SearchHit]]:
        """`search` for many queries at once (one embedding batch, one index call)."""
        if k <= 0 or not self._exists() or len(queries) == 0:
            return [[] for _ in range(len(queries))]
        statuses = _statuses(status)
        embedded = not isinstance(queries, np.ndarray)
        vectors = (
            _as_rows(queries) if isinstance(queries, np.ndarray) else self._embed(list(queries))
        )
        with self._lock:
            conn = self._connect()
            self._check_query(vectors, embedded)
            index = self._current_index(conn)
            if index is None:
                return [[] for _ in range(len(vectors))]
            fetch = min(index.ntotal, max(4 * k, 32))
            scores, ids = index.search(vectors, fetch)
            out = []
            for row, vector in enumerate(vectors):
                hits = self._collect(
                    conn, scores[row], ids[row], k, min_similarity, statuses, lambda g: True
                )
                if len(hits) < k and fetch < index.ntotal and scores[row][-1] >= min_similarity:
                    hits = self.search(vector, k, min_similarity, status)  # rare: widen
                out.append(hits)
            return out

    def _collect(
        self,
        conn: sqlite3.Connection,
        scores: np.ndarray,
        ids: np.ndarray,
        k: int,
        min_similarity: float,
        statuses: set[str] | None,
        keep: Callable[[Guideline], bool],
    ) -> list[SearchHit]:
        """The first k hits (best first) that pass the filters; records are decoded lazily."""
        wanted = [(float(s), int(v)) for s, v in zip(scores, ids, strict=True) if v >= 0]
        wanted = [(s, v) for s, v in wanted if s >= min_similarity]
        if not wanted:
            return []
        # Statuses first (they sit before the large columns in each row), records for the
        # survivors only, a few at a time: most searches decode just k records.
        marks = ",".join("?" * len(wanted))
        statuses_of = dict(
            conn.execute(
                f"SELECT vec_id, status FROM guidelines WHERE vec_id IN ({marks})",
                [v for _, v in wanted],
            ).fetchall()
        )
        candidates = [
            (similarity, vec_id)
            for similarity, vec_id in wanted
            if vec_id in statuses_of and (statuses is None or statuses_of[vec_id] in statuses)
        ]
        hits: list[SearchHit] = []
        for start in range(0, len(candidates), k):
            part = candidates[start : start + k]
            marks = ",".join("?" * len(part))
            records = dict(
                conn.execute(
                    f"SELECT vec_id, record FROM guidelines WHERE vec_id IN ({marks})",
                    [v for _, v in part],
                ).fetchall()
            )
            for similarity, vec_id in part:
                if vec_id not in records:
                    continue
                guideline = self._decode(records[vec_id])
                if keep(guideline):
                    hits.append(SearchHit(guideline=guideline, similarity=similarity))
                    if len(hits) == k:
                        return hits
        return hits

    def get(self, guideline_id: str) -> Guideline:
        """The guideline with this id; MemoryStoreError when there is none."""
        found = None
        if self._exists():
            with self._lock:
                found = self._get_row(self._connect(), guideline_id)
        if found is None:
            raise MemoryStoreError(f"{self.path}: no guideline {guideline_id}")
        return found

    def __contains__(self, guideline_id: object) -> bool:
        if not isinstance(guideline_id, str) or not self._exists():
            return False
        with self._lock:
            return self._get_row(self._connect(), guideline_id) is not None

    def all(
        self, status: GuidelineStatus | Iterable[GuidelineStatus] | None = None
    ) -> list[Guideline]:
        """Every guideline (optionally of some statuses), oldest first."""
        if not self._exists():
            return []
        statuses = _statuses(status)
        with self._lock:
            rows = (
                self._connect()
                .execute("SELECT status, record FROM guidelines ORDER BY vec_id")
                .fetchall()
            )
        return [self._decode(r[1]) for r in rows if statuses is None or r[0] in statuses]

    def __len__(self) -> int:
        if not self._exists():
            return 0
        with self._lock:
            return int(self._connect().execute("SELECT COUNT(*) FROM guidelines").fetchone()[0])

    # -- changing ------------------------------------------------------------------------------

    def _mutate(self, guideline_id: str, change: Callable[[Guideline], Guideline]) -> Guideline:
        with self._write() as conn:
            current = self._get_row(conn, guideline_id)
            if current is None:
                raise MemoryStoreError(f"{self.path}: no guideline {guideline_id}")
            updated = change(current)
            if updated.text() != current.text():
                # New text, new vector: re-insert under a new vec_id; the old one is a tombstone.
                vector = self._embed([updated.text()])
                self._check_embedder(conn, vector.shape[1])
                conn.execute("DELETE FROM guidelines WHERE id=?", (guideline_id,))
                self._insert(conn, updated, vector[0])
                self._current_index(conn)  # catches up with the new row
            else:
                self._replace_record(conn, updated)
            return updated

    def update(self, guideline_id: str, **changes: Any) -> Guideline:
        """Change fields of a guideline (validated); new text is re-embedded."""
        if "id" in changes:
            raise MemoryStoreError("a guideline's id cannot be changed")

        def change(current: Guideline) -> Guideline:
            try:
                return Guideline.model_validate({**current.model_dump(), **changes})
            except ValidationError as exc:
                raise MemoryStoreError(f"invalid update of {guideline_id}: {exc}") from exc

        return self._mutate(guideline_id, change)

    def activate(
        self, guideline_id: str, allowed_tools: Iterable[str] | None = None, force: bool = False
    ) -> Guideline:
        """Make a guideline active after the safety screen; a failing one is quarantined.

        Raises MemoryStoreError (after quarantining it) when the screen finds something, unless
        `force` is set by a human who has read it.
        """
        tools = None if allowed_tools is None else list(allowed_tools)

        def change(current: Guideline) -> Guideline:
            verdict = screen(current, tools)
            if verdict.ok or force:
                return current.model_copy(update={"status": "active", "quarantine_reasons": []})
            return current.model_copy(
                update={"status": "quarantined", "quarantine_reasons": verdict.reasons}
            )

        updated = self._mutate(guideline_id, change)
        if updated.status != "active":
            raise MemoryStoreError(
                f"guideline {guideline_id} failed the safety screen and was quarantined: "
                + "; ".join(updated.quarantine_reasons)
            )
        return updated

    def retire(self, guideline_id: str) -> Guideline:
        """Stop injecting a guideline (kept for its provenance and counters)."""
        return self._mutate(guideline_id, lambda g: g.model_copy(update={"status": "retired"}))

    def quarantine(self, guideline_id: str, reasons: Sequence[str] = ()) -> Guideline:
        """Set a guideline aside for a human to read, with the reasons why."""
        return self._mutate(
            guideline_id,
            lambda g: g.model_copy(
                update={"status": "quarantined", "quarantine_reasons": list(reasons)}
            ),
        )

    def remove(self, guideline_id: str) -> None:
        """Delete a guideline for good."""
        with self._write() as conn:
            deleted = conn.execute("DELETE FROM guidelines WHERE id=?", (guideline_id,)).rowcount
            if not deleted:
                raise MemoryStoreError(f"{self.path}: no guideline {guideline_id}")
            self._cache.tombstones_added = True

    def record_injection(self, guideline_ids: Iterable[str]) -> None:
        """Count one injection for each of these guidelines (unknown ids are ignored)."""
        ids = list(dict.fromkeys(guideline_ids))
        if not ids:
            return
        with self._write() as conn:
            for guideline_id in ids:
                current = self._get_row(conn, guideline_id)
                if current is not None:
                    current.counters.injected += 1
                    self._replace_record(conn, current)

    def record_outcome(self, guideline_id: str, success: bool, injected: bool) -> Guideline:
        """Count one task outcome for a guideline, with or without it injected."""

        def change(current: Guideline) -> Guideline:
            updated = current.model_copy(deep=True)
            count = (
                updated.counters.outcomes_with if injected else updated.counters.outcomes_without
            )
            count.runs += 1
            count.successes += int(success)
            return updated

        return self._mutate(guideline_id, change)

    # -- export / import -----------------------------------------------------------------------

    def export_jsonl(self, path: str | Path) -> int:
        """Write every guideline as one JSON line (temp file + rename); returns the count."""
        return write_guidelines(path, self.all())

    def import_jsonl(
        self, path: str | Path, allowed_tools: Iterable[str] | None = None
    ) -> ImportReport:
        """Add guidelines from a JSONL export; active ones pass the safety screen again.

        A line whose id is already stored is skipped; near-duplicates merge as in `add`.
        """
        report = ImportReport()
        fresh: list[Guideline] = []
        seen: set[str] = set()
        for guideline in read_guidelines(path, allowed_tools):
            if guideline.id in seen or guideline.id in self:
                report.skipped += 1
            else:
                seen.add(guideline.id)
                fresh.append(guideline)
        for given, stored in zip(fresh, self.add_many(fresh), strict=True):
            if stored.id == given.id:
                report.added += 1
            else:
                report.merged += 1
        return report


def _as_rows(vectors: np.ndarray) -> np.ndarray:
    array = np.asarray(vectors, dtype=np.float32)
    return array.reshape(-1, array.shape[-1])


def _merge(existing: Guideline, new: Guideline) -> Guideline:
    status = "active" if "active" in (existing.status, new.status) else existing.status
    return existing.model_copy(
        update={
            "provenance": [*existing.provenance, *new.provenance],
            "scope": existing.scope.union(new.scope),
            "status": status,
        }
    )


def _statuses(status: GuidelineStatus | Iterable[GuidelineStatus] | None) -> set[str] | None:
    if status is None:
        return None
    chosen: set[str] = {status} if isinstance(status, str) else set(status)
    unknown = chosen - set(GUIDELINE_STATUSES)
    if unknown:
        raise MemoryStoreError(f"unknown status {sorted(unknown)}; use {list(GUIDELINE_STATUSES)}")
    return chosen


def _in_scope(guideline: Guideline, tools: set[str] | None, family: str | None) -> bool:
    if tools is not None and not set(guideline.scope.tools) <= tools:
        return False
    return not (
        family is not None and guideline.scope.families and family not in guideline.scope.families
    )


__all__ = ["GuidelineMemory", "ImportReport", "SearchHit"]
