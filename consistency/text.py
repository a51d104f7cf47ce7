"""Comparing free text by meaning: the embedder seam and a cheap lexical fallback.

The real embedder (sentence-transformers, packaged all-MiniLM-L6-v2) lives in `memory/embedding.py`;
the analyzer and the memory take any object with this Protocol.
"""

from __future__ import annotations

import hashlib
import re
from typing import Protocol, runtime_checkable

import numpy as np

_TOKEN = re.compile(r"[a-z0-9]+")


@runtime_checkable
class TextEmbedder(Protocol):
    """Turns texts into L2-normalised vectors, one row per text."""

    similarity_threshold: float
    """Cosine at or above which two texts embedded by it mean the same (its own calibration)."""

    def embed(self, texts: list[str]) -> np.ndarray:
        """Return a float32 array of shape (len(texts), dim) with unit-norm rows."""
        ...


class LexicalEmbedder:
    """Hashed word and character-trigram features: fast, deterministic, no model needed.

    Similar wording gives similar vectors; paraphrases with other words do not. Used in tests
    and as the fallback when the sentence-transformers model is not wanted.
    """

    similarity_threshold = 0.75
    """Shared wording, not meaning: rewordings of one reply score about 0.75-0.9."""

    def __init__(self, dim: int = 512):
        self.dim = dim

    def _features(self, text: str) -> list[str]:
        words = _TOKEN.findall(text.lower())
        grams = [w[i : i + 3] for w in words for i in range(max(1, len(w) - 2))]
        return words + grams

    def embed(self, texts: list[str]) -> np.ndarray:
        """Return unit-norm hashed bag-of-features vectors."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for feature in self._features(text):
                digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
                out[row, int.from_bytes(digest, "little") % self.dim] += 1.0
        return unit_rows(out)


def cosine_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine similarities between rows of two unit-norm matrices."""
    return np.asarray(a @ b.T, dtype=np.float32)


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    """`vectors` as float32 rows scaled to unit length (all-zero rows stay zero)."""
    rows = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.asarray(rows / norms, dtype=np.float32)
