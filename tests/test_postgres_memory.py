"""The guideline memory on PostgreSQL: concurrent hosts, dropped connections, readers, migration.

Every test gets a fresh store (its own Postgres schema) on the session's server (see
tests/_postgres.py: $ONCOURSE_TEST_POSTGRES, else a throwaway server started for the session).
Writers in other processes use lexical embeddings, so they start fast.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from _postgres import drop_store, new_store_url
from oncourse.consistency.errors import MemoryStoreError
from oncourse.consistency.guidelines import Guideline, GuidelineProvenance, GuidelineScope
from oncourse.consistency.text import LexicalEmbedder
from oncourse.memory.store import GuidelineMemory

REPO = Path(__file__).resolve().parents[1]
WORKERS = 4
OWN = 12  # distinct guidelines each worker adds (and retires every third of)
INJECTIONS = 15  # injections each worker records for the shared guideline

# One host: waits for the go file, then interleaves adding its own guidelines, adding the
# guideline every host learns (dedupe must keep one), retiring every third of its own, and
# counting injections of the shared guideline.
HOST = textwrap.dedent(
    """
    import os, sys, time
    from oncourse.consistency.guidelines import Guideline, GuidelineProvenance
    from oncourse.consistency.text import LexicalEmbedder
    from oncourse.memory.store import GuidelineMemory

    url, tag, go = sys.argv[1], sys.argv[2], sys.argv[5]
    own, injections = int(sys.argv[3]), int(sys.argv[4])
    store = GuidelineMemory(url, embedder=LexicalEmbedder(), lock_timeout=120)
    print("ready", flush=True)
    while not os.path.exists(go):
        time.sleep(0.005)
    shared = Guideline(
        id=f"g-shared-{tag}",
        trigger="The vendor search returns two vendors with the same name",
        instruction="Pick the vendor whose tax id the request gives before paying.",
        provenance=[GuidelineProvenance(source_tasks=[f"task-{tag}"], generator="host")],
    )
    shared_id, counted = None, 0
    for i in range(own):
        g = Guideline(
            id=f"g-{tag}-{i}",
            trigger=f"host {tag} situation {i} number {i * 7919 % 1000}",
            instruction=f"Handle case {tag}{i} by checking record {i * 104729 % 10000}.",
        )
        store.add(g, dedupe=False)
        if i == own // 2:
            shared_id = store.add(shared).id
        if i % 3 == 0:
            store.retire(g.id)
        if shared_id is not None and counted < injections:
            store.record_injection([shared_id])
            counted += 1
    while counted < injections:
        store.record_injection([shared_id])
        counted += 1
    print("done", shared_id, flush=True)
    """
)


@pytest.fixture
def url(postgres_server: str) -> Iterator[str]:
    location = new_store_url(postgres_server)
    yield location
    drop_store(location)


def _guideline(trigger: str, instruction: str, **kw) -> Guideline:  # type: ignore[no-untyped-def]
    return Guideline(trigger=trigger, instruction=instruction, **kw)


def _popen(code: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_four_hosts_adding_and_retiring_lose_and_duplicate_nothing(url: str, tmp_path: Path):
    go = tmp_path / "go"
    hosts = [
        _popen(HOST, url, str(tag), str(OWN), str(INJECTIONS), str(go)) for tag in range(WORKERS)
    ]
    for host in hosts:
        assert host.stdout is not None and host.stdout.readline().strip() == "ready"
    go.touch()
    shared_ids = []
    for host in hosts:
        out, err = host.communicate(timeout=300)
        assert host.returncode == 0, err
        shared_ids.append(out.split()[-1])

    store = GuidelineMemory(url, embedder=LexicalEmbedder())
    rows = store.all()
    ids = [g.id for g in rows]
    assert len(ids) == len(set(ids)), "no id stored twice"
    own = {f"g-{tag}-{i}" for tag in range(WORKERS) for i in range(OWN)}
    assert own <= set(ids), "no host lost a guideline"
    shared = [g for g in rows if g.id not in own]
    assert len(shared) == 1, "the guideline all four hosts learned is stored once"
    assert set(shared_ids) == {shared[0].id}, "every host was told the same stored id"
    assert sorted(p.source_tasks[0] for p in shared[0].provenance) == [
        f"task-{tag}" for tag in range(WORKERS)
    ], "the merge kept every host's provenance"
    assert shared[0].counters.injected == WORKERS * INJECTIONS, "no lost increment"
    retired = {g.id for g in rows if g.status == "retired"}
    assert retired == {f"g-{tag}-{i}" for tag in range(WORKERS) for i in range(0, OWN, 3)}
    with store.backend.read() as session:
        assert int(session.get_meta("version") or 0) >= len(ids), "one version per write"


def test_a_connection_dropped_mid_transaction_loses_only_that_transaction(url: str):
    import psycopg

    store = GuidelineMemory(url, embedder=LexicalEmbedder())
    kept = store.add(_guideline("A refund arrives twice", "Refund it once.", status="active"))
    vector = store._embed(["doomed"])[0]
    doomed = _guideline("A doomed write", "This row is never committed.")
    admin = psycopg.connect(url.split("#")[0], autocommit=True)
    try:
        with pytest.raises(MemoryStoreError, match="connection lost"):
            with store.backend.write() as session:
                session.insert(doomed, vector)
                pid = session.conn.info.backend_pid
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
                session.insert(doomed.model_copy(update={"id": "g-other"}), vector)
    finally:
        admin.close()
    # The same handle reconnects; the committed guideline is there, the dropped write is not.
    assert [g.id for g in store.all()] == [kept.id]
    added = store.add(_guideline("A vendor has two accounts", "Use the active one."))
    assert {g.id for g in store.all()} == {kept.id, added.id}
    assert store.search("refund arrives twice", k=1)[0].guideline.id == kept.id


def test_a_writer_killed_mid_transaction_leaves_no_trace(url: str):
    holder = textwrap.dedent(
        """
        import sys, time
        from oncourse.consistency.guidelines import Guideline
        from oncourse.consistency.text import LexicalEmbedder
        from oncourse.memory.store import GuidelineMemory

        store = GuidelineMemory(sys.argv[1], embedder=LexicalEmbedder())
        g = Guideline(trigger="A half-written rule", instruction="Never committed.")
        with store.backend.write() as session:
            session.insert(g, store._embed([g.text()])[0])
            print("inside", flush=True)
            time.sleep(600)
        """
    )
    store = GuidelineMemory(url, embedder=LexicalEmbedder())
    kept = store.add(_guideline("A refund arrives twice", "Refund it once."))
    writer = _popen(holder, url)
    assert writer.stdout is not None and writer.stdout.readline().strip() == "inside"
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait(timeout=30)
    # The dead writer held the store's lock; the server releases it with the connection.
    added = store.add(_guideline("A vendor has two accounts", "Use the active one."))
    assert [g.id for g in store.all()] == [kept.id, added.id]


def test_a_reader_sees_a_new_guideline_on_its_next_search(url: str):
    reader = GuidelineMemory(url, embedder=LexicalEmbedder())
    writer = GuidelineMemory(url, embedder=LexicalEmbedder())
    first = writer.add(_guideline("The contact search returns two Anas", "Ask.", status="active"))
    assert [h.guideline.id for h in reader.search("contact search returns two")] == [first.id]
    version = reader.index_info()["ntotal"]
    second = writer.add(
        _guideline("A refund request arrives twice", "Refund once.", status="active")
    )
    hits = reader.search("refund request arrives twice", k=1)
    assert hits[0].guideline.id == second.id
    assert reader.index_info()["ntotal"] == version + 1, "caught up by one row, not rebuilt"
    writer.retire(second.id)
    assert second.id not in {h.guideline.id for h in reader.search("refund request", k=5)}


def test_migrate_round_trip_keeps_ids_statuses_provenance_and_counters(
    url: str, tmp_path: Path
) -> None:
    from oncourse.adapters.cli import app
    from typer.testing import CliRunner

    source = tmp_path / "source.db"
    store = GuidelineMemory(source, embedder=LexicalEmbedder())
    made = store.add_many(
        [
            _guideline(
                f"Situation {i}: the lookup returns {i + 2} rows",
                f"Check row {i} against the request before acting.",
                status="active",
                scope=GuidelineScope(tools=[f"tool_{i}"]),
                provenance=[GuidelineProvenance(source_tasks=[f"t{i}"], generator="test")],
            )
            for i in range(5)
        ]
    )
    store.retire(made[1].id)
    store.quarantine(made[2].id, ["looked odd"])
    store.record_injection([made[0].id, made[3].id])
    store.record_outcome(made[0].id, success=True, injected=True)
    before = [g.model_dump(mode="json") for g in store.all()]
    store.close()

    runner = CliRunner()
    there = runner.invoke(app, ["memory", "migrate", str(source), url, "--json"])
    assert there.exit_code == 0, there.output
    assert json.loads(there.stdout)["copied"] == 5
    back = tmp_path / "back.db"
    again = runner.invoke(app, ["memory", "migrate", url, str(back), "--json"])
    assert again.exit_code == 0, again.output
    in_postgres = GuidelineMemory(url, embedder=LexicalEmbedder())
    assert [g.model_dump(mode="json") for g in in_postgres.all()] == before
    returned = GuidelineMemory(back, embedder=LexicalEmbedder())
    assert [g.model_dump(mode="json") for g in returned.all()] == before
    query = "the lookup returns 5 rows"
    assert [h.guideline.id for h in in_postgres.search(query, k=3)] == [
        h.guideline.id
        for h in GuidelineMemory(source, embedder=LexicalEmbedder()).search(query, k=3)
    ]
    # A second migration into the same store copies nothing twice.
    twice = runner.invoke(app, ["memory", "migrate", str(source), url, "--json"])
    assert json.loads(twice.stdout)["skipped"] == 5 and len(in_postgres) == 5


def test_a_postgresql_memory_never_becomes_a_folder(url: str, tmp_path: Path, monkeypatch):
    """Regression: `--memory postgresql://...` used to create a folder named `postgresql:`."""
    from oncourse.adapters.cli import app
    from typer.testing import CliRunner

    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    missing = runner.invoke(app, ["memory", "ls", "--memory", url])
    assert missing.exit_code != 0 and "no guideline store there" in str(missing.exception)
    exported = tmp_path / "in.jsonl"
    exported.write_text(
        _guideline("The contact search returns two Anas", "Ask which one.").model_dump_json() + "\n"
    )
    imported = runner.invoke(app, ["memory", "import", str(exported), "--memory", url, "--json"])
    assert imported.exit_code == 0, imported.output
    listed = runner.invoke(app, ["memory", "ls", "--memory", url, "--json"])
    assert json.loads(listed.stdout)["count"] == 1
    assert list(tmp_path.iterdir()) == [exported], "nothing but the input file here"


def test_an_unreachable_server_is_one_clear_line_without_the_password(tmp_path: Path):
    store = GuidelineMemory(
        "postgresql://bob:s3cret@127.0.0.1:9/nowhere#mem", embedder=LexicalEmbedder()
    )
    store.backend.connect_timeout = 1  # type: ignore[attr-defined]
    with pytest.raises(MemoryStoreError) as caught:
        store.add(_guideline("A rule", "Do it."))
    message = str(caught.value)
    assert "cannot connect" in message and "s3cret" not in message and "\n" not in message
    with pytest.raises(MemoryStoreError, match="store name"):
        GuidelineMemory("postgresql://127.0.0.1/db#Bad-Name")


def test_the_store_is_shared_counters_in_rows(url: str) -> None:
    """Counters and statuses live in the rows: a second handle reads what the first wrote."""
    a = GuidelineMemory(url, embedder=LexicalEmbedder())
    g = a.add(_guideline("An invoice is listed twice", "Pay the open one.", status="active"))
    for _ in range(3):
        a.record_injection([g.id])
    a.record_outcome(g.id, success=False, injected=True)
    b = GuidelineMemory(url, embedder=LexicalEmbedder())
    counters = b.get(g.id).counters
    assert counters.injected == 3 and counters.outcomes_with.runs == 1
    assert Counter(x.status for x in b.all()) == {"active": 1}
    b.retire(g.id)
    assert a.get(g.id).status == "retired"


@pytest.mark.slow
def test_runs_inject_from_a_postgresql_memory_and_count_there(url: str, tmp_path: Path) -> None:
    """The runner with `--memory postgresql://...`: guidelines injected, counters in the rows."""
    from oncourse.adapters.runner import run_many
    from oncourse.adapters.suites import load_suite
    from test_ray_backend import LEARNED

    GuidelineMemory(url).add_many(LEARNED)
    tasks = [t.task_id for t in load_suite("mini-apps").tasks("train")]
    runs = run_many(
        "mini-apps", "simulated", 2, "train", tmp_path / "r.jsonl", memory_path=url, task_ids=tasks
    )
    injected = Counter(g for run in runs for g in run.meta.injected_guidelines)
    assert injected, "some run was given a guideline"
    assert {run.meta.memory for run in runs} == {url}
    stored = {g.id: g.counters.injected for g in GuidelineMemory(url).all()}
    assert {g: stored[g] for g in injected} == dict(injected)
