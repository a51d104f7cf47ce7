"""Injection: retrieve the guidelines relevant to a task and put them in the system prompt.

Every injected guideline is context the model must weigh, so injection is precise: only active
guidelines above a similarity threshold, only those whose tools the task has, most relevant first,
and no more than a token budget (300 by default) counted with the MiniLM WordPiece tokenizer
(`memory.embedding.count_tokens`; its fallback estimate is one token per 4 characters). A
guideline that does not fit is skipped, never cut in half.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from oncourse.consistency.guidelines import Guideline, GuidelineStatus, retrieval_query
from oncourse.memory.store import GuidelineMemory, SearchHit
from pydantic import BaseModel, Field

DEFAULT_MIN_SIMILARITY = 0.35
"""Cosine (MiniLM) below which a guideline is not shown: paraphrases of a task score about
0.5-0.8 against its guideline, unrelated tasks below 0.2 (see tests/test_memory_retrieval.py)."""

HEADER = (
    "## Guidelines learned from earlier runs\n"
    "Apply a guideline only when its situation matches yours; the task and the policy come first."
)

TokenCounter = Callable[[str], int]
Hook = Callable[[str, Sequence[str] | None], tuple[str, list[str]]]


class Injection(BaseModel):
    """The result of injecting guidelines into a system prompt."""

    system_prompt: str = Field(description="The base prompt with the guideline block appended.")
    guideline_ids: list[str] = Field(description="Ids of the injected guidelines, in order.")
    tokens: int = Field(description="Tokens of the guideline block (0 when nothing was injected).")
    block: str = Field(default="", description="The guideline block alone.")
    similarities: list[float] = Field(default_factory=list, description="Cosine of each one.")


def _default_counter(text: str) -> int:
    from oncourse.memory.embedding import count_tokens

    return count_tokens(text)


def render_guideline(number: int, guideline: Guideline) -> str:
    """One numbered entry: the situation, then the instruction."""
    return f"{number}. When: {guideline.trigger}\n   Do: {guideline.instruction}"


def render_block(
    hits: Iterable[SearchHit], budget_tokens: int, count_tokens: TokenCounter
) -> tuple[str, list[SearchHit], int]:
    """The guideline block within the budget, most relevant first; (block, kept hits, tokens)."""
    kept: list[SearchHit] = []
    block = ""
    tokens = 0
    for hit in hits:
        entries = [render_guideline(i + 1, h.guideline) for i, h in enumerate([*kept, hit])]
        candidate = "\n".join([HEADER, *entries])
        size = count_tokens(candidate)
        if size <= budget_tokens:
            kept.append(hit)
            block, tokens = candidate, size
    return block, kept, tokens


class InjectionPreview(BaseModel):
    """What `inject` would put in the prompt for a task (or, raw, the plain nearest neighbours)."""

    query: str = Field(description="The task text as given.")
    retrieval_query: str = Field(description="The text actually searched (abstracted unless raw).")
    mode: str = Field(description="`inject` (what injection would inject) or `raw`.")
    min_similarity: float = Field(description="The similarity floor applied.")
    hits: list[SearchHit] = Field(description="The guidelines, most relevant first.")
    block: str = Field(default="", description="The guideline block injection would append.")
    tokens: int = Field(default=0, description="Tokens of that block.")


def select(
    memory: GuidelineMemory,
    task_text: str,
    tools: Sequence[str] | None = None,
    k: int = 5,
    min_similarity: float = DEFAULT_MIN_SIMILARITY,
    budget_tokens: int = 300,
    family: str | None = None,
    count_tokens: TokenCounter | None = None,
    abstract_query: bool = True,
) -> InjectionPreview:
    """The guidelines injection picks for a task, and its block; nothing is written."""
    counter = count_tokens or _default_counter
    query = retrieval_query(task_text) if abstract_query else task_text
    hits = memory.search(
        query, k=k, min_similarity=min_similarity, status="active", tools=tools, family=family
    )
    block, kept, tokens = render_block(hits, budget_tokens, counter)
    return InjectionPreview(
        query=task_text,
        retrieval_query=query,
        mode="inject",
        min_similarity=min_similarity,
        hits=kept,
        block=block if kept else "",
        tokens=tokens if kept else 0,
    )


def search_preview(
    memory: GuidelineMemory,
    task_text: str,
    k: int = 5,
    min_similarity: float | None = None,
    statuses: Iterable[GuidelineStatus] | None = ("active",),
    tools: Sequence[str] | None = None,
    family: str | None = None,
    raw: bool = False,
) -> InjectionPreview:
    """`oncourse memory search`: injection's pick by default; raw nearest neighbours on request.

    Injection's pick uses the same query abstraction, similarity floor, tool scope and token
    budget as `inject`. Asking for statuses other than active can only be a raw search.
    """
    wanted = None if statuses is None else set(statuses)
    if not raw and wanted == {"active"}:
        floor = DEFAULT_MIN_SIMILARITY if min_similarity is None else min_similarity
        return select(memory, task_text, tools=tools, k=k, min_similarity=floor, family=family)
    floor = 0.0 if min_similarity is None else min_similarity
    hits = memory.search(
        task_text, k=k, min_similarity=floor, status=wanted, tools=tools, family=family
    )
    return InjectionPreview(
        query=task_text, retrieval_query=task_text, mode="raw", min_similarity=floor, hits=hits
    )


def inject(
    memory: GuidelineMemory,
    task_text: str,
    base_system_prompt: str,
    tools: Sequence[str] | None = None,
    k: int = 5,
    min_similarity: float = DEFAULT_MIN_SIMILARITY,
    budget_tokens: int = 300,
    family: str | None = None,
    count_tokens: TokenCounter | None = None,
    record: bool = False,
    abstract_query: bool = True,
) -> Injection:
    """Append the relevant active guidelines to a system prompt, within a token budget.

    Args:
        memory: the guideline store.
        task_text: the task's instruction; it is the retrieval query.
        base_system_prompt: the agent's own system prompt, kept first and unchanged.
        tools: the task's tool names; guidelines naming other tools are left out.
        k: at most this many guidelines.
        min_similarity: cosine below which a guideline is not relevant.
        budget_tokens: the block (header included) never exceeds this many tokens.
        family: the task's family, to leave out guidelines scoped to other families.
        count_tokens: token counter; the MiniLM WordPiece tokenizer by default.
        record: count one injection on each injected guideline in the store.
        abstract_query: search with the task's request, values abstracted to roles, as the
            stored triggers are written (`consistency.guidelines.retrieval_query`).
    """
    chosen = select(
        memory,
        task_text,
        tools=tools,
        k=k,
        min_similarity=min_similarity,
        budget_tokens=budget_tokens,
        family=family,
        count_tokens=count_tokens,
        abstract_query=abstract_query,
    )
    kept = chosen.hits
    ids = [h.guideline.id for h in kept]
    if not kept:
        return Injection(system_prompt=base_system_prompt, guideline_ids=[], tokens=0)
    if record:
        memory.record_injection(ids)
    block = chosen.block
    prompt = f"{base_system_prompt.rstrip()}\n\n{block}" if base_system_prompt.strip() else block
    return Injection(
        system_prompt=prompt,
        guideline_ids=ids,
        tokens=chosen.tokens,
        block=block,
        similarities=[h.similarity for h in kept],
    )


def memory_hook(
    memory: GuidelineMemory,
    k: int = 5,
    min_similarity: float = DEFAULT_MIN_SIMILARITY,
    budget_tokens: int = 300,
    family: str | None = None,
    count_tokens: TokenCounter | None = None,
    record: bool = True,
) -> Hook:
    """A hook for the agent loop: `hook(task_text, tool_names) -> (extra_system_text, ids)`."""

    def hook(task_text: str, tool_names: Sequence[str] | None = None) -> tuple[str, list[str]]:
        result = inject(
            memory,
            task_text,
            "",
            tools=tool_names,
            k=k,
            min_similarity=min_similarity,
            budget_tokens=budget_tokens,
            family=family,
            count_tokens=count_tokens,
            record=record,
        )
        return result.block, result.guideline_ids

    return hook


__all__ = [
    "DEFAULT_MIN_SIMILARITY",
    "Injection",
    "InjectionPreview",
    "search_preview",
    "select",
    "inject",
    "memory_hook",
    "render_block",
    "render_guideline",
]
