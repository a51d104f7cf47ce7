"""Retrieval and injection with real MiniLM embeddings of real sentences."""

from __future__ import annotations

import pytest
from oncourse.consistency.guidelines import Guideline, GuidelineProvenance, GuidelineScope
from oncourse.memory.embedding import MiniLMEmbedder, count_tokens
from oncourse.memory.inject import DEFAULT_MIN_SIMILARITY, HEADER, inject, memory_hook
from oncourse.memory.store import GuidelineMemory

GUIDELINES = {
    "contacts": Guideline(
        trigger="The user wants to email a colleague and the contact search returns several "
        "people with the same name",
        instruction="Pick the contact whose email domain matches the user's company before "
        "sending.",
        scope=GuidelineScope(tools=["search_contacts", "send_email"]),
    ),
    "cancel": Guideline(
        trigger="The user wants to cancel a basic economy flight reservation",
        instruction="Check the cancellation policy before calling cancel_reservation and "
        "refuse when no refund is allowed.",
        scope=GuidelineScope(tools=["cancel_reservation", "get_reservation_details"]),
    ),
    "invoice": Guideline(
        trigger="The user wants to pay an invoice and several unpaid invoices from the same "
        "vendor are listed",
        instruction="Pay the invoice whose period matches the one the user named, not the "
        "first one listed.",
        scope=GuidelineScope(tools=["list_invoices", "pay_invoice"]),
    ),
    "meeting": Guideline(
        trigger="The user wants to schedule a meeting and the calendar shows a conflict",
        instruction="Propose the next free slot instead of double-booking the attendees.",
        scope=GuidelineScope(tools=["list_events", "create_event"]),
    ),
}

PARAPHRASES = [
    ("contacts", "Email my colleague Ann Lee; the contact search shows two people called Ann Lee."),
    ("cancel", "I'd like to cancel my basic economy booking and get my money back."),
    ("invoice", "Settle Contoso's unpaid bill for March; they have sent several invoices."),
    ("meeting", "Set up a one hour meeting with Bob tomorrow, my calendar is already busy."),
]

UNRELATED = [
    "What is the capital of France?",
    "Translate this poem into German.",
    "Compute the derivative of x squared.",
    "Summarise the plot of Hamlet in three sentences.",
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    path = tmp_path_factory.mktemp("retrieval") / "m.db"
    memory = GuidelineMemory(path, embedder=MiniLMEmbedder())
    for name, guideline in GUIDELINES.items():
        stored = memory.add(
            guideline.model_copy(
                update={
                    "id": f"g-{name}",
                    "status": "active",
                    "provenance": [GuidelineProvenance(source_tasks=[name])],
                }
            )
        )
        assert stored.id == f"g-{name}"  # four different rules: nothing merges
    return memory


@pytest.mark.parametrize(("name", "task"), PARAPHRASES)
def test_a_paraphrased_task_retrieves_its_guideline(store, name, task):
    hits = store.search(task, k=3, min_similarity=DEFAULT_MIN_SIMILARITY)
    assert hits, f"nothing above {DEFAULT_MIN_SIMILARITY} for {task!r}"
    assert hits[0].guideline.id == f"g-{name}"


@pytest.mark.parametrize("task", UNRELATED)
def test_an_unrelated_task_retrieves_nothing_above_the_threshold(store, task):
    assert store.search(task, k=3, min_similarity=DEFAULT_MIN_SIMILARITY) == []
    # ... although the index does return neighbours when no threshold is set.
    assert len(store.search(task, k=3, min_similarity=-1.0)) == 3


def test_near_paraphrase_of_a_guideline_merges_with_real_embeddings(tmp_path):
    memory = GuidelineMemory(tmp_path / "m.db", embedder=MiniLMEmbedder())
    first = memory.add(
        GUIDELINES["cancel"].model_copy(
            update={"provenance": [GuidelineProvenance(source_tasks=["a"])]}
        )
    )
    reworded = Guideline(
        trigger="The user wants to cancel a basic economy flight reservation.",
        instruction="Check the cancellation policy before you call cancel_reservation, and "
        "refuse when no refund is allowed.",
        provenance=[GuidelineProvenance(source_tasks=["b"])],
    )
    assert memory.add(reworded).id == first.id
    assert memory.get(first.id).source_tasks() == ["a", "b"]


def test_injection_respects_the_budget_and_orders_by_relevance(store):
    task = "Cancel my basic economy reservation and email my colleague Ann about it."
    full = inject(
        store, task, "You are a helpful agent.", k=4, min_similarity=0.1, budget_tokens=1000
    )
    assert full.system_prompt.startswith("You are a helpful agent.\n\n" + HEADER)
    assert len(full.guideline_ids) >= 2
    assert full.similarities == sorted(full.similarities, reverse=True)
    assert full.tokens == count_tokens(full.block)
    # A budget that fits the header and one entry only keeps the most relevant one.
    one = count_tokens(full.block.split("\n2. ")[0])
    tight = inject(store, task, "Base.", k=4, min_similarity=0.1, budget_tokens=one)
    assert tight.guideline_ids == full.guideline_ids[:1]
    assert tight.tokens <= one
    for budget in (40, 60, 90, 150):
        result = inject(store, task, "Base.", k=4, min_similarity=0.1, budget_tokens=budget)
        assert result.tokens <= budget
        assert count_tokens(result.block) <= budget


def test_no_injection_leaves_the_prompt_unchanged(store):
    result = inject(store, "What is the capital of France?", "Base prompt.")
    assert result.system_prompt == "Base prompt." and result.guideline_ids == []
    assert result.tokens == 0
    too_small = inject(store, PARAPHRASES[1][1], "Base prompt.", budget_tokens=5)
    assert too_small.guideline_ids == []


def test_tools_filter_leaves_out_guidelines_for_tools_the_task_lacks(store):
    task = PARAPHRASES[1][1]
    assert inject(
        store, task, "", tools=["cancel_reservation", "get_reservation_details", "respond"]
    ).guideline_ids == ["g-cancel"]
    assert inject(store, task, "", tools=["respond", "search_flights"]).guideline_ids == []


def test_memory_hook_returns_the_block_and_counts_injections(tmp_path):
    memory = GuidelineMemory(tmp_path / "m.db", embedder=MiniLMEmbedder())
    memory.add(GUIDELINES["meeting"].model_copy(update={"id": "g-m", "status": "active"}))
    hook = memory_hook(memory)
    text, ids = hook(PARAPHRASES[3][1], ["list_events", "create_event"])
    assert ids == ["g-m"] and text.startswith(HEADER) and "double-booking" in text
    assert memory.get("g-m").counters.injected == 1
    assert hook("Translate this poem into German.", None) == ("", [])
