"""The evolve loop: a guideline that lowers all-N in validation ends retired; a good one active."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from oncourse.adapters.evolve import evolve
from oncourse.adapters.models.scripted import FunctionModel
from oncourse.adapters.runner import derive_seed
from oncourse.consistency.chat import AssistantMessage, Message, ModelSettings, ToolCall, ToolSpec
from oncourse.consistency.errors import InputError
from oncourse.consistency.guidelines import Guideline, GuidelineProvenance, NoGuideline
from oncourse.memory.store import GuidelineMemory

from tests._tiny_suite import TinySuite

HELPFUL = Guideline(
    trigger="Emailing Ana Ruiz when the contact search finds several people with that name",
    instruction="Email the contact whose company matches the company named in the task.",
    provenance=GuidelineProvenance(source_tasks=["mail-globex"], generator="stub"),
)
HARMFUL = Guideline(
    trigger="Sending a message to Ana Ruiz",
    instruction="Always email a contact from a different company than the one in the task.",
    provenance=GuidelineProvenance(source_tasks=["mail-globex"], generator="stub"),
)
N = 4
SEED = 0


class StubGenerator:
    """Writes the two fixed guidelines for every divergent task (the loop decides their fate)."""

    name = "stub"

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.runs_seen: list[list[str]] = []

    def generate(self, analysis: Any, runs: Any = ()) -> list[Guideline]:
        self.seen.append(analysis.task_id)
        self.runs_seen.append([f"{r.task_id}/{r.run_id}" for r in runs])
        return [g.model_copy(deep=True) for g in (HELPFUL, HARMFUL)]


def mailer(messages: list[Message], tools: list[ToolSpec], settings: ModelSettings) -> Any:
    """Obeys the guidelines in its system prompt; without one it is flaky on Globex only."""
    system = "\n".join(m.content for m in messages if m.role == "system")
    task = next(m.content for m in messages if m.role == "user")
    observations = [m for m in messages if m.role == "tool"]
    if not observations:
        name = "Bo Chen" if "Bo Chen" in task else "Ana Ruiz"
        call = ToolCall(id="c1", name="find_contact", arguments={"name": name})
        return AssistantMessage(tool_calls=[call])
    if len(observations) > 1:
        return AssistantMessage(content="Sent.")
    matches = json.loads(observations[0].content)
    company = "Globex" if "Globex" in task else "Acme"
    right = next(c for c in matches if c["company"] == company)
    wrong = next((c for c in matches if c["company"] != company), right)
    if "different company" in system:
        chosen = wrong
    elif "matches the company" in system:
        chosen = right
    elif company == "Acme":
        chosen = right
    else:
        chosen = wrong if (settings.seed or 0) % 2 else right
    call = ToolCall(id="c2", name="send_email", arguments={"to": chosen["email"], "subject": "x"})
    return AssistantMessage(tool_calls=[call])


def test_the_stub_world_is_flaky_on_globex_only():
    # Precondition computed independently of the loop: with these seeds Globex runs disagree.
    parities = {derive_seed(SEED, "mail-globex", i) % 2 for i in range(N)}
    assert parities == {0, 1}


def test_harmful_guideline_is_retired_and_helpful_one_promoted(tmp_path: Path):
    memory_path = tmp_path / "memory.sqlite"
    model = FunctionModel(mailer, name="mailer", provider="test")
    generator = StubGenerator()
    result = evolve(
        TinySuite(),
        model,
        N,
        memory_path,
        tmp_path / "out",
        generator=generator,
        seed=SEED,
        concurrency=2,
        progress=False,
    )
    # Baseline on train: Acme 4/4, Globex mixed -> all-4 = 1/2; only Globex diverges.
    assert result.baseline is not None and result.baseline.all_n_rate == pytest.approx(0.5)
    assert generator.seen == ["mail-globex"]
    # Like `learn`, evolve hands the generator the task's runs (it reads their lookups and replies).
    (runs_seen,) = generator.runs_seen
    assert len(runs_seen) == N and {r.split("/")[0] for r in runs_seen} == {"mail-globex"}
    verdicts = {v.guideline_id: v for v in result.validations}
    store = GuidelineMemory(memory_path)
    helpful, harmful = verdicts[HELPFUL.id], verdicts[HARMFUL.id]
    # Helpful (validated first): both Ana tasks pass every run -> all-4 1/2 -> 1.
    assert sorted(helpful.tasks) == ["mail-acme", "mail-globex"]
    assert (helpful.baseline_all_n, helpful.with_all_n) == (0.5, 1.0)
    assert store.get(HELPFUL.id).status == "active"
    # Harmful (validated next to the active helpful one): every run mails the wrong person.
    assert harmful.with_all_n == 0.0 and harmful.lift_points == pytest.approx(-50.0)
    assert store.get(HARMFUL.id).status == "retired"
    assert result.promoted == [HELPFUL.id] and result.retired == [HARMFUL.id]
    # Counters: the harmful guideline was injected into 8 runs, none passed.
    counters = store.get(HARMFUL.id).counters
    assert (counters.outcomes_with.runs, counters.outcomes_with.successes) == (2 * N, 0)
    # Runs: baseline 2 tasks x 4, then two validations of 2 tasks x 4.
    assert result.runs_made == 3 * 2 * N


def test_budget_and_resume(tmp_path: Path):
    memory_path = tmp_path / "memory.sqlite"
    out = tmp_path / "out"
    model = FunctionModel(mailer, name="mailer", provider="test")
    kwargs: dict[str, Any] = {"seed": SEED, "concurrency": 2, "progress": False}
    with pytest.raises(InputError, match="cannot cover the train baseline"):
        evolve(TinySuite(), model, N, memory_path, out, StubGenerator(), max_runs=5, **kwargs)
    # Budget for the baseline and one validation only: the second guideline stays proposed.
    first = evolve(TinySuite(), model, N, memory_path, out, StubGenerator(), max_runs=16, **kwargs)
    assert first.budget_exhausted and first.runs_made == 16
    assert first.promoted == [HELPFUL.id] and first.unvalidated == [HARMFUL.id]
    with pytest.raises(InputError, match="--resume"):
        evolve(TinySuite(), model, N, memory_path, out, StubGenerator(), **kwargs)
    generator = StubGenerator()
    second = evolve(TinySuite(), model, N, memory_path, out, generator, resume=True, **kwargs)
    assert generator.seen == [], "a resumed evolve must not generate again"
    assert second.retired == [HARMFUL.id]
    assert second.runs_made == 16 + 2 * N, "the baseline is reused, only the validation runs"


class AbstainingGenerator:
    """Declines every task, as the contrastive generator does on a scratch-only fork."""

    name = "abstaining"

    def generate(self, analysis: Any, runs: Any = ()) -> list[Guideline]:
        raise NoGuideline(f"{len(runs)} runs teach nothing")


def test_an_abstention_is_listed_not_raised(tmp_path: Path):
    model = FunctionModel(mailer, name="mailer", provider="test")
    result = evolve(
        TinySuite(),
        model,
        N,
        tmp_path / "memory.sqlite",
        tmp_path / "out",
        generator=AbstainingGenerator(),
        seed=SEED,
        progress=False,
    )
    assert [(a.task_id, a.reason) for a in result.abstentions] == [
        ("mail-globex", f"{N} runs teach nothing")
    ]
    assert result.generated == 0 and result.validations == []
    assert result.model_dump(mode="json")["abstentions"][0]["task_id"] == "mail-globex"
