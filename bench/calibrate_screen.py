"""Train and calibrate the screen's meaning layer (`memory/_semantic.py`) on the corpus batches.

For the MiniLM embedder (the hashed lexical one has no probe: it reads words, not meaning, and
its probe flagged ordinary rationales) this fits an L2-regularised logistic regression (Newton's
method on the objective of scikit-learn's `LogisticRegression(C=1, class_weight="balanced")`) on
the corpus batches in `TRAINING_BATCHES` plus the intent descriptions in `memory/_semantic.py`,
picks the threshold by cross-validation over those batches (each batch scored by a probe trained
on the others; the lowest threshold, on a 0.025 grid, at which at most 2% of their benign texts
are flagged) and writes `data/screen_probe.json`.

The probe reads what the screen reads: `clauses()` of a text (sentences, clauses, the words
before a negation), and a text scores as its highest clause. A corpus label belongs to a whole
text, so the fit is multiple-instance: first on whole texts, then twice more with every clause of
a benign text as a benign example and, of a hostile text, the clause the previous fit scores
highest as a hostile one (its other clauses may be ordinary company and teach nothing).

Every training batch was written sealed and measured as held out before it joined (figures in the
README and the commit log; `eighth` was measured twice, before and after the work on `seventh` and
`ninth`, and then read and used for development; `tenth` and `eleventh` were measured before and
after a round of work, then read and trained on); `sixth`, `twelfth` and `thirteenth` (held out,
figures in the README) are never trained on: they measure the layer. `--leave-one-batch-out` is
the honest estimate for a batch nobody has seen: for each training batch, a probe trained (and
its threshold chosen) on the other training batches only, and the figures on the one left out,
for the probe alone and for the whole screen
(pattern layers, then the probe); `sixth`, `twelfth` and `thirteenth` are measured by the probe
trained on all of them.

    python bench/calibrate_screen.py [--corpus PATH] [--leave-one-batch-out] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from oncourse.memory._normalize import clean  # noqa: E402
from oncourse.memory._semantic import (  # noqa: E402
    HOSTILE,
    ORDINARY,
    PROBE_FILE,
    clauses,
    plain_words,
)

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "screen_corpus.jsonl"
OUT = ROOT / "data" / PROBE_FILE
TRAINING_BATCHES = (
    "first", "second", "third", "fourth", "fifth", "seventh", "eighth", "ninth", "tenth",
    "eleventh",
)  # fmt: skip
MEASURED_BATCHES = ("sixth", "twelfth", "thirteenth")
"""Batches the probe never trains on (nor were the pattern layers developed on them)."""
MAX_BENIGN_FLAGGED = 0.02
C = 1.0
MIL_ROUNDS = 2
GRID = tuple(round(0.5 + 0.025 * i, 3) for i in range(20))

Vectors = Callable[[list[str]], np.ndarray]


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


def memoised(embedder: object) -> Vectors:
    """The embedder's vectors (float64), each distinct text embedded once."""
    cache: dict[str, np.ndarray] = {}

    def vectors(texts: list[str]) -> np.ndarray:
        new = [t for t in dict.fromkeys(texts) if t not in cache]
        if new:
            rows = embedder.embed(new)  # type: ignore[attr-defined]
            cache.update(zip(new, np.asarray(rows, dtype=np.float64), strict=True))
        return np.array([cache[t] for t in texts]).reshape(len(texts), -1)

    return vectors


def load(corpus: Path, batches: tuple[str, ...] = TRAINING_BATCHES) -> list[dict]:
    """The corpus rows of the given batches (by default the training batches)."""
    rows = [json.loads(line) for line in corpus.read_text(encoding="utf-8").split("\n") if line]
    return [r for r in rows if r.get("batch", "first") in batches]


def train(rows: list[dict], vectors: Vectors) -> tuple[np.ndarray, float]:
    """The probe's weights and bias: whole texts first, then clauses (multiple-instance)."""
    hostile = [t for group in HOSTILE.values() for t in group]
    texts = [plain_words(clean(r["instruction"])) for r in rows] + hostile + list(ORDINARY)
    labels = [int(r["label"] == "hostile") for r in rows]
    labels += [1] * len(hostile) + [0] * len(ORDINARY)
    weights, bias = fit(vectors(texts), np.asarray(labels, dtype=float))
    parts = [clauses(r["instruction"]) for r in rows]
    for _ in range(MIL_ROUNDS):
        more, more_labels = list(texts), list(labels)
        for row, found in zip(rows, parts, strict=True):
            if not found:
                continue
            if row["label"] == "benign":
                more += found
                more_labels += [0] * len(found)
            else:
                more.append(found[int((vectors(found) @ weights).argmax())])
                more_labels.append(1)
        weights, bias = fit(vectors(more), np.asarray(more_labels, dtype=float))
    return weights, bias


def scores(rows: list[dict], weights: np.ndarray, bias: float, vectors: Vectors) -> np.ndarray:
    """P(hostile) of each row as the screen scores it: its highest clause (0 with none)."""
    out = np.zeros(len(rows))
    for i, row in enumerate(rows):
        found = clauses(row["instruction"])
        if found:
            out[i] = 1.0 / (1.0 + np.exp(-(vectors(found) @ weights + bias).max()))
    return out


def by_batch_out_of_fold(rows: list[dict], vectors: Vectors) -> np.ndarray:
    """Each row's score from a probe trained on the other batches."""
    out = np.zeros(len(rows))
    for batch in sorted({r.get("batch", "first") for r in rows}):
        held = np.array([r.get("batch", "first") == batch for r in rows])
        weights, bias = train([r for r, h in zip(rows, held, strict=True) if not h], vectors)
        out[held] = scores([r for r, h in zip(rows, held, strict=True) if h], weights, bias,
                           vectors)  # fmt: skip
    return out


def threshold(rows: list[dict], vectors: Vectors) -> tuple[float, np.ndarray]:
    """The lowest grid threshold at which cross-validation flags at most 2% of benign rows."""
    out_of_fold = by_batch_out_of_fold(rows, vectors)
    benign = np.array([r["label"] == "benign" for r in rows])
    chosen = next(
        (t for t in GRID if (out_of_fold[benign] >= t).mean() <= MAX_BENIGN_FLAGGED), 0.999
    )
    return chosen, out_of_fold


def calibrate(rows: list[dict], vectors: Vectors) -> dict:
    """The probe for one embedder, with its threshold and cross-validated figures."""
    chosen, out_of_fold = threshold(rows, vectors)
    benign = np.array([r["label"] == "benign" for r in rows])
    weights, bias = train(rows, vectors)
    return {
        "weights": [round(float(w), 6) for w in weights],
        "bias": round(bias, 6),
        "threshold": chosen,
        "cv_benign_flagged": float((out_of_fold[benign] >= chosen).mean()),
        "cv_hostile_flagged": float((out_of_fold[~benign] >= chosen).mean()),
        "rows": len(rows),
        "descriptions": sum(len(g) for g in HOSTILE.values()) + len(ORDINARY),
    }


def pattern_verdicts(rows: list[dict]) -> list[bool]:
    """Whether the pattern layers alone keep each row from becoming active (as in bench_screen)."""
    from bench_screen import KNOWN  # the same known tools as the benchmark's stores
    from oncourse.consistency.guidelines import Guideline
    from oncourse.memory.screen import active_reasons

    known = {tool for g in KNOWN for tool in g.scope.tools}
    guidelines = [Guideline(trigger=r["trigger"], instruction=r["instruction"]) for r in rows]
    return [bool(active_reasons(g, None, known)) for g in guidelines]


def measured(batch: str, rest: list[dict], test: list[dict], vectors: Vectors) -> dict:
    """One row of the table: `test` screened by the patterns, then a probe fitted on `rest`."""
    chosen, _ = threshold(rest, vectors)
    weights, bias = train(rest, vectors)
    probe = scores(test, weights, bias, vectors) >= chosen
    caught = np.asarray(pattern_verdicts(test))
    hostile = np.array([r["label"] == "hostile" for r in test])
    screened = caught | probe
    return {
        "batch": batch,
        "threshold": chosen,
        "hostile": int(hostile.sum()),
        "benign": int((~hostile).sum()),
        "probe_hostile_flagged": int(probe[hostile].sum()),
        "probe_benign_flagged": int(probe[~hostile].sum()),
        "patterns_held": int(caught[hostile].sum()),
        "patterns_benign_flagged": int(caught[~hostile].sum()),
        "screen_held": int(screened[hostile].sum()),
        "screen_benign_flagged": int(screened[~hostile].sum()),
        "missed": [r["instruction"] for r, s, h in zip(test, screened, hostile, strict=True)
                   if h and not s],
        "false_positives": [r["instruction"] for r, s, h in zip(test, screened, hostile,
                                                                strict=True) if s and not h],
    }  # fmt: skip


def leave_one_batch_out(rows: list[dict], kept_out: list[dict], vectors: Vectors) -> list[dict]:
    """Per training batch, a probe fitted on the others; then each kept-out batch, on all."""
    table = []
    for batch in TRAINING_BATCHES:
        held = [r.get("batch", "first") == batch for r in rows]
        rest = [r for r, h in zip(rows, held, strict=True) if not h]
        test = [r for r, h in zip(rows, held, strict=True) if h]
        if test:
            table.append(measured(batch, rest, test, vectors))
    for batch in MEASURED_BATCHES:
        test = [r for r in kept_out if r.get("batch", "first") == batch]
        if test:
            table.append(measured(batch, rows, test, vectors) | {"kept_out": True})
    return table


def _line(name: str, t: dict) -> str:
    n, m = t["hostile"], t["benign"]
    return (
        f"{name:<13}{t['probe_hostile_flagged']:>5}/{n:<4}{t['probe_benign_flagged']:>4}/{m:<4}|"
        f"{t['patterns_held']:>6}/{n:<4}{t['patterns_benign_flagged']:>4}/{m:<4}|"
        f"{t['screen_held']:>6}/{n:<4}{t['screen_benign_flagged']:>4}/{m}"
    )


def _print_table(table: list[dict]) -> None:
    print("left out      probe: held flagged | patterns: held flagged | screen: held flagged")
    for t in table:
        note = ", trained on every training batch" if t.get("kept_out") else ""
        print(_line(t["batch"], t) + f"   (threshold {t['threshold']}{note})")
    left_out = [t for t in table if not t.get("kept_out")]
    print(_line("all left out", {k: sum(t[k] for t in left_out) for k in left_out[0]
                                 if k != "batch" and isinstance(left_out[0][k], int)}))  # fmt: skip


def main() -> None:
    """Fit the probe and write data/screen_probe.json, or print the leave-one-batch-out table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument(
        "--leave-one-batch-out",
        action="store_true",
        help="measure each batch with a probe trained on the others (writes nothing)",
    )
    parser.add_argument("--json", action="store_true", help="the table as JSON on stdout")
    args = parser.parse_args()
    from oncourse.memory.embedding import MiniLMEmbedder

    rows = load(args.corpus)
    vectors = memoised(MiniLMEmbedder())
    if args.leave_one_batch_out:
        table = leave_one_batch_out(rows, load(args.corpus, MEASURED_BATCHES), vectors)
        if args.json:
            print(json.dumps(table, indent=2))
        else:
            _print_table(table)
        return
    probes = {"all-MiniLM-L6-v2": calibrate(rows, vectors)}
    document = {
        "about": "Logistic-regression probes for memory/_semantic.py; written by "
        "bench/calibrate_screen.py from the corpus batches " + ", ".join(TRAINING_BATCHES),
        "trained_on": list(TRAINING_BATCHES),
        "probes": probes,
    }
    OUT.write_text(json.dumps(document) + "\n", encoding="utf-8")
    for name, probe in probes.items():
        print(
            f"{name}: threshold {probe['threshold']}, cross-validated by batch on {probe['rows']} "
            f"rows: {probe['cv_benign_flagged']:.1%} of benign, {probe['cv_hostile_flagged']:.1%} "
            "of hostile flagged"
        )


if __name__ == "__main__":
    main()
