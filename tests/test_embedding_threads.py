"""Regression: the shared MiniLM tokenizer used from the runner's threads.

Bug guarded: with embedding and token counting running in several threads at once, the fast
tokenizer's per-call padding state raced and `encode` raised "Unable to create tensor"; in an
eval that became a failed memory-arm run (a false harm). Now the tokenizers are set up once at
load (one for the model, one for counting) and never change settings; embedding is one call at a
time under a lock.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from oncourse.memory.embedding import MiniLMEmbedder, count_tokens


@pytest.mark.slow
def test_embed_and_count_tokens_from_many_threads():
    texts = [
        f"Email contact {i} at company {i % 7} about invoice {i * 13} {'x' * (i % 11)}"
        for i in range(240)
    ]
    serial = {t: count_tokens(t) for t in texts[:20]}

    def job(i: int) -> int | None:
        if i % 2:
            return count_tokens(texts[i % 20])
        MiniLMEmbedder().embed([texts[i], texts[i] + " and a longer tail of words"])
        return None

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(job, range(240)))
    counts = [(texts[i % 20], c) for i, c in enumerate(results) if c is not None]
    assert all(serial[t] == c for t, c in counts)
