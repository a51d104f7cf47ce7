"""The analyzer on 40 real tau-bench airline runs (10 tasks x 4 trials of GPT-4o).

What the analyzer reports below was checked against the transcripts (the comments say what they
show). Per-task passes in this sample: 0:0, 5:1, 10:0, 15:2, 20:4, 25:0, 30:2, 35:4, 40:3, 45:2
of 4, so five tasks (5, 15, 30, 40, 45) have mixed outcomes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from oncourse.adapters.importers import load_trajectories
from oncourse.consistency.analyzer import TaskAnalysis, analyze_runs
from oncourse.consistency.forks import NO_STEP

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
SAMPLE = DATA / "tau-bench-airline-gpt-4o-sample.json"
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


def check_pins(found: dict[str, TaskAnalysis]) -> None:
    assert {t: a.status for t, a in found.items()} == STATUSES
    for a in found.values():
        if 0 < a.n_success < a.n_runs:
            # Every mixed task gets a divergence whose branches separate passes from failures.
            assert a.divergence is not None and a.divergence.perfect
            assert all(b.success_rate in (0.0, 1.0) for b in a.divergence.branches)

    # 45 (delay compensation): both passing runs issue the $50 certificate right after the
    # reservation lookup; run 1 only talks about issuing it until the user leaves, run 2 hands
    # over to a human agent. No certificate, no pass.
    a = found["45"]
    winner = _winner(a)
    assert a.divergence.step == 5
    assert (winner.action.tool, winner.action.args) == (
        "send_certificate",
        {"user_id": "noah_muller_9847", "amount": 50},
    )
    assert sorted(winner.runs) == ["45:0", "45:3"]

    # 30 (cancel one duplicate booking per day): the passing runs cancel FDZ0T5 (May 17);
    # run 0 transfers to a human instead (it wrongly believed policy forbade the cancellation)
    # and run 2 only cancels HSR97W (May 22), so neither ever makes this call.
    a = found["30"]
    winner = _winner(a)
    assert a.divergence.step == 11
    assert (winner.action.tool, winner.action.args) == (
        "cancel_reservation",
        {"reservation_id": "FDZ0T5"},
    )
    assert sorted(winner.runs) == ["30:1", "30:3"]
    assert [b.action.tool for b in a.divergence.branches[1:]] == [NO_STEP]

    # 40 (user claims Gold status, the profile says regular): run 2 believes the user and sends
    # a $100 certificate; the three passing runs decline or transfer. The failing branch is that
    # one write.
    a = found["40"]
    assert a.divergence.step == 8
    [losing] = [b for b in a.divergence.branches if b.successes == 0]
    assert (losing.action.tool, losing.action.args, losing.runs) == (
        "send_certificate",
        {"user_id": "sophia_silva_7557", "amount": 100},
        ["40:2"],
    )

    # 5 (change passenger, cabin and bags of the NY-Chicago trip): only run 1 updates the
    # passenger of FQ8APE; run 0 found the reservation but told the user basic economy cannot be
    # modified and only upgraded the cabin (a `think` first), runs 2 and 3 never found the
    # reservation and ended the chat asking for its id.
    a = found["5"]
    winner = _winner(a)
    assert a.divergence.step == 8
    assert (winner.action.tool, winner.runs) == ("update_reservation_passengers", ["5:1"])

    # 15 (downgrade to economy; the return flight has no economy seats): all four runs hit
    # "not enough seats on flight HAT290". The passing runs then just report it; run 1 retries
    # with the outbound flight only (a partial downgrade) and run 0 steers to cancelling the
    # reservation. The fork is the step right after the error.
    a = found["15"]
    winner = _winner(a)
    assert a.divergence.step == 10
    assert sorted(winner.runs) == ["15:2", "15:3"]
    assert winner.action.tool == "respond"
    losing = {b.runs[0]: b.action.tool for b in a.divergence.branches if b.successes == 0}
    assert losing["15:1"] == "update_reservation_flights"
    seen = [o.observation for o in a.divergence.context.preceding_observations]
    assert "Error: not enough seats on flight HAT290" in seen

    # 0: run 3 books a new reservation (HATHAU, returned by its own book_reservation) and
    # cancels it later; that id is masked as per-run, nothing else is.
    assert found["0"].volatile_ids == {"0:3": ["HATHAU"]}


def test_pinned_findings_with_the_lexical_fallback(lexical):
    check_pins(lexical)


@pytest.mark.slow
def test_pinned_findings_with_minilm(minilm):
    check_pins(minilm)


def test_context_carries_what_a_guideline_needs(lexical):
    div = lexical["45"].divergence
    assert "noah_muller_9847" in div.context.task
    assert [a.tool for a in div.context.shared_prefix][:3] == [
        "respond",
        "get_user_details",
        "get_reservation_details",
    ]
    assert len(div.context.preceding_observations) == len(div.branches)
    assert [a.tool for a in div.context.alternatives] == [b.action.tool for b in div.branches]
