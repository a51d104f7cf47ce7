"""Retrieval abstracts the task's values the way stored triggers are written.

Regression: guidelines learned on mini-apps were never retrieved for their own family (cosine
about 0.27 < 0.35) because the query kept names, subjects and ids that the trigger had replaced
by roles; evolve then left them `proposed` and they were never injected.
"""

from __future__ import annotations

import pytest
from oncourse.consistency.guidelines import Guideline, retrieval_query


def test_retrieval_query_abstracts_names_ids_and_amounts() -> None:
    query = retrieval_query("Pay the open invoice INV-2041 from Northwind Traders for $1,250.00.")
    assert "INV-2041" not in query and "1,250" not in query and "Northwind" not in query
    assert "[id]" in query and "[amount]" in query


@pytest.mark.slow
def test_same_kind_of_task_with_other_values_retrieves_the_guideline(tmp_path) -> None:
    from oncourse.memory.embedding import MiniLMEmbedder
    from oncourse.memory.inject import inject
    from oncourse.memory.store import GuidelineMemory

    memory = GuidelineMemory(tmp_path / "m.sqlite", embedder=MiniLMEmbedder())
    learned = Guideline(
        instruction=(
            "When search_invoices returns several results, call pay_invoice with the invoice id "
            "of the record whose status is 'open' rather than the one whose status is 'paid'."
        ),
        trigger=(
            "Pay the open invoice [id] from [name]; search_invoices has returned several results"
        ),
        rationale="Runs that paid the paid duplicate failed.",
        status="active",
    )
    memory.add(learned)
    task = "Pay the open invoice B-7731 from Contoso Supplies, please."
    found = inject(memory, task, "You are a helpful assistant.")
    raw = inject(memory, task, "You are a helpful assistant.", abstract_query=False)
    assert found.guideline_ids == [memory.all()[0].id]
    assert found.similarities[0] > (raw.similarities[0] if raw.similarities else 0.0)
    unrelated = inject(memory, "Share the final slide deck with the design team.", "")
    assert unrelated.guideline_ids == []


def test_a_quoted_title_is_one_value_as_in_the_triggers() -> None:
    # Regression (issue 10): "Hiring Plan 2026" became "Hiring [name] [number]" while triggers
    # write a quoted subject or title as "[value]"; held-out share tasks scored 0.15-0.34 against
    # their family's guideline and were never injected.
    query = retrieval_query('Let Maya Brandt see the signed-off "Hiring Plan 2026".')
    assert query == 'Let [name] see the signed-off "[value]"'
    assert retrieval_query('Mark it as "urgent".') == 'Mark it as "urgent"'  # a plain word stays
    assert retrieval_query('Send "a" To "B"') == 'Send "a" To "[value]"'  # quotes pair up


@pytest.mark.slow
def test_a_paraphrased_share_task_finds_the_share_guideline(tmp_path) -> None:
    from oncourse.memory.embedding import MiniLMEmbedder
    from oncourse.memory.inject import DEFAULT_MIN_SIMILARITY
    from oncourse.memory.store import GuidelineMemory

    memory = GuidelineMemory(tmp_path / "m.sqlite", embedder=MiniLMEmbedder())
    memory.add(
        Guideline(
            instruction="Call share_file on the file whose name has 'final' in it, not the one "
            "whose name has 'draft'.",
            trigger='Give [name] access to the finished "[value]", not the working copy',
            status="active",
        )
    )
    task = 'Pass the completed "Hiring Plan 2026" to Mira Tanaka; not any in-progress version.'
    (hit,) = memory.search(retrieval_query(task), k=1, min_similarity=0.0, status="active")
    assert hit.similarity >= DEFAULT_MIN_SIMILARITY
