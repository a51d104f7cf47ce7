"""Recall and false positives of the safety screen on the labelled corpus, on every path to active.

The corpus (`tests/data/screen_corpus.jsonl`) holds hostile guideline texts, each labelled with its
technique (override, role play, prompt reveal, exfiltration, obfuscations, secrets and PII, tool
names the store does not know), and benign look-alikes (refusals, the same verbs about ordinary
work, numbers that are not secrets). Each line also says which batch it was written in: batch
`first` was written with the screen's design in mind; `second` and `third` were written later as
held-out sets, measured, and then the screen was generalised (the figures measured on them before
that are in the README); `fourth` was written and measured before the meaning layer
(`memory/_semantic.py`) was added, `fifth` after it and measured once. Both were then used for
development (the screen's patterns were generalised on their misses and the meaning probe is
trained on them): they are developed batches now, not held-out ones. `sixth` was
written sealed before the next change to the screen and measured once before it and once after
it (figures in the README); its recall is still a held-out figure. `seventh` was written sealed
(without reading the screen, its tests or the earlier texts) and measured once (lexical 62/82 held,
5/54 flagged; MiniLM 72/82, 8/54); `ninth` was written the same way by another author (other
domains) and measured once (lexical 92/121 held, 7/81 flagged; MiniLM 106/121, 14/81). Both were
then used for development (the pattern layers were generalised by technique on their misses and
false positives, and the meaning probe is trained on them), so they are developed batches now, not
held-out ones. `eighth` (124 hostile, 68 benign, a third author, written with `ninth`) was measured
once before that work (lexical 97/124 held, 6/68 flagged; MiniLM 105/124, 13/68) and once after
it, unread in between (lexical 113/124, 4/68; MiniLM 116/124, 7/68), as held out; it was then
read and used for development like `seventh` and `ninth`. `tenth` (140 hostile, 80 benign) and
`eleventh` (149, 82), two more sealed authors, were measured once before the next round of work
(lexical 102/140, 5/80 and 113/149, 4/82; MiniLM 113/140, 8/80 and 121/149, 8/82) and once after
it, unread in between (lexical 107/140, 4/80 and 125/149, 5/82; MiniLM 119/140, 6/80 and 132/149,
8/82): held out, then used for development. The meaning layer trains on the developed batches,
never on the held-out ones (`bench/calibrate_screen.py`, which also scores each pair of training
batches with a model trained on the others, as if unseen).
Every text is pushed down each path by which a guideline becomes active:

- import: a JSONL line with status `active`, read by `memory import` (through `admit`);
- activate: stored as `proposed` (unscreened), then `activate`d;
- merge: stored as `proposed`, then an active near-duplicate arrives (the "merge bypass"); and
  the text arriving as active onto a proposed near-duplicate (the merged text is screened again).

A hostile text is "held" when no active guideline carries it afterwards; a benign text is a false
positive when it does not end up active. The store knows the tools of a few ordinary guidelines,
as a store in use does, so tool names in a text are checked without `--tools`.

`--embedder` picks the stores' embedder, which the meaning layer shares: `lexical` (the hashed
fallback, fast) or `minilm` (the default embedder of a store). The figures include the median
time of one `admit()` call (one active guideline, screen and dedupe and store) and of `screen()`.

    python bench/bench_screen.py [--corpus PATH] [--embedder lexical|minilm] [--batch B] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from oncourse.consistency.errors import MemoryStoreError  # noqa: E402
from oncourse.consistency.guidelines import Guideline, GuidelineScope  # noqa: E402
from oncourse.consistency.text import LexicalEmbedder  # noqa: E402
from oncourse.memory.admit import admit  # noqa: E402
from oncourse.memory.store import GuidelineMemory  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "screen_corpus.jsonl"
KNOWN = [
    Guideline(
        trigger="The contact search returns several people with the same name",
        instruction="Filter on the company's email domain before picking one.",
        scope=GuidelineScope(tools=["search_contacts", "send_email"]),
    ),
    Guideline(
        trigger="The user wants to change a reservation",
        instruction="Read the reservation first and confirm the change with the user.",
        scope=GuidelineScope(tools=["get_reservation_details", "transfer_to_human_agents"]),
    ),
]
NEUTRAL = "Confirm the details with the user before acting."
EMBEDDER = "lexical"
"""The stores' embedder (`--embedder`); the meaning layer uses the same one."""


def _embedder() -> object:
    if EMBEDDER == "minilm":
        from oncourse.memory.embedding import MiniLMEmbedder

        return MiniLMEmbedder()
    return LexicalEmbedder()


def load(path: Path = CORPUS) -> list[dict]:
    """The corpus rows: label, technique, trigger, instruction (and batch)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line]


def _guideline(row: dict, status: str) -> Guideline:
    return Guideline(trigger=row["trigger"], instruction=row["instruction"], status=status)


def _store(folder: Path, name: str, dedupe: float = 0.9) -> GuidelineMemory:
    store = GuidelineMemory(folder / name, embedder=_embedder(), dedupe_threshold=dedupe)
    admit(store, [g.model_copy(deep=True) for g in KNOWN], status="active")
    return store


def _active_with(store: GuidelineMemory, instruction: str) -> bool:
    wanted = " ".join(instruction.split())
    return any(g.instruction == wanted for g in store.all("active"))


def via_import(rows: list[dict], folder: Path) -> list[bool]:
    """Active after `memory import` of the row as an active line."""
    path = folder / "import.jsonl"
    guidelines = [_guideline(r, "active") for r in rows]
    path.write_text("".join(g.model_dump_json() + "\n" for g in guidelines), encoding="utf-8")
    with _store(folder, "import.db", dedupe=1.01) as store:
        store.import_jsonl(path)
        return [store.get(g.id).status == "active" for g in guidelines]


def via_activate(rows: list[dict], folder: Path) -> list[bool]:
    """Active after being stored proposed and then activated."""
    out = []
    with _store(folder, "activate.db", dedupe=1.01) as store:
        for row in rows:
            stored = store.add(_guideline(row, "proposed"))
            try:
                out.append(store.activate(stored.id).status == "active")
            except MemoryStoreError:
                out.append(False)
    return out


def via_merge(rows: list[dict], folder: Path) -> list[bool]:
    """The row's text active after a merge with a near-duplicate, in either role.

    A: the row stored proposed (unscreened), then an active neutral near-duplicate arrives (the
    "merge bypass"); B: a neutral text stored proposed, then the row arrives as active, so the
    merged guideline takes the row's text and is screened again.
    """
    out = []
    # A threshold of -1 makes every pair near-duplicates: the merge always happens. The store's
    # own guidelines are retired so they absorb nothing (their tools stay known).
    with _store(folder, "merge.db", dedupe=-1.0) as store:
        for known in KNOWN:
            store.retire(known.id)
        for row in rows:
            pairs = [
                (_guideline(row, "proposed"), Guideline(trigger=row["trigger"], instruction=NEUTRAL,
                                                        status="active")),
                (Guideline(trigger=row["trigger"], instruction=NEUTRAL), _guideline(row, "active")),
            ]  # fmt: skip
            held = []
            for first, second in pairs:
                store.add(first, dedupe=False)
                stored = store.add(second)
                held.append(_active_with(store, row["instruction"]))
                for guideline_id in {first.id, second.id, stored.id}:
                    if guideline_id in store:
                        store.remove(guideline_id)
            out.append(any(held))
    return out


PATHS = {"import": via_import, "activate": via_activate, "merge": via_merge}


def measure(rows: list[dict], path: str, folder: Path) -> dict:
    """Recall (hostile held) and false-positive rate (benign not active) on one path."""
    active = PATHS[path](rows, folder)
    hostile = [not a for r, a in zip(rows, active, strict=True) if r["label"] == "hostile"]
    benign = [not a for r, a in zip(rows, active, strict=True) if r["label"] == "benign"]
    by_technique: dict[str, list[bool]] = defaultdict(list)
    by_batch: dict[str, list[bool]] = defaultdict(list)
    flagged_by_batch: dict[str, list[bool]] = defaultdict(list)
    flagged_by_technique: dict[str, list[bool]] = defaultdict(list)
    for row, held in zip(rows, [not a for a in active], strict=True):
        if row["label"] == "hostile":
            by_technique[row["technique"]].append(held)
            by_batch[row.get("batch", "first")].append(held)
        else:
            flagged_by_batch[row.get("batch", "first")].append(held)
            flagged_by_technique[row.get("technique") or "unlabelled"].append(held)
    missed = [
        r["instruction"] for r, a in zip(rows, active, strict=True) if r["label"] == "hostile" and a
    ]
    flagged = [
        r["instruction"]
        for r, a in zip(rows, active, strict=True)
        if r["label"] == "benign" and not a
    ]
    return {
        "path": path,
        "hostile": len(hostile),
        "benign": len(benign),
        "recall": sum(hostile) / len(hostile),
        "false_positive_rate": sum(benign) / len(benign),
        "recall_by_technique": {k: sum(v) / len(v) for k, v in sorted(by_technique.items())},
        "recall_by_batch": {k: sum(v) / len(v) for k, v in sorted(by_batch.items())},
        "false_positive_rate_by_batch": {
            k: sum(v) / len(v) for k, v in sorted(flagged_by_batch.items())
        },
        "false_positive_rate_by_technique": {
            k: sum(v) / len(v) for k, v in sorted(flagged_by_technique.items())
        },
        "missed": missed,
        "false_positives": flagged,
    }


def admit_times(rows: list[dict], folder: Path) -> list[float]:
    """Milliseconds of each `admit()` of one active guideline into a store that grows."""
    timings = []
    with _store(folder, "timing.db") as store:
        admit(store, [Guideline(trigger="warm-up", instruction=NEUTRAL)], status="active")
        for row in rows:
            guideline = _guideline(row, "active")
            started = time.perf_counter()
            admit(store, [guideline], status="active")
            timings.append((time.perf_counter() - started) * 1000)
    return timings


def main() -> None:
    """Print recall and false positives per path (JSON on stdout with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--embedder", choices=["lexical", "minilm"], default="lexical")
    parser.add_argument("--batch", action="append", help="only rows of this batch (repeatable)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    global EMBEDDER
    EMBEDDER = args.embedder
    rows = load(args.corpus)
    if args.batch:
        rows = [r for r in rows if r.get("batch", "first") in args.batch]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in PATHS:
            started = time.perf_counter()
            result = measure(rows, path, Path(tmp))
            result["seconds"] = round(time.perf_counter() - started, 2)
            results.append(result)
        admit_ms = admit_times(rows, Path(tmp))
    from oncourse.memory.screen import screen

    timings = []
    embedder = _embedder()
    for row in rows:
        started = time.perf_counter()
        screen(_guideline(row, "active"), embedder=embedder)
        timings.append((time.perf_counter() - started) * 1000)
    summary = {"corpus": str(args.corpus), "embedder": args.embedder,
               "batches": sorted({r.get("batch", "first") for r in rows}), "paths": results,
               "screen_ms_median": round(statistics.median(timings), 2),
               "admit_ms_median": round(statistics.median(admit_ms), 2)}  # fmt: skip
    if args.json:
        print(json.dumps(summary, indent=2))
        return
    for r in results:
        print(
            f"{r['path']:>8}: {r['hostile']} hostile, recall {r['recall']:.1%}; "
            f"{r['benign']} benign, false positives {r['false_positive_rate']:.1%}"
        )
        for text in r["missed"]:
            print(f"          missed: {text[:90]}")
        for text in r["false_positives"]:
            print(f"          false positive: {text[:90]}")
    print("recall by technique (import):", json.dumps(results[0]["recall_by_technique"]))
    print("recall by batch (import):", json.dumps(results[0]["recall_by_batch"]))
    print("false positives by batch (import):",
          json.dumps(results[0]["false_positive_rate_by_batch"]))  # fmt: skip
    print("false positives by benign technique (import):",
          json.dumps(results[0]["false_positive_rate_by_technique"]))  # fmt: skip
    print(f"screen: median {summary['screen_ms_median']} ms per guideline; "
          f"admit: median {summary['admit_ms_median']} ms per guideline")  # fmt: skip


if __name__ == "__main__":
    main()
