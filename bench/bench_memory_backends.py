"""Search and write latency of the guideline memory on SQLite and on PostgreSQL, 10,000 rows.

The same 10,000 guidelines go into an SQLite file and into a Postgres store (a throwaway server
on loopback unless `--postgres URL` is given); vectors as in bench_memory.py: `--base` distinct
sentences embedded with the real all-MiniLM-L6-v2, the rest perturbed copies of them. Then, per
backend, through `GuidelineMemory`:

- search: `search(vector, k=5)` for fresh query vectors (faiss + the backend's row fetch), p50,
  p95, p99 in ms, after one warm-up search;
- cold open: the first search of a new handle (SQLite: index cache file loaded and checked;
  Postgres: index built from the rows it fetches);
- add: one `add` with dedupe on into the full store (lock + transaction + index catch-up), and
  `record_injection` of one id (a counter bump), p50 and p95 over `--writes` calls.

    python bench/bench_memory_backends.py [--n 10000] [--base 1000] [--queries 500]
Prints one JSON object on stdout, progress on stderr.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from bench_memory import PrecomputedEmbedder, guideline_texts, pct, perturb  # noqa: E402
from oncourse.consistency.guidelines import Guideline, GuidelineScope  # noqa: E402
from oncourse.memory.embedding import MiniLMEmbedder  # noqa: E402
from oncourse.memory.store import GuidelineMemory  # noqa: E402


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def timings(calls: list[Callable[[], Any]]) -> list[float]:
    out = []
    for call in calls:
        started = time.perf_counter()
        call()
        out.append((time.perf_counter() - started) * 1000)
    return out


def summary(values: list[float]) -> dict[str, float]:
    return {f"p{q}": round(pct(values, q), 3) for q in (50, 95, 99)}


def measure(
    location: str, embedder: Any, guidelines: list[Guideline], queries: np.ndarray, writes: int
) -> dict[str, Any]:
    store = GuidelineMemory(location, embedder=embedder)
    started = time.perf_counter()
    store.add_many(guidelines, dedupe=False, chunk=5000)
    add_many_s = time.perf_counter() - started
    store.close()  # writes the SQLite cache file; Postgres keeps none
    cold = GuidelineMemory(location, embedder=embedder)
    started = time.perf_counter()
    cold.search(queries[0], k=5)
    cold_ms = (time.perf_counter() - started) * 1000
    search = timings([lambda q=q: cold.search(q, k=5) for q in queries[1:]])
    extra = [
        Guideline(
            trigger=f"A bench situation number {i} with its own words {i * 31}",
            instruction=f"Handle bench case {i} by checking item {i * 17}.",
            status="active",
            scope=GuidelineScope(tools=["bench_tool"]),
        )
        for i in range(writes)
    ]
    add = timings([lambda g=g: cold.add(g) for g in extra])
    bump = timings([lambda: cold.record_injection([guidelines[0].id]) for _ in range(writes)])
    rows = len(cold)
    cold.close()
    return {
        "rows": rows,
        "add_many_s": round(add_many_s, 2),
        "cold_first_search_ms": round(cold_ms, 1),
        "search_ms": summary(search),
        "add_ms": summary(add),
        "record_injection_ms": summary(bump),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--base", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--writes", type=int, default=50)
    parser.add_argument("--noise", type=float, default=0.4)
    parser.add_argument("--postgres", default=None, help="Server URL (default: a throwaway one).")
    args = parser.parse_args()
    rng, nrng = random.Random(0), np.random.default_rng(0)
    texts = guideline_texts(args.base, rng)
    minilm = MiniLMEmbedder()
    base = minilm.embed([f"{t} {i}" for t, i, _ in texts])
    log(f"embedded {len(texts)} sentences with MiniLM")
    guidelines = []
    for j in range(args.n):
        trigger, instruction, tools = texts[j % len(texts)]
        if j >= len(texts):
            trigger = f"{trigger} (variant {j // len(texts)})"
        guidelines.append(
            Guideline(
                id=f"g-{j:06d}",
                trigger=trigger,
                instruction=instruction,
                status="active",
                scope=GuidelineScope(tools=tools),
            )
        )
    picks = np.arange(args.n) % len(texts)
    vectors = np.concatenate([base, perturb(base[picks[len(texts) :]], nrng, args.noise)])
    table = {g.text(): v for g, v in zip(guidelines, vectors, strict=True)}
    embedder = PrecomputedEmbedder(table, minilm)
    queries = perturb(base[nrng.integers(0, len(texts), size=args.queries + 1)], nrng, args.noise)

    from _postgres import new_store_url, throwaway_server

    result: dict[str, Any] = {"n": args.n, "base_minilm_sentences": len(texts), "backends": {}}
    with tempfile.TemporaryDirectory(prefix="bench-backends-") as tmp:
        log("sqlite ...")
        result["backends"]["sqlite"] = measure(
            str(Path(tmp) / "memory.db"), embedder, guidelines, queries, args.writes
        )
        log(json.dumps(result["backends"]["sqlite"]))
    server = nullcontext(args.postgres) if args.postgres else throwaway_server()
    with server as url:
        log("postgresql ...")
        result["backends"]["postgresql"] = measure(
            new_store_url(url), embedder, guidelines, queries, args.writes
        )
        log(json.dumps(result["backends"]["postgresql"]))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
