"""Store integrity: a damaged cache, a truncated store, a read-only store, a full disk, JSONL."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from oncourse.consistency.errors import InputError, MemoryStoreError
from oncourse.consistency.guidelines import Guideline, GuidelineProvenance
from oncourse.consistency.text import LexicalEmbedder
from oncourse.memory import _index
from oncourse.memory._sqlite import SQLiteBackend
from oncourse.memory.integrity import check, salvage
from oncourse.memory.store import GuidelineMemory

REPO = Path(__file__).resolve().parents[1]
WORDS = (
    "invoice contact meeting refund ticket order parcel seat booking account vendor calendar "
    "address payment flight hotel baggage voucher receipt shipment"
).split()


def _guidelines(n: int, status: str = "active") -> list[Guideline]:
    out = []
    for i in range(n):
        a, b, c = WORDS[i % 20], WORDS[(i * 7 + 3) % 20], WORDS[(i * 13 + 5) % 20]
        out.append(
            Guideline(
                trigger=f"The {a} lookup for case {i} returns a {b} and a {c} that look alike",
                instruction=f"Compare the {b} number {i} with the {c} before acting on the {a}.",
                rationale=f"Runs of task {i} split here; the {a} branch failed.",
                provenance=[GuidelineProvenance(source_tasks=[f"t{i}"], generator="test")],
                status=status,
            )
        )
    return out


def _store(path: Path, **kw) -> GuidelineMemory:
    return GuidelineMemory(path, embedder=LexicalEmbedder(), **kw)


@pytest.fixture
def filled(tmp_path):
    path = tmp_path / "m.db"
    items = _guidelines(300)
    with _store(path) as store:
        store.add_many(items, dedupe=False)
    return path, items


def _findable(path: Path, items: list[Guideline]) -> int:
    with _store(path) as store:
        return sum(store.search(g.text(), k=1)[0].guideline.id == g.id for g in items)


def test_a_cache_with_a_valid_header_and_damaged_payload_is_not_trusted(filled):
    path, items = filled
    intact = _findable(path, items)  # lexical vectors tie on a few texts; the bar is "as before"
    assert intact >= 0.95 * len(items)
    cache = path.with_name("m.db.faiss")
    data = bytearray(cache.read_bytes())
    for offset in range(len(data) - 40_000, len(data) - 20_000, 7):
        data[offset] ^= 0x5A  # damage the vectors, leave the magic and the JSON header intact
    cache.write_bytes(bytes(data))
    with _store(path) as store:
        report = check(store, repair=False)
    assert not report.cache.valid and "checksum" in report.cache.reason
    assert _findable(path, items) == intact
    with _store(path) as store:
        repaired = check(store)
    assert repaired.ok and repaired.cache_rebuilt
    with _store(path) as store:
        assert check(store).cache.valid


def test_a_cache_from_the_same_store_with_other_rows_is_not_trusted(tmp_path):
    path = tmp_path / "m.db"
    items = _guidelines(40)
    with _store(path) as store:
        store.add_many(items[:20], dedupe=False)
    old_cache = path.with_name("m.db.faiss").read_bytes()
    with _store(path) as store:
        for g in items[:20]:
            store.remove(g.id)
        store.add_many(items[20:], dedupe=False)
    path.with_name("m.db.faiss").write_bytes(old_cache)
    assert _findable(path, items[20:]) >= 19
    with _store(path) as store:
        assert all(store.search(g.text(), k=1)[0].guideline.id != g.id for g in items[:20])


def test_temp_files_of_a_killed_save_are_removed_on_open(filled):
    path, items = filled
    orphan = path.with_name(f"m.db.faiss.{uuid.uuid4().hex[:8]}.tmp")
    orphan.write_bytes(b"half a cache")
    with _store(path, read_only=True) as store:
        store.all()
    assert orphan.exists()  # a read-only handle writes nothing, not even a clean-up
    with _store(path) as store:
        store.all()
    assert not orphan.exists()


def test_search_and_close_never_write_the_cache(filled):
    path, items = filled
    cache = path.with_name("m.db.faiss")
    cache.unlink()
    with _store(path) as store:
        assert store.search(items[3].text(), k=1)[0].guideline.id == items[3].id
    assert not cache.exists()


def test_a_truncated_store_fails_in_one_line_and_salvage_recovers_the_readable_rows(filled):
    path, items = filled
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    path.with_name("m.db.faiss").unlink()
    with pytest.raises(MemoryStoreError) as caught, _store(path) as store:
        store.all()
    assert "\n" not in str(caught.value)
    with _store(path, read_only=True) as store:
        assert not check(store).ok
    target = path.with_name("saved.db")
    report = salvage(path, target)
    assert report.method == "sqlite+pages" and report.recovered >= len(items) // 3
    original = {g.id: g for g in items}
    with _store(target) as saved:
        recovered = saved.all()
        assert len(recovered) == report.recovered
        assert all(g == original[g.id] for g in recovered)
        some = recovered[len(recovered) // 2]
        assert saved.search(some.text(), k=1)[0].guideline.id == some.id
        assert check(saved).ok


def test_salvage_reads_rows_still_in_the_wal(tmp_path):
    path = tmp_path / "m.db"
    items = _guidelines(50)
    store = _store(path)
    store.add_many(items, dedupe=False)
    # Copy the file as a crash would leave it: the rows are committed to the WAL only.
    crashed = tmp_path / "crashed.db"
    shutil.copyfile(path, crashed)
    shutil.copyfile(path.with_name("m.db-wal"), tmp_path / "crashed.db-wal")
    store.close()
    report = salvage(crashed, tmp_path / "saved.db")
    assert report.method == "sqlite" and report.recovered == 50 and report.unreadable == 0
    with _store(tmp_path / "saved.db") as saved:
        assert {g.id for g in saved.all()} == {g.id for g in items}


def _cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "oncourse.adapters.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


@contextlib.contextmanager
def _tmpfs(where: Path, size: str, read_only: bool = False):
    """A real tmpfs mount (root only); skips where mounting is not allowed."""
    where.mkdir()
    if subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True
    ).returncode:
        pytest.skip("cannot mount a tmpfs here (not root)")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_a_read_only_store_can_be_listed_searched_and_exported(tmp_path):
    source = tmp_path / "m.db"
    items = _guidelines(20)
    with _store(source) as store:
        store.add_many(items, dedupe=False)
    with _tmpfs(tmp_path / "ro", "8m") as mount:
        for name in ("m.db", "m.db.faiss"):
            shutil.copyfile(tmp_path / name, mount / name)
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        path = mount / "m.db"
        with _store(path) as store:
            assert store.read_only and len(store.all()) == 20
            assert store.search(items[5].text(), k=1)[0].guideline.id == items[5].id
            assert store.export_jsonl(tmp_path / "out.jsonl") == 20
            with pytest.raises(MemoryStoreError, match="read-only"):
                store.retire(items[0].id)
        listed = _cli("memory", "ls", "--memory", str(path), "--json")
        assert listed.returncode == 0, listed.stderr
        assert json.loads(listed.stdout)["count"] == 20
        shown = _cli("memory", "show", items[2].id, "--memory", str(path), "--json")
        assert json.loads(shown.stdout)["id"] == items[2].id
        retired = _cli("memory", "retire", items[2].id, "--memory", str(path))
        assert retired.returncode == 2 and len(retired.stderr.strip().splitlines()) == 1
        assert "read-only" in retired.stderr


def test_read_only_mode_creates_no_file(filled):
    path, items = filled
    for extra in ("m.db.lock", "m.db-wal", "m.db-shm"):
        path.with_name(extra).unlink(missing_ok=True)
    before = sorted(p.name for p in path.parent.iterdir())
    with _store(path, read_only=True) as store:
        store.search(items[0].text())
        store.export_jsonl(path.with_name("out.jsonl"))
    # SQLite's WAL readers map -shm and may create an empty -wal beside it: coordination, no data.
    after = sorted(p.name for p in path.parent.iterdir() if p.name != "out.jsonl")
    assert [n for n in after if n not in ("m.db-shm", "m.db-wal")] == before
    wal = path.with_name("m.db-wal")
    assert not wal.exists() or wal.stat().st_size == 0


class _SmallDisk(SQLiteBackend):
    """SQLite answers SQLITE_FULL ("database or disk is full") past max_page_count, as on a full
    disk; the store's handling of the two is the same code path."""

    pages = 0

    def _connect_writable(self) -> sqlite3.Connection:
        conn = super()._connect_writable()
        conn.execute(f"PRAGMA max_page_count={self.pages}")
        return conn


def test_a_full_disk_fails_in_one_line_and_keeps_committed_rows(tmp_path):
    path = tmp_path / "m.db"
    items = _guidelines(400)
    with _store(path) as store:
        store.add_many(items[:50], dedupe=False)
    pages = sqlite3.connect(path).execute("PRAGMA page_count").fetchone()[0]
    backend = _SmallDisk(path)
    backend.pages = pages + 8
    store = GuidelineMemory(path, embedder=LexicalEmbedder(), backend=backend)
    stored = 50
    with pytest.raises(MemoryStoreError, match="disk full") as caught:
        for g in items[50:]:
            store.add(g, dedupe=False)
            stored += 1
    assert "\n" not in str(caught.value) and 50 <= stored < 400
    assert store.search(items[7].text(), k=1)[0].guideline.id == items[7].id
    store.close()
    with _store(path) as reopened:
        assert [g.id for g in reopened.all()] == [g.id for g in items[:stored]]
        assert check(reopened).ok


def test_a_cache_that_cannot_be_written_does_not_fail_the_write(filled, monkeypatch):
    path, items = filled

    def no_space(self, target, fingerprint):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(_index.VectorIndex, "save", no_space)
    with _store(path) as store:
        store.retire(items[0].id)
    with _store(path) as store:
        assert store.get(items[0].id).status == "retired"
        with pytest.raises(MemoryStoreError, match="cannot write the index"):
            store.save_index()


def test_a_real_full_disk(tmp_path):
    items = _guidelines(2000)
    with _tmpfs(tmp_path / "small", "600k") as mount:
        path = mount / "m.db"
        with _store(path) as store:
            store.add_many(items[:20], dedupe=False)
        added = 20
        store = _store(path)
        with pytest.raises(MemoryStoreError) as caught:
            for start in range(20, 2000, 20):
                store.add_many(items[start : start + 20], dedupe=False)
                added += 20
        assert "\n" not in str(caught.value)
        store.close()  # the cache cannot be written either: close still succeeds
        exported = _cli("memory", "export", str(mount / "out.jsonl"), "--memory", str(path))
        assert exported.returncode == 2 and len(exported.stderr.strip().splitlines()) == 1
        with _store(path, read_only=True) as reopened:
            assert len(reopened.all()) == added
            assert reopened.search(items[3].text(), k=1)[0].guideline.id == items[3].id


def test_jsonl_round_trips_unicode_line_separators(tmp_path):
    odd = Guideline(
        trigger="A note holds a line\u2028separator and a next-line\u0085mark",
        instruction="Quote the note\u2029as written, \u000b\u000c\u001c\u001d\u001e included.",
        status="proposed",
    )
    with _store(tmp_path / "a.db") as store:
        store.add(odd)
        store.export_jsonl(tmp_path / "out.jsonl")
    with _store(tmp_path / "b.db") as other:
        assert other.import_jsonl(tmp_path / "out.jsonl").added == 1
        assert other.get(odd.id).trigger == odd.trigger
        assert other.get(odd.id).instruction == odd.instruction


@pytest.mark.parametrize("content", [b"", b"\n\n  \n"])
def test_empty_import_is_an_error(tmp_path, content):
    path = tmp_path / "empty.jsonl"
    path.write_bytes(content)
    with pytest.raises(InputError, match="empty"), _store(tmp_path / "m.db") as store:
        store.import_jsonl(path)
    result = _cli("memory", "import", str(path), "--memory", str(tmp_path / "m.db"))
    assert result.returncode == 2 and "empty" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_check_and_salvage_from_the_command_line(filled, tmp_path):
    path, items = filled
    checked = _cli("memory", "check", "--memory", str(path), "--json")
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout)["rows"] == 300
    saved = _cli("memory", "salvage", str(path), str(tmp_path / "copy.db"), "--json")
    assert saved.returncode == 0, saved.stderr
    assert json.loads(saved.stdout)["recovered"] == 300
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    damaged = _cli("memory", "check", "--memory", str(path))
    assert damaged.returncode in (1, 2) and "Traceback" not in damaged.stderr


def test_copy_store_keeps_ids_statuses_provenance_and_vectors(filled, tmp_path):
    from oncourse.memory.backend import open_backend
    from oncourse.memory.integrity import copy_store

    path, items = filled
    with _store(path) as store:
        store.retire(items[1].id)
        store.record_outcome(items[2].id, success=True, injected=True)
        before = store.all()
    source, target = open_backend(path), open_backend(tmp_path / "copy.db")
    try:
        assert copy_store(source, target) == len(items)
    finally:
        source.close()
        target.close()
    with _store(tmp_path / "copy.db") as copy:
        assert copy.all() == before
        assert copy.search(items[9].text(), k=1)[0].guideline.id == items[9].id
