"""Train and calibrate the screen's meaning layer (`memory/_semantic.py`) on the older batches.

For the MiniLM embedder (the hashed lexical one has no probe: it reads words, not meaning, and
its probe flagged ordinary rationales) this fits an L2-regularised logistic
regression (Newton's method on the objective of scikit-learn's `LogisticRegression(C=1,
class_weight="balanced")`) on the sentence vectors of the corpus batches `first` to `fifth`
plus the intent descriptions in `memory/_semantic.py`, picks the threshold by 5-fold
cross-validation on those batches (the lowest one, on a 0.05 grid, at which at most 2% of their
benign texts are flagged) and writes `data/screen_probe.json`. `fourth` and `fifth` were held out
when they were written (measured once, figures in the README) and joined the training set after;
batches written later (`sixth`, ...) are never read here: they measure the layer.

    python bench/calibrate_screen.py [--corpus PATH]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from oncourse.memory._semantic import HOSTILE, ORDINARY, PROBE_FILE, plain_words  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "screen_corpus.jsonl"
OUT = ROOT / "data" / PROBE_FILE
TRAINING_BATCHES = ("first", "second", "third", "fourth", "fifth")
MAX_BENIGN_FLAGGED = 0.02
C = 1.0


def fit(x: np.ndarray, y: np.ndarray, c: float = C) -> tuple[np.ndarray, float]:
    """Weights and bias minimising c * sum(balanced-weighted log loss) + ||w||^2 / 2 (Newton)."""
    n, d = x.shape
    sample = np.where(y == 1, n / (2 * y.sum()), n / (2 * (n - y.sum())))
    design = np.hstack([x, np.ones((n, 1))])
    theta = np.zeros(d + 1)
    ridge = np.eye(d + 1)
    ridge[d, d] = 0.0  # the intercept is not penalised
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(design @ theta)))
        gradient = c * design.T @ (sample * (p - y)) + ridge @ theta
        hessian = c * (design * (sample * p * (1 - p))[:, None]).T @ design + ridge
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if np.abs(step).max() < 1e-8:
            break
    return theta[:d], float(theta[d])


def cross_validated(x: np.ndarray, y: np.ndarray, folds: int = 5) -> np.ndarray:
    """Out-of-fold P(hostile) for every row (folds by position, every `folds`-th row)."""
    out = np.zeros(len(y))
    for fold in range(folds):
        test = np.arange(len(y)) % folds == fold
        weights, bias = fit(x[~test], y[~test])
        out[test] = 1.0 / (1.0 + np.exp(-(x[test] @ weights + bias)))
    return out


def training_set(corpus: Path) -> tuple[list[str], np.ndarray, int]:
    """Texts, labels (1 hostile) and how many of them are corpus rows (they come first)."""
    rows = [json.loads(line) for line in corpus.read_text(encoding="utf-8").split("\n") if line]
    rows = [r for r in rows if r.get("batch", "first") in TRAINING_BATCHES]
    texts = [plain_words(r["instruction"]) for r in rows]
    labels = [int(r["label"] == "hostile") for r in rows]
    descriptions = [t for group in HOSTILE.values() for t in group]
    texts += descriptions + list(ORDINARY)
    labels += [1] * len(descriptions) + [0] * len(ORDINARY)
    return texts, np.asarray(labels, dtype=float), len(rows)


def calibrate(name: str, embedder: object, corpus: Path) -> dict:
    """The probe for one embedder, with its threshold and cross-validated figures."""
    texts, y, n_rows = training_set(corpus)
    x = np.asarray(embedder.embed(texts), dtype=np.float64)  # type: ignore[attr-defined]
    out_of_fold = cross_validated(x, y)[:n_rows]
    benign = y[:n_rows] == 0
    threshold = next(
        t
        for t in np.arange(0.5, 0.999, 0.05)
        if (out_of_fold[benign] >= t).mean() <= MAX_BENIGN_FLAGGED
    )
    weights, bias = fit(x, y)
    return {
        "weights": [round(float(w), 6) for w in weights],
        "bias": round(bias, 6),
        "threshold": round(float(threshold), 2),
        "cv_benign_flagged": float((out_of_fold[benign] >= threshold).mean()),
        "cv_hostile_flagged": float((out_of_fold[~benign] >= threshold).mean()),
        "rows": n_rows,
        "descriptions": len(texts) - n_rows,
    }


def main() -> None:
    """Fit the probe and write it to data/screen_probe.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    from oncourse.memory.embedding import MiniLMEmbedder

    probes = {
        "all-MiniLM-L6-v2": calibrate("all-MiniLM-L6-v2", MiniLMEmbedder(), args.corpus),
    }
    document = {
        "about": "Logistic-regression probes for memory/_semantic.py; written by "
        "bench/calibrate_screen.py from the corpus batches " + ", ".join(TRAINING_BATCHES),
        "trained_on": list(TRAINING_BATCHES),
        "probes": probes,
    }
    OUT.write_text(json.dumps(document) + "\n", encoding="utf-8")
    for name, probe in probes.items():
        print(
            f"{name}: threshold {probe['threshold']}, cross-validated on {probe['rows']} rows: "
            f"{probe['cv_benign_flagged']:.1%} of benign, {probe['cv_hostile_flagged']:.1%} of "
            "hostile flagged"
        )


if __name__ == "__main__":
    main()
