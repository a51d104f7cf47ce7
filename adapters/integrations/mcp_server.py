"""Serve the guideline memory over MCP (the official `mcp` SDK): `oncourse mcp --memory PATH`.

Tools (always): `get_guidelines(task, tools?)` returns the block the agent would get, exactly as
`oncourse.memory.inject.inject` builds it, with the guideline ids; `report_outcome(guideline_ids,
success, run_id?)` counts a run's outcome on the guidelines it was given and returns their
counters; `search_guidelines(query, k)` lists plain nearest neighbours; `list_guidelines(status)`.
With `allow_writes`: `add_guideline` (through `oncourse.memory.admit`: screened, deduped; what
fails the screen is quarantined) and `retire_guideline`. Nothing else changes the store; a
`get_guidelines` call counts nothing, since only the agent knows whether it used the block.
"""

from __future__ import annotations

import functools
import ipaddress
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from oncourse.consistency.errors import ConfigError, OncourseError
from oncourse.consistency.guidelines import (
    GUIDELINE_STATUSES,
    Guideline,
    GuidelineCounters,
    GuidelineScope,
)
from oncourse.memory.inject import DEFAULT_MIN_SIMILARITY, inject
from oncourse.memory.store import GuidelineMemory
from pydantic import BaseModel, Field

SERVER_NAME = "oncourse-memory"


class GuidelineBlock(BaseModel):
    """What `get_guidelines` returns: the prompt block and which guidelines are in it."""

    block: str = Field(description="Text to append to the system prompt ('' when none apply).")
    guideline_ids: list[str] = Field(description="Ids of the guidelines in the block, in order.")
    similarities: list[float] = Field(description="Cosine of each to the task.")
    tokens: int = Field(description="Tokens of the block.")


class GuidelineSummary(BaseModel):
    """One guideline as the tools list it."""

    id: str = Field(description="Guideline id.")
    status: str = Field(description="proposed, active, retired or quarantined.")
    trigger: str = Field(description="When it applies.")
    instruction: str = Field(description="What to do.")
    tools: list[str] = Field(description="Tools it names (its scope).")
    similarity: float | None = Field(default=None, description="Cosine to the query (search).")


class GuidelineList(BaseModel):
    """A list of guidelines."""

    guidelines: list[GuidelineSummary] = Field(description="The guidelines.")


class OutcomeCounters(BaseModel):
    """A guideline's counters after an outcome was reported."""

    id: str = Field(description="Guideline id.")
    counters: GuidelineCounters = Field(description="Injections and outcomes with / without it.")


class OutcomeReport(BaseModel):
    """What `report_outcome` did."""

    counted: list[OutcomeCounters] = Field(description="Counters of each guideline counted.")
    unknown: list[str] = Field(description="Ids not in the store (not counted).")
    already_reported: bool = Field(description="True when this run_id was counted before.")


class AddResult(BaseModel):
    """What `add_guideline` did."""

    outcome: str = Field(description="added, merged or quarantined.")
    id: str = Field(description="Id of the stored guideline (the existing one on a merge).")
    status: str = Field(description="Its status now.")
    quarantine_reasons: list[str] = Field(description="Why the screen set it aside, if it did.")


def _summary(guideline: Guideline, similarity: float | None = None) -> GuidelineSummary:
    return GuidelineSummary(
        id=guideline.id,
        status=guideline.status,
        trigger=guideline.trigger,
        instruction=guideline.instruction,
        tools=list(guideline.scope.tools),
        similarity=similarity,
    )


class MemoryTools:
    """The tool functions, bound to one store; usable without MCP (tests, other servers)."""

    def __init__(
        self,
        memory: GuidelineMemory,
        k: int = 5,
        min_similarity: float = DEFAULT_MIN_SIMILARITY,
        budget_tokens: int = 300,
    ):
        self.memory = memory
        self.k = k
        self.min_similarity = min_similarity
        self.budget_tokens = budget_tokens
        self._reported: set[str] = set()
        self._lock = threading.Lock()

    def get_guidelines(self, task: str, tools: Sequence[str] | None = None) -> GuidelineBlock:
        """The guideline block the agent would get for this task (same call as `inject`)."""
        found = inject(
            self.memory,
            task,
            "",
            tools=None if tools is None else list(tools),
            k=self.k,
            min_similarity=self.min_similarity,
            budget_tokens=self.budget_tokens,
        )
        return GuidelineBlock(
            block=found.block,
            guideline_ids=found.guideline_ids,
            similarities=found.similarities,
            tokens=found.tokens,
        )

    def report_outcome(
        self, guideline_ids: Sequence[str], success: bool, run_id: str | None = None
    ) -> OutcomeReport:
        """Count one run's outcome on the guidelines it was given; a run_id counts once."""
        with self._lock:
            if run_id is not None and run_id in self._reported:
                return OutcomeReport(counted=[], unknown=[], already_reported=True)
            if run_id is not None:
                self._reported.add(run_id)
        counted, unknown = [], []
        for guideline_id in dict.fromkeys(guideline_ids):
            if guideline_id not in self.memory:
                unknown.append(guideline_id)
                continue
            updated = self.memory.record_outcome(guideline_id, success=success, injected=True)
            counted.append(OutcomeCounters(id=updated.id, counters=updated.counters))
        return OutcomeReport(counted=counted, unknown=unknown, already_reported=False)

    def search_guidelines(self, query: str, k: int = 5) -> GuidelineList:
        """Plain nearest neighbours of the query among active guidelines (no floor, no scope)."""
        hits = self.memory.search(query, k=k, min_similarity=-1.0, status="active")
        return GuidelineList(guidelines=[_summary(h.guideline, h.similarity) for h in hits])

    def list_guidelines(self, status: str = "active") -> GuidelineList:
        """Every guideline with this status (`all` for every one), oldest first."""
        if status != "all" and status not in GUIDELINE_STATUSES:
            known = ", ".join(GUIDELINE_STATUSES)
            raise ConfigError(f"unknown status {status!r}; use all or {known}")
        chosen: Any = None if status == "all" else status
        return GuidelineList(guidelines=[_summary(g) for g in self.memory.all(chosen)])

    def add_guideline(
        self,
        trigger: str,
        instruction: str,
        tools: Sequence[str] = (),
        rationale: str = "",
        activate: bool = False,
    ) -> AddResult:
        """Add a guideline through the memory's screen and dedupe (`admit`)."""
        from oncourse.memory.admit import admit

        guideline = Guideline(
            trigger=trigger,
            instruction=instruction,
            rationale=rationale,
            scope=GuidelineScope(tools=list(tools)),
        )
        status: Literal["proposed", "active"] = "active" if activate else "proposed"
        (admission,) = admit(self.memory, [guideline], status=status)
        stored = admission.guideline
        return AddResult(
            outcome=admission.outcome,
            id=stored.id,
            status=stored.status,
            quarantine_reasons=list(stored.quarantine_reasons),
        )

    def retire_guideline(self, guideline_id: str) -> GuidelineSummary:
        """Stop injecting a guideline (it stays in the store with its provenance)."""
        return _summary(self.memory.retire(guideline_id))


def _as_tool_error(function: Callable[..., Any], tool_error: type[Exception]) -> Any:
    """The function, with the project's errors passed to the client as tool errors."""

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except OncourseError as exc:
            raise tool_error(str(exc)) from None

    return call


def build_server(
    memory_path: str | Path,
    allow_writes: bool = False,
    memory: GuidelineMemory | None = None,
    **settings: Any,
) -> Any:
    """An `MCPServer` exposing the memory's tools (writes only with `allow_writes`)."""
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError as exc:
        raise ConfigError(
            f"the MCP server needs the mcp package (>= 2): pip install 'oncourse[mcp]' ({exc})"
        ) from None
    if memory is None:
        memory = GuidelineMemory(memory_path)  # a file or a postgresql:// URL
        if not memory.backend.exists():
            raise ConfigError(
                f"{memory.backend.location}: no guideline store there "
                "(create one with `oncourse learn`)"
            )
    tools = MemoryTools(memory, **settings)
    server = MCPServer(
        SERVER_NAME,
        instructions="Guidelines learned from earlier runs of this agent. Call get_guidelines "
        "with the task before starting; add the block to your instructions; call "
        "report_outcome with the ids and whether the task succeeded.",
    )
    offered: list[Callable[..., Any]] = [
        tools.get_guidelines,
        tools.search_guidelines,
        tools.list_guidelines,
        tools.report_outcome,
    ]
    if allow_writes:
        offered += [tools.add_guideline, tools.retire_guideline]
    for function in offered:
        server.tool()(_as_tool_error(function, ToolError))
    return server


_LOOPBACK_NAMES = {"localhost", "ip6-localhost"}


def is_loopback(host: str) -> bool:
    """Whether a host name or address is the local machine only."""
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def http_address(value: str, allow_remote: bool = False) -> tuple[str, int]:
    """`--http HOST:PORT` (or PORT alone, on 127.0.0.1) as (host, port); loopback unless allowed.

    The server has no authentication, so a non-loopback address needs `allow_remote`.
    """
    host, _, port = value.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"--http {value!r}: expected HOST:PORT with a port from 1 to 65535")
    if not is_loopback(host) and not allow_remote:
        raise ConfigError(
            f"--http {value}: not a loopback address; the server has no authentication, "
            "add --allow-remote to serve it anyway"
        )
    return host, int(port)


__all__ = [
    "http_address",
    "is_loopback",
    "AddResult",
    "GuidelineBlock",
    "GuidelineList",
    "GuidelineSummary",
    "MemoryTools",
    "OutcomeReport",
    "build_server",
]
