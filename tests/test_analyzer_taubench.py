"""The analyzer on 40 real tau-bench airline runs (10 tasks x 4 trials of GPT-4o).

The decision points below were labelled by reading every transcript of the five mixed tasks
(the comments say what they show and why that step decides), then pinned.
Per-task passes in this sample: 0:0, 5:1, 10:0, 15:2, 20:4, 25:0, 30:2, 35:4, 40:3, 45:2
of 4, so five tasks (5, 15, 30, 40, 45) have mixed outcomes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from oncourse.adapters.importers import load_trajectories
from oncourse.consistency.analyzer import TaskAnalysis, analyze_runs

_NAME = "tau-bench-airline-gpt-4o-sample.json"
# The sample sits next to the repository (`../shared/data`); a worktree may sit one level deeper.
SAMPLE = next(
    (
        base / "shared" / "data" / _NAME
        for base in Path(__file__).resolve().parents[1].parents
        if (base / "shared" / "data" / _NAME).exists()
    ),
    Path(__file__).resolve().parents[1].parent / "shared" / "data" / _NAME,
)
pytestmark = pytest.mark.skipif(not SAMPLE.exists(), reason="shared tau-bench sample absent")

STATUSES = {
    "0": "consistent_fail",
    "5": "divergent",
    "10": "consistent_fail",
    "15": "divergent",
    "20": "fragile",
    "25": "consistent_fail",
    "30": "divergent",
    "35": "fragile",
    "40": "divergent",
    "45": "divergent",
}


def _by_task(embedder=None) -> dict[str, TaskAnalysis]:
    return {a.task_id: a for a in analyze_runs(load_trajectories([SAMPLE]), embedder)}


@pytest.fixture(scope="module")
def lexical() -> dict[str, TaskAnalysis]:
    return _by_task()


@pytest.fixture(scope="module")
def minilm() -> dict[str, TaskAnalysis]:
    from oncourse.memory.embedding import MiniLMEmbedder

    return _by_task(MiniLMEmbedder())


def _winner(a: TaskAnalysis):
    """The divergence's branch with successes; every other branch must have none."""
    passing = [b for b in a.divergence.branches if b.successes]
    assert len(passing) == 1
    assert all(b.successes == 0 for b in a.divergence.branches if b is not passing[0])
    return passing[0]


def _branch_of(fork, run_id: str):
    return next(b for b in fork.branches if run_id in b.runs)


def check_pins(found: dict[str, TaskAnalysis], model: bool) -> None:
    assert {t: a.status for t, a in found.items()} == STATUSES
    for a in found.values():
        if 0 < a.n_success < a.n_runs:
            assert a.divergence is not None and a.decision_step == a.divergence.step
            # The decision point is never a scratch step, and never after its consequence.
            assert all(a.tool_kinds.get(b.action.tool) != "scratch" for b in a.divergence.branches)
            if a.consequence_step is not None:
                assert a.decision_step <= a.consequence_step
            assert [c.role for c in a.candidates].count("decision") == 1
    assert found["40"].tool_kinds["think"] == "scratch"
    assert found["40"].tool_kinds["send_certificate"] == "write"
    assert found["40"].tool_kinds["get_user_details"] == "read"

    # 45 (delay compensation, 1 passenger; the user insists on 3): the passing runs issue the
    # $50 certificate (45:0 right after a `think`, 45:3 once the user gives in); 45:2 transfers
    # to a human instead, 45:1 keeps offering until the user leaves. Decision = that write.
    a = found["45"]
    winner = _winner(a)
    assert a.decision_step == a.consequence_step == 5
    assert (winner.action.tool, winner.action.args) == (
        "send_certificate",
        {"user_id": "noah_muller_9847", "amount": 50},
    )
    assert sorted(winner.runs) == ["45:0", "45:3"]
    assert _branch_of(a.divergence, "45:2").action.tool == "transfer_to_human_agents"

    # 30 (cancel one duplicate booking per day): the passing runs cancel FDZ0T5 (May 17) at
    # step 11/12 once the user confirmed; 30:0, told the same, transfers to a human instead
    # (it wrongly believed policy forbade it). 30:2 fails another way (it cancels only HSR97W
    # and says there are no other duplicates). Decision = cancel vs transfer, agent-caused.
    a = found["30"]
    winner = _winner(a)
    assert a.decision_step == 11
    assert (winner.action.tool, winner.action.args) == (
        "cancel_reservation",
        {"reservation_id": "FDZ0T5"},
    )
    assert sorted(winner.runs) == ["30:1", "30:3"]
    assert _branch_of(a.divergence, "30:0").action.tool == "transfer_to_human_agents"

    # 40 (user claims Gold, the profile says regular, no flight was cancelled): the decision is
    # the reply after the lookups, step 7: 40:1 says no flight was cancelled (and later that the
    # member is regular); 40:0, 40:2 and 40:3 offer a certificate "since you are a Gold member".
    # 40:2's user accepts and the certificate is sent at step 8 (the consequence); the users of
    # 40:0 and 40:3 haggle and get transferred, which is why the offer is not a perfect split.
    a = found["40"]
    assert (a.decision_step, a.consequence_step) == (7, 8)
    assert a.divergence.kind == "text" and not a.divergence.perfect
    refusing = _branch_of(a.divergence, "40:1")
    offering = _branch_of(a.divergence, "40:2")
    assert refusing.runs == ["40:1"] and refusing.successes == 1
    assert sorted(offering.runs) == ["40:0", "40:2", "40:3"]
    assert "none of the flights were canceled" in refusing.action.args["text"]
    [sent] = [b for b in a.consequence.branches if b.successes == 0]
    assert (sent.action.tool, sent.action.args, sent.runs) == (
        "send_certificate",
        {"user_id": "sophia_silva_7557", "amount": 100},
        ["40:2"],
    )
    [decision] = [c for c in a.candidates if c.role == "decision"]
    assert decision.kind == "reply" and "proposed" in decision.why

    # 5 (passenger, cabin and bags of the NY-Chicago trip, one passing run): 5:1 finds FQ8APE
    # and at its step 7 replies with all three changes (passenger, cabin, bags) and asks the
    # user to confirm; then it makes them (passenger update at step 8, the consequence). 5:0
    # found the same booking and was asked the same, but its reply at that point says "basic
    # economy cannot be modified" and offers only cabin and bags (it never changes the
    # passenger); 5:2 and 5:3 never found the booking and, at that point, only answer the
    # user's side question about paying by gift card ("once you have the reservation ID ...").
    # Decision = that reply. Its column is reported at step 4: the first run to reach it is the
    # short 5:3, whose gift-card answer is its step 4.
    a = found["5"]
    assert (a.decision_step, a.consequence_step) == (4, 8)
    assert a.divergence.column == 8 and a.divergence.perfect
    confirming = _winner(a)
    assert (confirming.runs, confirming.steps) == (["5:1"], [7])
    assert "Change the passenger to yourself" in confirming.action.args["text"]
    refusing = _branch_of(a.divergence, "5:0")
    assert refusing.runs == ["5:0"] and "cannot be modified" in refusing.action.args["text"]
    deferring = _branch_of(a.divergence, "5:2")
    assert sorted(deferring.runs) == ["5:2", "5:3"] and deferring.steps == [8, 4]
    assert "gift card" in deferring.action.args["text"]
    [update] = [b for b in a.consequence.branches if b.successes]
    assert (update.action.tool, update.runs) == ("update_reservation_passengers", ["5:1"])
    [decision] = [c for c in a.candidates if c.role == "decision"]
    assert decision.kind == "reply" and "split the same way" in decision.why

    # 15 (downgrade to economy; the return flight has no economy seats; the right outcome is
    # no change): all four runs hit "not enough seats on flight HAT290". 15:2 and 15:3 then
    # say it cannot be done; 15:1 offers to keep the return flight in business (its step 8) -
    # 15:2 makes the same offer, but its user declines - 15:1's user takes it and 15:1 makes
    # that partial downgrade (step 10), which the passing runs never do; 15:0 later steers to
    # cancelling the reservation. The decision is that write (an offer a passing run also
    # made is no decision).
    a = found["15"]
    assert (a.decision_step, a.consequence_step) == (10, 10)
    offer = _branch_of(a.divergence, "15:1")
    assert offer.runs == ["15:1"] and offer.successes == 0
    assert offer.action.tool == "update_reservation_flights"
    [partial] = [b for b in a.consequence.branches if "15:1" in b.runs]
    assert partial.action.tool == "update_reservation_flights"
    assert len(partial.action.args["flights"]) == 1  # the outbound flight only
    seen = [o.observation for o in a.divergence.context.preceding_observations]
    assert any("not enough seats on flight HAT290" in o for o in seen)

    # 0: run 3 books a new reservation (HATHAU, returned by its own book_reservation) and
    # cancels it later; that id is masked as per-run, nothing else is.
    assert found["0"].volatile_ids == {"0:3": ["HATHAU"]}


def test_pinned_findings_with_the_lexical_fallback(lexical):
    check_pins(lexical, model=False)


@pytest.mark.slow
def test_pinned_findings_with_minilm(minilm):
    check_pins(minilm, model=True)


def test_context_carries_what_a_guideline_needs(lexical):
    div = lexical["45"].divergence
    # The task is what the agent saw (a run's first user message), not the simulator's script.
    assert "delay" in div.context.task and "If the service agent asks" not in div.context.task
    assert [a.tool for a in div.context.shared_prefix][:3] == [
        "respond",
        "get_user_details",
        "get_reservation_details",
    ]
    assert len(div.context.preceding_observations) == len(div.branches)
    assert [a.tool for a in div.context.alternatives] == [b.action.tool for b in div.branches]


def _without(run_id: str, embedder=None) -> TaskAnalysis:
    task = run_id.split(":")[0]
    runs = [r for r in load_trajectories([SAMPLE]) if r.task_id == task and r.run_id != run_id]
    [a] = analyze_runs(runs, embedder)
    return a


def _steps(a: TaskAnalysis) -> dict[str, int]:
    assert a.divergence is not None
    return {r: s for b in a.divergence.branches for r, s in zip(b.runs, b.steps, strict=True)}


def test_with_one_passing_run_the_decision_is_where_the_writes_part():
    """Three runs of a task, one passing: every difference in it separates perfectly.

    Read from the transcripts (each task without one of its runs):
    - 15 without 15:3: early on, 15:2 asks which booking, 15:0 waits, 15:1 looks it up, and
      all three then make the same downgrade call (not enough seats). The decision comes after
      that error: 15:2 refuses, 15:0 lists cancelling as an option, 15:1 has already made the
      partial downgrade and reports it (the columns the embedder aligns: step 11 lexically).
    - 45 without 45:3: 45:0 asks which flight was delayed, 45:1 and 45:2 offer a certificate
      at once; that is no ask-vs-assume (nobody made the call without asking): the decision is
      still send_certificate vs transfer (step 5).
    - 30 without 30:3: both sides ask the user to confirm the same cancellation at step 10
      ("once you confirm ..., I can proceed" is a confirmation too); the decision is the
      cancel vs transfer at step 11.
    """
    a = _without("15:3")
    assert _steps(a) == {"15:0": 11, "15:1": 11, "15:2": 11}
    assert "cannot" in a.divergence.branches[0].action.args["text"] or "unable" in (
        a.divergence.branches[0].action.args["text"]
    )
    a = _without("45:3")
    assert a.decision_step == 5 and _winner(a).action.tool == "send_certificate"
    a = _without("30:3")
    assert a.decision_step == 11 and _winner(a).action.tool == "cancel_reservation"


@pytest.mark.slow
def test_with_one_passing_run_and_minilm_the_decision_is_the_post_error_write():
    from oncourse.memory.embedding import MiniLMEmbedder

    a = _without("15:3", MiniLMEmbedder())
    # MiniLM aligns 15:1's partial downgrade with the others' replies after the error.
    assert a.decision_step == a.consequence_step == 10
    assert _branch_of(a.divergence, "15:1").action.tool == "update_reservation_flights"
    assert _steps(a) == {"15:0": 10, "15:1": 10, "15:2": 10}
