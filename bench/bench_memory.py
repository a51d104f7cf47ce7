"""Benchmark of the guideline memory at 100,000 guidelines.

What is measured (all through `GuidelineMemory`, on this machine's CPUs):

- add: bulk `add_many` of N guidelines (dedupe off, as an import would), then single `add` calls
  with dedupe on into the full store (per-call latency: embedding + lock + transaction + index);
- size: the SQLite file and the serialized faiss index (HNSW above `hnsw_threshold`);
- search: per-query latency of `search` with a precomputed query vector (faiss + SQLite fetch +
  record decode), of the raw faiss call, of `search_many` for a batch (per query), and of
  `search` from text (MiniLM embedding included);
- recall@5 of the HNSW index against exact flat search on the same vectors.

The text is realistic and clustered: B distinct guideline sentences are generated from templates
(domains x situations x actions) and embedded with the real all-MiniLM-L6-v2; the N stored vectors
are those B embeddings plus N - B perturbed copies (cosine about 0.93 to their base), so that
near-neighbours are crowded as in a memory of many similar rules. Embedding all 100k sentences
would take minutes on 2 cores and measure the embedder, not the store; the output says which
vectors were real. Queries are fresh perturbations of random base vectors (not stored).

    python bench/bench_memory.py [--n 100000] [--base 10000] [--queries 1000] [--out PATH]
Prints a human summary on stderr and one JSON object on stdout.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from oncourse.consistency.guidelines import Guideline, GuidelineProvenance, GuidelineScope  # noqa: E402
from oncourse.memory.embedding import MiniLMEmbedder  # noqa: E402
from oncourse.memory.store import GuidelineMemory  # noqa: E402

DOMAINS = {
    "airline": ("get_reservation_details", "update_reservation_flights", "reservation", "flight"),
    "retail": ("get_order_details", "exchange_delivered_order_items", "order", "item"),
    "email": ("search_contacts", "send_email", "contact", "message"),
    "calendar": ("list_events", "create_event", "meeting", "time slot"),
    "billing": ("list_invoices", "pay_invoice", "invoice", "payment"),
    "files": ("search_files", "move_file", "document", "folder"),
    "banking": ("get_account", "transfer_funds", "account", "transfer"),
    "telecom": ("get_plan", "change_plan", "subscription", "plan"),
    "insurance": ("get_policy", "file_claim", "policy", "claim"),
    "support": ("search_tickets", "update_ticket", "ticket", "issue"),
}
SHAPES = [
    "several results",
    "no results",
    "one result",
    "an error",
    "a record with several {obj}s",
    "two {obj}s with the same name",
    "an expired {obj}",
    "a {obj} in another currency",
    "a {obj} that was already changed",
    "a {obj} owned by someone else",
    "a {other} that is no longer available",
    "a list sorted by price",
]
ACTIONS = [
    "confirm the {obj} with the user before you call {write}",
    "check the {obj} against the task before you call {write}",
    "ask the user which {obj} they mean rather than picking the first",
    "call {read} again with the id from the task rather than guessing",
    "stop and explain the policy rather than call {write}",
    "filter the {obj}s on the date the user gave before choosing",
    "prefer the {other} the user named over the cheapest one",
    "transfer to a human agent rather than call {write} twice",
    "read the {obj} details once more before replying",
    "quote the policy on {other}s before offering an alternative",
    "call {write} only after the user says yes explicitly",
    "keep the original {other} unless the user asks to change it",
]
OPENERS = [
    "The user wants to change a {obj}",
    "The user asks to cancel a {obj}",
    "The user wants a refund for a {obj}",
    "The user asks about a {other}",
    "The user reports a problem with a {obj}",
    "The user wants to add a {other} to a {obj}",
    "The user is unsure which {obj} to pick",
    "A returning user asks to update a {obj}",
]


def guideline_texts(count: int, rng: random.Random) -> list[tuple[str, str, list[str]]]:
    """`count` distinct (trigger, instruction, tools) from the templates, shuffled."""
    combos = list(itertools.product(DOMAINS.items(), SHAPES, ACTIONS, OPENERS))
    rng.shuffle(combos)
    out = []
    for (_domain, (read, write, obj, other)), shape, action, opener in combos[:count]:
        fill = {"obj": obj, "other": other, "read": read, "write": write}
        trigger = f"{opener.format(**fill)} and {read} returns {shape.format(**fill)}"
        instruction = action.format(**fill)
        out.append((trigger, instruction[0].upper() + instruction[1:] + ".", [read, write]))
    return out


class PrecomputedEmbedder:
    """Returns stored vectors for known texts (the bench's perturbed copies); MiniLM otherwise."""

    name = "all-MiniLM-L6-v2"  # the same space as the real embedder

    def __init__(self, table: dict[str, np.ndarray], fallback: MiniLMEmbedder):
        self.table = table
        self.fallback = fallback

    def embed(self, texts: list[str]) -> np.ndarray:
        """Vectors from the table, or from MiniLM for unknown texts."""
        missing = [t for t in texts if t not in self.table]
        if missing:
            self.table.update(zip(missing, self.fallback.embed(missing), strict=True))
        return np.stack([self.table[t] for t in texts]).astype(np.float32)


def perturb(base: np.ndarray, rng: np.random.Generator, noise: float) -> np.ndarray:
    """Unit vectors near `base` rows: base + isotropic noise of relative size `noise`."""
    jitter = rng.standard_normal(base.shape).astype(np.float32) * (noise / np.sqrt(base.shape[1]))
    out = base + jitter
    return out / np.linalg.norm(out, axis=1, keepdims=True)


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) of values, in the same unit."""
    return float(np.percentile(np.asarray(values), q))


def main() -> None:
    """Run the benchmark and print the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--base", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--noise", type=float, default=0.4)
    parser.add_argument("--out", type=Path, default=None, help="Store dir (default: a temp dir).")
    parser.add_argument(
        "--reuse", action="store_true", help="Reuse the store in --out: measure searches only."
    )
    parser.add_argument(
        "--embedding-cache", type=Path, default=None, help="Reuse the base MiniLM vectors (.npy)."
    )
    args = parser.parse_args()
    log = lambda msg: print(msg, file=sys.stderr, flush=True)  # noqa: E731
    rng = random.Random(0)
    nrng = np.random.default_rng(0)

    texts = guideline_texts(min(args.base, args.n), rng)
    load_start = os.getloadavg()[0]
    minilm = MiniLMEmbedder()
    cache = args.embedding_cache
    t0 = time.perf_counter()
    if cache is not None and cache.exists() and len(np.load(cache)) == len(texts):
        base = np.load(cache)
        embed_s = float("nan")
        log(f"loaded {len(texts)} MiniLM vectors from {cache}")
    else:
        base = minilm.embed([f"{t} {i}" for t, i, _ in texts])
        embed_s = time.perf_counter() - t0
        if cache is not None:
            np.save(cache, base)
        log(
            f"embedded {len(texts)} distinct sentences with MiniLM in {embed_s:.1f} s "
            f"({len(texts) / embed_s:.0f}/s)"
        )

    guidelines, table = [], {}
    for j in range(args.n):
        trigger, instruction, tools = texts[j % len(texts)]
        if j >= len(texts):
            trigger = f"{trigger} (variant {j // len(texts)})"
        g = Guideline(
            id=f"g-{j:06d}",
            trigger=trigger,
            instruction=instruction,
            status="active",
            scope=GuidelineScope(tools=tools),
            provenance=[GuidelineProvenance(source_tasks=[f"task-{j % 997}"], generator="bench")],
        )
        guidelines.append(g)
    vectors = np.concatenate(
        [base, perturb(base[np.arange(len(texts), args.n) % len(texts)], nrng, args.noise)]
    )[: args.n]
    for g, v in zip(guidelines, vectors, strict=True):
        table[g.text()] = v
    cos = np.sum(
        vectors[len(texts) :][:2000] * base[np.arange(len(texts), len(texts) + 2000) % len(texts)],
        axis=1,
    )
    log(
        f"{args.n} vectors: {len(texts)} real MiniLM + {args.n - len(texts)} perturbed copies "
        f"(median cosine to base {np.median(cos):.3f})"
    )

    workdir = Path(tempfile.mkdtemp(prefix="bench-memory-")) if args.out is None else args.out
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / "memory.db"
    embedder = PrecomputedEmbedder(table, minilm)
    store = GuidelineMemory(path, embedder=embedder)
    add_s = save_s = float("nan")
    if args.reuse and path.exists():
        t0 = time.perf_counter()
        info = store.index_info()  # loads the index file
        log(f"reused {path}: index loaded in {time.perf_counter() - t0:.1f} s")
    else:
        t0 = time.perf_counter()
        store.add_many(guidelines, dedupe=False, chunk=5000)
        add_s = time.perf_counter() - t0
        log(f"add_many: {args.n} guidelines in {add_s:.1f} s ({args.n / add_s:.0f}/s)")
        t0 = time.perf_counter()
        store.save_index()
        save_s = time.perf_counter() - t0
        info = store.index_info()
    index_bytes = store.index_path.stat().st_size

    # Queries: fresh perturbations of random base vectors.
    picks = nrng.integers(0, len(texts), size=args.queries)
    queries = perturb(base[picks], nrng, args.noise)
    store.search(queries[0], k=5, status=None)  # warm
    single = []
    for q in queries:
        t = time.perf_counter()
        store.search(q, k=5, status=None)
        single.append((time.perf_counter() - t) * 1000)
    index = store._cache.index  # the bench reads the raw faiss index for the recall check
    assert index is not None
    raw = []
    for q in queries:
        t = time.perf_counter()
        index.search(q.reshape(1, -1), 5)
        raw.append((time.perf_counter() - t) * 1000)
    batch_ms = []
    for _ in range(5):
        t = time.perf_counter()
        store.search_many(queries, k=5, status=None)
        batch_ms.append((time.perf_counter() - t) * 1000 / len(queries))

    # Recall@5 of the store's HNSW index against exact search over the store's own rows, for
    # the perturbed queries and for real MiniLM sentences that are not in the store.
    import faiss

    with store.backend.read() as session:
        ids_all, vecs_all = session.vectors_above(0)
    exact_index = faiss.IndexIDMap2(faiss.IndexFlatIP(vecs_all.shape[1]))
    exact_index.add_with_ids(np.ascontiguousarray(vecs_all), ids_all)
    held_out = guideline_texts(min(len(texts) + 200, 11520), random.Random(0))[len(texts) :]
    real_queries = minilm.embed([f"{t} {i}" for t, i, _ in held_out])

    def recall_at_5(qs: np.ndarray) -> float:
        _, approx = index.search(qs, 5)
        _, exact = exact_index.search(qs, 5)
        pairs = zip(approx, exact, strict=True)
        return float(np.mean([len(set(a) & set(e)) / 5 for a, e in pairs]))

    recall = recall_at_5(queries)
    recall_real = recall_at_5(real_queries) if len(real_queries) else float("nan")

    # Text queries (MiniLM embedding included), and single adds with dedupe on.
    phrases = [f"{t} please" for t, _, _ in rng.sample(texts, 100)]
    text_ms = []
    for phrase in phrases:
        t = time.perf_counter()
        store.search(phrase, k=5, status=None)
        text_ms.append((time.perf_counter() - t) * 1000)
    adds = []
    for j in range(100):
        trigger, instruction, tools = texts[rng.randrange(len(texts))]
        g = Guideline(
            trigger=f"{trigger} extra {j}",
            instruction=instruction,
            status="proposed",
            scope=GuidelineScope(tools=tools),
        )
        t = time.perf_counter()
        store.add(g)
        adds.append((time.perf_counter() - t) * 1000)
    store.close()
    db_bytes = path.stat().st_size  # after close: the WAL is checkpointed into the file

    result = {
        "n": args.n,
        "real_minilm_vectors": len(texts),
        "perturbed_vectors": args.n - len(texts),
        "index_kind": info["kind"],
        "add_many_s": None if add_s != add_s else round(add_s, 2),
        "add_many_per_s": None if add_s != add_s else round(args.n / add_s),
        "save_index_s": None if save_s != save_s else round(save_s, 2),
        "single_add_dedupe_ms": {"p50": round(pct(adds, 50), 2), "p95": round(pct(adds, 95), 2)},
        "sqlite_bytes": db_bytes,
        "index_bytes": index_bytes,
        "search_vector_ms": {"p50": round(pct(single, 50), 3), "p95": round(pct(single, 95), 3)},
        "faiss_only_ms": {"p50": round(pct(raw, 50), 3), "p95": round(pct(raw, 95), 3)},
        "search_many_ms_per_query": round(statistics.median(batch_ms), 3),
        "batch_size": len(queries),
        "search_text_ms": {"p50": round(pct(text_ms, 50), 2), "p95": round(pct(text_ms, 95), 2)},
        "recall_at_5_hnsw_vs_flat": round(recall, 4),
        "recall_at_5_real_sentences": round(recall_real, 4),
        "real_sentence_queries": len(real_queries),
        "minilm_embed_per_s": None if embed_s != embed_s else round(len(texts) / embed_s),
        "load_average_1min": [round(load_start, 2), round(os.getloadavg()[0], 2)],
        "cpus": os.cpu_count(),
        "store": str(path),
    }
    log(
        f"index {info['kind']}: {index_bytes / 1e6:.0f} MB; sqlite {db_bytes / 1e6:.0f} MB\n"
        f"search (vector) p50 {result['search_vector_ms']['p50']} ms, "
        f"p95 {result['search_vector_ms']['p95']} ms; faiss alone p95 "
        f"{result['faiss_only_ms']['p95']} ms; batch of {len(queries)}: "
        f"{result['search_many_ms_per_query']} ms/query\n"
        f"search (text, MiniLM included) p50 {result['search_text_ms']['p50']} ms\n"
        f"single add with dedupe p50 {result['single_add_dedupe_ms']['p50']} ms\n"
        f"recall@5 HNSW vs flat: {recall:.4f} (perturbed queries), {recall_real:.4f} "
        f"({len(real_queries)} held-out real sentences)"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
