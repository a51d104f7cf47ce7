"""`oncourse memory search` shows what injection would inject; `--raw` the plain neighbours."""

from __future__ import annotations

import json

import pytest
from oncourse.adapters.cli import app
from oncourse.consistency.guidelines import Guideline, GuidelineScope
from oncourse.memory.inject import DEFAULT_MIN_SIMILARITY, inject
from oncourse.memory.store import GuidelineMemory
from typer.testing import CliRunner

GUIDELINES = [
    Guideline(
        trigger="The user wants to email a colleague and the contact search returns several "
        "people with the same name",
        instruction="Pick the contact whose email domain matches the user's company.",
        scope=GuidelineScope(tools=["search_contacts", "send_email"]),
        status="active",
    ),
    Guideline(
        trigger="The user wants to schedule a meeting and the calendar shows a conflict",
        instruction="Propose the next free slot instead of double-booking the attendees.",
        scope=GuidelineScope(tools=["list_events", "create_event"]),
        status="active",
    ),
]
TASK = "Email my colleague Ann Lee about the offsite; the contact search shows two Ann Lees."


@pytest.fixture(scope="module")
def store_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("search") / "m.db"
    with GuidelineMemory(path) as memory:
        memory.add_many(GUIDELINES)
    return path


def _search(path, *args: str) -> dict:
    result = CliRunner().invoke(app, ["memory", "search", *args, "--memory", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_default_search_is_what_inject_injects(store_path):
    out = _search(store_path, TASK)
    with GuidelineMemory(store_path, read_only=True) as memory:
        injected = inject(memory, TASK, "")
    assert out["mode"] == "inject" and out["min_similarity"] == DEFAULT_MIN_SIMILARITY
    assert [h["guideline"]["id"] for h in out["hits"]] == injected.guideline_ids
    assert out["block"] == injected.block and injected.guideline_ids == [GUIDELINES[0].id]
    assert [h["similarity"] for h in out["hits"]] == pytest.approx(injected.similarities)
    assert out["retrieval_query"] != TASK  # abstracted as injection abstracts it


def test_unrelated_question_gets_nothing_by_default_but_raw_shows_neighbours(store_path):
    question = "Compute the derivative of x squared."
    assert _search(store_path, question)["hits"] == []
    raw = _search(store_path, question, "--raw")
    assert raw["mode"] == "raw" and raw["min_similarity"] == 0.0 and raw["hits"]
    assert all(h["similarity"] < DEFAULT_MIN_SIMILARITY for h in raw["hits"])


def test_tools_scope_is_injections(store_path):
    assert _search(store_path, TASK, "--tools", "list_events,create_event")["hits"] == []
    scoped = _search(store_path, TASK, "--tools", "search_contacts,send_email,lookup")
    assert [h["guideline"]["id"] for h in scoped["hits"]] == [GUIDELINES[0].id]


def _files(folder) -> dict[str, int]:
    # SQLite's shared-memory index (-shm) is coordination between connections, not data; a
    # read-only connection still maps it.
    return {p.name: p.stat().st_mtime_ns for p in folder.iterdir() if p.suffix != ".db-shm"}


def test_search_writes_nothing(store_path):
    (store_path.parent / "m.db.faiss").unlink()  # a missing cache is rebuilt in memory only
    before = _files(store_path.parent)
    _search(store_path, TASK)
    _search(store_path, "anything at all", "--raw", "--status", "all")
    assert _files(store_path.parent) == before


def test_markup_in_ids_and_tasks_is_printed_as_text(tmp_path):
    from oncourse.consistency.guidelines import GuidelineProvenance
    from oncourse.consistency.text import LexicalEmbedder

    path = tmp_path / "m.db"
    with GuidelineMemory(path, embedder=LexicalEmbedder()) as memory:
        memory.add(
            Guideline(
                id="g-[bold]x",
                trigger="A refund[/]x arrives",
                instruction="Check [link=https://a.example]the order[/link] first.",
                provenance=[GuidelineProvenance(source_tasks=["refund[/]x"])],
            )
        )
    result = CliRunner().invoke(app, ["memory", "ls", "--memory", str(path)])
    assert result.exit_code == 0, result.output
    assert "refund[/]x" in result.stdout and "g-[bold]x" in result.stdout
